// The `gpu` pipeline (simplify, priority fusion, multi-output and
// horizontal fusion, cleanup) with step recording and the decision log on:
// generated transformer-like modules of 1k, 10k and 100k instructions (time
// should grow about linearly) and the Llama 3.1 8B corpus module (31,855
// instructions; target <= 2 s). Parsing is excluded from the timings. Wall
// time: snapshots print on a second thread while the cost totals are
// estimated on a third.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"

namespace {

using namespace hloscope;

// Layers of a small transformer, ~40 instructions each: layer norm (two
// reductions), a matmul with bias, a tanh-GELU, a second matmul, a residual
// add and a softmax over the last dimension (two more reductions). Every
// layer has its own weights, as in a real model.
std::string GeneratedModule(int instructions) {
  const int layers = std::max(1, instructions / 40);
  std::string s = "HloModule generated\n\n";
  s += "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n";
  s += "max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}\n\n";
  s += "ENTRY e {\n  x0 = f32[16,64]{1,0} parameter(0)\n";
  s += "  zero = f32[] constant(0)\n  ninf = f32[] constant(-inf)\n  inv_d = f32[] constant(0.015625)\n";
  s += "  eps = f32[] constant(1e-05)\n  half = f32[] constant(0.5)\n  one = f32[] constant(1)\n";
  s += "  k = f32[] constant(0.044715)\n";
  int param = 1;
  for (int l = 1; l <= layers; ++l) {
    std::string n = std::to_string(l), x = "x" + std::to_string(l - 1);
    auto v = [&](const std::string& base) { return base + "_" + n; };
    auto line = [&](const std::string& name, const std::string& rhs) { s += "  " + v(name) + " = " + rhs + "\n"; };
    auto bcast = [&](const std::string& name, const std::string& what, const std::string& dims) {
      line(name, "f32[16,64]{1,0} broadcast(" + what + "), dimensions={" + dims + "}");
    };
    const std::string m = "f32[16,64]{1,0} ";
    line("w1", "f32[64,64]{1,0} parameter(" + std::to_string(param++) + ")");
    line("w2", "f32[64,64]{1,0} parameter(" + std::to_string(param++) + ")");
    line("bias", "f32[64]{0} parameter(" + std::to_string(param++) + ")");
    // layer norm
    line("sum", "f32[16]{0} reduce(" + x + ", zero), dimensions={1}, to_apply=add_f32");
    line("inv_d_b", "f32[16]{0} broadcast(inv_d), dimensions={}");
    line("mean", "f32[16]{0} multiply(" + v("sum") + ", " + v("inv_d_b") + ")");
    bcast("mean_b", v("mean"), "0");
    line("cen", m + "subtract(" + x + ", " + v("mean_b") + ")");
    line("sq", m + "multiply(" + v("cen") + ", " + v("cen") + ")");
    line("var_sum", "f32[16]{0} reduce(" + v("sq") + ", zero), dimensions={1}, to_apply=add_f32");
    line("var", "f32[16]{0} multiply(" + v("var_sum") + ", " + v("inv_d_b") + ")");
    line("eps_b", "f32[16]{0} broadcast(eps), dimensions={}");
    line("var_eps", "f32[16]{0} add(" + v("var") + ", " + v("eps_b") + ")");
    line("rstd", "f32[16]{0} rsqrt(" + v("var_eps") + ")");
    bcast("rstd_b", v("rstd"), "0");
    line("ln", m + "multiply(" + v("cen") + ", " + v("rstd_b") + ")");
    // matmul + bias + tanh GELU
    line("h", m + "dot(" + v("ln") + ", " + v("w1") + "), lhs_contracting_dims={1}, rhs_contracting_dims={0}");
    bcast("bias_b", v("bias"), "1");
    line("hb", m + "add(" + v("h") + ", " + v("bias_b") + ")");
    line("h3", m + "multiply(" + v("hb") + ", " + v("hb") + ")");
    line("h3b", m + "multiply(" + v("h3") + ", " + v("hb") + ")");
    bcast("k_b", "k", "");
    line("kh3", m + "multiply(" + v("h3b") + ", " + v("k_b") + ")");
    line("inner", m + "add(" + v("hb") + ", " + v("kh3") + ")");
    line("th", m + "tanh(" + v("inner") + ")");
    bcast("one_b", "one", "");
    line("th1", m + "add(" + v("th") + ", " + v("one_b") + ")");
    bcast("half_b", "half", "");
    line("hh", m + "multiply(" + v("hb") + ", " + v("half_b") + ")");
    line("gelu", m + "multiply(" + v("hh") + ", " + v("th1") + ")");
    line("o", m + "dot(" + v("gelu") + ", " + v("w2") + "), lhs_contracting_dims={1}, rhs_contracting_dims={0}");
    line("res", m + "add(" + x + ", " + v("o") + ")");
    // softmax over the last dimension
    line("mx", "f32[16]{0} reduce(" + v("res") + ", ninf), dimensions={1}, to_apply=max_f32");
    bcast("mx_b", v("mx"), "0");
    line("sh", m + "subtract(" + v("res") + ", " + v("mx_b") + ")");
    line("ex", m + "exponential(" + v("sh") + ")");
    line("den", "f32[16]{0} reduce(" + v("ex") + ", zero), dimensions={1}, to_apply=add_f32");
    bcast("den_b", v("den"), "0");
    line("sm", m + "divide(" + v("ex") + ", " + v("den_b") + ")");
    s += "  x" + n + " = " + m + "add(" + v("sm") + ", " + v("res") + ")\n";
  }
  s += "  ROOT out = f32[16,64]{1,0} copy(x" + std::to_string(layers) + ")\n}\n";
  return s;
}

void RunGpu(benchmark::State& state, const std::string& text) {
  int64_t instructions = 0, decisions = 0, kernels = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto m = ParseHloModule(text);
    if (!m.ok()) {
      state.SkipWithError(m.status().message().c_str());
      return;
    }
    instructions = (*m)->instruction_count();
    auto p = PassRegistry::Global().BuildPipeline("gpu");
    if (!p.ok()) {
      state.SkipWithError(p.status().message().c_str());
      return;
    }
    StepRecorder recorder;
    (*p)->AddInstrumentation(&recorder);
    state.ResumeTiming();
    auto changed = (*p)->Run(**m);
    benchmark::DoNotOptimize(changed);
    state.PauseTiming();
    decisions = 0;
    for (const auto& step : recorder.steps()) decisions += static_cast<int64_t>(step->decisions.size());
    kernels = recorder.steps().empty() ? 0 : recorder.steps().back()->cost.kernels;
    m->reset();  // free outside the timing
    state.ResumeTiming();
  }
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["decisions"] = static_cast<double>(decisions);
  state.counters["kernels"] = static_cast<double>(kernels);
  state.SetItemsProcessed(state.iterations() * instructions);
}

void BM_GpuPipelineGenerated(benchmark::State& state) {
  RunGpu(state, GeneratedModule(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_GpuPipelineGenerated)
    ->ArgName("instructions")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_GpuPipelineLlama(benchmark::State& state) {
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
  RunGpu(state, *text);
}
BENCHMARK(BM_GpuPipelineLlama)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
