// NVPTX backend: target machines from the target table, libdevice linking,
// the O3 pipeline, PTX emission to memory and ptxas validation.
#include "core/codegen/nvptx_backend.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <mutex>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

namespace hloscope::codegen {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

void InitNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

// One target machine per (thread, sm): creating one costs milliseconds.
StatusOr<llvm::TargetMachine*> GetTargetMachine(const NvptxTarget& target) {
  InitNvptx();
  thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> machines;
  auto& tm = machines[std::string(target.sm) + std::string(target.features)];
  if (!tm) {
    std::string error;
    const llvm::Target* t = llvm::TargetRegistry::lookupTarget(kTriple, error);
    if (!t) return Status::Error("codegen: the NVPTX target is not available in this LLVM: " + error);
    llvm::TargetOptions options;
    tm.reset(t->createTargetMachine(kTriple, std::string(target.sm), std::string(target.features), options,
                                    llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    if (!tm) return Status::Error("codegen: cannot create an NVPTX target machine for " + std::string(target.sm));
  }
  return tm.get();
}

std::string ModuleText(const llvm::Module& m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return s;
}

// The libdevice bitcode, read once.
const llvm::MemoryBuffer* LibdeviceBuffer() {
  static std::unique_ptr<llvm::MemoryBuffer> buffer = [] {
    std::unique_ptr<llvm::MemoryBuffer> b;
    std::string path = LibdevicePath();
    if (path.empty()) return b;
    auto r = llvm::MemoryBuffer::getFile(path);
    if (r) b = std::move(*r);
    return b;
  }();
  return buffer.get();
}

bool CallsLibdevice(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) return true;
  return false;
}

Status LinkLibdevice(llvm::Module& m) {
  std::vector<std::string> names;
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) names.push_back(f.getName().str());
  if (names.empty()) return Status::Ok();
  const llvm::MemoryBuffer* buf = LibdeviceBuffer();
  if (!buf)
    return Status::Error("codegen: the kernel calls " + names[0] +
                         " but libdevice.10.bc was not found (set HLOSCOPE_LIBDEVICE or install the CUDA toolkit)");
  auto lib = llvm::getLazyBitcodeModule(buf->getMemBufferRef(), m.getContext());
  if (!lib) return Status::Error("codegen: cannot read libdevice: " + llvm::toString(lib.takeError()));
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return Status::Error("codegen: linking libdevice failed");
  // Internalize what came from libdevice so that O3 inlines and drops it.
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && f.getName().starts_with("__nv_")) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& g : m.globals())
    if (g.getName().starts_with("__nv") || g.getName().starts_with("__cudart")) g.setLinkage(llvm::GlobalValue::InternalLinkage);
  return Status::Ok();
}

void RunO3(llvm::Module& m, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
}

bool IsFile(const std::string& p) {
  std::error_code ec;
  return !p.empty() && std::filesystem::is_regular_file(p, ec);
}

std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string all(path);
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(':', start);
    if (end == std::string::npos) end = all.size();
    std::string cand = all.substr(start, end - start) + "/" + name;
    if (IsFile(cand) && access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return "";
}

// The parameter bytes of the module's largest kernel (its externally
// visible functions; libdevice's are internal by then).
uint64_t KernelParameterBytes(const llvm::Module& m) {
  const llvm::DataLayout& dl = m.getDataLayout();
  uint64_t most = 0;
  for (const llvm::Function& f : m) {
    if (f.isDeclaration() || f.hasLocalLinkage()) continue;
    uint64_t bytes = 0;
    for (const llvm::Argument& a : f.args()) {
      const uint64_t align = dl.getABITypeAlign(a.getType()).value();
      bytes = (bytes + align - 1) / align * align + dl.getTypeAllocSize(a.getType()).getFixedValue();
    }
    most = std::max(most, bytes);
  }
  return most;
}

