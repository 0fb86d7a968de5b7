#include "core/codegen/cpu_executor.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "core/codegen/cpu_jit.h"
#include "core/eval/rng_state.h"
#include "core/runtime/collective_exchange.h"
#include "core/runtime/plan_io.h"

namespace hloscope::codegen {
namespace {

using runtime::PlanAllocation;
using runtime::Slice;

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

// What the devices of one run share: the kernels' code (the emulated
// threads and the random-number state are globals of the JIT, so launches
// take turns, each device with its own random-number state) and the meeting
// point of the collectives.
struct SharedDevices {
  std::mutex launch;
  std::unique_ptr<runtime::DeviceRendezvous> rendezvous;
};

// One host buffer per allocation (256-byte aligned, as cuMemAlloc's are).
class CpuPlanExecutor : public runtime::PlanExecutor {
 public:
  CpuPlanExecutor(const runtime::ThunkPlan& plan, const cpu::CpuJit& jit) : plan_(plan), jit_(jit) {}
  // Device `device` of a run of every device of the plan.
  CpuPlanExecutor(const runtime::ThunkPlan& plan, const cpu::CpuJit& jit, SharedDevices* shared, int64_t device)
      : plan_(plan), jit_(jit), shared_(shared), device_(device) {}

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
    const uint64_t seed[2] = {kRngStateSeedLo, kRngStateSeedHi};
    std::memcpy(rng_state_, seed, sizeof seed);
    if (!shared_)
      if (void* state = jit_.FindGlobal(kRngStateGlobal)) std::memcpy(state, seed, sizeof seed);
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
    std::unique_lock<std::mutex> turn;
    void* state = nullptr;
    if (shared_) {
      turn = std::unique_lock<std::mutex>(shared_->launch);
      state = jit_.FindGlobal(kRngStateGlobal);
      if (state) std::memcpy(state, rng_state_, sizeof rng_state_);
    }
    auto t0 = std::chrono::steady_clock::now();
    Status ran = cpu::RunGrid(ck->entry, args.data(), k.dims, ck->needs_sync, k.name);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (state) std::memcpy(rng_state_, state, sizeof rng_state_);
    RETURN_IF_ERROR(ran);
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

  // On one device of several: the data leaves through the rendezvous, and
  // the device ids are this device's.
  Status Collective(const runtime::CollectiveThunk& c) override {
    if (!shared_) return runtime::RunCollectiveOnOneDevice(c, *this);
    const int64_t replica = device_ / plan_.partitions, partition = device_ % plan_.partitions;
    if (c.op == "partition-id" || c.op == "replica-id") {
      const uint32_t id = static_cast<uint32_t>(c.op == "partition-id" ? partition : replica);
      for (const Slice& r : c.results)
        if (r.size >= 4) std::memcpy(At(r), &id, 4);
      return Status::Ok();
    }
    if (c.op.size() > 5 && c.op.compare(c.op.size() - 5, 5, "-done") == 0) {  // the -start moved the data
      for (size_t l = 0; l < c.results.size() && l < c.operands.size(); ++l)
        if (c.operands[l].size == c.results[l].size) std::memmove(At(c.results[l]), At(c.operands[l]), c.results[l].size);
      return Status::Ok();
    }
    std::vector<Literal> mine;
    for (size_t l = 0; l < c.operands.size(); ++l) {
      if (l >= c.operand_shapes.size()) return Error(c.op + " '" + c.instruction + "': operand shapes were not recorded");
      ASSIGN_OR_RETURN(Shape s, runtime::PlanValueShape(runtime::PlanValue{c.operand_shapes[l], {}, -1, c.operands[l]}));
      ASSIGN_OR_RETURN(Literal v, runtime::LiteralFromBuffer(At(c.operands[l]), static_cast<size_t>(c.operands[l].size), s));
      mine.push_back(std::move(v));
    }
    ASSIGN_OR_RETURN(std::vector<Literal> got, shared_->rendezvous->Arrive(device_, c, std::move(mine)));
    if (got.size() != c.results.size())
      return Error(c.op + " '" + c.instruction + "': " + std::to_string(got.size()) + " results for " +
                   std::to_string(c.results.size()) + " buffers");
    for (size_t l = 0; l < got.size(); ++l) {
      ASSIGN_OR_RETURN(Shape s, runtime::PlanValueShape(runtime::PlanValue{c.result_shapes[l], {}, -1, c.results[l]}));
      ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, runtime::LiteralToBuffer(got[l], s));
      if (static_cast<int64_t>(bytes.size()) > c.results[l].size)
        return Error(c.op + " '" + c.instruction + "': result " + std::to_string(l) + " does not fit its buffer");
      if (!bytes.empty()) std::memcpy(At(c.results[l]), bytes.data(), bytes.size());
    }
    return Status::Ok();
  }

  std::vector<runtime::KernelTiming> TakeTimings() { return std::move(timings_); }

 private:
  const runtime::ThunkPlan& plan_;
  const cpu::CpuJit& jit_;
  SharedDevices* shared_ = nullptr;
  int64_t device_ = 0;
  uint8_t rng_state_[16] = {};
  std::vector<std::unique_ptr<uint8_t, FreeDeleter>> buffers_;
  std::vector<runtime::KernelTiming> timings_;
  std::map<const runtime::KernelThunk*, size_t> timing_index_;
};

}  // namespace

