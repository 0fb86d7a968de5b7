# Shared by the headless-Chromium checks (sourced; needs $work): finds the
# browser (exit 77, ctest's "skipped", without one), prepares $work, and
# defines fail, run_browser and console_errors; then proves that the
# console-error check can fail, on a page with a script error.
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$(command -v "$b"); break; fi
done
if [ -z "$browser" ]; then
  echo "SKIP: no chromium on PATH (tools/install_deps.sh installs it)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

run_browser() {  # URL DOM_OUT LOG_OUT [extra flags]; offline: every host name unresolvable
  local url=$1 dom=$2 log=$3; shift 3
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$work/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" --dump-dom "$url" >"$dom" 2>"$log"
}
console_errors() { grep -E 'CONSOLE|Uncaught' "$1" || true; }

# The checker must be able to fail: a page with a script error is caught.
printf '<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>\n' >"$work/sentinel.html"
run_browser "file://$work/sentinel.html" "$work/sentinel.dom" "$work/sentinel.log"
[ -n "$(console_errors "$work/sentinel.log")" ] || fail "the console-error check does not see a script error"
