// LoadModuleFile: every command accepts HLO text and StableHLO alike.
#include <gtest/gtest.h>

#include "core/stablehlo/load_module.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

TEST(LoadModuleFile, ReadsHloAndStablehloOfTheSameProgram) {
  auto hlo = LoadModuleFile(testing::SamplesDir() + "/softmax.hlo");
  auto mlir = LoadModuleFile(testing::SamplesDir() + "/softmax.stablehlo.mlir");
  ASSERT_TRUE(hlo.ok()) << hlo.status().message();
  ASSERT_TRUE(mlir.ok()) << mlir.status().message();
  EXPECT_EQ((*hlo)->entry()->root()->shape().ToString(false),
            (*mlir)->entry()->root()->shape().ToString(false));
}

TEST(LoadModuleFile, ErrorsAreLocated) {
  auto m = LoadModuleFile(testing::SamplesDir() + "/README.md");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("README.md:3:6: error:"), std::string::npos) << m.status().message();
}

}  // namespace
}  // namespace hloscope
