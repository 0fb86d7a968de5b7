#!/usr/bin/env bash
# Opens the tutorial page (`report FILE --lesson`, issue 30 item 5) in
# headless Chromium, offline (every host name unresolvable), and checks: it
# loads without a console error; the overview and every expected stage
# section are there, in order, after the browser parsed it; each stage has
# its text and its graph as inline SVG, the fusion stage the HBM traffic
# chart, the buffers stage the timeline, the kernels stage the LLVM IR and
# PTX; nothing is fetched from outside the page.
#   check_lesson_in_chromium.sh HLOSCOPE_CLI SAMPLE WORKDIR STAGE...
# Exit 77 (ctest: skipped) when no Chromium is installed.
set -uo pipefail
cli=$1 sample=$2 work=$3
shift 3
stages=("$@")
# shellcheck source=chromium_common.sh
source "$(dirname "$0")/chromium_common.sh"

"$cli" report "$sample" --lesson --out "$work/lesson" --quiet >"$work/cli.log" 2>&1 || { cat "$work/cli.log"; fail "hloscope-cli report --lesson failed"; }
[ "$(ls "$work/lesson")" = "lesson.html" ] || fail "expected lesson.html alone in the folder, found: $(ls "$work/lesson")"
# Never over an existing folder without --force.
if "$cli" report "$sample" --lesson --out "$work/lesson" --quiet >/dev/null 2>&1; then fail "an existing folder was replaced without --force"; fi
html=$work/lesson/lesson.html
run_browser "file://$html" "$work/lesson.dom" "$work/lesson.log" || fail "chromium exited with an error"
errors=$(console_errors "$work/lesson.log")
[ -z "$errors" ] || fail "console errors while loading the lesson: $errors"
[ -s "$work/lesson.dom" ] || fail "chromium produced no DOM"
python3 - "$work/lesson.dom" "${stages[@]}" <<'PY' || fail "the lesson's sections are not as expected"
import re, sys
dom, want = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2:]
found = re.findall(r'<section id="([^"]+)">', dom)
expected = ["overview"] + ["stage-" + s for s in want]
if found != expected:
    sys.exit("sections %s, expected %s" % (found, expected))
for sid, body in re.findall(r'<section id="([^"]+)">(.*?)</section>', dom, re.S):
    if sid == "overview":
        continue
    stage = sid[len("stage-"):]
    if not re.search(r"<h2>.*?</h2>", body, re.S) or len(re.findall(r"<p>", body)) < 1:
        sys.exit(sid + ": no title or text")
    svgs = len(re.findall(r"<svg", body))
    need = {"fusion": 2, "buffers": 2}.get(stage, 1)
    if svgs < need:
        sys.exit("%s: %d inline SVG pictures, expected %d" % (sid, svgs, need))
    if '<g class="node' not in body:
        sys.exit(sid + ": the graph has no nodes")
    if stage == "fusion" and len(re.findall(r'<g class="traffic-step">', body)) < 2:
        sys.exit("fusion: no HBM traffic chart")
    if stage == "kernels":
        ir = re.search(r'<pre class="llvm-ir">(.*?)</pre>', body, re.S)
        ptx = re.search(r'<pre class="ptx">(.*?)</pre>', body, re.S)
        if not ir or "define" not in ir.group(1):
            sys.exit("kernels: no LLVM IR")
        if not ptx or ".entry" not in ptx.group(1):
            sys.exit("kernels: no PTX")
    if stage != "stablehlo" and '<g class="node subject">' not in body:
        sys.exit(sid + ": no subject outlined in the graph")
print("lesson: sections " + " ".join(found))
PY
# Offline: nothing fetched, no links out of the page.
if grep -oE '(src|href)="(https?:)?//[^"]*"' "$work/lesson.dom" | grep -v 'xmlns'; then fail "the lesson references the network"; fi
grep -qE '@import|url\(http|<script' "$work/lesson.dom" && fail "the lesson loads or runs something"
grep -oE '(src|href)="[^"#][^"]*"' "$work/lesson.dom" | grep -v xmlns && fail "the lesson links to files"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --host-resolver-rules="MAP * ~NOTFOUND" --window-size=1280,2400 --hide-scrollbars \
  --screenshot="$work/lesson.png" "file://$html" >/dev/null 2>&1 || fail "screenshot failed"
[ -s "$work/lesson.png" ] || fail "no screenshot"
echo "OK: lesson.html of $(basename "$sample") renders in $(basename "$browser") offline: stages ${stages[*]}; no console errors; screenshot $work/lesson.png"
