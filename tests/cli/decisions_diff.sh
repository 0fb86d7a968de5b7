#!/usr/bin/env bash
# hloscope-cli decisions-diff and report --xla-dump: our fusion decisions
# beside XLA GPU's own log (samples/xla_gpu/STEM), and the errors a user
# meets with a wrong folder or a damaged log.
# Usage: decisions_diff.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/cli_test_lib.sh"

ref=$src/samples/xla_gpu/transformer_block
expect_rc 0 "decisions-diff --json" "$cli" decisions-diff "$src/samples/transformer_block.hlo" --xla-dump "$ref" --json
python3 - "$tmp/out" "$ref/priority_fusion_dump.txt" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
steps = sum(1 for line in open(sys.argv[2]) if line.rstrip("\n") == "fusion_steps {")
t = d["totals"]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL decisions-diff json:", what); ok = False
check(d["format"] == "hloscope-decisions-diff-v1", "format")
check(d["xla_steps"] == steps, "xla_steps %s != %s lines in the log" % (d["xla_steps"], steps))
check(t["producers"] == t["agree"] + t["disagree"] + t["only_ours"] + t["only_xla"], "totals do not add up")
check(t["producers"] == len(d["producers"]), "producers != rows")
check(t["agree"] > 0, "nothing agrees")
check(d["xla"]["unresolved_names"] == [], "unresolved names")
check(0.5 < d["cost"]["median_ratio_unfused"] < 2.0, "cost ratio far off: %s" % d["cost"])
for p in d["producers"]:
    for side in ("ours", "xla"):
        s = p[side]
        if s is not None:
            check(set(["verdict", "reason", "us_fused", "us_unfused"]) <= set(s), "fields of " + side)
check(any(p["xla"] and "only bitcast users" in p["xla"]["reason"] for p in d["producers"]),
      "XLA's own words missing")
sys.exit(0 if ok else 1)
PY
expect_rc 0 "decisions-diff text" "$cli" decisions-diff "$src/samples/transformer_block.hlo" --xla-dump "$ref"
expect_text "text summary" "producers [0-9]*: agree" "$tmp/out"
# Bad usage and bad folders.
expect_rc 2 "no --xla-dump" "$cli" decisions-diff "$src/samples/transformer_block.hlo"
expect_rc 1 "not a folder" "$cli" decisions-diff "$src/samples/transformer_block.hlo" --xla-dump "$tmp/nowhere"
expect_text "not a folder" "not a directory" "$tmp/err"
expect_rc 1 "a pipeline without priority fusion" "$cli" decisions-diff "$src/samples/transformer_block.hlo" \
  --xla-dump "$ref" --pipeline gpu-classic
expect_text "no priority fusion step" "no priority_fusion step" "$tmp/err"
# A damaged log: the error names the file, line and column.
mkdir -p "$tmp/broken"
cp "$ref/REFERENCE.json" "$ref/passes.tar.xz" "$ref/after_optimizations.txt" "$tmp/broken/"
head -n 101 "$ref/priority_fusion_dump.txt" > "$tmp/broken/priority_fusion_dump.txt"
expect_rc 1 "truncated log" "$cli" decisions-diff "$src/samples/transformer_block.hlo" --xla-dump "$tmp/broken"
expect_text "truncated log located" "priority_fusion_dump.txt:[0-9]*:[0-9]*: error: unterminated" "$tmp/err"
# explain --xla-dump: XLA's own records of the instruction, in XLA's words.
expect_rc 0 "explain --xla-dump" "$cli" explain "$src/samples/transformer_block.hlo" --instruction exp.1 --xla-dump "$ref"
expect_text "explain names XLA's counterpart" "exp.1 is XLA's exp.1.0" "$tmp/out"
expect_text "explain lists XLA's steps" "fusion: .* into triton_softmax" "$tmp/out"
expect_rc 0 "explain --xla-dump --json" "$cli" explain "$src/samples/transformer_block.hlo" --instruction exp.1 \
  --xla-dump "$ref" --json
expect_text "explain json has xla" '"counterparts"' "$tmp/out"
# decisions-diff with XLA's GEMM search log: our GEMM prologues against it.
expect_rc 0 "decisions-diff with xla_vlog.txt" "$cli" decisions-diff "$src/samples/transformer_train_step.hlo" \
  --xla-dump "$src/samples/xla_gpu/transformer_train_step"
expect_text "GEMM agreement line" "GEMM fusions against XLA's logged search .*: [0-9]* of [0-9]* prologue candidates" \
  "$tmp/out"
# With xla_costs.tsv (tools/xla_gpu_reference.py --costs): each instruction of
# XLA's pre-fusion module costed by both models.
expect_text "per-instruction cost line" \
  "cost model per instruction, ours against XLA's own estimates .*: [0-9]* of [0-9]* within 5% or 0.3 ns" "$tmp/out"
expect_rc 0 "decisions-diff --json with xla_costs.tsv" "$cli" decisions-diff \
  "$src/samples/resnet_block.hlo" --xla-dump "$src/samples/xla_gpu/resnet_block" --json
expect_text "json has instruction_costs" '"instruction_costs"' "$tmp/out"
# explain --xla-dump on a dot: XLA's GEMM fusion search, from the reference's
# xla_vlog.txt (xla-gpu's default --vlog gemm_fusion=6), candidate by candidate.
tt="$src/samples/xla_gpu/transformer_train_step"
expect_rc 0 "explain a dot --xla-dump" "$cli" explain "$src/samples/transformer_train_step.hlo" \
  --instruction dot_general.71 --xla-dump "$tt"
expect_text "XLA's GEMM search shown" "GEMM fusion search .* around its dot.24 (the dot dot_general.71)" "$tmp/out"
expect_text "a candidate XLA left out, with its reason" \
  "left out operand add_any.42 (XLA's add_any.13): profitability decision: Too many parameters" "$tmp/out"
expect_rc 0 "explain an operand --xla-dump --json" "$cli" explain "$src/samples/transformer_train_step.hlo" \
  --instruction add_any.42 --xla-dump "$tt" --json
expect_text "json has xla_gemm" '"xla_gemm"' "$tmp/out"
# The report gets the section.
expect_rc 0 "report --xla-dump" "$cli" report "$src/samples/softmax.hlo" --out "$tmp/rep" \
  --xla-dump "$src/samples/xla_gpu/softmax" --quiet
expect_text "report section" 'id="decisions-vs-xla"' "$tmp/rep/report.html"
expect_text "report json" '"decisions_vs_xla"' "$tmp/rep/report.json"
# With XLA's GEMM search log in the folder, the section sets our GEMM fusions against it.
expect_rc 0 "report --xla-dump with xla_vlog.txt" "$cli" report "$src/samples/transformer_block.hlo" \
  --out "$tmp/rep2" --xla-dump "$src/samples/xla_gpu/transformer_block" --quiet
expect_text "report gemm paragraph" "GEMM fusions against XLA's logged search" "$tmp/rep2/report.html"
expect_text "report gemm json" '"gemm"' "$tmp/rep2/report.json"
expect_text "report per-instruction costs" "Our cost model against XLA's own estimate of each instruction" \
  "$tmp/rep2/report.html"
expect_text "report per-instruction costs json" '"instruction_costs"' "$tmp/rep2/report.json"
exit $fail
