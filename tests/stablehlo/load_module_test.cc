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

// dot_general's `algorithm = <...>` becomes HLO's algorithm= (the names XLA
// has); an algorithm XLA has no name for is refused, located.
TEST(LoadModuleFile, DotAlgorithmBecomesHloAlgorithm) {
  auto convert = [](const std::string& ops, const std::string& acc) {
    const std::string text = R"(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT],
    algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = )" + acc +
                             R"(, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = )" +
                             ops + R"(, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
)";
    auto ast = mlir::ParseMlir(text, "alg.mlir");
    if (!ast.ok()) return std::string("parse: ") + ast.status().message();
    auto converted = mlir::ConvertToHlo(*ast);
    if (!converted.ok()) return std::string("convert: ") + converted.status().message();
    const RawAttr* a = converted->module->entry()->root()->FindRaw("algorithm");
    return a ? a->value : std::string("none");
  };
  EXPECT_EQ(convert("6", "f32"), "dot_bf16_bf16_f32_x6");
  EXPECT_EQ(convert("1", "bf16"), "dot_bf16_bf16_bf16");
  const std::string refused = convert("2", "f32");
  EXPECT_NE(refused.find("UNSUPPORTED: dot_general algorithm dot_bf16_bf16_f32_x2"), std::string::npos) << refused;
}

// A while's regions may read values of the enclosing scopes (MLIR regions
// are not isolated from above): they join the loop state after its own
// elements, shared by cond and body, and handed on unchanged; the results
// are the loop's own. Inside an if branch too, captured through the branch.
TEST(LoadModuleFile, WhileRegionsReadEnclosingValues) {
  const char* text = R"(func.func @main(%x: tensor<f32>, %limit: tensor<i32>, %step: tensor<f32>, %p: tensor<i1>) -> (tensor<i32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %scale = stablehlo.multiply %step, %step : tensor<f32>
  %r:2 = "stablehlo.if"(%p) ({
    %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<f32>
      cond {
        %lt = stablehlo.compare LT, %i, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %i1 = stablehlo.add %i, %one : tensor<i32>
        %a1 = stablehlo.add %acc, %scale : tensor<f32>
        %a2 = stablehlo.multiply %a1, %step : tensor<f32>
        %unused = stablehlo.compare LT, %i1, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %i1, %a2 : tensor<i32>, tensor<f32>
      }
    stablehlo.return %w#0, %w#1 : tensor<i32>, tensor<f32>
  }, {
    stablehlo.return %limit, %x : tensor<i32>, tensor<f32>
  }) : (tensor<i1>) -> (tensor<i32>, tensor<f32>)
  return %r#0, %r#1 : tensor<i32>, tensor<f32>
}
)";
  auto ast = mlir::ParseMlir(text, "while_capture.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto converted = mlir::ConvertToHlo(*ast);
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  for (const bool taken : {true, false}) {
    std::vector<Literal> args;
    for (const Instruction* p : converted->module->entry()->parameters()) args.emplace_back(p->shape());
    args[0].SetDouble(0, 1);
    args[1].SetInt(0, 3);
    args[2].SetDouble(0, 2);
    args[3].SetInt(0, taken ? 1 : 0);
    auto out = EvaluateModule(*converted->module, args);
    ASSERT_TRUE(out.ok()) << out.status().message();
    ASSERT_TRUE(out->IsTuple());
    // (1 + 4)·2 = 10, (10 + 4)·2 = 28, (28 + 4)·2 = 64 after 3 steps; or (3, x).
    EXPECT_EQ(out->tuple_elements()[0].GetInt(0), 3);
    EXPECT_EQ(out->tuple_elements()[1].GetDouble(0), taken ? 64 : 1);
  }
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

// What JAX 0.12 writes for jnp.cumsum lowered for GPUs: chlo.scan, which
// becomes HLO's scan (one input, one carry started at 0, the combined value
// both the output slice and the next carry) and evaluates as a running sum.
TEST(LoadModuleFile, ChloScanBecomesHloScan) {
  const char* text = R"(module @jit_cumsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1:2 = chlo.scan(%arg0) inits (%0) dimension=1  attributes {is_associative = true, is_reverse = false} {
    ^bb0(%input: tensor<2xf32>, %carry: tensor<2xf32>):
      %2 = stablehlo.add %input, %carry : tensor<2xf32>
      stablehlo.return %2, %2 : tensor<2xf32>, tensor<2xf32>
    } : (tensor<2x4xf32>, tensor<2xf32>) -> (tensor<2x4xf32>, tensor<2xf32>)
    return %1#0 : tensor<2x4xf32>
  }
}
)";
  auto ast = mlir::ParseMlir(text, "cumsum.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto converted = mlir::ConvertToHlo(*ast);
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  const Instruction* scan = nullptr;
  for (const auto& i : converted->module->entry()->instructions())
    if (i->opcode() == Opcode::kScan) scan = i.get();
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(scan->dimensions(), (std::vector<int64_t>{1}));
  ASSERT_NE(scan->FindRaw("num_carries"), nullptr);
  EXPECT_EQ(scan->FindRaw("num_carries")->value, "1");
  ASSERT_NE(scan->FindRaw("is_associative"), nullptr);
  EXPECT_EQ(scan->FindRaw("is_reverse"), nullptr);
  std::vector<Literal> args;
  args.emplace_back(converted->module->entry()->parameters()[0]->shape());
  for (int64_t i = 0; i < 8; ++i) args[0].SetDouble(i, static_cast<double>(i + 1));
  auto out = EvaluateModule(*converted->module, args);
  ASSERT_TRUE(out.ok()) << out.status().message();
  const std::vector<double> want = {1, 3, 6, 10, 5, 11, 18, 26};
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(out->GetDouble(i), want[static_cast<size_t>(i)]) << i;
}

