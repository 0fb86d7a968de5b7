// Scheduling + buffer assignment speed (issue 6): AssignBuffers (three
// schedulers, liveness, packing) on the largest corpus module (Llama 3.1 8B,
// 31,855 instructions; target ≤1 s), its parts, and heap packing alone on
// synthetic 1k/10k/100k values to show the growth (O(n log n) in practice).
// HLOSCOPE_MEMORY_BENCH_FILE=F.hlo adds F (for example the Llama module after
// `opt --pipeline gpu`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "core/memory/assignment_checker.h"
#include "core/memory/buffer_assignment.h"
#include "core/memory/heap_packing.h"
#include "core/memory/logical_buffers.h"
#include "core/memory/schedule.h"
#include "core/parser/parser.h"

namespace {

using hloscope::HeapItem;

// n values defined one per position, like a schedule: 90% die within a few
// positions, the rest live for up to 1,000 positions. With `tail`, 1% live
// for up to the whole program instead (weights, saved activations), so the
// number of values live at once grows with n. Sizes log-uniform 64 B–16 MB.
std::vector<HeapItem> SyntheticItems(int n, bool tail) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log_size(6.0, 24.0);
  std::geometric_distribution<int64_t> short_life(0.125);
  std::uniform_int_distribution<int64_t> medium_life(1, 1000);
  std::uniform_int_distribution<int> kind(0, 99);
  std::vector<HeapItem> items(n);
  for (int k = 0; k < n; ++k) {
    int which = kind(rng);
    int64_t life = which < 90                ? short_life(rng)
                   : which < 99 || !tail ? medium_life(rng)
                                         : std::uniform_int_distribution<int64_t>(1, n)(rng);
    items[k].start = k;
    items[k].end = std::min<int64_t>(n - 1, k + life);
    items[k].bytes = static_cast<int64_t>(std::exp2(log_size(rng)));
  }
  return items;
}

