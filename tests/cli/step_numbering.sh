#!/usr/bin/env bash
# One step numbering everywhere (issue 21, item 2): step 0 is the input, pass
# runs are 1, 2, 3... in execution order, as the GUI's step table shows them.
# On samples/transformer_block.hlo through gpu, priority_fusion is step 52 for
# opt --json, explain, export-graph --step, --dump-dir file names and the
# out-of-range message.
# Usage: step_numbering.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
hlo=$src/samples/transformer_block.hlo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
source "$(dirname "$0")/cli_test_lib.sh"

# opt --json: every step carries "step" = its number, 1-based; step 52 is priority_fusion.
# Also writes the dumps, and picks an instruction priority_fusion decided on for explain.
expect_rc 0 "opt --json --dump-dir" "$cli" opt "$hlo" --pipeline gpu --json --dump-dir "$tmp/dump"
cp "$tmp/out" "$tmp/opt.json"
producer=$(python3 - "$tmp/opt.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
bad = [k for k, s in enumerate(j["steps"]) if s.get("step") != k + 1]
if bad:
    print("steps not numbered 1, 2, 3...: first at position %d has step %r" % (bad[0], j["steps"][bad[0]].get("step")), file=sys.stderr)
    sys.exit(1)
s = j["steps"][51]
if s["step"] != 52 or s["pass"] != "priority_fusion":
    print("step 52 is %r (position 51 has step %r)" % (s["pass"], s["step"]), file=sys.stderr)
    sys.exit(1)
fused = [d for d in s.get("decisions", []) if d["verdict"] != "not fused"]
print(fused[0]["producer"])
PY
) || { echo "FAIL opt --json step numbers"; fail=1; }

# --dump-dir: priority_fusion's file is numbered 0052, every NNNN names a step of that pass.
ls "$tmp/dump" >"$tmp/dumps"
expect_text "dump of priority_fusion numbered 0052" '^module_0000\..*\.0052\.gpu\.after_priority_fusion\.txt$' "$tmp/dumps"
python3 - "$tmp/opt.json" "$tmp/dumps" <<'PY' || { echo "FAIL dump numbers are not step numbers"; fail=1; }
import json, re, sys
steps = json.load(open(sys.argv[1]))["steps"]
for name in open(sys.argv[2]).read().split():
    m = re.match(r"module_\d{4}\..*\.(\d{4})\.gpu\.after_(.*)\.txt$", name)
    if not m: continue
    n, p = int(m.group(1)), m.group(2)
    if not (1 <= n <= len(steps)) or steps[n - 1]["pass"] != p or not steps[n - 1]["changed"]:
        print("%s: step %d is %s" % (name, n, steps[n - 1]["pass"] if 1 <= n <= len(steps) else "out of range"), file=sys.stderr)
        sys.exit(1)
PY

# explain names priority_fusion's decisions as step 52.
if [ -n "${producer:-}" ]; then
  expect_rc 0 "explain $producer" "$cli" explain "$hlo" --pipeline gpu --instruction "$producer"
  expect_text "explain numbers priority_fusion as step 52" "^step 52 priority_fusion: " "$tmp/out"
fi

labels() { grep -o 'label="[^"]*"' "$1" | sort; }  # node ids are snapshot ids: compare the labels
# export-graph --step 52 is the module after priority_fusion: the same graph as its dump file's.
dump27=$(ls "$tmp/dump"/module_0000.*.0052.gpu.after_priority_fusion.txt 2>/dev/null | head -1)
expect_rc 0 "export-graph --step 52" "$cli" export-graph "$hlo" --pipeline gpu --step 52 --format dot -o "$tmp/s27.dot"
expect_rc 0 "export-graph --step 51" "$cli" export-graph "$hlo" --pipeline gpu --step 51 --format dot -o "$tmp/s26.dot"
if [ -n "$dump27" ]; then
  expect_rc 0 "export-graph of the 0052 dump" "$cli" export-graph "$dump27" --step initial --format dot -o "$tmp/d27.dot"
  [ "$(labels "$tmp/s27.dot")" = "$(labels "$tmp/d27.dot")" ] ||
    { echo "FAIL export-graph --step 52 differs from the graph of $(basename "$dump27")";
      diff <(labels "$tmp/s27.dot") <(labels "$tmp/d27.dot") | head -10; fail=1; }
fi
[ "$(labels "$tmp/s26.dot")" = "$(labels "$tmp/s27.dot")" ] && { echo "FAIL export-graph --step 52 and 51 draw the same module"; fail=1; }

# Step 0 is the input; the last step number is accepted; one past it is refused, naming the range.
expect_rc 0 "export-graph --step 0" "$cli" export-graph "$hlo" --step 0 --format dot -o "$tmp/s0.dot"
expect_rc 0 "export-graph --step initial" "$cli" export-graph "$hlo" --step initial --format dot -o "$tmp/si.dot"
cmp -s "$tmp/s0.dot" "$tmp/si.dot" || { echo "FAIL --step 0 and --step initial differ"; fail=1; }
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["steps"]))' "$tmp/opt.json")
expect_rc 0 "export-graph --step $n (the last)" "$cli" export-graph "$hlo" --step "$n" --format dot -o "$tmp/sn.dot"
expect_rc 0 "export-graph --step last" "$cli" export-graph "$hlo" --step last --format dot -o "$tmp/sl.dot"
cmp -s "$tmp/sn.dot" "$tmp/sl.dot" || { echo "FAIL --step $n and --step last differ"; fail=1; }
expect_rc 1 "export-graph --step $((n + 1))" "$cli" export-graph "$hlo" --step $((n + 1)) --format dot -o "$tmp/bad.dot"
expect_text "out-of-range --step names the valid range" "0\.\.$n (0 is the input" "$tmp/err"
expect_rc 1 "export-timeline --step $((n + 1))" "$cli" export-timeline "$hlo" --step $((n + 1)) -o "$tmp/bad.svg"
expect_text "export-timeline names the valid range" "0\.\.$n (0 is the input" "$tmp/err"

expect_rc 1 "export-graph --pipeline none --step 1" "$cli" export-graph "$hlo" --pipeline none --step 1 --format dot -o "$tmp/bad.dot"
expect_text "no pass ran: only step 0" "expected initial, last or 0 (0 is the input; pipeline none ran no pass)" "$tmp/err"

[ $fail = 0 ] && echo "step numbering: OK"
exit $fail
