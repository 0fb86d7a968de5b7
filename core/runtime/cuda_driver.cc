#include "core/runtime/cuda_driver.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <type_traits>


namespace hloscope::runtime {


namespace {

// CUresult names (from cuda.h), for drivers whose cuGetErrorName fails — the
// toolkit's stub library answers every call with CUDA_ERROR_STUB_LIBRARY.
const char* KnownErrorName(CUresult r) {
  static const std::map<int, const char*> names = {
      {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
      {3, "CUDA_ERROR_NOT_INITIALIZED"}, {4, "CUDA_ERROR_DEINITIALIZED"}, {5, "CUDA_ERROR_PROFILER_DISABLED"},
      {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"}, {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
      {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"}, {34, "CUDA_ERROR_STUB_LIBRARY"},
      {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"}, {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
      {100, "CUDA_ERROR_NO_DEVICE"}, {101, "CUDA_ERROR_INVALID_DEVICE"},
      {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"}, {200, "CUDA_ERROR_INVALID_IMAGE"},
      {201, "CUDA_ERROR_INVALID_CONTEXT"}, {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
      {205, "CUDA_ERROR_MAP_FAILED"}, {206, "CUDA_ERROR_UNMAP_FAILED"}, {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
      {208, "CUDA_ERROR_ALREADY_MAPPED"}, {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
      {210, "CUDA_ERROR_ALREADY_ACQUIRED"}, {211, "CUDA_ERROR_NOT_MAPPED"},
      {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"}, {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
      {214, "CUDA_ERROR_ECC_UNCORRECTABLE"}, {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
      {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"}, {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
      {218, "CUDA_ERROR_INVALID_PTX"}, {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
      {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"}, {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
      {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}, {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
      {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"}, {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
      {226, "CUDA_ERROR_CONTAINED"}, {300, "CUDA_ERROR_INVALID_SOURCE"}, {301, "CUDA_ERROR_FILE_NOT_FOUND"},
      {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"}, {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
      {304, "CUDA_ERROR_OPERATING_SYSTEM"}, {400, "CUDA_ERROR_INVALID_HANDLE"},
      {401, "CUDA_ERROR_ILLEGAL_STATE"}, {402, "CUDA_ERROR_LOSSY_QUERY"}, {500, "CUDA_ERROR_NOT_FOUND"},
      {600, "CUDA_ERROR_NOT_READY"}, {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"}, {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
      {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"}, {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
      {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"}, {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
      {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"}, {710, "CUDA_ERROR_ASSERT"}, {711, "CUDA_ERROR_TOO_MANY_PEERS"},
      {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"}, {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
      {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"}, {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
      {716, "CUDA_ERROR_MISALIGNED_ADDRESS"}, {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
      {718, "CUDA_ERROR_INVALID_PC"}, {719, "CUDA_ERROR_LAUNCH_FAILED"},
      {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"}, {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
      {800, "CUDA_ERROR_NOT_PERMITTED"}, {801, "CUDA_ERROR_NOT_SUPPORTED"},
      {802, "CUDA_ERROR_SYSTEM_NOT_READY"}, {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
      {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"}, {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
      {806, "CUDA_ERROR_MPS_RPC_FAILURE"}, {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
      {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"}, {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
      {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"}, {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
      {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"}, {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
      {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"}, {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
      {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"}, {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
      {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"}, {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
      {907, "CUDA_ERROR_CAPTURED_EVENT"}, {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
      {909, "CUDA_ERROR_TIMEOUT"}, {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
      {911, "CUDA_ERROR_EXTERNAL_DEVICE"}, {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
      {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"}, {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
      {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"}, {916, "CUDA_ERROR_KEY_ROTATION"},
      {999, "CUDA_ERROR_UNKNOWN"},
  };
  auto it = names.find(r);
  return it == names.end() ? nullptr : it->second;
}

template <typename Fn>
bool Load(void* h, Fn& fn, std::initializer_list<const char*> names, std::string* missing) {
  for (const char* n : names) {
    if (void* p = dlsym(h, n)) {
      fn = reinterpret_cast<Fn>(p);
      return true;
    }
  }
  *missing = *names.begin();
  return false;
}

}  // namespace

std::string CudaDriver::ErrorName(CUresult r) const {
  const char* name = nullptr;
  if (cuGetErrorName && cuGetErrorName(r, &name) == kCudaSuccess && name)
    return std::string(name) + " (" + std::to_string(r) + ")";
  if (const char* known = KnownErrorName(r)) return std::string(known) + " (" + std::to_string(r) + ")";
  return "CUresult " + std::to_string(r);
}

Status CudaDriver::Check(CUresult r, const char* call) const {
  if (r == kCudaSuccess) return Status::Ok();
  std::string msg = std::string(call) + ": " + ErrorName(r);
  const char* desc = nullptr;
  if (cuGetErrorString && cuGetErrorString(r, &desc) == kCudaSuccess && desc) msg += ": " + std::string(desc);
  return Error(msg);
}

std::string CudaStubDriverPath() {
#ifdef HLOSCOPE_CUDA_STUB_DRIVER
  return HLOSCOPE_CUDA_STUB_DRIVER;
#else
  return "";
#endif
}

StatusOr<const CudaDriver*> LoadCudaDriver(const std::string& path_in) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<CudaDriver>> loaded;
  std::string path = path_in.empty() ? "libcuda.so.1" : path_in;
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded.find(path);
  std::unique_ptr<CudaDriver> d;
  if (it == loaded.end()) {
    d = std::make_unique<CudaDriver>();
    d->path = path;
    d->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!d->handle) {
      const char* e = dlerror();
      return Error("no CUDA driver: cannot load " + path + " (" + (e ? e : "unknown error") +
                   "); install the NVIDIA driver or run on a machine with a GPU");
    }
    std::string missing;
    void* h = d->handle;
    bool ok = Load(h, d->cuInit, {"cuInit"}, &missing) &&
              Load(h, d->cuDriverGetVersion, {"cuDriverGetVersion"}, &missing) &&
              Load(h, d->cuGetErrorName, {"cuGetErrorName"}, &missing) &&
              Load(h, d->cuGetErrorString, {"cuGetErrorString"}, &missing) &&
              Load(h, d->cuDeviceGetCount, {"cuDeviceGetCount"}, &missing) &&
              Load(h, d->cuDeviceGet, {"cuDeviceGet"}, &missing) &&
              Load(h, d->cuDeviceGetName, {"cuDeviceGetName"}, &missing) &&
              Load(h, d->cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, &missing) &&
              Load(h, d->cuDeviceTotalMem, {"cuDeviceTotalMem_v2"}, &missing) &&
              Load(h, d->cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, &missing) &&
              Load(h, d->cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}, &missing) &&
              Load(h, d->cuCtxSetCurrent, {"cuCtxSetCurrent"}, &missing) &&
              Load(h, d->cuCtxSynchronize, {"cuCtxSynchronize"}, &missing) &&
              Load(h, d->cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, &missing) &&
              Load(h, d->cuModuleUnload, {"cuModuleUnload"}, &missing) &&
              Load(h, d->cuModuleGetFunction, {"cuModuleGetFunction"}, &missing) &&
              Load(h, d->cuFuncSetAttribute, {"cuFuncSetAttribute"}, &missing) &&
              Load(h, d->cuMemAlloc, {"cuMemAlloc_v2"}, &missing) &&
              Load(h, d->cuMemFree, {"cuMemFree_v2"}, &missing) &&
              Load(h, d->cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, &missing) &&
              Load(h, d->cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, &missing) &&
              Load(h, d->cuMemcpyDtoD, {"cuMemcpyDtoD_v2"}, &missing) &&
              Load(h, d->cuMemsetD32, {"cuMemsetD32_v2"}, &missing) &&
              Load(h, d->cuMemsetD8, {"cuMemsetD8_v2"}, &missing) &&
              Load(h, d->cuLaunchKernel, {"cuLaunchKernel"}, &missing) &&
              Load(h, d->cuEventCreate, {"cuEventCreate"}, &missing) &&
              Load(h, d->cuEventRecord, {"cuEventRecord"}, &missing) &&
              Load(h, d->cuEventSynchronize, {"cuEventSynchronize"}, &missing) &&
              Load(h, d->cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, &missing) &&
              Load(h, d->cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"}, &missing);
    if (!ok) {
      dlclose(d->handle);
      return Error("CUDA driver " + path + " lacks " + missing + " (driver too old?)");
    }
    it = loaded.emplace(path, std::move(d)).first;
  }
  const CudaDriver* drv = it->second.get();
  CUresult r = drv->cuInit(0);
  if (r == kCudaErrorStubLibrary)
    return Error("no CUDA driver: " + path + " is the CUDA toolkit's stub library (cuInit: " + drv->ErrorName(r) +
                 "); a machine with the NVIDIA driver is needed");
  if (r == kCudaErrorNoDevice) return Error("no CUDA device: cuInit: " + drv->ErrorName(r));
  RETURN_IF_ERROR(drv->Check(r, "cuInit"));
  int count = 0;
  RETURN_IF_ERROR(drv->Check(drv->cuDeviceGetCount(&count), "cuDeviceGetCount"));
  if (count == 0) return Error("no CUDA device: the driver reports 0 devices");
  return drv;
}

}  // namespace hloscope::runtime