// JAX's library calls in StableHLO: stablehlo.custom_call with a dictionary
// backend config (typed FFI) keeps its options, so LAPACK's trsm solves with
// the triangle and transposition it names: here uplo = U, trans_x = T (85,
// 84), [[2, 1], [0, 4]]ᵀ x = [2, 9] → x = [1, 2].
TEST(LoadModuleFile, CustomCallKeepsItsTypedFfiOptions) {
  const char* text = R"(module @jit_solve attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2xf32>, %arg1: tensor<2x1xf32>) -> (tensor<2x1xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @lapack_strsm_ffi(%arg0, %arg1) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    return %0 : tensor<2x1xf32>
  }
}
)";
  auto ast = mlir::ParseMlir(text, "trsm.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto converted = mlir::ConvertToHlo(*ast);
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  const Instruction* call = converted->module->entry()->root();
  ASSERT_EQ(call->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(call->attrs().custom_call_target, "lapack_strsm_ffi");
  ASSERT_NE(call->FindRaw("output_to_operand_aliasing"), nullptr);
  EXPECT_EQ(call->FindRaw("output_to_operand_aliasing")->value, "{{}: (1, {})}");
  ASSERT_TRUE(call->shape().has_layout());
  EXPECT_EQ(call->shape().layout().minor_to_major, (std::vector<int64_t>{0, 1}));
  std::vector<Literal> args;
  for (const Instruction* p : converted->module->entry()->parameters()) args.emplace_back(p->shape());
  const double a[] = {2, 1, 0, 4}, b[] = {2, 9};
  for (int64_t i = 0; i < 4; ++i) args[0].SetDouble(i, a[i]);
  for (int64_t i = 0; i < 2; ++i) args[1].SetDouble(i, b[i]);
  auto out = EvaluateModule(*converted->module, args);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->GetDouble(0), 1);
  EXPECT_EQ(out->GetDouble(1), 2);
}

// A case branch that reads a value of the function around it (JAX 0.12's
// GPU lowering of a switch does): the value comes in through the branch's
// tuple parameter, as XLA's importer passes it.
TEST(LoadModuleFile, CaseBranchesReadEnclosingValues) {
  const char* text = R"(module @jit_switch attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg1 : tensor<3xf32>
    %1 = "stablehlo.case"(%arg0) ({
      %2 = stablehlo.add %arg1, %0 : tensor<3xf32>
      stablehlo.return %2 : tensor<3xf32>
    }, {
      stablehlo.return %arg1 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
)";
  auto ast = mlir::ParseMlir(text, "switch.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto converted = mlir::ConvertToHlo(*ast);
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  const Instruction* cond = converted->module->entry()->root();
  ASSERT_EQ(cond->opcode(), Opcode::kConditional);
  ASSERT_EQ(cond->operand_count(), 3);
  EXPECT_EQ(cond->operand(1)->shape().tuple_size(), 2);  // %arg1 and %0
  EXPECT_EQ(cond->operand(2)->shape().tuple_size(), 1);  // %arg1
  for (int branch : {0, 1}) {
    std::vector<Literal> args;
    for (const Instruction* p : converted->module->entry()->parameters()) args.emplace_back(p->shape());
    args[0].SetInt(0, branch);
    for (int64_t i = 0; i < 3; ++i) args[1].SetDouble(i, static_cast<double>(i + 1));
    auto out = EvaluateModule(*converted->module, args);
    ASSERT_TRUE(out.ok()) << out.status().message();
    for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(out->GetDouble(i), branch == 0 ? 0.0 : static_cast<double>(i + 1));
  }
}

}  // namespace
}  // namespace hloscope
