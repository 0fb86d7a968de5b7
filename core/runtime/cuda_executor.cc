#include "core/runtime/cuda_executor.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <map>

#include "core/runtime/cuda_driver.h"
#include "core/runtime/plan_io.h"


namespace hloscope::runtime {
namespace {


struct PendingLaunch {
  size_t timing;
  CUevent start, stop;
};

class CudaPlanExecutor : public PlanExecutor {
 public:
  CudaPlanExecutor(const CudaDriver& d, const ThunkPlan& plan) : d_(d), plan_(plan) {}
  ~CudaPlanExecutor() override {
    for (PendingLaunch& l : pending_) {
      d_.cuEventDestroy(l.start);
      d_.cuEventDestroy(l.stop);
    }
    for (CUdeviceptr p : buffers_)
      if (p) d_.cuMemFree(p);
    if (scratch_) d_.cuMemFree(scratch_);
    if (mark_) d_.cuEventDestroy(mark_);
    for (auto& [name, m] : modules_) d_.cuModuleUnload(m);
    if (ctx_) d_.cuDevicePrimaryCtxRelease(dev_);
  }

  Status Open(int ordinal, std::string* device_name) {
    RETURN_IF_ERROR(d_.Check(d_.cuDeviceGet(&dev_, ordinal), "cuDeviceGet"));
    char name[256] = {0};
    RETURN_IF_ERROR(d_.Check(d_.cuDeviceGetName(name, sizeof(name) - 1, dev_), "cuDeviceGetName"));
    int major = 0, minor = 0;
    RETURN_IF_ERROR(d_.Check(d_.cuDeviceGetAttribute(&major, kAttrCcMajor, dev_), "cuDeviceGetAttribute"));
    RETURN_IF_ERROR(d_.Check(d_.cuDeviceGetAttribute(&minor, kAttrCcMinor, dev_), "cuDeviceGetAttribute"));
    *device_name = std::string(name) + " (sm_" + std::to_string(major * 10 + minor) + ")";
    cc_ = major * 10 + minor;
    RETURN_IF_ERROR(d_.Check(d_.cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain"));
    return d_.Check(d_.cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
  }

  int compute_capability() const { return cc_; }

  Status LoadKernel(const std::string& name, const std::string& ptx) {
    std::vector<char> info(1 << 14, 0), err(1 << 14, 0);
    int opts[] = {kJitInfoLogBuffer, kJitInfoLogBufferSize, kJitErrorLogBuffer, kJitErrorLogBufferSize, kJitLogVerbose};
    void* vals[] = {info.data(), reinterpret_cast<void*>(info.size() - 1), err.data(),
                    reinterpret_cast<void*>(err.size() - 1), reinterpret_cast<void*>(1)};
    CUmodule m = nullptr;
    CUresult r = d_.cuModuleLoadDataEx(&m, ptx.c_str(), 5, opts, vals);
    if (r != kCudaSuccess) {
      std::string log(err.data());
      return Error("kernel '" + name + "': cuModuleLoadDataEx: " + d_.ErrorName(r) +
                   (log.empty() ? std::string() : "\nJIT error log:\n" + log));
    }
    modules_[name] = m;
    jit_logs_ += std::string(info.data());
    CUfunction f = nullptr;
    Status st = d_.Check(d_.cuModuleGetFunction(&f, m, name.c_str()), "cuModuleGetFunction");
    if (!st.ok()) return Error("kernel '" + name + "': " + st.message());
    functions_[name] = f;
    return Status::Ok();
  }

  Status Allocate() {
    for (const PlanAllocation& a : plan_.allocations) {
      CUdeviceptr p = 0;
      Status st = d_.Check(d_.cuMemAlloc(&p, static_cast<size_t>(std::max<int64_t>(a.size, 256))), "cuMemAlloc");
      if (!st.ok()) return Error("allocation " + std::to_string(a.index) + " (" + std::to_string(a.size) + " bytes): " + st.message());
      buffers_.push_back(p);
    }
    return Status::Ok();
  }

  CUdeviceptr At(const Slice& s) const { return buffers_[s.allocation] + static_cast<CUdeviceptr>(s.offset); }

  Status Reset(const std::vector<Literal>& leaves) {
    for (size_t i = 0; i < plan_.allocations.size(); ++i) {
      const PlanAllocation& a = plan_.allocations[i];
      if (a.size == 0) continue;
      RETURN_IF_ERROR(d_.Check(d_.cuMemsetD8(buffers_[i], 0, static_cast<size_t>(a.size)), "cuMemsetD8"));
      if (a.kind == "constant" && !a.init.empty())
        RETURN_IF_ERROR(d_.Check(d_.cuMemcpyHtoD(buffers_[i], a.init.data(), a.init.size()), "cuMemcpyHtoD"));
    }
    for (size_t i = 0; i < plan_.parameters.size(); ++i) {
      const PlanValue& p = plan_.parameters[i];
      ASSIGN_OR_RETURN(Shape s, PlanValueShape(p));
      ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, LiteralToBuffer(leaves[i], s));
      if (!bytes.empty())
        RETURN_IF_ERROR(d_.Check(d_.cuMemcpyHtoD(At(p.slice), bytes.data(), std::min<size_t>(bytes.size(), p.slice.size)),
                                 "cuMemcpyHtoD"));
    }
    return Status::Ok();
  }

  Status Launch(const KernelThunk& k) override {
    auto f = functions_.find(KernelFunction(k));
    if (f == functions_.end()) return Error("kernel '" + KernelFunction(k) + "': no PTX was loaded for it");
    std::vector<CUdeviceptr> ptrs;
    for (const Slice& s : k.args) ptrs.push_back(At(s));
    std::vector<void*> params;
    for (CUdeviceptr& p : ptrs) params.push_back(&p);
    if (k.dims.shared_bytes > 48 * 1024)
      RETURN_IF_ERROR(Named(k, d_.Check(d_.cuFuncSetAttribute(f->second, kFuncMaxDynamicShared, int(k.dims.shared_bytes)),
                                        "cuFuncSetAttribute")));
    PendingLaunch l{TimingIndex(k), nullptr, nullptr};
    RETURN_IF_ERROR(Named(k, d_.Check(d_.cuEventCreate(&l.start, 0), "cuEventCreate")));
    RETURN_IF_ERROR(Named(k, d_.Check(d_.cuEventCreate(&l.stop, 0), "cuEventCreate")));
    pending_.push_back(l);
    RETURN_IF_ERROR(Named(k, d_.Check(d_.cuEventRecord(l.start, nullptr), "cuEventRecord")));
    RETURN_IF_ERROR(Named(k, d_.Check(d_.cuLaunchKernel(f->second, k.dims.grid[0], k.dims.grid[1], k.dims.grid[2],
                                                        k.dims.block[0], k.dims.block[1], k.dims.block[2],
                                                        k.dims.shared_bytes, nullptr, params.data(), nullptr),
                                      "cuLaunchKernel")));
    RETURN_IF_ERROR(Named(k, d_.Check(d_.cuEventRecord(l.stop, nullptr), "cuEventRecord")));
    if (pending_.size() >= 256) return Collect();
    return Status::Ok();
  }
  Status Copy(const CopyThunk& c) override {
    return d_.Check(d_.cuMemcpyDtoD(At(c.dst), At(c.src), static_cast<size_t>(c.src.size)), "cuMemcpyDtoD");
  }
  Status Memset(const MemsetThunk& m) override {
    return d_.Check(d_.cuMemsetD32(At(m.dst), m.pattern, static_cast<size_t>(m.dst.size / 4)), "cuMemsetD32");
  }
  Status Read(const Slice& s, std::vector<uint8_t>* out) override {
    out->resize(static_cast<size_t>(s.size));
    RETURN_IF_ERROR(Sync());
    return d_.Check(d_.cuMemcpyDtoH(out->data(), At(s), out->size()), "cuMemcpyDtoH");
  }

  // Waits for the GPU and turns pending event pairs into timings; a kernel
  // that faulted shows up here, named by the launch it belongs to.
  Status Collect() {
    for (size_t i = 0; i < pending_.size(); ++i) {
      PendingLaunch& l = pending_[i];
      CUresult r = d_.cuEventSynchronize(l.stop);
      if (r != kCudaSuccess)
        return Error("kernel '" + timings_[l.timing].kernel->name + "' (or one before it): " +
                     d_.Check(r, "cuEventSynchronize").message());
      float ms = 0;
      RETURN_IF_ERROR(d_.Check(d_.cuEventElapsedTime(&ms, l.start, l.stop), "cuEventElapsedTime"));
      timings_[l.timing].us.push_back(ms * 1000.0);
      d_.cuEventDestroy(l.start);
      d_.cuEventDestroy(l.stop);
      l.start = l.stop = nullptr;
    }
    pending_.clear();
    return Status::Ok();
  }
  Status Sync() {
    RETURN_IF_ERROR(Collect());
    return d_.Check(d_.cuCtxSynchronize(), "cuCtxSynchronize");
  }

  // Device-to-device copy bandwidth (read + write bytes per second) of one
  // `bytes` copy, best of 3 after a warm-up.
  StatusOr<double> MeasureCopy(int64_t bytes) {
    CUdeviceptr a = 0, b = 0;
    RETURN_IF_ERROR(d_.Check(d_.cuMemAlloc(&a, bytes), "cuMemAlloc (copy probe)"));
    Status st = d_.Check(d_.cuMemAlloc(&b, bytes), "cuMemAlloc (copy probe)");
    if (!st.ok()) {
      d_.cuMemFree(a);
      return st;
    }
    double best = 0;
    CUevent e0 = nullptr, e1 = nullptr;
    st = d_.Check(d_.cuEventCreate(&e0, 0), "cuEventCreate");
    if (st.ok()) st = d_.Check(d_.cuEventCreate(&e1, 0), "cuEventCreate");
    if (st.ok()) st = d_.Check(d_.cuMemsetD8(a, 1, bytes), "cuMemsetD8");
    for (int i = 0; i < 4 && st.ok(); ++i) {
      st = d_.Check(d_.cuEventRecord(e0, nullptr), "cuEventRecord");
      if (st.ok()) st = d_.Check(d_.cuMemcpyDtoD(b, a, bytes), "cuMemcpyDtoD (copy probe)");
      if (st.ok()) st = d_.Check(d_.cuEventRecord(e1, nullptr), "cuEventRecord");
      if (st.ok()) st = d_.Check(d_.cuEventSynchronize(e1), "cuEventSynchronize");
      float ms = 0;
      if (st.ok()) st = d_.Check(d_.cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
      if (st.ok() && i > 0 && ms > 0) best = std::max(best, 2.0 * double(bytes) / (ms * 1e-3) / 1e9);
    }
    if (e0) d_.cuEventDestroy(e0);
    if (e1) d_.cuEventDestroy(e1);
    d_.cuMemFree(a);
    d_.cuMemFree(b);
    RETURN_IF_ERROR(st);
    return best;
  }

  // Queues ~0.2 ms of memsets on a 64 MiB scratch buffer without waiting for
  // them, so that what is launched next starts on a busy, clocked-up GPU.
  Status WarmUp() {
    constexpr size_t kBytes = 64 << 20;
    if (!scratch_) RETURN_IF_ERROR(d_.Check(d_.cuMemAlloc(&scratch_, kBytes), "cuMemAlloc (warm-up)"));
    for (unsigned i = 0; i < 8; ++i)
      RETURN_IF_ERROR(d_.Check(d_.cuMemsetD32(scratch_, i, kBytes / 4), "cuMemsetD32 (warm-up)"));
    if (!mark_) RETURN_IF_ERROR(d_.Check(d_.cuEventCreate(&mark_, 0), "cuEventCreate"));
    return d_.Check(d_.cuEventRecord(mark_, nullptr), "cuEventRecord");
  }
  // Milliseconds on the GPU from the end of the last WarmUp to now (waits).
  StatusOr<double> SinceWarmUp() {
    CUevent end = nullptr;
    RETURN_IF_ERROR(d_.Check(d_.cuEventCreate(&end, 0), "cuEventCreate"));
    Status st = d_.Check(d_.cuEventRecord(end, nullptr), "cuEventRecord");
    if (st.ok()) st = d_.Check(d_.cuEventSynchronize(end), "cuEventSynchronize");
    float ms = 0;
    if (st.ok()) st = d_.Check(d_.cuEventElapsedTime(&ms, mark_, end), "cuEventElapsedTime");
    d_.cuEventDestroy(end);
    RETURN_IF_ERROR(st);
    return double(ms);
  }

  std::vector<KernelTiming> TakeTimings() { return std::move(timings_); }
  const std::string& jit_logs() const { return jit_logs_; }

 private:
  size_t TimingIndex(const KernelThunk& k) {
    auto it = timing_index_.find(&k);
    if (it != timing_index_.end()) return it->second;
    timing_index_[&k] = timings_.size();
    timings_.push_back(KernelTiming{&k, {}});
    return timings_.size() - 1;
  }
  static Status Named(const KernelThunk& k, Status st) {
    return st.ok() ? st : Error("kernel '" + k.name + "': " + st.message());
  }

  const CudaDriver& d_;
  const ThunkPlan& plan_;
  CUdevice dev_ = 0;
  int cc_ = 0;  // the device's compute capability, 10·major + minor
  CUcontext ctx_ = nullptr;
  std::map<std::string, CUmodule> modules_;
  std::map<std::string, CUfunction> functions_;
  std::vector<CUdeviceptr> buffers_;
  CUdeviceptr scratch_ = 0;  // WarmUp's
  CUevent mark_ = nullptr;   // recorded at the end of WarmUp
  std::vector<PendingLaunch> pending_;
  std::vector<KernelTiming> timings_;
  std::map<const KernelThunk*, size_t> timing_index_;
  std::string jit_logs_;
};

}  // namespace

Status CheckTargetRunsOn(const std::string& target, int cc, const std::string& device) {
  // "sm_90a": arch-specific features (wgmma) run on that architecture only;
  // "sm_80": on it and newer ones (the driver compiles the PTX for them).
  if (target.rfind("sm_", 0) != 0 || cc <= 0) return Status::Ok();  // older bundles name no target
  int sm = 0;
  size_t i = 3;
  while (i < target.size() && std::isdigit(static_cast<unsigned char>(target[i]))) sm = sm * 10 + (target[i++] - '0');
  const bool arch_specific = i < target.size() && target[i] == 'a';
  if (sm > cc || (arch_specific && sm != cc))
    return Error("the bundle's kernels were compiled for " + target + ", which " + device +
                 (arch_specific ? " cannot run (arch-specific code runs only on sm_" + std::to_string(sm) + ")"
                                : " cannot run (it is older)") +
                 "; regenerate it with hloscope-cli codegen --sm " + std::to_string(cc));
  return Status::Ok();
}

StatusOr<RunResult> RunOnCuda(const ThunkPlan& plan, const std::vector<BundleKernel>& kernels,
                              const std::vector<Literal>& inputs, const CudaRunOptions& opts) {
  RETURN_IF_ERROR(ValidatePlanForRun(plan));
  ASSIGN_OR_RETURN(std::vector<Literal> leaves, ParameterLeaves(plan, inputs));
  ASSIGN_OR_RETURN(const CudaDriver* d, LoadCudaDriver(opts.driver_path));
  CudaPlanExecutor exec(*d, plan);
  RunResult result;
  RETURN_IF_ERROR(exec.Open(opts.device, &result.device));
  RETURN_IF_ERROR(CheckTargetRunsOn(plan.target, exec.compute_capability(), result.device));
  std::map<std::string, const BundleKernel*> by_name;
  for (const BundleKernel& k : kernels) by_name[k.name] = &k;
  for (const KernelThunk* k : DistinctKernels(plan)) {
    const std::string& fn = KernelFunction(*k);
    auto it = by_name.find(fn);
    if (it == by_name.end() || it->second->ptx.empty()) return Error("kernel '" + fn + "': no PTX given");
    RETURN_IF_ERROR(exec.LoadKernel(fn, it->second->ptx));
  }
  if (opts.copy_probe_bytes > 0) {
    ASSIGN_OR_RETURN(result.copy_gbps, exec.MeasureCopy(opts.copy_probe_bytes));
  }
  RETURN_IF_ERROR(exec.Allocate());
  for (int r = 0; r < std::max(1, opts.repeat); ++r) {
    RETURN_IF_ERROR(exec.Reset(leaves));
    RETURN_IF_ERROR(exec.Sync());
    if (opts.warm_up) RETURN_IF_ERROR(exec.WarmUp());
    auto t0 = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(RunThunks(plan.thunks, exec, opts.limits));
    if (opts.warm_up) {  // the plan's time on the GPU, without the warm-up before it
      ASSIGN_OR_RETURN(result.total_ms, exec.SinceWarmUp());
      RETURN_IF_ERROR(exec.Sync());
      continue;
    }
    RETURN_IF_ERROR(exec.Sync());
    result.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  for (const PlanValue& o : plan.outputs) {
    ASSIGN_OR_RETURN(Shape s, PlanValueShape(o));
    std::vector<uint8_t> bytes;
    RETURN_IF_ERROR(exec.Read(o.slice, &bytes));
    ASSIGN_OR_RETURN(Literal l, LiteralFromBuffer(bytes.data(), std::min<size_t>(bytes.size(), s.byte_size()), s));
    result.outputs.push_back(std::move(l));
  }
  result.kernels = exec.TakeTimings();
  return result;
}

}  // namespace hloscope::runtime
