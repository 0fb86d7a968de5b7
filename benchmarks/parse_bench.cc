// Parse + verify throughput: a generated 100k-instruction module and the
// largest corpus module (Llama 3.1 8B, 31,855 instructions).
// The timed region is parse (+ verify); destroying the module is not in it
// (BM_DestroyLlama times that apart).
// Counters: bytes_per_second (text) and instructions/s; heap_x_text is the
// heap the parsed module keeps (tcmalloc's allocated bytes, or glibc's
// mallinfo2 without it) divided by the text size; chunks is how many text
// chunks worker threads parsed.
//
// `threads:1` runs on one thread; `threads:0` lets parser and verifier use
// every hardware thread for large inputs. Rates are per CPU second of the
// whole process (all threads added up) and, in the `real_time` variants, per
// wall-clock second — the figure the user waits for.
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

void RunParse(benchmark::State& state, const std::string& text, bool verify, int threads) {
  int64_t instrs = 0;
  double heap = 0;
  int chunks = 0;
  hloscope::ParseOptions popts;
  popts.threads = threads;
  popts.chunks_taken = &chunks;
  hloscope::VerifyOptions vopts;
  vopts.threads = threads;
  for (auto _ : state) {
    double before = HeapInUse();
    auto m = hloscope::ParseHloModule(text, "bench", popts);
    heap = HeapInUse() - before;
    if (!m.ok()) {
      state.SkipWithError(m.status().message().c_str());
      return;
    }
    if (verify) {
      auto st = hloscope::VerifyModule(**m, vopts);
      if (!st.ok()) {
        state.SkipWithError(st.message().c_str());
        return;
      }
    }
    instrs = (*m)->instruction_count();
    benchmark::DoNotOptimize(m);
    // Destroying the module is neither parsing nor verifying: outside the
    // timed region (BM_DestroyLlama measures it).
    state.PauseTiming();
    (*m).reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["instructions/s"] =
      benchmark::Counter(static_cast<double>(instrs) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["instructions"] = static_cast<double>(instrs);
  state.counters["text_MB"] = text.size() / 1e6;
  state.counters["heap_x_text"] = heap / static_cast<double>(text.size());
  state.counters["chunks"] = chunks;
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

const std::string& GeneratedText() {
  static std::string text = GenerateModule(100000);
  return text;
}

void BM_ParseGenerated(benchmark::State& state) {
  RunParse(state, GeneratedText(), false, static_cast<int>(state.range(0)));
}

void BM_ParseVerifyGenerated(benchmark::State& state) {
  RunParse(state, GeneratedText(), true, static_cast<int>(state.range(0)));
}

void BM_ParseLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  RunParse(state, LlamaText(), false, static_cast<int>(state.range(0)));
}

void BM_ParseVerifyLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  RunParse(state, LlamaText(), true, static_cast<int>(state.range(0)));
}

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
  hloscope::VerifyOptions vopts;
  vopts.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto st = hloscope::VerifyModule(**m, vopts);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      return;
    }
  }
  state.counters["instructions/s"] = benchmark::Counter(
      static_cast<double>((*m)->instruction_count()) * state.iterations(), benchmark::Counter::kIsRate);
}

// Destroying the parsed Llama module (not part of the parse figures).
void BM_DestroyLlama(benchmark::State& state) {
  if (LlamaText().empty()) {
    state.SkipWithError("corpus absent");
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    auto m = hloscope::ParseHloModule(LlamaText(), "bench");
    state.ResumeTiming();
    if (!m.ok()) {
      state.SkipWithError(m.status().message().c_str());
      return;
    }
    (*m).reset();
  }
}
BENCHMARK(BM_DestroyLlama)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

// Each case serially and with all threads, per CPU second and per wall-clock second.
#define PARSE_BENCHMARK(fn)                                                                          \
  BENCHMARK(fn)->ArgName("threads")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime(); \
  BENCHMARK(fn)                                                                                      \
      ->ArgName("threads")                                                                           \
      ->Arg(1)                                                                                       \
      ->Arg(0)                                                                                       \
      ->Unit(benchmark::kMillisecond)                                                                \
      ->MeasureProcessCPUTime()                                                                      \
      ->UseRealTime()

PARSE_BENCHMARK(BM_ParseGenerated);
PARSE_BENCHMARK(BM_ParseVerifyGenerated);
PARSE_BENCHMARK(BM_ParseLlama);
PARSE_BENCHMARK(BM_ParseVerifyLlama);
PARSE_BENCHMARK(BM_VerifyLlama);

}  // namespace
