#!/usr/bin/env bash
# Codegen coverage over ../shared/corpus (docs/codegen.md "Corpus coverage").
#   tools/corpus_codegen_sweep.sh [OUTDIR] [extra codegen flags...]
# Runs `hloscope-cli codegen FILE --no-expected --out DIR` on every corpus
# module, $JOBS at a time with a $LIMIT s limit each, and prints the outcome
# table and the first missing kernel's reason per module. Per-module stderr
# and exit codes stay under OUTDIR (default /tmp/hloscope-sweep).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${CLI:-$ROOT/build/bin/hloscope-cli}
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
OUT=${1:-/tmp/hloscope-sweep}
shift || true
JOBS=${JOBS:-2}
LIMIT=${LIMIT:-60}
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT/log"
export CLI OUT LIMIT CORPUS
EXTRA="$*"
export EXTRA
one() {
  local f=$1 key
  key=$(echo "$f" | tr '/' '_')
  local dir
  dir=$(mktemp -d)
  timeout "$LIMIT" "$CLI" codegen "$CORPUS/$f" --no-expected --out "$dir/b" $EXTRA >/dev/null 2>"$OUT/log/$key.err"
  echo "$? $f" >>"$OUT/rc.txt"
  rm -rf "$dir"
}
export -f one
tail -n +2 "$CORPUS/INDEX.tsv" | cut -f1 | xargs -P "$JOBS" -I{} bash -c 'one "$@"' _ {}
echo "outcome (exit code: modules)"
cut -d' ' -f1 "$OUT/rc.txt" | sort | uniq -c
echo
echo "first missing kernel per module (exit 3), by op:"
while read -r rc f; do
  [ "$rc" = 3 ] || continue
  key=$(echo "$f" | tr '/' '_')
  grep -m1 -o 'no kernel emitter for [a-z0-9-]*\|error: [^:]*' "$OUT/log/$key.err" | head -1
done <"$OUT/rc.txt" | sort | uniq -c | sort -rn
