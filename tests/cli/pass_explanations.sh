#!/usr/bin/env bash
# Explanations that teach (issue 30, item 2): list-passes keeps its default
# output and --long adds each pass's paragraph (--json: "explanation");
# explain prints the arithmetic behind each decision's cost numbers
# (--json: "arithmetic"), on samples/transformer_block.hlo through gpu.
# Usage: pass_explanations.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
hlo=$src/samples/transformer_block.hlo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
source "$(dirname "$0")/cli_test_lib.sh"

# Default: one row per pass, no paragraphs.
expect_rc 0 "list-passes" "$cli" list-passes
cp "$tmp/out" "$tmp/short.txt"
expect_text "list-passes header" "^pass  *pipelines  *description" "$tmp/short.txt"
if grep -q "look for" "$tmp/short.txt"; then echo "FAIL list-passes: the default output has paragraphs"; fail=1; fi

# --long: the same rows, each followed by its paragraph (indented by 4).
expect_rc 0 "list-passes --long" "$cli" list-passes --long
cp "$tmp/out" "$tmp/long.txt"
python3 - "$tmp/short.txt" "$tmp/long.txt" <<'PY' || fail=1
import re, sys
short = open(sys.argv[1]).read().splitlines()
long_ = open(sys.argv[2]).read().splitlines()
# Every line of the default output is in --long, in order.
it = iter(long_)
missing = [l for l in short if not any(l == x for x in it)]
if missing:
    print("FAIL list-passes --long: lost default line %r" % missing[0]); sys.exit(1)
passes = [l.split()[0] for l in short[1:] if l and not l.startswith(" ") and not l.startswith("pipelines:")]
text = "\n".join(long_)
for p in passes:
    m = re.search(r"^%s +\S.*?\n(?: {20,}.*\n)*\n((?:    \S.*\n)+)\n" % re.escape(p), text + "\n", re.M)
    if not m:
        print("FAIL list-passes --long: no paragraph under %s" % p); sys.exit(1)
    para = " ".join(l.strip() for l in m.group(1).splitlines())
    if len(para) < 350 or "look for" not in para:
        print("FAIL list-passes --long: short paragraph for %s: %r" % (p, para[:80])); sys.exit(1)
    if any(len(l) > 100 for l in m.group(1).splitlines()):
        print("FAIL list-passes --long: paragraph of %s not wrapped at 100 columns" % p); sys.exit(1)
for p in ("priority_fusion", "fusion", "fusion_merger"):
    m = re.search(r"^%s +\S.*?\n(?: {20,}.*\n)*\n((?:    \S.*\n)+)" % re.escape(p), text + "\n", re.M)
    if "HBM" not in m.group(1) or "warehouse" not in m.group(1):
        print("FAIL list-passes --long: %s's paragraph lacks the warehouse picture" % p); sys.exit(1)
print("list-passes --long: %d paragraphs" % len(passes))
PY

# --json: "explanation" beside "description" for every pass.
expect_rc 0 "list-passes --json" "$cli" list-passes --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
bad = [p["name"] for p in j["passes"] if not p.get("description") or len(p.get("explanation", "")) < 350]
if bad:
    print("FAIL list-passes --json: no explanation for %s" % bad); sys.exit(1)
PY

# explain: a producer priority_fusion fused has the arithmetic under its
# cost numbers, and --json carries it as "arithmetic".
expect_rc 0 "opt --json" "$cli" opt "$hlo" --pipeline gpu --json
producer=$(python3 - "$tmp/out" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for s in j["steps"]:
    for d in s.get("decisions", []):
        if s["pass"] == "priority_fusion" and d["verdict"] == "fused" and d["bytes_after"] < d["bytes_before"] \
                and not d["producer"].startswith("fusion"):
            print(d["producer"]); sys.exit(0)
sys.exit(1)
PY
) || { echo "FAIL: no producer that priority_fusion fused"; fail=1; }
if [ -n "${producer:-}" ]; then
  expect_rc 0 "explain $producer" "$cli" explain "$hlo" --instruction "$producer"
  expect_text "explain arithmetic" "Unfused: .* at 4.8 TB/s ≈ .* µs, plus .* launch" "$tmp/out"
  expect_text "explain arithmetic (fused side)" "Fused: 1 kernel reads" "$tmp/out"
  expect_rc 0 "explain --json $producer" "$cli" explain "$hlo" --instruction "$producer" --json
  python3 - "$tmp/out" <<'PY' || fail=1
import json, re, sys
j = json.load(open(sys.argv[1]))
for d in j["decisions"]:
    a = d.get("arithmetic", "")
    if not a:
        print("FAIL explain --json: no arithmetic for %s" % d); sys.exit(1)
    totals = [float(x) for x in re.findall(r": ≈ ([0-9.]+) µs", a)]
    want = [d["us_before"]] + ([d["us_after"]] if len(totals) > 1 else [])
    if len(totals) != len(want) or any(abs(t - w) > 0.0051 + 0.001 * w for t, w in zip(totals, want)):
        print("FAIL explain --json: arithmetic %r does not end in us_before/us_after %r" % (a, want)); sys.exit(1)
PY
fi

[ "$fail" = 0 ] && echo "pass_explanations: OK"
exit $fail
