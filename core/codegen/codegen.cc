// GenerateKernels: kernel plan → one LLVM module per kernel → PTX.
#include "core/codegen/codegen.h"
#include "core/codegen/emitters.h"
#include "core/stablehlo/load_module.h"

#include <cctype>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <unordered_map>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <nlohmann/json.hpp>

#include "core/codegen/kernel_key.h"
#include "core/codegen/kernel_plan.h"
#include "core/codegen/line_info.h"
#include "core/codegen/nvptx_backend.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/pipeline.h"
#include "core/verify/verifier.h"

namespace hloscope::codegen {

namespace {

// Splat literals expand on first read (Literal::Materialize); expand every
// one now, on this thread, so that the compiling threads only read.
void MaterializeLiterals(const Literal& l) {
  if (l.IsTuple()) {
    for (const Literal& e : l.tuple_elements()) MaterializeLiterals(e);
  } else if (!l.elided()) {
    (void)l.raw_size();
  }
}

// What compiling one kernel gave: code, a reason why there is none, or an
// error that stops codegen.
struct Outcome {
  bool done = false;
  Status error = Status::Ok();
  std::string missing;
  KernelCode code;
  EmittedKernel emitted;
};

std::string PtxEntryName(const std::string& ptx, const std::string& fallback);

// Kernels assembled and disassembled together at most (CompileToSassBatch).
constexpr size_t kSassBatch = 48;

Outcome CompileKernel(const KernelSpec& spec, const NvptxTarget& target, const CodegenOptions& options) {
  Outcome out;
  out.done = true;
  auto start = std::chrono::steady_clock::now();
  auto missing = [&](const Status& why) {
    std::string msg = why.message();
    if (msg.rfind("codegen: ", 0) == 0) msg = msg.substr(9);
    out.missing = msg;
    return out;
  };
  StatusOr<KernelEmitterFn> emit = SelectEmitter(*spec.instr);
  if (!emit.ok()) return missing(emit.status());
  llvm::LLVMContext ctx;
  auto m = CreateNvptxModule(ctx, spec.name, target);
  if (!m.ok()) {
    out.error = m.status();
    return out;
  }
  StatusOr<EmittedKernel> emitted = (*emit)(**m, spec);
  Status why = emitted.ok() ? Status::Ok() : emitted.status();
  if (emitted.ok()) {
    out.emitted = *emitted;
  } else if (*emit != &EmitLoopKernel) {
    // A kernel its hero's emitter does not take (a reduce or dot under other
    // ops, as in XLA GPU's Triton fusions; a complex reduction) is computed
    // elementally, each output element redoing its reductions: correct, if
    // slower. Only where that fails too is the kernel missing, with the hero
    // emitter's reason.
    auto fresh = CreateNvptxModule(ctx, spec.name, target);
    if (fresh.ok()) {
      StatusOr<EmittedKernel> elemental = EmitLoopKernel(**fresh, spec);
      if (elemental.ok()) {
        m = std::move(fresh);
        out.emitted = *elemental;
        out.emitted.kind = "elemental";
        why = Status::Ok();
      }
    }
  }
  if (!why.ok()) return missing(why);
  KernelCode& code = out.code;
  if (options.emit_ptx) {
    auto ptx = CompileToPtx(**m, target);
    if (!ptx.ok()) {
      out.error = Status::Error(ptx.status().message() + " (kernel " + spec.name + ")");
      return out;
    }
    code.ir = std::move(ptx->ir);
    code.optimized_ir = std::move(ptx->optimized_ir);
    code.ptx = std::move(ptx->ptx);
    if (options.validate) {
      Status v = ValidatePtx(code.ptx, target);
      if (!v.ok()) {
        out.error = Status::Error(v.message() + " (kernel " + spec.name + ")");
        return out;
      }
    }
  } else {
    llvm::raw_string_ostream os(code.ir);
    (*m)->print(os, nullptr);
  }
  code.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// The entry function a kernel's PTX defines (`.visible .entry NAME(`), or
// `fallback`.
std::string PtxEntryName(const std::string& ptx, const std::string& fallback) {
  const std::string key = ".entry ";
  size_t at = ptx.find(key);
  if (at == std::string::npos) return fallback;
  at += key.size();
  size_t end = ptx.find_first_of("( \n", at);
  return end == std::string::npos ? fallback : ptx.substr(at, end - at);
}

// The manifest's "resources" of a launch: ptxas's numbers, the SASS classes
// and the occupancy of this launch's block on every device preset.
std::string ResourcesJson(const KernelCode& code, const runtime::KernelThunk& t) {
  nlohmann::ordered_json j;
  const KernelResources& r = code.resources;
  j["registers"] = r.registers;
  j["spill_stores"] = r.spill_stores;
  j["spill_loads"] = r.spill_loads;
  j["stack_bytes"] = r.stack_bytes;
  j["shared_bytes"] = r.shared_bytes + t.dims.shared_bytes;
  j["static_shared_bytes"] = r.shared_bytes;
  j["dynamic_shared_bytes"] = t.dims.shared_bytes;
  j["barriers"] = r.barriers;
  j["constant_bytes"] = r.constant_bytes;
  const SassStats& s = code.sass_stats;
  j["sass_instructions"] = {{"total", s.total}, {"memory", s.memory}, {"fma_alu", s.fma_alu},
                            {"tensor", s.tensor}, {"control", s.control}, {"other", s.other}};
  const int64_t threads = int64_t{t.dims.block[0]} * t.dims.block[1] * t.dims.block[2];
  nlohmann::ordered_json occ = nlohmann::ordered_json::object();
  for (const std::string& id : DevicePresetIds()) {
    auto d = LoadDevice(id);
    if (!d.ok()) continue;
    Occupancy o = ComputeOccupancy(r, threads, t.dims.shared_bytes, *d);
    occ[id] = {{"active_warps_per_sm", o.active_warps_per_sm}, {"max_warps_per_sm", o.max_warps_per_sm},
               {"blocks_per_sm", o.blocks_per_sm}, {"limited_by", o.limited_by}};
  }
  j["occupancy"] = std::move(occ);
  return j.dump();
}

}  // namespace

StatusOr<CodegenResult> GenerateKernels(const Module& optimized, const BufferAssignment& buffers,
                                        const CodegenOptions& options) {
  std::optional<NvptxTarget> target = FindNvptxTarget(options.sm);
  if (!target) return Status::Error("codegen: unknown GPU target '" + options.sm + "' (known: " + NvptxTargetList() + ")");
  DeviceSpec device = options.device ? *options.device : CurrentDevice();
  ASSIGN_OR_RETURN(KernelPlan kp, BuildKernelPlan(optimized, buffers, *target, device));
  std::vector<runtime::KernelThunk*> thunks = MutableKernels(kp.plan);
  if (thunks.size() != kp.specs.size()) return Status::Error("codegen: internal error: kernel plan and specs differ");
  const auto wall_start = std::chrono::steady_clock::now();
  HloLineTable lines;
  if (options.line_info) {
    lines = MakeHloLineTable(optimized);
    for (KernelSpec& spec : kp.specs) spec.lines = &lines;
  }
  const size_t n = thunks.size();

  // Launches with equal keys share the kernel of the first (XLA's kernel reuse).
  std::vector<int> leader(n, -1);
  std::vector<size_t> work;
  {
    std::unordered_map<std::string, size_t> first;
    for (size_t k = 0; k < n; ++k) {
      if (!options.share_kernels) {
        work.push_back(k);
        continue;
      }
      auto [it, inserted] = first.emplace(KernelKey(kp.specs[k]), k);
      if (inserted) {
        work.push_back(k);
      } else {
        leader[k] = static_cast<int>(it->second);
      }
    }
  }
  for (const auto& c : optimized.computations())
    for (const auto& i : c->instructions())
      if (i->literal()) MaterializeLiterals(*i->literal());

  // The distinct kernels, on `threads` threads (this one among them).
  std::vector<Outcome> outs(n);
  int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<int>(threads, static_cast<int>(work.size())));
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t w; (w = next.fetch_add(1)) < work.size();) {
      outs[work[w]] = CompileKernel(kp.specs[work[w]], *target, options);
      done.fetch_add(1);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  {
    auto last = std::chrono::steady_clock::now();
    for (size_t w; (w = next.fetch_add(1)) < work.size();) {
      outs[work[w]] = CompileKernel(kp.specs[work[w]], *target, options);
      done.fetch_add(1);
      if (options.progress && std::chrono::steady_clock::now() - last > std::chrono::milliseconds(500)) {
        options.progress(done.load(), work.size());
        last = std::chrono::steady_clock::now();
      }
    }
  }
  for (std::thread& t : pool) t.join();
  if (options.progress && !work.empty()) options.progress(work.size(), work.size());

  // SASS for the distinct kernels, a few batches at a time: nvdisasm costs
  // about half a second per call whatever the cubin, so kernels are
  // assembled and disassembled together (CompileToSassBatch).
  if (options.sass && options.emit_ptx) {
    std::vector<size_t> with_ptx;
    for (size_t w : work)
      if (outs[w].done && outs[w].missing.empty() && outs[w].error.ok() && !outs[w].code.ptx.empty())
        with_ptx.push_back(w);
    const size_t batches = std::max<size_t>(
        1, std::max<size_t>(static_cast<size_t>(threads), (with_ptx.size() + kSassBatch - 1) / kSassBatch));
    std::atomic<size_t> next_batch{0};
    auto sass_worker = [&] {
      for (size_t b; (b = next_batch.fetch_add(1)) < batches;) {
        std::vector<SassJob> jobs;
        std::vector<size_t> which;
        for (size_t i = b; i < with_ptx.size(); i += batches) {
          KernelCode& c = outs[with_ptx[i]].code;
          jobs.push_back({PtxEntryName(c.ptx, kp.specs[with_ptx[i]].name), &c.ptx});
          which.push_back(with_ptx[i]);
        }
        if (jobs.empty()) continue;
        std::vector<StatusOr<SassCode>> got = CompileToSassBatch(jobs, *target);
        for (size_t j = 0; j < which.size(); ++j) {
          KernelCode& c = outs[which[j]].code;
          if (got[j].ok()) {
            c.sass = std::move(got[j]->sass);
            c.resources = got[j]->resources;
            c.sass_stats = got[j]->stats;
          } else {
            c.sass_error = got[j].status().message();
          }
        }
      }
    };
    std::vector<std::thread> sass_pool;
    for (int t = 1; t < threads; ++t) sass_pool.emplace_back(sass_worker);
    sass_worker();
    for (std::thread& t : sass_pool) t.join();
  }

  CodegenResult result;
  result.threads = threads;
  for (size_t k = 0; k < n; ++k) {
    const KernelSpec& spec = kp.specs[k];
    int from = leader[k];
    // A launch whose kernel could not be generated gets its own try, so that
    // its reason names its own instruction.
    if (from >= 0 && !outs[from].missing.empty()) from = -1;
    if (from < 0 && !outs[k].done) outs[k] = CompileKernel(spec, *target, options);
    const Outcome& o = from >= 0 ? outs[from] : outs[k];
    if (!o.error.ok()) return o.error;
    KernelCode code;
    if (from >= 0) {
      code.kernel = kp.specs[from].name;
      code.same_as = from;
      thunks[k]->kernel = code.kernel;
    } else if (o.missing.empty()) {
      code = std::move(outs[k].code);
      code.kernel = spec.name;
      if (spec.lines) code.hlo_file = spec.lines->file;
      ++result.distinct;
    }
    code.name = spec.name;
    code.instruction = spec.instr->name();
    if (!o.missing.empty()) {
      thunks[k]->missing = o.missing;
      thunks[k]->kind = "missing";
      code.kind = "missing";
      code.missing = o.missing;
    } else {
      thunks[k]->kind = o.emitted.kind;
      thunks[k]->strategy = o.emitted.strategy;
      thunks[k]->dims = o.emitted.dims;
      code.kind = o.emitted.kind;
      code.strategy = o.emitted.strategy;
    }
    result.kernels.push_back(std::move(code));
    // Every launch names its kernel's SASS and its own occupancy (the block
    // differs between launches of one kernel only in principle).
    const KernelCode& with_code = result.CodeOf(result.kernels.size() - 1);
    if (!with_code.sass.empty()) {
      thunks[k]->sass = with_code.kernel + ".sass";
      thunks[k]->resources_json = ResourcesJson(with_code, *thunks[k]);
    }
  }
  result.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
  result.plan = std::move(kp.plan);
  return result;
}

namespace {

// "FILE:LINE:COL: error: MESSAGE" for a codegen error that names an
// instruction (`%name`): the location is where that instruction (or, for a
// fusion the pipeline made, the first of its members with one) was written.
Status Located(const Module& m, const std::string& origin, const Status& s) {
  std::string msg = s.message();
  if (msg.rfind("codegen: ", 0) == 0) msg = msg.substr(9);
  SourceLoc loc;
  for (size_t at = msg.find('%'); at != std::string::npos && loc.line == 0; at = msg.find('%', at + 1)) {
    size_t end = at + 1;
    while (end < msg.size() && (std::isalnum(static_cast<unsigned char>(msg[end])) || msg[end] == '_' ||
                                msg[end] == '.' || msg[end] == '-' || msg[end] == '#'))
      ++end;
    while (end > at + 1 && (msg[end - 1] == '.' || msg[end - 1] == '-')) --end;  // sentence punctuation
    const std::string name = msg.substr(at + 1, end - at - 1);
    for (const auto& c : m.computations()) {
      for (const auto& i : c->instructions()) {
        if (i->name() != name) continue;
        loc = i->loc();
        if (loc.line == 0 && i->fused_computation())
          for (const auto& f : i->fused_computation()->instructions())
            if (f->loc().line > 0 && f->opcode() != Opcode::kParameter) {
              loc = f->loc();
              break;
            }
        break;
      }
      if (loc.line > 0) break;
    }
  }
  if (loc.line == 0) return Status::Error(origin + ": error: " + msg);
  return Status::Error(origin + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": error: " + msg);
}

}  // namespace

std::vector<std::string> MissingKernelMessages(const CompiledFile& f, const std::string& origin) {
  std::vector<std::string> out;
  for (const runtime::KernelThunk* k : runtime::MissingKernels(f.codegen.plan)) {
    std::string why = k->missing;
    if (why.find('%' + k->instruction) == std::string::npos) why = "%" + k->instruction + ": " + why;
    out.push_back(f.module ? Located(*f.module, origin, Status::Error(why)).message() : origin + ": error: " + why);
  }
  return out;
}

namespace {

StatusOr<CompiledFile> CompileModule(std::unique_ptr<Module> module, const std::string& origin,
                                     const std::string& pipeline, const CodegenOptions& options) {
  CompiledFile out;
  out.module = std::move(module);
  out.module->set_source_path(origin);
  RETURN_IF_ERROR(VerifyModule(*out.module));
  // Elided constants ({...}) get deterministic values, as XLA's own runners
  // fill missing literals; the plan names them.
  out.synthesized_constants = FillElidedConstants(*out.module, options.elided_seed);
  if (!pipeline.empty()) {
    ASSIGN_OR_RETURN(auto p, PassRegistry::Global().BuildPipeline(pipeline));
    auto ran = p->Run(*out.module);
    if (!ran.ok()) return Status::Error(origin + ": pipeline " + pipeline + " failed: " + ran.status().message());
  }
  auto buffers = AssignBuffers(*out.module);
  if (!buffers.ok()) return Located(*out.module, origin, buffers.status());
  out.buffers = std::move(*buffers);
  auto code = GenerateKernels(*out.module, *out.buffers, options);
  if (!code.ok()) return Located(*out.module, origin, code.status());
  out.codegen = std::move(*code);
  out.codegen.plan.synthesized_constants = out.synthesized_constants;
  return out;
}

}  // namespace

StatusOr<CompiledFile> CompileText(const std::string& text, const std::string& origin, const std::string& pipeline,
                                   const CodegenOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module, ParseHloModule(text, origin));
  return CompileModule(std::move(module), origin, pipeline, options);
}

// HLO text, or StableHLO MLIR (by its extension) converted on the way in,
// as every command opens a file.
StatusOr<CompiledFile> CompileFile(const std::string& path, const std::string& pipeline, const CodegenOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> module, LoadModuleFile(path));
  return CompileModule(std::move(module), path, pipeline, options);
}

}  // namespace hloscope::codegen
