#!/usr/bin/env bash
# hloscope-cli codegen --compare-xla: our PTX against the PTX XLA GPU
# compiled (samples/xla_gpu/STEM, or a --xla_dump_to folder), with and
# without ptxas, and the errors a user meets with a folder that has no PTX.
# Usage: codegen_compare_xla.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/cli_test_lib.sh"

ref=$src/samples/xla_gpu/softmax
expect_rc 0 "compare-xla text" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$ref"
expect_text "the pair's row" "| .* / triton_softmax_2 | yes |" "$tmp/out"
expect_text "classes table" "Instructions by class" "$tmp/out"
expect_rc 0 "compare-xla --json" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$ref" --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL compare-xla json:", what); ok = False
check(d["arch"] == "sm_90a", "arch")
check(len(d["pairs"]) == 1, "one pair")
p = d["pairs"][0]
check(p["xla"]["kernel"] == "triton_softmax_2", "XLA's kernel")
check(p["same_members"], "same members")
for side in ("ours", "xla"):
    check(p[side]["instructions"] > 0, side + " instructions")
    check(p[side]["ld_global"]["count"] > 0, side + " global loads")
    if d["ptxas"]:
        check(p[side]["resources"]["registers"] > 0, side + " registers")
sys.exit(0 if ok else 1)
PY
# Without ptxas the rest still works and the register columns say n/a.
HLOSCOPE_PTXAS=/nonexistent/ptxas expect_rc 0 "compare-xla without ptxas" \
  "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$ref"
expect_text "n/a registers" "| n/a / n/a |" "$tmp/out"
expect_text "says why" "ptxas not found" "$tmp/err"
# An --xla_dump_to folder: XLA's own file names.
mkdir -p "$tmp/dump"
cp "$ref/after_optimizations.txt" "$tmp/dump/module_0001.jit_softmax.sm_9.0a_gpu_after_optimizations.txt"
cp "$ref/kernels.ptx" "$tmp/dump/module_0001.jit_softmax.1.ptx"
expect_rc 0 "compare-xla on a dump folder" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$tmp/dump"
expect_text "dump folder pair" "/ triton_softmax_2 |" "$tmp/out"
# Folders without what is needed; bad usage.
expect_rc 1 "no PTX kept" "$cli" codegen "$src/samples/attention_large.hlo" --compare-xla "$src/samples/xla_gpu/attention_large"
expect_text "no PTX names the folder" "xla_gpu/attention_large: error: no PTX" "$tmp/err"
rm "$tmp/dump/module_0001.jit_softmax.1.ptx"
expect_rc 1 "dump without PTX" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$tmp/dump"
expect_text "dump without PTX" "no PTX for module_0001 (jit_softmax)" "$tmp/err"
mkdir -p "$tmp/empty"
expect_rc 1 "no module" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$tmp/empty"
expect_text "no module names the folder" "$tmp/empty: error: no XLA dump files" "$tmp/err"
expect_rc 2 "with --out" "$cli" codegen "$src/samples/softmax.hlo" --compare-xla "$ref" --out "$tmp/b"
exit $fail
