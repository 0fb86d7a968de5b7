#!/usr/bin/env bash
# Runs every example command of README.md (lines "$ CMD" in its plain ```
# blocks) in a scratch folder with the built tools on PATH and samples/ at
# hand, and checks that each line quoted under a command appears in what it
# printed (stdout and stderr). The README's figures cannot go stale.
# Usage: readme_examples.sh BIN_DIR SOURCE_DIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$src/samples" "$tmp/samples"
export PATH="$bin:$PATH"
fail=0
ran=0
in_block=0
cmd=""
expected=()
check() {  # runs $cmd, checks ${expected[@]}
  [ -n "$cmd" ] || return 0
  ran=$((ran + 1))
  (cd "$tmp" && bash -c "$cmd") >"$tmp/.out" 2>&1
  local want
  for want in "${expected[@]}"; do
    if ! grep -qxF -- "$want" "$tmp/.out"; then
      echo "FAIL: \$ $cmd"
      echo "  expected the line: $want"
      sed 's/^/  | /' "$tmp/.out" | head -20
      fail=1
    fi
  done
  cmd=""
  expected=()
}
while IFS= read -r line || [ -n "$line" ]; do
  if [ "$line" = '```' ]; then
    if [ $in_block = 1 ]; then check; fi
    if [ $in_block = 0 ]; then in_block=1; else in_block=0; fi
    continue
  fi
  case "$line" in '```'*) in_block=2; continue ;; esac   # ```sh blocks: the Quick start, not run here
  [ $in_block = 1 ] || continue
  case "$line" in
    '$ '*) check; cmd=${line#\$ } ;;
    *) [ -n "$cmd" ] && expected+=("$line") ;;
  esac
done < "$src/README.md"
echo "$ran README example commands run"
[ $ran -ge 5 ] || { echo "FAIL: expected at least 5 example commands in README.md"; fail=1; }
exit $fail
