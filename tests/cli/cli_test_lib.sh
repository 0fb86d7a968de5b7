# Shared by the tests/cli scripts (sourced after they set $tmp and fail=0):
#   expect_rc WANT WHAT CMD...   runs CMD (stdout → $tmp/out, stderr → $tmp/err),
#                                fails the test unless it exits WANT
#   expect_text WHAT PATTERN F   fails the test unless F matches PATTERN (grep)
expect_rc() {
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $what: exit $rc, expected $want"; sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20; fail=1
  fi
}
expect_text() {
  if ! grep -q -- "$2" "$3"; then echo "FAIL $1: no '$2' in:"; sed 's/^/  | /' "$3" | head -20; fail=1; fi
}
