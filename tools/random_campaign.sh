#!/usr/bin/env bash
# A random-module campaign: hloscope-diffuzz on both cores for HOURS hours
# (fractions allowed: 0.5), at nice 19, then a summary of what ran and what
# was found.
#
#   tools/random_campaign.sh HOURS [OUT_DIR]
#
# OUT_DIR (default build/campaign-<date>) gets one log per core
# (core<k>.log: a line per finding, the driver's closing lines), the shrunk
# findings (findings/*.hlo, each naming its seed) and summary.txt: modules,
# pass runs, kernel launches, modules run on the CPU, findings by kind and
# the seeds. A finding, once fixed, moves to tests/regressions/ (every file
# there replays as a ctest). Environment: DIFFUZZ (the driver; default
# build/bin/hloscope-diffuzz), CORES (default 2), NICE (default 19; 0 to share
# the machine evenly with other work), CPU_EVERY (default 2:
# every other module also runs its kernels on the CPU), SEED (default from
# the clock; core k starts at SEED + k * 1e9).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HOURS=${1:?usage: tools/random_campaign.sh HOURS [OUT_DIR]}
OUT=${2:-$ROOT/build/campaign-$(date +%Y%m%d-%H%M%S)}
DIFFUZZ=${DIFFUZZ:-$ROOT/build/bin/hloscope-diffuzz}
CORES=${CORES:-2}
CPU_EVERY=${CPU_EVERY:-2}
NICE=${NICE:-19}
SEED=${SEED:-$(( $(date +%s) % 1000000 * 1000 ))}
SECONDS_TOTAL=$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 }')
mkdir -p "$OUT/findings"
# The driver the campaign runs is copied so that rebuilding does not touch it.
cp "$DIFFUZZ" "$OUT/hloscope-diffuzz"
echo "campaign: $CORES cores x ${SECONDS_TOTAL}s, base seed $SEED, out $OUT"
start=$(date +%s)
pids=()
for ((k = 0; k < CORES; k++)); do
  s=$((SEED + k * 1000000000))
  nice -n "$NICE" "$OUT/hloscope-diffuzz" --seed "$s" --seconds "$SECONDS_TOTAL" --cpu-every "$CPU_EVERY" \
    --out "$OUT/findings" > "$OUT/core$k.log" 2>&1 &
  pids+=($!)
  echo "core $k: --seed $s (pid $!)"
done
for p in "${pids[@]}"; do wait "$p" || true; done
end=$(date +%s)

# Sum the closing lines of every core.
{
  echo "hloscope-diffuzz campaign"
  echo "started:  $(date -d @"$start" '+%Y-%m-%d %H:%M:%S')"
  echo "wall:     $(( (end - start) / 60 )) min on $CORES cores (nice $NICE), cpu-every $CPU_EVERY"
  for ((k = 0; k < CORES; k++)); do
    echo "core $k seed $((SEED + k * 1000000000)): $(tail -n 1 "$OUT/core$k.log")"
  done
  cat "$OUT"/core*.log | awk '
    /^modules=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); tot[kv[1]] += kv[2] } }
    /^cpu_modules=/ { for (i = 1; i <= 5; i++) { split($i, kv, "="); tot[kv[1]] += kv[2] } }
    /^finding / { for (i = 1; i <= NF; i++) if ($i ~ /^kind=/) { split($i, kv, "="); kind[kv[2]]++ } }
    END {
      printf "total:    modules=%d passes=%d kernels=%d findings=%d\n", tot["modules"], tot["passes"], tot["kernels"], tot["findings"]
      printf "          modules through the CPU kernel run: %d; modules with a documented refusal: %d\n", tot["cpu_modules"], tot["refusals"]
      printf "          modules a pass changed only in the sign of a zero: %d\n", tot["signed_zero"]
      printf "          modules evaluated on several devices (their collectives exchange data): %d, their kernels run on every device: %d\n", tot["multi_device"], tot["cpu_multi_device"]
      printf "findings by kind:"; n = 0
      for (k in kind) { printf " %s=%d", k, kind[k]; n++ }
      if (n == 0) printf " none"
      printf "\n"
    }'
  echo "saved findings:"
  ls "$OUT/findings" 2>/dev/null | sed 's/^/  /' || true
} | tee "$OUT/summary.txt"
