// Compile-time check that cuda_driver.h's declarations are the driver's (when
// the CUDA toolkit's cuda.h is present at build time). cuda.h comes first and
// only types and constants are compared: its macros rename entry points.
#ifdef HLOSCOPE_HAVE_CUDA_H
#include <cuda.h>

#include <type_traits>

#include "core/runtime/cuda_driver.h"

namespace hloscope::runtime {
static_assert(sizeof(::CUresult) == sizeof(CUresult));
static_assert(std::is_same_v<::CUdeviceptr, CUdeviceptr>);
static_assert(std::is_same_v<::CUdevice, CUdevice>);
static_assert(CUDA_ERROR_STUB_LIBRARY == kCudaErrorStubLibrary);
static_assert(CUDA_ERROR_NO_DEVICE == kCudaErrorNoDevice);
static_assert(CU_JIT_INFO_LOG_BUFFER == kJitInfoLogBuffer && CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES == kJitInfoLogBufferSize &&
              CU_JIT_ERROR_LOG_BUFFER == kJitErrorLogBuffer &&
              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES == kJitErrorLogBufferSize && CU_JIT_LOG_VERBOSE == kJitLogVerbose);
static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR == kAttrCcMajor &&
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR == kAttrCcMinor);
static_assert(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES == kFuncMaxDynamicShared);
}  // namespace hloscope::runtime
#endif
