#!/usr/bin/env bash
# What a new user relies on (issue 21), through the real executable:
#   1. a check that compared nothing does not pass (exit 3), run exits 1 on
#      a mismatch with the data file's outputs;
#   3. opt, check and explain default to the gpu pipeline and say so first;
#   4. explain shows every fusion an instruction ended in, later merges, folded refusals;
#   5. --rtol/--atol are taken and named in mismatch messages, with the bf16
#      excess-precision hint;
#   6. eval --expected without --inputs uses the file's inputs, or refuses;
#   7. run --json carries values and error sizes, --outputs, no GPU figures on the CPU;
#   8. bundles record random inputs as a seed unless --write-inputs;
#   9. codegen errors carry FILE:LINE:COL and say "codegen" at most once;
#  10. compare and opt count fusions alike; list-passes fits 100 columns.
# Usage: new_user_behaviour.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
source "$(dirname "$0")/cli_test_lib.sh"

# 1. Nothing compared is not a pass.
printf 'HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  c = f32[4] constant({...})\n  ROOT a = f32[4] add(p, c)\n}\n' >"$tmp/elided.hlo"
expect_rc 3 "check on an unevaluable module" "$cli" check "$tmp/elided.hlo"
expect_text "check says nothing was compared" "NOT CHECKED" "$tmp/out"
expect_rc 0 "check --allow-unevaluable" "$cli" check "$tmp/elided.hlo" --allow-unevaluable
expect_rc 0 "check on a sample" "$cli" check "$src/samples/softmax.hlo"
# run against a data file whose outputs were altered: a mismatch with the reference exits 1.
python3 - "$src/samples/softmax.data.json" "$tmp/wrong.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["outputs"][0]["values"][0] = 12345.0
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 1 "run with a data file whose outputs differ" "$cli" run "$src/samples/softmax.hlo" --inputs "$tmp/wrong.data.json" --quiet
expect_text "run names the data file's mismatch" "mismatch with the outputs of" "$tmp/err"
expect_rc 0 "run with the sample's data file" "$cli" run "$src/samples/softmax.hlo" --inputs "$src/samples/softmax.data.json" --quiet
# StableHLO opens everywhere HLO does: run and codegen compile the .mlir as it converts.
expect_rc 0 "run on StableHLO" "$cli" run "$src/samples/softmax.stablehlo.mlir" --inputs "$src/samples/softmax.data.json" --quiet
expect_rc 0 "codegen on StableHLO" "$cli" codegen "$src/samples/softmax.stablehlo.mlir" --out "$tmp/cg_mlir" --no-sass

# 3. gpu by default, announced first.
for cmd in check explain opt; do
  case $cmd in
    explain) expect_rc 0 "explain" "$cli" explain "$src/samples/softmax.hlo" --instruction exp.1 ;;
    *) expect_rc 0 "$cmd" "$cli" $cmd "$src/samples/softmax.hlo" ;;
  esac
  [ "$(head -1 "$tmp/err")" = "hloscope-cli $cmd: pipeline gpu" ] ||
    { echo "FAIL $cmd: first stderr line is '$(head -1 "$tmp/err")'"; fail=1; }
done
expect_rc 0 "opt --json" "$cli" opt "$src/samples/softmax.hlo" --json
expect_text "opt --json names the pipeline" '"pipeline": "gpu"' "$tmp/out"
expect_rc 0 "explain of a fused instruction" "$cli" explain "$src/samples/softmax.hlo" --instruction exp.1
expect_text "explain under gpu finds the fusion" "ended in " "$tmp/out"

# 4. explain tells the whole story: every fusion it ended in, later merges, folded refusals.
# (`gpu` on the train step: broadcast.89 is computed in two kernels, both of
# which multi-output merges later grow; pow.3's fusion, Adam's bias
# correction 1 - b^t read by every optimizer update, is refused as an extra
# output by its 28 consumers for one reason.)
expect_rc 0 "explain of a duplicated producer" "$cli" explain "$src/samples/transformer_train_step.hlo" --instruction broadcast.89
expect_text "explain names both fusions of a duplicated producer" "ended in fusion\.[0-9]* .* and fusion\.[0-9]* .*(duplicated into 2 fusions)" "$tmp/out"
expect_text "explain shows the later merge of its fusion" "multi_output_fusion: fusion\.[0-9]* → {fusion\.[0-9]*}: fused into fusion\.[0-9]*" "$tmp/out"
expect_rc 0 "explain of a producer refused alike" "$cli" explain "$src/samples/transformer_train_step.hlo" --instruction pow.3
expect_text "explain folds repeated refusals" "refusals with the same reason" "$tmp/out"
folded=$(grep -c '^step' "$tmp/out")
expect_rc 0 "explain --all" "$cli" explain "$src/samples/transformer_train_step.hlo" --instruction pow.3 --all
[ "$(grep -c '^step' "$tmp/out")" -gt "$folded" ] || { echo "FAIL explain --all lists no more than the folded story"; fail=1; }

