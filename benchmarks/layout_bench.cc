// Graph building + Graphviz layout on large real modules (issue 7 targets):
//  - a 2,000-visible-node window (neighbourhood around an instruction of the
//    Llama 3.1 8B module, max_nodes raised to 2,000): interactive within 2 s;
//  - the Llama module's grouped overview (default options): within 3 s;
//  - parsing + snapshot of the Llama module (what opening it costs first).
// The corpus lives in ../shared; the benchmarks skip when it is absent.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "core/layout/graph_layout.h"
#include "core/layout/graph_model.h"
#include "core/parser/parser.h"
#include "core/passes/step_recorder.h"

namespace hloscope {
namespace {

const std::string kLlama =
    std::string(HLOSCOPE_SHARED_DIR) + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo";

struct Loaded {
  std::unique_ptr<Module> module;
  std::shared_ptr<const ModuleSnapshot> snap;
};

const Loaded* Llama() {
  static const Loaded* loaded = [] () -> const Loaded* {
    if (!std::filesystem::exists(kLlama)) return nullptr;
    auto m = ParseHloFile(kLlama);
    if (!m.ok()) return nullptr;
    auto* l = new Loaded;
    l->snap = ModuleSnapshot::Capture(**m);
    l->module = std::move(*m);
    return l;
  }();
  return loaded;
}

void BM_ParseAndSnapshotLlama(benchmark::State& state) {
  if (!std::filesystem::exists(kLlama)) return state.SkipWithError("corpus absent");
  for (auto _ : state) {
    auto m = ParseHloFile(kLlama);
    if (!m.ok()) return state.SkipWithError(m.status().message().c_str());
    auto snap = ModuleSnapshot::Capture(**m);
    benchmark::DoNotOptimize(snap);
  }
}
BENCHMARK(BM_ParseAndSnapshotLlama)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_LlamaOverview(benchmark::State& state) {
  const Loaded* l = Llama();
  if (!l) return state.SkipWithError("corpus absent");
  size_t nodes = 0, edges = 0;
  for (auto _ : state) {
    auto g = layout::BuildGraph(*l->module, *l->snap, {});
    if (!g.ok()) return state.SkipWithError(g.status().message().c_str());
    auto laid = layout::LayoutGraph(*g, {});
    if (!laid.ok()) return state.SkipWithError(laid.status().message().c_str());
    nodes = laid->nodes.size();
    edges = laid->edges.size();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["edges"] = static_cast<double>(edges);
}
BENCHMARK(BM_LlamaOverview)->Unit(benchmark::kMillisecond)->Iterations(3);

// The neighbourhood of the entry's middle instruction, grown until it holds
// about 2,000 nodes.
layout::GraphOptions Window2000(const Loaded& l) {
  layout::GraphOptions o;
  o.max_nodes = 2000;
  const ComputationRecord* entry = nullptr;
  for (const auto& c : l.snap->computations)
    if (c.is_entry) entry = &c;
  o.center_id = l.snap->instructions[entry->first_instruction + entry->instruction_count / 2].id;
  for (int hops = 4; hops < 400; hops += 4) {
    o.neighbourhood_hops = hops;
    auto g = layout::BuildGraph(*l.module, *l.snap, o);
    if (!g.ok() || g->nodes.size() >= 1900) break;
  }
  return o;
}

void BM_Window2000(benchmark::State& state) {
  const Loaded* l = Llama();
  if (!l) return state.SkipWithError("corpus absent");
  layout::GraphOptions o = Window2000(*l);
  size_t nodes = 0, edges = 0;
  for (auto _ : state) {
    auto g = layout::BuildGraph(*l->module, *l->snap, o);
    if (!g.ok()) return state.SkipWithError(g.status().message().c_str());
    auto laid = layout::LayoutGraph(*g, {});
    if (!laid.ok()) return state.SkipWithError(laid.status().message().c_str());
    nodes = laid->nodes.size();
    edges = laid->edges.size();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["hops"] = o.neighbourhood_hops;
}
BENCHMARK(BM_Window2000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace hloscope
