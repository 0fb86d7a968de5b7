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

// A bundle for sm_90a (wgmma) refuses an sm_80 or a future sm_100 device by
// name, before any PTX reaches the driver; plain targets run on newer ones.
TEST(CudaDriver, BundleTargetMustRunOnTheDevice) {
  EXPECT_TRUE(CheckTargetRunsOn("sm_90a", 90, "NVIDIA H200 (sm_90)").ok());
  EXPECT_TRUE(CheckTargetRunsOn("sm_90", 90, "H100").ok());
  EXPECT_TRUE(CheckTargetRunsOn("sm_80", 90, "H100").ok());
  EXPECT_TRUE(CheckTargetRunsOn("", 80, "A100").ok());  // older bundles name no target
  Status older = CheckTargetRunsOn("sm_90", 80, "NVIDIA A100 (sm_80)");
  ASSERT_FALSE(older.ok());
  EXPECT_NE(older.message().find("compiled for sm_90, which NVIDIA A100 (sm_80) cannot run"), std::string::npos)
      << older.message();
  EXPECT_NE(older.message().find("codegen --sm 80"), std::string::npos) << older.message();
  Status specific = CheckTargetRunsOn("sm_90a", 100, "B200 (sm_100)");
  ASSERT_FALSE(specific.ok());
  EXPECT_NE(specific.message().find("arch-specific code runs only on sm_90"), std::string::npos) << specific.message();
}

}  // namespace
}  // namespace hloscope::runtime
