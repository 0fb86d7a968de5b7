#include "core/codegen/cpu_jit.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "core/codegen/cpu_retarget.h"

namespace hloscope::codegen::cpu {

struct CpuJit::Host {
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string triple;
};

namespace {
std::string ToString(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}
}  // namespace

StatusOr<std::unique_ptr<CpuJit>> CpuJit::Create() {
  static bool init = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)init;
  std::unique_ptr<CpuJit> j(new CpuJit());
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return Error("cpu jit: cannot detect the host: " + ToString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  auto tm = jtmb->createTargetMachine();
  if (!tm) return Error("cpu jit: no target machine for the host: " + ToString(tm.takeError()));
  j->host_ = std::make_unique<Host>();
  j->host_->triple = jtmb->getTargetTriple().str();
  j->host_->tm = std::move(*tm);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) return Error("cpu jit: " + ToString(jit.takeError()));
  j->jit_ = std::move(*jit);
  llvm::orc::SymbolMap syms;
  for (auto& [name, addr] : RuntimeSymbols())
    syms[j->jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(addr),
                                            llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (auto err = j->jit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(syms))))
    return Error("cpu jit: " + ToString(std::move(err)));
  return j;
}

CpuJit::~CpuJit() = default;

std::string CpuJit::HostTriple() const { return host_->triple; }

const CompiledKernel* CpuJit::Find(const std::string& name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : &it->second;
}

void* CpuJit::FindGlobal(const std::string& name) const {
  auto sym = jit_->lookup(name + ".host");
  if (!sym) {
    llvm::consumeError(sym.takeError());
    return nullptr;
  }
  return sym->toPtr<void*>();
}

Status CpuJit::AddKernel(const std::string& name, const std::string& ir) {
  if (kernels_.count(name)) return Status::Ok();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m =
      llvm::parseIR(llvm::MemoryBufferRef(ir, name + ".ll"), diag, *ctx);
  if (!m)
    return Error("kernel '" + name + "': " + std::to_string(diag.getLineNo()) + ":" +
                 std::to_string(diag.getColumnNo() + 1) + ": error: " + diag.getMessage().str());
  // The line info (.loc for the NVPTX backend, line_info.h) has no use on
  // the host, and the retargeting's new functions carry none.
  llvm::StripDebugInfo(*m);
  ASSIGN_OR_RETURN(RetargetInfo info, RetargetForHost(*m, name, host_->triple, host_->tm->createDataLayout()));
  std::string verr;
  llvm::raw_string_ostream vos(verr);
  if (llvm::verifyModule(*m, &vos)) return Error("kernel '" + name + "': invalid IR after retargeting: " + vos.str());
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(host_->tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    mpm.run(*m, mam);
  }
  if (auto err = jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
    return Error("kernel '" + name + "': " + ToString(std::move(err)));
  auto sym = jit_->lookup(info.entry);
  if (!sym) return Error("kernel '" + name + "': " + ToString(sym.takeError()));
  kernels_[name] = CompiledKernel{sym->toPtr<KernelEntry>(), info.needs_sync};
  return Status::Ok();
}

}  // namespace hloscope::codegen::cpu
