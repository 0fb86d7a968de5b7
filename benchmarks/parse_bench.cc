// Parse + verify throughput: a generated 100k-instruction module and the
// largest corpus module (Llama 3.1 8B, 31,855 instructions).
// Counters: bytes_per_second (text) and instructions/s; heap_x_text is the
// heap the parsed module keeps (tcmalloc's allocated bytes, or glibc's
// mallinfo2 without it) divided by the text size.
#include <benchmark/benchmark.h>
#include <malloc.h>
#if HLOSCOPE_TCMALLOC
#include <gperftools/malloc_extension_c.h>
#endif

#include <filesystem>
#include <string>

#include "core/parser/parser.h"
#include "core/verify/verifier.h"

namespace {

// A chain of elementwise/broadcast/reduce/dot instructions with metadata,
// shaped like what JAX emits.
std::string GenerateModule(int n) {
  std::string s = "HloModule gen\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                  "  ROOT s = f32[] add(a, b)\n}\n\nENTRY main {\n"
                  "  p0 = f32[128,256]{1,0} parameter(0)\n  p1 = f32[256,256]{1,0} parameter(1)\n"
                  "  z = f32[] constant(0)\n";
  std::string prev = "p0";
  for (int i = 0; i < n; ++i) {
    std::string name = "v" + std::to_string(i);
    std::string md = ", metadata={op_name=\"jit(f)/layer_" + std::to_string(i % 32) +
                     "/mul\" source_file=\"model.py\" source_line=" + std::to_string(i % 900) + "}";
    switch (i % 5) {
      case 0: s += "  " + name + " = f32[128,256]{1,0} multiply(" + prev + ", " + prev + ")" + md + "\n"; break;
      case 1: s += "  " + name + " = f32[128,256]{1,0} tanh(" + prev + ")" + md + "\n"; break;
      case 2: s += "  " + name + " = f32[128,256]{1,0} dot(" + prev + ", p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}" + md + "\n"; break;
      case 3: s += "  r" + std::to_string(i) + " = f32[128]{0} reduce(" + prev + ", z), dimensions={1}, to_apply=add\n"
                   "  " + name + " = f32[128,256]{1,0} broadcast(r" + std::to_string(i) + "), dimensions={0}" + md + "\n"; break;
      default: s += "  " + name + " = f32[128,256]{1,0} add(" + prev + ", p0)" + md + "\n"; break;
    }
    prev = name;
  }
  s += "  ROOT out = f32[128,256]{1,0} copy(" + prev + ")\n}\n";
  return s;
}

// Heap bytes in use.
double HeapInUse() {
#if HLOSCOPE_TCMALLOC
  size_t bytes = 0;
  MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &bytes);
  return static_cast<double>(bytes);
#else
  return static_cast<double>(mallinfo2().uordblks + mallinfo2().hblkhd);
#endif
}

void RunParse(benchmark::State& state, const std::string& text, bool verify) {
  int64_t instrs = 0;
  double heap = 0;
  for (auto _ : state) {
    double before = HeapInUse();
    auto m = hloscope::ParseHloModule(text, "bench");
    heap = HeapInUse() - before;
    if (!m.ok()) {
      state.SkipWithError(m.status().message().c_str());
      return;
    }
    if (verify) {
      auto st = hloscope::VerifyModule(**m);
      if (!st.ok()) {
        state.SkipWithError(st.message().c_str());
        return;
      }
    }
    instrs = (*m)->instruction_count();
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["instructions/s"] =
      benchmark::Counter(static_cast<double>(instrs) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["instructions"] = static_cast<double>(instrs);
  state.counters["text_MB"] = text.size() / 1e6;
  state.counters["heap_x_text"] = heap / static_cast<double>(text.size());
}

const std::string& LlamaText() {
  static std::string text = [] {
    std::string path =
        std::string(HLOSCOPE_SHARED_DIR) + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo";
    auto t = hloscope::ReadFileToString(path);
    return t.ok() ? *t : std::string();
  }();
  return text;
}

void BM_ParseGenerated(benchmark::State& state) {
  static std::string text = GenerateModule(static_cast<int>(state.range(0)));
  RunParse(state, text, false);
}
BENCHMARK(BM_ParseGenerated)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ParseVerifyGenerated(benchmark::State& state) {
  static std::string text = GenerateModule(static_cast<int>(state.range(0)));
  RunParse(state, text, true);
}
BENCHMARK(BM_ParseVerifyGenerated)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ParseLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  RunParse(state, LlamaText(), false);
}
BENCHMARK(BM_ParseLlama)->Unit(benchmark::kMillisecond);

void BM_ParseVerifyLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  RunParse(state, LlamaText(), true);
}
BENCHMARK(BM_ParseVerifyLlama)->Unit(benchmark::kMillisecond);

// The verifier alone, on a module parsed once.
void BM_VerifyLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  auto m = hloscope::ParseHloModule(LlamaText(), "bench");
  if (!m.ok()) {
    state.SkipWithError(m.status().message().c_str());
    return;
  }
  for (auto _ : state) {
    auto st = hloscope::VerifyModule(**m);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      return;
    }
  }
  state.counters["instructions/s"] = benchmark::Counter(
      static_cast<double>((*m)->instruction_count()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VerifyLlama)->Unit(benchmark::kMillisecond);

}  // namespace