void BM_PackSynthetic(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<HeapItem> items = SyntheticItems(n, state.range(1) != 0);
  int64_t heap = 0;
  for (auto _ : state) {
    hloscope::HeapResult r = hloscope::PackHeap(items, 64);
    heap = r.heap_bytes;
    benchmark::DoNotOptimize(r);
  }
  int64_t bound = hloscope::HeapLowerBound(items, 64);
  state.counters["values"] = n;
  state.counters["ratio"] = bound ? static_cast<double>(heap) / static_cast<double>(bound) : 1.0;
  state.counters["ns_per_value"] = benchmark::Counter(static_cast<double>(n) * state.iterations(),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PackSynthetic)
    ->ArgsProduct({{1000, 10000, 100000}, {0, 1}})
    ->ArgNames({"values", "tail"})
    ->Unit(benchmark::kMillisecond);

void BM_LowerBoundSynthetic(benchmark::State& state) {
  std::vector<HeapItem> items = SyntheticItems(static_cast<int>(state.range(0)), true);
  for (auto _ : state) benchmark::DoNotOptimize(hloscope::HeapLowerBound(items, 64));
}
BENCHMARK(BM_LowerBoundSynthetic)->Arg(100000)->Unit(benchmark::kMillisecond);

const hloscope::Module* LoadOnce(const std::string& path) {
  static std::map<std::string, std::unique_ptr<hloscope::Module>> cache;
  auto it = cache.find(path);
  if (it == cache.end()) {
    auto m = hloscope::ParseHloFile(path);
    it = cache.emplace(path, m.ok() ? std::move(*m) : nullptr).first;
  }
  return it->second.get();
}

const hloscope::Module* Llama() {
  return LoadOnce(std::string(HLOSCOPE_SHARED_DIR) + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo");
}

void RunAssign(benchmark::State& state, const hloscope::Module* m) {
  if (!m) {
    state.SkipWithError("module absent (../shared/corpus or HLOSCOPE_MEMORY_BENCH_FILE)");
    return;
  }
  std::shared_ptr<const hloscope::BufferAssignment> ba;
  for (auto _ : state) {
    auto r = hloscope::AssignBuffers(*m);
    if (!r.ok()) {
      state.SkipWithError(r.status().message().c_str());
      return;
    }
    ba = *r;
  }
  state.counters["instructions"] = static_cast<double>(m->entry()->instruction_count());
  state.counters["buffers"] = static_cast<double>(ba->buffers.size());
  state.counters["ratio"] = ba->ratio();
}

// Schedule (dfs, list, postorder) + liveness + packing: the target.
void BM_AssignBuffersLlama(benchmark::State& state) { RunAssign(state, Llama()); }
BENCHMARK(BM_AssignBuffersLlama)->Unit(benchmark::kMillisecond);

void BM_AssignBuffersFile(benchmark::State& state) {
  const char* f = std::getenv("HLOSCOPE_MEMORY_BENCH_FILE");
  if (!f) {
    state.SkipWithError("HLOSCOPE_MEMORY_BENCH_FILE not set");
    return;
  }
  RunAssign(state, LoadOnce(f));
}
BENCHMARK(BM_AssignBuffersFile)->Unit(benchmark::kMillisecond);

// The parts, on Llama.
void BM_ScheduleLlama(benchmark::State& state) {
  const hloscope::Module* m = Llama();
  if (!m) {
    state.SkipWithError("corpus absent");
    return;
  }
  for (auto _ : state) {
    switch (state.range(0)) {
      case 0: benchmark::DoNotOptimize(hloscope::DfsSchedule(*m->entry())); break;
      case 1: benchmark::DoNotOptimize(hloscope::ListSchedule(*m->entry())); break;
      default: benchmark::DoNotOptimize(hloscope::PostorderBySizeSchedule(*m->entry())); break;
    }
  }
  state.SetLabel(state.range(0) == 0 ? "dfs" : state.range(0) == 1 ? "list" : "postorder");
}
BENCHMARK(BM_ScheduleLlama)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_LivenessLlama(benchmark::State& state) {
  const hloscope::Module* m = Llama();
  if (!m) {
    state.SkipWithError("corpus absent");
    return;
  }
  hloscope::Sequence seq = hloscope::ListSchedule(*m->entry());
  for (auto _ : state) {
    hloscope::BufferAnalysis a = hloscope::AnalyzeBuffers(*m, seq);
    benchmark::DoNotOptimize(hloscope::LiveBytes(a, 64, false));
  }
}
BENCHMARK(BM_LivenessLlama)->Unit(benchmark::kMillisecond);

void BM_PackLlama(benchmark::State& state) {
  const hloscope::Module* m = Llama();
  if (!m) {
    state.SkipWithError("corpus absent");
    return;
  }
  auto ba = hloscope::AssignBuffers(*m);
  if (!ba.ok()) {
    state.SkipWithError(ba.status().message().c_str());
    return;
  }
  // One item per temp storage (a buffer and its aliases).
  std::map<int, HeapItem> storages;
  for (const auto& b : (*ba)->buffers) {
    if (b.kind != hloscope::BufferKind::kTemp) continue;
    int s = b.id;
    for (int a : b.aliases) s = std::min(s, a);
    auto [it, fresh] = storages.try_emplace(s, HeapItem{b.start, b.end, b.bytes});
    if (!fresh) {
      it->second.start = std::min(it->second.start, b.start);
      it->second.end = std::max(it->second.end, b.end);
      it->second.bytes = std::max(it->second.bytes, b.bytes);
    }
  }
  std::vector<HeapItem> items;
  for (const auto& [s, item] : storages) items.push_back(item);
  for (auto _ : state) benchmark::DoNotOptimize(hloscope::PackHeap(items, 64));
  state.counters["values"] = static_cast<double>(items.size());
}
BENCHMARK(BM_PackLlama)->Unit(benchmark::kMillisecond);

// `memory --check` on Llama: the assignment (as above) plus the independent
// clobber checker (core/memory/assignment_checker.h); target < 2 s.
void BM_CheckLlama(benchmark::State& state) {
  const hloscope::Module* m = Llama();
  if (!m) {
    state.SkipWithError("module absent (../shared/corpus)");
    return;
  }
  int64_t values = 0;
  for (auto _ : state) {
    auto ba = hloscope::AssignBuffers(*m);
    if (!ba.ok()) {
      state.SkipWithError(ba.status().message().c_str());
      return;
    }
    std::string problem = hloscope::CheckBufferAssignment(**ba);
    hloscope::ClobberReport r = hloscope::FindClobbers(*m, **ba);
    benchmark::DoNotOptimize(problem);
    values = r.values;
    if (r.clobbered_values) state.SkipWithError("clobbered values found");
  }
  state.counters["values"] = static_cast<double>(values);
}
BENCHMARK(BM_CheckLlama)->Unit(benchmark::kMillisecond);

// The checker alone.
void BM_FindClobbersLlama(benchmark::State& state) {
  const hloscope::Module* m = Llama();
  if (!m) {
    state.SkipWithError("module absent (../shared/corpus)");
    return;
  }
  auto ba = hloscope::AssignBuffers(*m);
  if (!ba.ok()) {
    state.SkipWithError(ba.status().message().c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(hloscope::FindClobbers(*m, **ba).values);
}
BENCHMARK(BM_FindClobbersLlama)->Unit(benchmark::kMillisecond);

}  // namespace
