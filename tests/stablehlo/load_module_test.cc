// LoadModuleFile: every command accepts HLO text and StableHLO alike.
#include <gtest/gtest.h>

#include "core/eval/evaluator.h"
#include "core/ir/ragged_dot.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/load_module.h"
#include "core/stablehlo/mlir_parser.h"
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

// What JAX 0.12 writes for jax.lax.ragged_dot lowered for GPUs (CPUs get it
// decomposed) becomes HLO's ragged-dot, with its dimension numbers.
TEST(LoadModuleFile, ChloRaggedDotBecomesHloRaggedDot) {
  const char* text = R"(module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32>, %arg1: tensor<2x4x3xf32>, %arg2: tensor<2xi32>) -> (tensor<6x3xf32> {jax.result_info = "result"}) {
    %0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<6x4xf32>, tensor<2x4x3xf32>, tensor<2xi32>) -> tensor<6x3xf32>
    return %0 : tensor<6x3xf32>
  }
}
)";
  auto ast = mlir::ParseMlir(text, "ragged.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto converted = mlir::ConvertToHlo(*ast);
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  const Instruction* root = converted->module->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kRaggedDot);
  auto dims = RaggedDotDimsOf(*root);
  ASSERT_TRUE(dims);
  EXPECT_EQ(dims->lhs_ragged, 0);
  EXPECT_EQ(dims->rhs_group, (std::vector<int64_t>{0}));
  EXPECT_EQ(dims->dot.lhs_contracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(dims->mode, RaggedDotMode::kNonContracting);
  std::vector<Literal> args;
  for (const Instruction* p : converted->module->entry()->parameters()) args.emplace_back(p->shape());
  for (int64_t i = 0; i < args[0].num_elements(); ++i) args[0].SetDouble(i, 1);
  for (int64_t i = 0; i < args[1].num_elements(); ++i) args[1].SetDouble(i, i < 12 ? 1 : 2);
  args[2].SetInt(0, 2);
  args[2].SetInt(1, 3);
  auto out = EvaluateModule(*converted->module, args);
  ASSERT_TRUE(out.ok()) << out.status().message();
  // Rows 0–1: group 0 (4 × 1), rows 2–4: group 1 (4 × 2), row 5: none.
  for (int64_t row = 0; row < 6; ++row)
    EXPECT_EQ(out->GetDouble(row * 3), row < 2 ? 4 : row < 5 ? 8 : 0) << "row " << row;
}

}  // namespace
}  // namespace hloscope
