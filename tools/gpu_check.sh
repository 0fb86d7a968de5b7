#!/usr/bin/env bash
# GPU check: exports a kernel bundle for every sample and runs them on a GPU.
#
#   tools/gpu_check.sh [--build-dir DIR] [--stage DIR]   (here, no GPU needed)
#       builds hloscope-cli and hloscope-run (or reuses DIR, default build),
#       writes STAGE (default build-gpu/) = bin/hloscope-run + bundles/<sample>/
#       + bundles/bench_<name>/ (benchmarks/gpu/*.hlo, not checked: throughput only)
#       + bundles/check_<name>/ (benchmarks/gpu/checked/*.hlo: the same kernels'
#       paths at sizes the interpreter checks), + the 16-bit GEMMs of both
#       again for sm_90a (bench_/check_<name>_sm90a: the wgmma kernel),
#       checks it stays well under 64 MiB and prints how to run it remotely.
#   tools/gpu_check.sh --remote [--stage DIR] [--repeat N]   (on the GPU machine)
#       runs STAGE/bin/hloscope-run on every STAGE/bundles/* and writes
#       $OUT/gpu_check.txt (per-kernel tables) and $OUT/gpu_check.json
#       ($OUT defaults to STAGE/out). Needs only the NVIDIA driver. Where
#       python3 imports jax, also times XLA GPU's own kernels for the same
#       throughput cases (tools/xla_gpu_bench.py -> $OUT/xla_gpu_bench.json).
#
# With the device tool, from the repository root, in one call:
#   run(command="tools/gpu_check.sh --remote", carry=["build-gpu"], timeout_s=300)
#
# Exit: 0 all outputs match, 1 a mismatch or error, 2 no GPU / driver (the
# message says so; nothing was measured).
set -euo pipefail

mode=local
build_dir=build
stage=build-gpu
repeat=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    --remote) mode=remote ;;
    --build-dir) build_dir="$2"; shift ;;
    --stage) stage="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "gpu_check.sh: unknown argument $1" >&2; exit 3 ;;
  esac
  shift
done