# 5. Tolerances.
expect_rc 1 "eval with --rtol 0 --atol 0" "$cli" eval "$src/samples/softmax.hlo" --expected "$src/samples/softmax.data.json" --rtol 0 --atol 0
expect_text "mismatch names the tolerance" "tolerance rtol=0 atol=0" "$tmp/err"
expect_rc 0 "eval with a loose tolerance" "$cli" eval "$src/samples/softmax.hlo" --expected "$src/samples/softmax.data.json" --rtol 1e-3 --atol 1e-6
expect_rc 2 "eval with a negative tolerance" "$cli" eval "$src/samples/softmax.hlo" --rtol -1
# A bf16 reference one bf16 step off (as XLA's excess precision can leave it).
python3 - "$src/samples/mlp_gelu_bf16.data.json" "$tmp/bf16.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["outputs"][0]["values"][0] = -0.298828125
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 1 "bf16 eval with --rtol 0 --atol 0" "$cli" eval "$src/samples/mlp_gelu_bf16.hlo" --expected "$tmp/bf16.data.json" --rtol 0 --atol 0
expect_text "bf16 mismatch gives the excess-precision hint" "xla_allow_excess_precision=false" "$tmp/err"
expect_rc 3 "check --rtol on an unevaluable module" "$cli" check "$tmp/elided.hlo" --rtol 0.1

