#!/usr/bin/env bash
# issue 29's acceptance through the real GUI executable: `hloscope FILE
# --layout-stats` at 1400x860 must show at most 80 boxes, labels of at least
# 9 px and no overlapping labels (first_view_ms is printed, not checked:
# speed targets are checked by benchmarks, never by timed tests):
#   - samples/transformer_block.hlo at every step of the gpu pipeline;
#   - the Llama 3.1 8B and 70B and DeepSeek corpus modules (../shared) at
#     steps 0 and last of gpu (skipped when ../shared is absent).
# usage: layout_stats.sh HLOSCOPE_BINARY SOURCE_DIR [SHARED_DIR]
set -u
bin=$1
src=$2
shared=${3:-}
export QT_QPA_PLATFORM=offscreen
fail=0
checked=0

check() {  # FILE STEP
  local out
  if ! out=$("$bin" "$1" --layout-stats --step "$2" --size 1400x860 2>/dev/null); then
    echo "FAIL $1 step $2: hloscope --layout-stats failed"
    fail=1
    return
  fi
  local boxes px overlaps ms step
  boxes=$(sed -n 's/.*"visible_boxes":\([0-9]*\).*/\1/p' <<<"$out")
  px=$(sed -n 's/.*"min_label_px":\([0-9.]*\).*/\1/p' <<<"$out")
  overlaps=$(sed -n 's/.*"label_overlaps":\([0-9]*\).*/\1/p' <<<"$out")
  ms=$(sed -n 's/.*"first_view_ms":\([0-9.]*\).*/\1/p' <<<"$out")
  step=$(sed -n 's/.*"step":\([0-9]*\).*/\1/p' <<<"$out")
  if [[ -z $boxes || -z $px || -z $overlaps || -z $ms ]]; then
    echo "FAIL $1 step $2: unexpected output: $out"
    fail=1
    return
  fi
  checked=$((checked + 1))
  local why=""
  ((boxes > 80)) && why+=" visible_boxes=$boxes>80"
  ((boxes < 1)) && why+=" nothing drawn"
  awk -v p="$px" 'BEGIN { exit !(p < 9) }' && why+=" min_label_px=$px<9"
  ((overlaps > 0)) && why+=" label_overlaps=$overlaps"
  if [[ -n $why ]]; then
    echo "FAIL $(basename "$1") step $step:$why"
    fail=1
  else
    echo "ok   $(basename "$1") step $step: $out" | sed 's/"file":"[^"]*",//'
  fi
  LAST_STEP=$step
}

LAST_STEP=0
check "$src/samples/transformer_block.hlo" last
last=$LAST_STEP
for ((k = 0; k < last; ++k)); do check "$src/samples/transformer_block.hlo" "$k"; done

if [[ -n $shared && -d $shared/corpus ]]; then
  h=$shared/corpus/xla/tools/benchmarks/hlo
  for f in hlo_llama31_8b_bf16_1x8.hlo hlo_llama31_70b_bf16_16x8.hlo \
           nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization.hlo; do
    [[ -f $h/$f ]] || continue
    check "$h/$f" 0
    check "$h/$f" last
  done
else
  echo "note: ../shared absent: the corpus modules are not checked"
fi
echo "$checked views checked"
exit $fail