if [[ $mode == remote ]]; then
  out="${OUT:-$stage/out}"
  mkdir -p "$out"
  run="$stage/bin/hloscope-run"
  [[ -x $run ]] || { echo "gpu_check.sh: $run missing: run tools/gpu_check.sh here first and carry $stage" >&2; exit 1; }
  txt="$out/gpu_check.txt"
  json="$out/gpu_check.json"
  : > "$txt"
  echo "[" > "$json"
  {
    echo "# hloscope gpu_check $(date -u +%Y-%m-%dT%H:%MZ) on $(hostname)"
    command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  } >> "$txt"
  status=0
  first=1
  for b in "$stage"/bundles/*/; do
    b="${b%/}"
    name="$(basename "$b")"
    echo "== $name" | tee -a "$txt"
    set +e
    "$run" "$b" --repeat "$repeat" >> "$txt" 2>&1
    rc=$?
    set -e
    if [[ $rc == 2 ]]; then
      tail -1 "$txt" >&2
      echo "gpu_check.sh: no GPU or driver on this machine; nothing was measured" | tee -a "$txt" >&2
      exit 2
    fi
    [[ $rc == 0 ]] || status=1
    [[ $first == 1 ]] || echo "," >> "$json"
    first=0
    "$run" "$b" --repeat "$repeat" --json 2> /dev/null >> "$json" || echo "{\"bundle\":\"$b\",\"error\":$rc}" >> "$json"
    echo "   exit $rc" | tee -a "$txt"
  done
  echo "]" >> "$json"
  # XLA GPU's own kernels for the same throughput cases, on the same machine
  # (tools/xla_gpu_bench.py; only where python3 can import jax).
  if python3 -c "import jax" 2> /dev/null; then
    echo "== xla_gpu_bench (XLA GPU through JAX, same sizes as benchmarks/gpu/)" | tee -a "$txt"
    python3 tools/xla_gpu_bench.py --json "$out/xla_gpu_bench.json" >> "$txt" 2>&1 || echo "   xla_gpu_bench failed" >> "$txt"
  fi
  cat "$txt"
  exit $status
fi

# --- local: build, export, pack ---------------------------------------------
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ ! -f $build_dir/build.ninja ]]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
ninja -C "$build_dir" hloscope-cli hloscope-run
cli="$build_dir/bin/hloscope-cli"
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/bundles"
cp "$build_dir/bin/hloscope-run" "$stage/bin/"
strip "$stage/bin/hloscope-run" 2> /dev/null || true
inputs_flag=""
if "$cli" codegen --help 2>&1 | grep -q -- "--inputs"; then inputs_flag=yes; fi
for hlo in samples/*.hlo; do
  case "$hlo" in *.xla_cpu_optimized.hlo) continue ;; esac
  name="$(basename "$hlo" .hlo)"
  args=("$hlo" --pipeline gpu --sm 90 --out "$stage/bundles/$name" --force)
  if [[ -n $inputs_flag && -f samples/$name.data.json ]]; then args+=(--inputs "samples/$name.data.json"); fi
  # Real-size samples: random inputs from a seed and no expected values (the
  # interpreter is not run at their sizes; their expected values alone were
  # ~64 MB per bundle, past what the device tool carries).
  case "$name" in *_large) args+=(--seed 1 --no-expected) ;; esac
  if ! "$cli" codegen "${args[@]}" > /dev/null 2> "$stage/codegen_$name.err"; then
    echo "gpu_check.sh: skipping $name: codegen failed: $(head -c 300 "$stage/codegen_$name.err")" >&2
    rm -rf "$stage/bundles/$name"
  fi
  rm -f "$stage/codegen_$name.err"
done
# Throughput modules (benchmarks/gpu/: a 4096³ bf16 GEMM, 64 MiB softmax and
# layer norm): random inputs from a seed, no expected values (the interpreter
# would take hours at these sizes); hloscope-run prints TFLOP/s and %copy.
for hlo in benchmarks/gpu/*.hlo; do
  name="bench_$(basename "$hlo" .hlo)"
  if ! "$cli" codegen "$hlo" --pipeline gpu --sm 90 --seed 1 --no-expected --out "$stage/bundles/$name" --force \
      > /dev/null 2> "$stage/codegen_$name.err"; then
    echo "gpu_check.sh: skipping $name: codegen failed: $(head -c 300 "$stage/codegen_$name.err")" >&2
    rm -rf "$stage/bundles/$name"
  fi
  rm -f "$stage/codegen_$name.err"
done
# Checked modules (benchmarks/gpu/checked/: the throughput kernels' paths at
# sizes the interpreter finishes): random inputs from a seed, outputs compared
# with the interpreter's on the GPU.
for hlo in benchmarks/gpu/checked/*.hlo; do
  name="check_$(basename "$hlo" .hlo)"
  if ! "$cli" codegen "$hlo" --pipeline gpu --sm 90 --seed 1 --out "$stage/bundles/$name" --force \
      > /dev/null 2> "$stage/codegen_$name.err"; then
    echo "gpu_check.sh: skipping $name: codegen failed: $(head -c 300 "$stage/codegen_$name.err")" >&2
    rm -rf "$stage/bundles/$name"
  fi
  rm -f "$stage/codegen_$name.err"
done
# The same 16-bit GEMMs for sm_90a, where full tiles take the warpgroup
# kernel (wgmma, gemm_wgmma_emitter.cc) instead of mma.sync: timed and
# checked beside the sm_90 bundles above.
for hlo in benchmarks/gpu/gemm_bf16_4096.hlo benchmarks/gpu/checked/gemm_bf16_*.hlo benchmarks/gpu/checked/gemm_f16_*.hlo; do
  [[ -f $hlo ]] || continue
  base="$(basename "$hlo" .hlo)"
  case "$hlo" in
    */checked/*) name="check_${base}_sm90a"; extra=() ;;
    *) name="bench_${base}_sm90a"; extra=(--no-expected) ;;
  esac
  if ! "$cli" codegen "$hlo" --pipeline gpu --sm 90a --seed 1 "${extra[@]}" --out "$stage/bundles/$name" --force \
      > /dev/null 2> "$stage/codegen_$name.err"; then
    echo "gpu_check.sh: skipping $name: codegen failed: $(head -c 300 "$stage/codegen_$name.err")" >&2
    rm -rf "$stage/bundles/$name"
  fi
  rm -f "$stage/codegen_$name.err"
done
if [[ -z $(ls "$stage/bundles") ]]; then
  echo "gpu_check.sh: no sample could be exported" >&2
  exit 1
fi
bytes=$(du -sb "$stage" | cut -f1)
echo "gpu_check.sh: staged $(ls "$stage/bundles" | wc -l) bundles + hloscope-run in $stage ($((bytes / 1024)) KiB)"
if (( bytes > 48 * 1024 * 1024 )); then
  echo "gpu_check.sh: $stage is over 48 MiB; the device tool carries at most 64 MiB" >&2
  exit 1
fi
# Smoke test here: without a GPU this must stop with the no-GPU message (exit 2).
set +e
"$stage/bin/hloscope-run" "$stage/bundles/$(ls "$stage/bundles" | head -1)" --no-copy-probe > /dev/null 2> "$stage/local_smoke.txt"
rc=$?
set -e
echo "gpu_check.sh: local smoke run of hloscope-run: exit $rc ($(head -c 300 "$stage/local_smoke.txt"))"
echo "gpu_check.sh: on the GPU machine run: tools/gpu_check.sh --remote   (carry: $stage)"
