#!/usr/bin/env bash
# hloscope-cli whatif (issue 30): a forbidden fusion and its deltas (text
# and --json), a force refused with its reason, bad flags, and opt / check
# taking the same overrides.
# Usage: whatif.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/cli_test_lib.sh"

mlp=$src/samples/mlp_gelu.hlo

# Forbidden: the GELU's mul.6 and mul.7 stay in two kernels.
expect_rc 0 "whatif --forbid" "$cli" whatif "$mlp" --forbid mul.6:mul.7
expect_text "whatif header" "what-if --forbid mul.6:mul.7 (pipeline gpu" "$tmp/out"
expect_text "whatif kernels row" "^kernels  *3  *4  *+1$" "$tmp/out"
expect_text "whatif forbid kept" "--forbid mul.6:mul.7: kept apart" "$tmp/out"
expect_text "whatif changed decision" "what-if: forbidden by what-if override (--forbid mul.6:mul.7)" "$tmp/out"
expect_text "whatif announces pipeline" "hloscope-cli whatif: pipeline gpu" "$tmp/err"

expect_rc 0 "whatif --json" "$cli" whatif "$mlp" --forbid mul.6:mul.7 --force dot_general.2:dot_general.3 --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL whatif json:", what); ok = False
for side in ("base", "whatif", "delta"):
    check(set(d[side]) == {"kernels", "hbm_bytes", "est_us", "peak_bytes"}, side + " fields")
check(d["delta"]["kernels"] == d["whatif"]["kernels"] - d["base"]["kernels"] == 1, "one more kernel")
check(d["delta"]["hbm_bytes"] > 0 and d["delta"]["est_us"] > 0, "forbidding costs bytes and time")
check(d["overrides"] == {"force": ["dot_general.2:dot_general.3"], "forbid": ["mul.6:mul.7"]}, "overrides")
check([a["pair"] for a in d["applied"]] == ["mul.6:mul.7"], "applied: the forbid")
check(len(d["refused"]) == 1 and d["refused"][0]["pair"] == "dot_general.2:dot_general.3", "refused: the force")
check("would create a cycle" in d["refused"][0]["reason"], "refusal reason: " + d["refused"][0]["reason"])
check(any(c["whatif"] and "forbidden by what-if override" in c["whatif"]["reason"] and
          c["base"] and c["base"]["verdict"] == "fused" for c in d["changed_decisions"]), "changed decision")
sys.exit(0 if ok else 1)
PY

# A force that is illegal is refused with its reason, never performed.
expect_rc 0 "whatif refused force" "$cli" whatif "$mlp" --force dot_general.2:dot_general.3
expect_text "refused in text" "--force dot_general.2:dot_general.3: REFUSED: priority_fusion: .*would create a cycle" "$tmp/out"
expect_text "refused costs nothing" "^kernels  *3  *3  *+0$" "$tmp/out"

# Bad usage: exit 2 naming the flag and its value.
expect_rc 2 "malformed pair" "$cli" whatif "$mlp" --force mul.6
expect_text "malformed pair message" "error: --force 'mul.6' is not PRODUCER:CONSUMER (no ':')" "$tmp/err"
expect_rc 2 "unknown name" "$cli" whatif "$mlp" --forbid mul.6:nope.1
expect_text "unknown name message" "error: --forbid mul.6:nope.1: no instruction named 'nope.1'" "$tmp/err"
expect_rc 2 "no overrides" "$cli" whatif "$mlp"
expect_rc 2 "missing value" "$cli" whatif "$mlp" --forbid
expect_text "missing value message" "error: --forbid needs a value PRODUCER:CONSUMER" "$tmp/err"
expect_rc 2 "force and forbid one pair" "$cli" whatif "$mlp" --force mul.6:mul.7 --forbid mul.6:mul.7
expect_text "contradiction message" "ask for opposite things" "$tmp/err"

# opt and check take the same overrides; the overridden run passes check.
expect_rc 0 "opt --forbid-fusion" "$cli" opt "$mlp" --forbid-fusion mul.6:mul.7 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["final"]["kernels"]==4 and d["overrides"]=="--forbid mul.6:mul.7" else 1)' "$tmp/out" \
  || { echo "FAIL opt --forbid-fusion: expected 4 kernels and the overrides"; fail=1; }
expect_rc 2 "opt unknown name" "$cli" opt "$mlp" --force-fusion zz:mul.7 -o "$tmp/x.hlo"
expect_text "opt unknown message" "hloscope-cli opt: error: --force zz:mul.7: no instruction named 'zz'" "$tmp/err"
expect_rc 0 "check --forbid" "$cli" check "$mlp" --forbid mul.6:mul.7
expect_text "check OK" ": OK, " "$tmp/out"
expect_rc 0 "check --force-fusion" "$cli" check "$src/samples/resnet_block.hlo" --force-fusion multiply.1:sub.30
exit $fail
