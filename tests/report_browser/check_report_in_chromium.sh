#!/usr/bin/env bash
# Opens the report of a sample in headless Chromium, offline (every host name
# unresolvable), and checks what issue 9 asks of it: it loads without a
# console error, every section is there after the browser parsed it, its
# pictures are inline SVG, and it references nothing outside its folder.
#   check_report_in_chromium.sh HLOSCOPE_CLI SAMPLE.hlo WORKDIR [REPORT ARGS...]
# With --compare-with/--xla-dump among REPORT ARGS the compare (and XLA
# timeline) sections are required too.
# Exit 77 (ctest: skipped) when no Chromium is installed.
set -uo pipefail
cli=$1 sample=$2 work=$3
shift 3
extra_args=("$@")
sections="summary steps traffic graph-before graph-after decisions timeline kernels files"
min_svgs=4  # the HBM traffic chart, the graphs before/after, the timeline
case " ${extra_args[*]} " in *" --compare-with "*|*" --xla-dump "*) sections="$sections compare" ;; esac
case " ${extra_args[*]} " in *" --xla-dump "*|*" --xla-buffer-assignment "*) sections="$sections xla-timeline"; min_svgs=$((min_svgs + 1)) ;; esac
# An --xla-dump folder with XLA's priority fusion log: the decisions-vs-XLA
# section with its cost scatter, its rows, and disagreements first.
decisions_vs_xla=0
for ((k = 0; k + 1 < ${#extra_args[@]}; k++)); do
  if [ "${extra_args[k]}" = "--xla-dump" ] && { [ -f "${extra_args[k+1]}/priority_fusion_dump.txt" ] ||
      ls "${extra_args[k+1]}"/*priority_fusion_dump.txt >/dev/null 2>&1; }; then
    decisions_vs_xla=1; sections="$sections decisions-vs-xla"; min_svgs=$((min_svgs + 1))
  fi
done
# shellcheck source=chromium_common.sh
source "$(dirname "$0")/chromium_common.sh"

"$cli" report "$sample" --out "$work/report" --quiet "${extra_args[@]}" >"$work/cli.log" 2>&1 || { cat "$work/cli.log"; fail "hloscope-cli report failed"; }
html=$work/report/report.html
run_browser "file://$html" "$work/report.dom" "$work/report.log" || fail "chromium exited with an error"
errors=$(console_errors "$work/report.log")
[ -z "$errors" ] || fail "console errors while loading the report: $errors"
dom=$work/report.dom
[ -s "$dom" ] || fail "chromium produced no DOM"
for id in $sections; do
  grep -q "<section id=\"$id\"" "$dom" || fail "section #$id missing from the rendered page"
done
svgs=$(grep -o '<svg' "$dom" | wc -l)
[ "$svgs" -ge "$min_svgs" ] || fail "expected $min_svgs inline SVG pictures (traffic chart, graphs before/after, timelines), found $svgs"
grep -q '<table' "$dom" || fail "no tables in the rendered page"
# The HBM traffic chart as the browser parsed it: one bar group per step of
# report.json's "traffic" (step 0 = the input), and its table.
python3 - "$dom" "$work/report/report.json" <<'PY' || fail "the HBM traffic section is not as expected"
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
steps = len(json.load(open(sys.argv[2], encoding="utf-8"))["traffic"])
m = re.search(r'<section id="traffic">(.*?)</section>', dom, re.S)
if not m:
    sys.exit("no section")
bars = len(re.findall(r'<g class="traffic-step">', m.group(1)))
if bars != steps or steps < 2:
    sys.exit("%d bar groups for %d steps" % (bars, steps))
if "<table" not in m.group(1):
    sys.exit("no table")
print("traffic: %d steps, one bar each" % steps)
PY
if [ "$decisions_vs_xla" = 1 ]; then
  # The section as the browser parsed it: its table's rows, disagreement rows
  # (class warn) all before the first agreement, and XLA's own words.
  python3 - "$dom" <<'PY' || fail "the decisions-vs-XLA section is not as expected"
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<section id="decisions-vs-xla">(.*?)</section>', dom, re.S)
if not m:
    sys.exit("no section")
sec = m.group(1)
if "<svg" not in sec:
    sys.exit("no cost scatter in the section")
rows = re.findall(r"<tr( class=\"warn\")?>\s*<td>", sec)
if len(rows) < 5:
    sys.exit("only %d producer rows" % len(rows))
flags = [bool(r) for r in rows]
if True in flags and flags.index(False) < len(flags) - flags[::-1].index(True) - 1:
    sys.exit("a disagreement row comes after an agreement")
if "only bitcast users" not in sec:
    sys.exit("XLA's own reasons are missing")
print("decisions-vs-xla: %d rows, %d disagreements first" % (len(rows), sum(flags)))
PY
fi
# Offline: nothing fetched from a network, every local link exists.
if grep -oE '(src|href)="(https?:)?//[^"]*"' "$dom" | grep -v 'xmlns' ; then
  fail "the report references the network"
fi
grep -qE '@import|url\(http' "$dom" && fail "the report's CSS loads something"
missing=0
while IFS= read -r link; do
  case "$link" in ''|'#'*) continue ;; esac
  [ -e "$work/report/$link" ] || { echo "missing link target: $link"; missing=1; }
done < <(grep -oE '(src|href)="[^"#:][^"]*"' "$dom" | sed -E 's/^(src|href)="//; s/"$//')
[ "$missing" = 0 ] || fail "links to files that are not in the report folder"
# A picture of the top of the page, for people to look at.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --host-resolver-rules="MAP * ~NOTFOUND" --window-size=1280,2400 --hide-scrollbars \
  --screenshot="$work/report.png" "file://$html" >/dev/null 2>&1 || fail "screenshot failed"
[ -s "$work/report.png" ] || fail "no screenshot"
echo "OK: report.html of $(basename "$sample") renders in $(basename "$browser") offline: sections $sections; $svgs SVG pictures, no console errors; screenshot $work/report.png"
