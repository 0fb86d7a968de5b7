#!/usr/bin/env bash
# The two commands of the README's Quick start, and what CI runs.
#   tools/dev.sh run   install missing packages, build, open hloscope on the default sample
#   tools/dev.sh test  install missing packages, build, run every test (+ ASan/UBSan build,
#                      core tests under the sanitizers, a bounded libFuzzer run, the CPU
#                      execution of the GPU features under the sanitizers)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
BUILD=${BUILD_DIR:-$ROOT/build}
SAN_BUILD=${SAN_BUILD_DIR:-$ROOT/build-asan}
DEFAULT_SAMPLE=$ROOT/samples/transformer_block_large.hlo  # as the GUI's DefaultSamplePath()

step() { printf '\n== %s\n' "$*"; }

configure_and_build() {
  step "configure + build ($BUILD)"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$BUILD" -j "$JOBS"
}

sanitizer_build_and_test() {
  step "ASan+UBSan build with libFuzzer ($SAN_BUILD)"
  CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$SAN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DHLOSCOPE_SANITIZE=ON -DHLOSCOPE_FUZZ=ON -DHLOSCOPE_BENCHMARKS=OFF -DHLOSCOPE_GUI=OFF
  # The core suites that exercise parsing, verification, evaluation and memory
  # planning; the whole-corpus sweeps run in the optimized build above.
  cmake --build "$SAN_BUILD" -j "$JOBS" --target hlo_parser_fuzzer stablehlo_parser_fuzzer bundle_manifest_fuzzer \
    parser_test verify_test eval_test memory_test cost_test
  step "core tests under ASan+UBSan"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$SAN_BUILD" -L 'parser|verify|eval|memory|cost' -E 'Corpus' --output-on-failure -j "$JOBS"
  # Each reader of outside input under libFuzzer (docs/testing.md): new
  # inputs go to the first folder; the seeds, the samples and, where present,
  # StableHLO's conformance programs (../shared, read only) start it.
  local stablehlo_seeds=()
  [ -d "$ROOT/../shared/stablehlo/testdata" ] && stablehlo_seeds=("$ROOT/../shared/stablehlo/testdata")
  fuzz_one() {  # NAME SECONDS DICT SEED_DIR...
    local name=$1 secs=$2 dict=$3
    shift 3
    step "fuzz $name for ${secs}s"
    mkdir -p "$SAN_BUILD/fuzz-corpus/$name" "$SAN_BUILD/fuzz-artifacts"
    local log="$SAN_BUILD/fuzz-artifacts/$name.log" rc=0
    "$SAN_BUILD/bin/$name" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$SAN_BUILD/fuzz-artifacts/$name-" \
      -dict="$ROOT/tests/fuzz/$dict" "$SAN_BUILD/fuzz-corpus/$name" "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
      # The whole report (the sanitizer's stack, the input that failed).
      tail -80 "$log"
      echo "$name failed (exit $rc); the input is under $SAN_BUILD/fuzz-artifacts/, replay: $SAN_BUILD/bin/$name FILE"
      return "$rc"
    fi
    tail -5 "$log"
  }
  fuzz_one hlo_parser_fuzzer "${FUZZ_SECONDS:-60}" hlo.dict "$ROOT/tests/fuzz/seeds" "$ROOT/samples"
  fuzz_one stablehlo_parser_fuzzer "${FUZZ_SECONDS:-60}" stablehlo.dict "$ROOT/tests/fuzz/seeds_stablehlo" \
    "$ROOT/samples" "${stablehlo_seeds[@]}"
  fuzz_one bundle_manifest_fuzzer "${FUZZ_SECONDS:-30}" manifest.dict "$ROOT/tests/fuzz/seeds_manifest"
  # Random modules through every pipeline, buffer assignment and the CPU
  # kernel run (docs/testing.md): fixed seeds, then a clock-derived seed that
  # is printed so that a failure can be replayed with --seed; ~3 minutes.
  cmake --build "$SAN_BUILD" -j "$JOBS" --target hloscope-diffuzz fuzz_generator_test
  # A seed must name the same module in this (clang) build as in the release
  # (gcc) build, or a seed printed here replays as another module there.
  step "random modules: the same module for a seed whatever the compiler"
  "$SAN_BUILD/bin/fuzz_generator_test" --gtest_filter='RandomModule.SameModuleWhateverTheCompiler'
  local seed=$(( $(date +%s) % 1000000 * 1000 ))
  step "hloscope-diffuzz: fixed seeds 1.. (${DIFFUZZ_COUNT:-100} modules), then --seed $seed for ${DIFFUZZ_SECONDS:-100}s"
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$SAN_BUILD/bin/hloscope-diffuzz" --seed 1 --count "${DIFFUZZ_COUNT:-100}" --out "$SAN_BUILD/diffuzz-findings"
  # The saved regressions too: some were found by the sanitizers alone.
  step "hloscope-diffuzz --replay tests/regressions/*.hlo"
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$SAN_BUILD/bin/hloscope-diffuzz" --replay "$ROOT"/tests/regressions/*.hlo
  echo "time-derived seed: $seed (replay: hloscope-diffuzz --seed $seed --seconds ${DIFFUZZ_SECONDS:-100})"
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$SAN_BUILD/bin/hloscope-diffuzz" --seed "$seed" --seconds "${DIFFUZZ_SECONDS:-100}" \
    --out "$SAN_BUILD/diffuzz-findings"
  # The CPU's stand-ins for the GPU (emulated threads, shuffles, mma.sync,
  # ldmatrix, cp.async, wgmma) under the sanitizers: random modules are too
  # small to reach the tensor-core kernels, so their own tests run here (~3 min).
  cmake --build "$SAN_BUILD" -j "$JOBS" --target codegen_test
  step "CPU execution of the GPU features under ASan+UBSan"
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$SAN_BUILD/bin/codegen_test" --gtest_filter='CpuExecutor.*:*GemmMma*:*Wgmma*:CuteLayouts.*'
}

case "${1:-}" in
  run)
    tools/install_deps.sh
    configure_and_build
    shift
    if [ -x "$BUILD/bin/hloscope" ]; then
      exec "$BUILD/bin/hloscope" "${@:-$DEFAULT_SAMPLE}"
    fi
    step "hloscope-cli on the default sample"
    "$BUILD/bin/hloscope-cli" parse "${@:-$DEFAULT_SAMPLE}"
    "$BUILD/bin/hloscope-cli" stats "${@:-$DEFAULT_SAMPLE}"
    ;;
  test)
    tools/install_deps.sh
    configure_and_build
    step "tests"
    export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
    ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS"
    if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then sanitizer_build_and_test; fi
    step "all tests passed"
    ;;
  *)
    echo "usage: tools/dev.sh run [FILE] | test" >&2
    exit 2
    ;;
esac
