// The CUDA driver API loaded at run time with dlopen (no link-time
// dependency: hloscope-run starts on machines without a driver and says so).
// Only the entry points the executor needs; every CUresult is reported by
// name (cuGetErrorName), e.g. "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (218)".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/support/status.h"

namespace hloscope::runtime {

// The driver's types, as cuda.h declares them (checked against cuda.h when
// the toolkit is present at build time).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorStubLibrary = 34;
inline constexpr CUresult kCudaErrorNoDevice = 100;
// CUjit_option, CUdevice_attribute and CUfunction_attribute values used.
inline constexpr int kJitInfoLogBuffer = 3, kJitInfoLogBufferSize = 4, kJitErrorLogBuffer = 5,
                     kJitErrorLogBufferSize = 6, kJitLogVerbose = 12;
inline constexpr int kAttrCcMajor = 75, kAttrCcMinor = 76;
inline constexpr int kFuncMaxDynamicShared = 8;

struct CudaDriver {
  CUresult (*cuInit)(unsigned int) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned int, int*, void**) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned int, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned int) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;

  void* handle = nullptr;
  std::string path;

  // "NAME (n)" for a CUresult, through cuGetErrorName when loaded.
  std::string ErrorName(CUresult r) const;
  // OK, or "<call>: CUDA_ERROR_... (n): <description>".
  Status Check(CUresult r, const char* call) const;
};

// Loads the driver library (`path`; empty = "libcuda.so.1") and every entry
// point, then calls cuInit(0). Errors explain what is missing: no library
// ("no CUDA driver (libcuda.so.1 not found: ...)"), the toolkit's stub
// library (CUDA_ERROR_STUB_LIBRARY), no device (CUDA_ERROR_NO_DEVICE).
// The driver stays loaded for the life of the process.
StatusOr<const CudaDriver*> LoadCudaDriver(const std::string& path = "");

// The toolkit's stub libcuda.so, when known at build time ("" otherwise).
std::string CudaStubDriverPath();

}  // namespace hloscope::runtime