# 6. --expected takes its inputs from the same file, or refuses.
expect_rc 0 "eval --expected without --inputs" "$cli" eval "$src/samples/softmax.hlo" --expected "$src/samples/softmax.data.json"
expect_text "eval --expected matches on the file's inputs" "all 1 outputs match" "$tmp/err"
python3 - "$src/samples/softmax.data.json" "$tmp/noinputs.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["inputs"] = []
d["input_names"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 2 "eval --expected of a file without inputs" "$cli" eval "$src/samples/softmax.hlo" --expected "$tmp/noinputs.data.json"
expect_text "refusal says what to do" "give them with --inputs" "$tmp/err"
expect_rc 2 "eval --expected with --seed" "$cli" eval "$src/samples/softmax.hlo" --expected "$src/samples/softmax.data.json" --seed 3

# 7. run gives values and error sizes; CPU emulation shows no GPU figures.
expect_rc 0 "run --json" "$cli" run "$src/samples/softmax.hlo" --inputs "$src/samples/softmax.data.json" --json
python3 - "$tmp/out" <<'PY' || { echo "FAIL run --json lacks values, error sizes or the emulation label"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu_emulation"] is True
assert all(k["gbps"] is None and k["pct_of_copy"] is None for k in d["kernels"])
o = d["outputs"][0]
assert len(o["values"]) == 64 and o["shape"] == "f32[4,16]"
assert o["vs_interpreter"]["max_abs"] < 1e-5 and o["vs_data_file"]["max_rel"] < 1e-4
PY
expect_rc 0 "run on the CPU (text)" "$cli" run "$src/samples/softmax.hlo"
expect_text "run labels CPU emulation" "CPU emulation of the GPU kernels" "$tmp/out"
if grep -q "%copy\|meas/est" "$tmp/out"; then echo "FAIL run on the CPU prints GPU-only figures"; fail=1; fi
expect_rc 0 "run --outputs" "$cli" run "$src/samples/softmax.hlo" --inputs "$src/samples/softmax.data.json" --outputs "$tmp/run.data.json" --quiet
expect_rc 0 "eval --expected of run's outputs" "$cli" eval "$src/samples/softmax.hlo" --expected "$tmp/run.data.json"
expect_rc 1 "run --outputs refuses to overwrite" "$cli" run "$src/samples/softmax.hlo" --outputs "$tmp/run.data.json" --quiet

# 8. Bundles stay small: random inputs as their seed unless --write-inputs.
expect_rc 0 "codegen with random inputs" "$cli" codegen "$src/samples/transformer_block.hlo" --out "$tmp/tb"
[ -f "$tmp/tb/inputs.random.json" ] && [ ! -f "$tmp/tb/inputs.data.json" ] ||
  { echo "FAIL codegen wrote random inputs as values"; ls "$tmp/tb"; fail=1; }
expect_rc 0 "codegen --write-inputs" "$cli" codegen "$src/samples/transformer_block.hlo" --out "$tmp/tb" --force --write-inputs
[ -f "$tmp/tb/inputs.data.json" ] && [ ! -f "$tmp/tb/inputs.random.json" ] ||
  { echo "FAIL codegen --write-inputs did not write the values"; ls "$tmp/tb"; fail=1; }

# 9. Located codegen errors.
printf 'HloModule m\nsum {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT a = f32[] add(x, y)\n}\nin_kernel_all_reduce {\n  p = f32[64] parameter(0)\n  ROOT r = f32[64] all-reduce(p), replica_groups={}, to_apply=sum\n}\nENTRY e {\n  a = f32[64] parameter(0)\n  ROOT t = f32[64] fusion(a), kind=kCustom, calls=in_kernel_all_reduce\n}\n' >"$tmp/collective.hlo"
# Never all or nothing: the bundle is written with the kernel marked missing
# (exit 3), and run refuses the module naming it.
expect_rc 3 "codegen of a module with no emitter" "$cli" codegen "$tmp/collective.hlo" --out "$tmp/bundle"
expect_text "codegen error is located" "^$tmp/collective.hlo:13:8: error: " "$tmp/err"
# (Error lines only: the notes around them, e.g. that nvdisasm is missing on
# a machine without tools/install_deps.sh's .tools/, name the command too.)
if [ "$(grep 'error:' "$tmp/err" | grep -o codegen | wc -l)" -gt 1 ]; then echo "FAIL codegen error says codegen more than once:"; cat "$tmp/err"; fail=1; fi
grep -q '"missing": "no kernel emitter for fusion %t: all-reduce %r inside the fusion' "$tmp/bundle/manifest.json" ||
  { echo "FAIL the manifest does not mark the missing kernel"; fail=1; }
expect_rc 1 "run of a module with a missing kernel" "$cli" run "$tmp/collective.hlo"
expect_text "run names the missing kernel" "^$tmp/collective.hlo:13:8: error: no kernel emitter for fusion %t" "$tmp/err"

# A custom-call into an external library is a custom-call thunk: codegen
# succeeds and says so; run refuses, naming the target.
printf 'HloModule m\nENTRY e {\n  p = f32[4,8] parameter(0)\n  c = f32[4,8] custom-call(p), custom_call_target="my_library_fn"\n  ROOT n = f32[4,8] negate(c)\n}\n' >"$tmp/extern.hlo"
expect_rc 0 "codegen of a module with an external custom-call" "$cli" codegen "$tmp/extern.hlo" --out "$tmp/extern_bundle"
expect_text "codegen names the external target" "note: 1 custom-call thunk calls external targets (my_library_fn)" "$tmp/err"
grep -q '"type": "custom-call"' "$tmp/extern_bundle/manifest.json" ||
  { echo "FAIL the manifest has no custom-call thunk"; fail=1; }
expect_rc 1 "run of a module with an external custom-call" "$cli" run "$tmp/extern.hlo"
expect_text "run names the external target" "my_library_fn" "$tmp/err"

# 10. The same count under the same name: compare's fusions are opt --json's final fusions.
expect_rc 0 "compare --json on a module with a loop" "$cli" compare "$src/samples/scan_rnn.hlo" "$src/samples/scan_rnn.hlo" --pipeline-a gpu --json
cp "$tmp/out" "$tmp/compare.json"
expect_rc 0 "opt --json on the same module" "$cli" opt "$src/samples/scan_rnn.hlo" --json
python3 - "$tmp/compare.json" "$tmp/out" <<'PY' || { echo "FAIL compare and opt count fusions differently"; fail=1; }
import json, sys
c = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
a = c["a"]["fusions"]; f = len(o["final"]["fusions"])
assert a == f, (a, f)
assert c["a"]["kernels"] == o["final"]["kernels"], (c["a"]["kernels"], o["final"]["kernels"])
PY
expect_rc 0 "list-passes" "$cli" list-passes
python3 - "$tmp/out" <<'PY' || { echo "FAIL list-passes has lines over 100 columns"; fail=1; }
import sys
long = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if len(l) > 100]
assert not long, long[:3]
PY

[ $fail = 0 ] && echo "all new-user checks hold"
exit $fail
