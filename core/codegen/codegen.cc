// GenerateKernels: kernel plan → one LLVM module per kernel → PTX.
#include "core/codegen/codegen.h"

#include <cctype>

#include <chrono>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "core/codegen/kernel_plan.h"
#include "core/codegen/nvptx_backend.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/pipeline.h"
#include "core/verify/verifier.h"

namespace hloscope::codegen {

StatusOr<CodegenResult> GenerateKernels(const Module& optimized, const BufferAssignment& buffers,
                                        const CodegenOptions& options) {
  std::optional<NvptxTarget> target = FindNvptxTarget(options.sm);
  if (!target) return Status::Error("codegen: unknown GPU target '" + options.sm + "' (known: " + NvptxTargetList() + ")");
  DeviceSpec device = options.device ? *options.device : CurrentDevice();
  ASSIGN_OR_RETURN(KernelPlan kp, BuildKernelPlan(optimized, buffers, *target, device));
  CodegenResult result;
  std::vector<runtime::KernelThunk*> thunks = MutableKernels(kp.plan);
  if (thunks.size() != kp.specs.size()) return Status::Error("codegen: internal error: kernel plan and specs differ");
  for (size_t k = 0; k < thunks.size(); ++k) {
    auto start = std::chrono::steady_clock::now();
    const KernelSpec& spec = kp.specs[k];
    // A kernel no emitter implements is marked missing, with the reason;
    // every other kernel is still generated.
    auto mark_missing = [&](const Status& why) {
      std::string msg = why.message();
      if (msg.rfind("codegen: ", 0) == 0) msg = msg.substr(9);
      thunks[k]->missing = msg;
      thunks[k]->kind = "missing";
      KernelCode code;
      code.name = spec.name;
      code.kind = "missing";
      code.instruction = spec.instr->name();
      code.missing = msg;
      result.kernels.push_back(std::move(code));
    };
    StatusOr<KernelEmitterFn> emit = SelectEmitter(*spec.instr);
    if (!emit.ok()) {
      mark_missing(emit.status());
      continue;
    }
    llvm::LLVMContext ctx;
    ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> m, CreateNvptxModule(ctx, spec.name, *target));
    StatusOr<EmittedKernel> emitted = (*emit)(*m, spec);
    if (!emitted.ok()) {
      mark_missing(emitted.status());
      continue;
    }
    EmittedKernel& ek = *emitted;
    thunks[k]->kind = ek.kind;
    thunks[k]->dims = ek.dims;
    KernelCode code;
    code.name = spec.name;
    code.kind = ek.kind;
    code.instruction = spec.instr->name();
    if (options.emit_ptx) {
      auto ptx = CompileToPtx(*m, *target);
      if (!ptx.ok()) return Status::Error(ptx.status().message() + " (kernel " + spec.name + ")");
      code.ir = std::move(ptx->ir);
      code.optimized_ir = std::move(ptx->optimized_ir);
      code.ptx = std::move(ptx->ptx);
      if (options.validate) {
        Status v = ValidatePtx(code.ptx, *target);
        if (!v.ok()) return Status::Error(v.message() + " (kernel " + spec.name + ")");
      }
    } else {
      std::string s;
      llvm::raw_string_ostream os(s);
      m->print(os, nullptr);
      code.ir = std::move(s);
    }
    code.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.kernels.push_back(std::move(code));
  }
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

StatusOr<CompiledFile> CompileText(const std::string& text, const std::string& origin, const std::string& pipeline,
                                   const CodegenOptions& options) {
  CompiledFile out;
  ASSIGN_OR_RETURN(out.module, ParseHloModule(text, origin));
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

StatusOr<CompiledFile> CompileFile(const std::string& path, const std::string& pipeline, const CodegenOptions& options) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return CompileText(text, path, pipeline, options);
}

}  // namespace hloscope::codegen
