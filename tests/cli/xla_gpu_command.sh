#!/usr/bin/env bash
# hloscope-cli xla-gpu: without the tool's venv it fails saying how to get
# one; with it (a machine where `hloscope-cli xla-gpu --setup` ran), it
# writes XLA GPU's after_optimizations, which hloscope reads.
# Usage: xla_gpu_command.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# A copy of the tool in a tree without a venv.
mkdir -p "$tmp/repo/tools"
cp "$src/tools/xla_gpu_reference.py" "$tmp/repo/tools/"
HLOSCOPE_TOOLS_DIR="$tmp/repo/tools" "$cli" xla-gpu "$src/samples/softmax.hlo" --out "$tmp/out" >"$tmp/o" 2>&1
rc=$?
if [ $rc = 0 ]; then echo "FAIL: xla-gpu without a venv exited 0"; cat "$tmp/o"; fail=1; fi
grep -q -- "--setup" "$tmp/o" || { echo "FAIL: the error does not say to run --setup:"; cat "$tmp/o"; fail=1; }
"$cli" xla-gpu "$src/samples/softmax.hlo" --device a100 --out "$tmp/x" >"$tmp/o" 2>&1
[ $? = 2 ] || { echo "FAIL: an unknown --device is not a usage error"; fail=1; }
if [ -x "$src/.venv-xla-gpu/bin/python" ]; then
  if "$cli" xla-gpu "$src/samples/softmax.hlo" --out "$tmp/ref" >"$tmp/o" 2>&1; then
    "$cli" parse "$tmp/ref/after_optimizations.txt" >/dev/null || { echo "FAIL: XLA GPU's output does not parse"; fail=1; }
    grep -q "triton_softmax" "$tmp/ref/after_optimizations.txt" || { echo "FAIL: no triton_softmax fusion"; fail=1; }
    grep -q "^name	blocks	threads" "$tmp/ref/xla_costs.tsv" || { echo "FAIL: no xla_costs.tsv"; fail=1; }
  else
    echo "FAIL: xla-gpu with the venv present:"; tail -5 "$tmp/o"; fail=1
  fi
else
  echo "no .venv-xla-gpu: the compile itself is not exercised here"
fi
exit $fail