// PTX before ISA 8.1 allows a kernel 4,352 bytes of parameters (544
// pointers); 8.1 (CUDA 12.1) allows 32,764 on sm_70 and newer. A kernel
// with more arguments (a concatenate of hundreds of buffers, as
// all-reduce-contiguous writes them) is emitted as PTX 8.1.
NvptxTarget ForParameters(const NvptxTarget& target, uint64_t bytes) {
  if (bytes <= 4352) return target;
  std::string_view f = target.features;
  int version = 0;
  if (f.size() > 4 && f.substr(0, 4) == "+ptx") version = std::atoi(std::string(f.substr(4)).c_str());
  if (version >= 81) return target;
  NvptxTarget wide = target;
  wide.features = "+ptx81";
  return wide;
}

}  // namespace

std::string PtxasPath() {
  if (const char* e = std::getenv("HLOSCOPE_PTXAS"); e && *e) return IsFile(e) ? e : "";
#ifdef HLOSCOPE_PTXAS_PATH
  if (IsFile(HLOSCOPE_PTXAS_PATH)) return HLOSCOPE_PTXAS_PATH;
#endif
  return FindOnPath("ptxas");
}

std::string LibdevicePath() {
  if (const char* e = std::getenv("HLOSCOPE_LIBDEVICE"); e && *e) return IsFile(e) ? e : "";
  std::vector<std::string> candidates;
  std::string ptxas = PtxasPath();
  if (!ptxas.empty()) {
    std::filesystem::path root = std::filesystem::path(ptxas).parent_path().parent_path();
    candidates.push_back((root / "nvvm/libdevice/libdevice.10.bc").string());
  }
  candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc");
  for (const std::string& c : candidates)
    if (IsFile(c)) return c;
  return "";
}

StatusOr<std::unique_ptr<llvm::Module>> CreateNvptxModule(llvm::LLVMContext& ctx, const std::string& name,
                                                          const NvptxTarget& target) {
  ASSIGN_OR_RETURN(llvm::TargetMachine * tm, GetTargetMachine(target));
  auto m = std::make_unique<llvm::Module>(name, ctx);
  m->setTargetTriple(kTriple);
  m->setDataLayout(tm->createDataLayout());
  m->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
  return m;
}

StatusOr<PtxCode> CompileToPtx(llvm::Module& m, const NvptxTarget& requested) {
  const NvptxTarget target = ForParameters(requested, KernelParameterBytes(m));
  ASSIGN_OR_RETURN(llvm::TargetMachine * tm, GetTargetMachine(target));
  PtxCode code;
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  if (llvm::verifyModule(m, &vos)) return Status::Error("codegen: invalid LLVM IR in " + m.getName().str() + ": " + verify);
  code.ir = ModuleText(m);
  if (CallsLibdevice(m)) RETURN_IF_ERROR(LinkLibdevice(m));
  RunO3(m, tm);
  code.optimized_ir = ModuleText(m);
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return Status::Error("codegen: the NVPTX target cannot emit PTX");
  pm.run(m);
  code.ptx = std::string(ptx.str());
  return code;
}

Status ValidatePtx(const std::string& ptx, const NvptxTarget& target) {
  std::string ptxas = PtxasPath();
  if (ptxas.empty()) return Status::Error("codegen: ptxas not found (set HLOSCOPE_PTXAS or put it on PATH)");
  char tmpl[] = "/tmp/hloscope_ptx_XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) return Status::Error("codegen: cannot create a temporary file for ptxas");
  close(fd);
  std::string in = tmpl;
  {
    std::ofstream f(in, std::ios::binary);
    f << ptx;
  }
  std::string cmd = "'" + ptxas + "' -arch=" + std::string(target.sm) + " -o /dev/null '" + in + "' 2>&1";
  std::string log;
  int rc = -1;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) log.append(buf, n);
    rc = pclose(p);
  }
  std::remove(in.c_str());
  if (rc != 0) return Status::Error("codegen: ptxas -arch=" + std::string(target.sm) + " rejected the PTX: " + log);
  return Status::Ok();
}

}  // namespace hloscope::codegen
