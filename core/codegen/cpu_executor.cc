#include "core/codegen/cpu_executor.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <thread>

#include "core/codegen/cpu_jit.h"
#include "core/eval/rng_state.h"
#include "core/runtime/plan_io.h"

namespace hloscope::codegen {
namespace {

using runtime::PlanAllocation;
using runtime::Slice;

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

// One host buffer per allocation (256-byte aligned, as cuMemAlloc's are).
class CpuPlanExecutor : public runtime::PlanExecutor {
 public:
  CpuPlanExecutor(const runtime::ThunkPlan& plan, const cpu::CpuJit& jit) : plan_(plan), jit_(jit) {}

  Status Allocate() {
    for (const PlanAllocation& a : plan_.allocations) {
      size_t bytes = (static_cast<size_t>(a.size) + 255) / 256 * 256;
      if (bytes == 0) bytes = 256;
      auto* p = static_cast<uint8_t*>(std::aligned_alloc(256, bytes));
      if (!p) return Error("cpu: cannot allocate " + std::to_string(a.size) + " bytes for allocation " + std::to_string(a.index));
      buffers_.emplace_back(p);
    }
    return Status::Ok();
  }
  uint8_t* At(const Slice& s) { return buffers_[s.allocation].get() + s.offset; }

  Status Reset(const std::vector<Literal>& leaves) {
    // The kernels' random-number state starts from the seed in every run.
    if (void* state = jit_.FindGlobal(kRngStateGlobal)) {
      const uint64_t seed[2] = {kRngStateSeedLo, kRngStateSeedHi};
      std::memcpy(state, seed, sizeof seed);
    }
    for (size_t i = 0; i < plan_.allocations.size(); ++i) {
      const PlanAllocation& a = plan_.allocations[i];
      std::memset(buffers_[i].get(), 0, static_cast<size_t>(a.size));
      if (a.kind == "constant" && !a.init.empty()) std::memcpy(buffers_[i].get(), a.init.data(), a.init.size());
    }
    for (size_t i = 0; i < plan_.parameters.size(); ++i) {
      const runtime::PlanValue& p = plan_.parameters[i];
      ASSIGN_OR_RETURN(Shape s, runtime::PlanValueShape(p));
      ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, runtime::LiteralToBuffer(leaves[i], s));
      if (static_cast<int64_t>(bytes.size()) > p.slice.size)
        return Error("parameter " + std::to_string(p.parameter_number) + ": " + std::to_string(bytes.size()) +
                     " bytes do not fit its slice of " + std::to_string(p.slice.size));
      if (!bytes.empty()) std::memcpy(At(p.slice), bytes.data(), bytes.size());
    }
    return Status::Ok();
  }

  Status Launch(const runtime::KernelThunk& k) override {
    const cpu::CompiledKernel* ck = jit_.Find(runtime::KernelFunction(k));
    if (!ck) return Error("kernel '" + runtime::KernelFunction(k) + "': no code was given for it");
    std::vector<void*> args;
    for (const Slice& s : k.args) args.push_back(At(s));
    auto t0 = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(cpu::RunGrid(ck->entry, args.data(), k.dims, ck->needs_sync, k.name));
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    auto it = timing_index_.find(&k);
    if (it == timing_index_.end()) {
      it = timing_index_.emplace(&k, timings_.size()).first;
      timings_.push_back(runtime::KernelTiming{&k, {}});
    }
    timings_[it->second].us.push_back(us);
    return Status::Ok();
  }
  Status Copy(const runtime::CopyThunk& c) override {
    std::memmove(At(c.dst), At(c.src), static_cast<size_t>(c.src.size));
    return Status::Ok();
  }
  Status Memset(const runtime::MemsetThunk& m) override {
    uint8_t* p = At(m.dst);
    for (int64_t i = 0; i + 4 <= m.dst.size; i += 4) std::memcpy(p + i, &m.pattern, 4);
    return Status::Ok();
  }
  Status Read(const Slice& s, std::vector<uint8_t>* out) override {
    out->assign(At(s), At(s) + s.size);
    return Status::Ok();
  }

  std::vector<runtime::KernelTiming> TakeTimings() { return std::move(timings_); }

 private:
  const runtime::ThunkPlan& plan_;
  const cpu::CpuJit& jit_;
  std::vector<std::unique_ptr<uint8_t, FreeDeleter>> buffers_;
  std::vector<runtime::KernelTiming> timings_;
  std::map<const runtime::KernelThunk*, size_t> timing_index_;
};

}  // namespace

StatusOr<runtime::RunResult> RunOnCpu(const runtime::ThunkPlan& plan, const std::vector<CpuKernelSource>& kernels,
                                      const std::vector<Literal>& inputs, const CpuRunOptions& opts) {
  RETURN_IF_ERROR(runtime::ValidatePlanForRun(plan));
  ASSIGN_OR_RETURN(std::vector<Literal> leaves, runtime::ParameterLeaves(plan, inputs));
  ASSIGN_OR_RETURN(std::unique_ptr<cpu::CpuJit> jit, cpu::CpuJit::Create());
  std::map<std::string, const CpuKernelSource*> by_name;
  for (const CpuKernelSource& k : kernels) by_name[k.name] = &k;
  for (const runtime::KernelThunk* k : runtime::DistinctKernels(plan)) {
    const std::string& fn = runtime::KernelFunction(*k);
    auto it = by_name.find(fn);
    if (it == by_name.end()) return Error("kernel '" + fn + "': no LLVM IR was given for it");
    RETURN_IF_ERROR(jit->AddKernel(fn, it->second->ir));
  }
  CpuPlanExecutor exec(plan, *jit);
  RETURN_IF_ERROR(exec.Allocate());
  runtime::RunResult result;
  result.device = "cpu (" + jit->HostTriple() + ", emulated GPU threads)";
  for (int r = 0; r < std::max(1, opts.repeat); ++r) {
    RETURN_IF_ERROR(exec.Reset(leaves));
    auto t0 = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(runtime::RunThunks(plan.thunks, exec, opts.limits));
    result.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  for (const runtime::PlanValue& o : plan.outputs) {
    ASSIGN_OR_RETURN(Shape s, runtime::PlanValueShape(o));
    std::vector<uint8_t> bytes;
    RETURN_IF_ERROR(exec.Read(o.slice, &bytes));
    ASSIGN_OR_RETURN(Literal l, runtime::LiteralFromBuffer(bytes.data(), std::min<size_t>(bytes.size(), s.byte_size()), s));
    result.outputs.push_back(std::move(l));
  }
  result.kernels = exec.TakeTimings();
  return result;
}

StatusOr<runtime::RunResult> RunOnCpu(const CodegenResult& code, const std::vector<Literal>& inputs,
                                      const CpuRunOptions& opts) {
  std::vector<CpuKernelSource> sources;
  for (const KernelCode& k : code.kernels)
    if (k.same_as < 0 && k.missing.empty()) sources.push_back({k.kernel, k.ir});
  return RunOnCpu(code.plan, sources, inputs, opts);
}

}  // namespace hloscope::codegen