namespace {

StatusOr<std::unique_ptr<cpu::CpuJit>> CompileKernels(const runtime::ThunkPlan& plan,
                                                      const std::vector<CpuKernelSource>& kernels) {
  ASSIGN_OR_RETURN(std::unique_ptr<cpu::CpuJit> jit, cpu::CpuJit::Create());
  std::map<std::string, const CpuKernelSource*> by_name;
  for (const CpuKernelSource& k : kernels) by_name[k.name] = &k;
  for (const runtime::KernelThunk* k : runtime::DistinctKernels(plan)) {
    const std::string& fn = runtime::KernelFunction(*k);
    auto it = by_name.find(fn);
    if (it == by_name.end()) return Error("kernel '" + fn + "': no LLVM IR was given for it");
    RETURN_IF_ERROR(jit->AddKernel(fn, it->second->ir));
  }
  return jit;
}

// Runs the plan `opts.repeat` times on `exec` and reads the outputs back.
StatusOr<runtime::RunResult> RunAndRead(const runtime::ThunkPlan& plan, CpuPlanExecutor& exec,
                                        const std::vector<Literal>& leaves, const CpuRunOptions& opts) {
  RETURN_IF_ERROR(exec.Allocate());
  runtime::RunResult result;
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

std::vector<CpuKernelSource> SourcesOf(const CodegenResult& code) {
  std::vector<CpuKernelSource> sources;
  for (const KernelCode& k : code.kernels)
    if (k.same_as < 0 && k.missing.empty()) sources.push_back({k.kernel, k.ir});
  return sources;
}

}  // namespace

StatusOr<runtime::RunResult> RunOnCpu(const runtime::ThunkPlan& plan, const std::vector<CpuKernelSource>& kernels,
                                      const std::vector<Literal>& inputs, const CpuRunOptions& opts) {
  RETURN_IF_ERROR(runtime::ValidatePlanForRun(plan));
  ASSIGN_OR_RETURN(std::vector<Literal> leaves, runtime::ParameterLeaves(plan, inputs));
  ASSIGN_OR_RETURN(std::unique_ptr<cpu::CpuJit> jit, CompileKernels(plan, kernels));
  CpuPlanExecutor exec(plan, *jit);
  ASSIGN_OR_RETURN(runtime::RunResult result, RunAndRead(plan, exec, leaves, opts));
  result.device = "cpu (" + jit->HostTriple() + ", emulated GPU threads)";
  return result;
}

StatusOr<std::vector<runtime::RunResult>> RunOnCpuDevices(const runtime::ThunkPlan& plan,
                                                          const std::vector<CpuKernelSource>& kernels,
                                                          const std::vector<std::vector<Literal>>& inputs,
                                                          const CpuRunOptions& opts) {
  RETURN_IF_ERROR(runtime::ValidatePlanForDevices(plan));
  const int64_t devices = plan.devices();
  if (devices > kMaxCpuDevices)
    return Error("plan: runs on " + std::to_string(devices) + " devices; a CPU run takes at most " +
                 std::to_string(kMaxCpuDevices));
  if (static_cast<int64_t>(inputs.size()) != devices)
    return Error("inputs for " + std::to_string(inputs.size()) + " devices; the plan runs on " + std::to_string(devices));
  std::vector<std::vector<Literal>> leaves;
  for (int64_t d = 0; d < devices; ++d) {
    auto l = runtime::ParameterLeaves(plan, inputs[static_cast<size_t>(d)]);
    if (!l.ok()) return Error("device " + std::to_string(d) + ": " + l.status().message());
    leaves.push_back(std::move(*l));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<cpu::CpuJit> jit, CompileKernels(plan, kernels));
  SharedDevices shared;
  shared.rendezvous = std::make_unique<runtime::DeviceRendezvous>(devices);
  std::vector<StatusOr<runtime::RunResult>> results(static_cast<size_t>(devices), Status::Error("not run"));
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < devices; ++d)
    threads.emplace_back([&, d] {
      CpuPlanExecutor exec(plan, *jit, &shared, d);
      results[static_cast<size_t>(d)] = RunAndRead(plan, exec, leaves[static_cast<size_t>(d)], opts);
      shared.rendezvous->Leave(d, results[static_cast<size_t>(d)].ok() ? "" : "it failed: " + results[static_cast<size_t>(d)].status().message());
    });
  for (std::thread& t : threads) t.join();
  std::vector<runtime::RunResult> out;
  for (int64_t d = 0; d < devices; ++d) {
    auto& r = results[static_cast<size_t>(d)];
    if (!r.ok()) return Error("device " + std::to_string(d) + " of " + std::to_string(devices) + ": " + r.status().message());
    r->device = "cpu (" + jit->HostTriple() + ", emulated GPU threads), device " + std::to_string(d) + " of " +
                std::to_string(devices);
    out.push_back(std::move(*r));
  }
  return out;
}

StatusOr<std::vector<runtime::RunResult>> RunOnCpuDevices(const CodegenResult& code,
                                                          const std::vector<std::vector<Literal>>& inputs,
                                                          const CpuRunOptions& opts) {
  return RunOnCpuDevices(code.plan, SourcesOf(code), inputs, opts);
}

StatusOr<runtime::RunResult> RunOnCpu(const CodegenResult& code, const std::vector<Literal>& inputs,
                                      const CpuRunOptions& opts) {
  return RunOnCpu(code.plan, SourcesOf(code), inputs, opts);
}

}  // namespace hloscope::codegen
