// Interpreter throughput: a 1024x1024 f32 elementwise chain (target >= 100M
// elements/s, counted per op) and a 256^3 f32 dot (target: within 10x of
// the naive triple loop below, compiled with the same flags).
#include <benchmark/benchmark.h>

#include <vector>

#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"

namespace {

using namespace hloscope;

constexpr char kChain[] = R"(HloModule chain
ENTRY e {
  a = f32[1024,1024] parameter(0)
  b = f32[1024,1024] parameter(1)
  c1 = f32[1024,1024] add(a, b)
  c2 = f32[1024,1024] multiply(c1, a)
  c3 = f32[1024,1024] subtract(c2, b)
  c4 = f32[1024,1024] maximum(c3, a)
  c5 = f32[1024,1024] minimum(c4, b)
  c6 = f32[1024,1024] negate(c5)
  c7 = f32[1024,1024] abs(c6)
  ROOT c8 = f32[1024,1024] exponential(c7)
})";
constexpr int kChainOps = 8;

constexpr char kDot[] = R"(HloModule dot
ENTRY e {
  a = f32[256,256] parameter(0)
  b = f32[256,256] parameter(1)
  ROOT d = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";

void BM_EvalElementwiseChain(benchmark::State& state) {
  auto m = ParseHloModule(kChain);
  if (!m.ok()) {
    state.SkipWithError(m.status().message().c_str());
    return;
  }
  std::vector<Literal> args = MakeRandomInputs(*(*m)->entry(), 1);
  for (auto _ : state) {
    auto r = EvaluateModule(**m, args);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * int64_t{1024} * 1024 * kChainOps);
}
BENCHMARK(BM_EvalElementwiseChain)->Unit(benchmark::kMillisecond);

void BM_EvalDot256(benchmark::State& state) {
  auto m = ParseHloModule(kDot);
  if (!m.ok()) {
    state.SkipWithError(m.status().message().c_str());
    return;
  }
  std::vector<Literal> args = MakeRandomInputs(*(*m)->entry(), 1);
  for (auto _ : state) {
    auto r = EvaluateModule(**m, args);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * int64_t{256} * 256 * 256);
}
BENCHMARK(BM_EvalDot256)->Unit(benchmark::kMillisecond);

// Reference: the textbook i-j-k loop over row-major arrays.
void BM_NaiveTripleLoop256(benchmark::State& state) {
  constexpr int n = 256;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 17) * 0.25f - 2;
    b[i] = static_cast<float>(i % 13) * 0.5f - 3;
  }
  for (auto _ : state) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float acc = 0;
        for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * int64_t{n} * n * n);
}
BENCHMARK(BM_NaiveTripleLoop256)->Unit(benchmark::kMillisecond);

}  // namespace
