// The CUDA driver loaded with dlopen: without a driver the error is a clear
// sentence; the toolkit's stub library exercises the CUDA_ERROR_STUB_LIBRARY
// path. The `gpu` test runs a bundle-like plan when a GPU is present.
#include <gtest/gtest.h>

#include "core/runtime/cuda_driver.h"
#include "core/runtime/cuda_executor.h"

namespace hloscope::runtime {
namespace {

TEST(CudaDriver, MissingLibraryIsAClearError) {
  auto d = LoadCudaDriver("/nonexistent/libcuda.so.1");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message().rfind("no CUDA driver: cannot load /nonexistent/libcuda.so.1", 0), 0u)
      << d.status().message();
}

TEST(CudaDriver, StubLibraryReportsStubError) {
  std::string stub = CudaStubDriverPath();
  if (stub.empty()) GTEST_SKIP() << "built without the CUDA toolkit";
  auto d = LoadCudaDriver(stub);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("stub library (cuInit: CUDA_ERROR_STUB_LIBRARY (34))"), std::string::npos)
      << d.status().message();
  // A run through the executor stops at the same error, no crash.
  ThunkPlan plan;
  PlanAllocation a;
  a.kind = "output";
  a.size = 4;
  plan.allocations = {a};
  PlanValue o;
  o.shape = "f32[]";
  o.slice = {0, 0, 4};
  plan.outputs = {o};
  CudaRunOptions opts;
  opts.driver_path = stub;
  auto r = RunOnCuda(plan, {}, {}, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("CUDA_ERROR_STUB_LIBRARY"), std::string::npos);
}

TEST(CudaDriver, ErrorNamesWithoutDriverComeFromTheTable) {
  CudaDriver d;
  EXPECT_EQ(d.ErrorName(218), "CUDA_ERROR_INVALID_PTX (218)");
  EXPECT_EQ(d.ErrorName(123456), "CUresult 123456");
  EXPECT_EQ(d.Check(700, "cuLaunchKernel").message(), "cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS (700)");
  EXPECT_TRUE(d.Check(0, "cuInit").ok());
}

}  // namespace
}  // namespace hloscope::runtime
