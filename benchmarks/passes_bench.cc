// The `simplify` pipeline with step recording on: generated modules of 1k,
// 10k and 100k instructions (time should grow about linearly) and the
// largest corpus module (Llama 3.1 8B, 31,855 instructions; target <= 1 s).
// Parsing is excluded from the timings.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"

namespace {

using namespace hloscope;

// Blocks of 8 instructions that every pass of the fixed point has work on:
// x*1, reshape(reshape), a commutative duplicate for CSE, max(x, x). Fan-out
// stays small, as in real modules (users are kept in vectors, so removing
// one user of an instruction with n users costs O(n)).
std::string GeneratedModule(int instructions) {
  std::string s = "HloModule generated\n\nENTRY e {\n  p = f32[64]{0} parameter(0)\n  x0 = f32[64]{0} negate(p)\n";
  const int blocks = instructions / 8;
  for (int i = 1; i <= blocks; ++i) {
    std::string n = std::to_string(i), prev = "x" + std::to_string(i - 1);
    s += "  c" + n + " = f32[] constant(1)\n";
    s += "  b" + n + " = f32[64]{0} broadcast(c" + n + "), dimensions={}\n";
    s += "  m" + n + " = f32[64]{0} multiply(" + prev + ", b" + n + ")\n";
    s += "  r" + n + " = f32[8,8]{1,0} reshape(m" + n + ")\n";
    s += "  s" + n + " = f32[64]{0} reshape(r" + n + ")\n";
    s += "  t" + n + " = f32[64]{0} add(s" + n + ", " + prev + ")\n";
    s += "  u" + n + " = f32[64]{0} add(" + prev + ", s" + n + ")\n";
    s += "  x" + n + " = f32[64]{0} maximum(t" + n + ", u" + n + ")\n";
  }
  s += "  ROOT out = f32[64]{0} exponential(x" + std::to_string(blocks) + ")\n}\n";
  return s;
}

void RunSimplify(benchmark::State& state, const std::string& text, bool record) {
  int64_t instructions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto m = ParseHloModule(text);
    if (!m.ok()) {
      state.SkipWithError(m.status().message().c_str());
      return;
    }
    instructions = (*m)->instruction_count();
    auto p = PassRegistry::Global().BuildPipeline("simplify");
    StepRecorder recorder;
    if (record) (*p)->AddInstrumentation(&recorder);
    state.ResumeTiming();
    auto changed = (*p)->Run(**m);
    benchmark::DoNotOptimize(changed);
    state.PauseTiming();
    m->reset();  // free outside the timing
    state.ResumeTiming();
  }
  state.counters["instructions"] = static_cast<double>(instructions);
  state.SetItemsProcessed(state.iterations() * instructions);
}

void BM_SimplifyGenerated(benchmark::State& state) {
  RunSimplify(state, GeneratedModule(static_cast<int>(state.range(0))), state.range(1) != 0);
}
BENCHMARK(BM_SimplifyGenerated)
    ->ArgNames({"instructions", "record"})
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({100000, 1})
    ->Args({100000, 0})
    ->Unit(benchmark::kMillisecond);

void BM_SimplifyLargestCorpusModule(benchmark::State& state) {
  std::string path =
      std::string(HLOSCOPE_SHARED_DIR) + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("corpus module absent");
    return;
  }
  auto text = ReadFileToString(path);
  if (!text.ok()) {
    state.SkipWithError(text.status().message().c_str());
    return;
  }
  RunSimplify(state, *text, state.range(0) != 0);
}
BENCHMARK(BM_SimplifyLargestCorpusModule)->ArgName("record")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
