// StableHLO's collectives as JAX writes them (properties in `<{...}>`,
// channel_handle, dense replica_groups, the module's mhlo.num_partitions)
// import as HLO collectives and evaluate on every device with the values
// XLA's semantics give, worked out by hand.
#include <gtest/gtest.h>

#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/printer/printer.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/verify/verifier.h"

namespace hloscope::mlir {
namespace {

std::vector<double> Vals(const Literal& l) {
  std::vector<double> v;
  for (int64_t i = 0; i < l.num_elements(); ++i) v.push_back(l.GetDouble(i));
  return v;
}

TEST(StablehloCollectives, JaxStyleCollectivesImportAndRunOnTheirDevices) {
  const char* text = R"mlir(
module @jit_body attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %2 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<8x4xf32>
    %3 = "stablehlo.collective_permute"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = stablehlo.partition_id : tensor<ui32>
    return %1, %3, %2, %4 : tensor<4x2xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<ui32>
  }
}
)mlir";
  auto ast = ParseMlir(text, "shard.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto conv = ConvertToHlo(*ast);
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  Module& m = *conv->module;
  ASSERT_TRUE(VerifyModule(m).ok()) << PrintModule(m);
  const std::string hlo = PrintModule(m);
  EXPECT_NE(hlo.find("num_partitions=4"), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("all-reduce("), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("channel_id=1"), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("replica_groups={{0,1},{2,3}}"), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("use_global_device_ids=true"), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("source_target_pairs={{0,1},{1,0}}"), std::string::npos) << hlo;
  // Device d holds 10d + [0..7] as a 2x4 array.
  std::vector<std::vector<Literal>> args(4);
  for (int d = 0; d < 4; ++d) {
    Literal x(Shape(PrimitiveType::kF32, {2, 4}));
    for (int i = 0; i < 8; ++i) x.SetDouble(i, 10.0 * d + i);
    args[static_cast<size_t>(d)].push_back(std::move(x));
  }
  auto r = EvaluateModuleOnDevices(m, args);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 4u);
  const auto& d0 = (*r)[0].tuple_elements();
  const auto& d1 = (*r)[1].tuple_elements();
  const auto& d2 = (*r)[2].tuple_elements();
  // all_to_all: device 0 receives the first two columns of devices 0 and 1, stacked.
  EXPECT_EQ(Vals(d0[0]), (std::vector<double>{0, 1, 4, 5, 10, 11, 14, 15}));
  EXPECT_EQ(Vals(d1[0]), (std::vector<double>{2, 3, 6, 7, 12, 13, 16, 17}));
  // collective_permute of the pair sums: devices 0 and 1 swap (equal sums);
  // devices 2 and 3 receive from no one: zeros.
  EXPECT_EQ(Vals(d1[1]), (std::vector<double>{10, 12, 14, 16, 18, 20, 22, 24}));
  EXPECT_EQ(Vals(d2[1]), std::vector<double>(8, 0.0));
  // all_gather in the group's order 0, 2, 1, 3.
  const std::vector<double> g = Vals(d0[2]);
  ASSERT_EQ(g.size(), 32u);
  EXPECT_EQ(g[8], 20.0);
  EXPECT_EQ(g[16], 10.0);
  EXPECT_EQ(Vals(d2[3]), (std::vector<double>{2}));
}

TEST(StablehloCollectives, HandleZeroIsTheCrossReplicaForm) {
  const char* text = R"mlir(
module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<2xi64>) -> tensor<2xi64> {
    %0 = "stablehlo.collective_broadcast"(%arg0) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<2xi64>) -> tensor<2xi64>
    return %0 : tensor<2xi64>
  }
}
)mlir";
  auto ast = ParseMlir(text, "b.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto conv = ConvertToHlo(*ast);
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  EXPECT_EQ(PrintModule(*conv->module).find("channel_id"), std::string::npos);
  Literal a(Shape(PrimitiveType::kS64, {2})), b(Shape(PrimitiveType::kS64, {2}));
  a.SetInt(0, 1);
  b.SetInt(0, 7);
  auto r = EvaluateModuleOnDevices(*conv->module, {{a}, {b}});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].GetInt(0), 7);  // replica 1 is the group's root
  EXPECT_EQ((*r)[1].GetInt(0), 7);
}

}  // namespace
}  // namespace hloscope::mlir

namespace hloscope::mlir {
namespace {

// The StableHLO JAX 0.12 lowers for a shard_map on a 2x2 mesh
// (sdy.manual_computation, groups as #stablehlo.replica_group_mesh_axes;
// tools/gen_shard_map_reference.py): imported, run on its 4 partitions with
// the global inputs on each, every device holds JAX's global output.
TEST(StablehloCollectives, JaxShardMapImportsAndMatchesJax) {
  const std::string dir = std::string(HLOSCOPE_SOURCE_DIR) + "/tests/eval/data/";
  auto ast = ParseMlirFile(dir + "shard_map.mlir");
  ASSERT_TRUE(ast.ok()) << ast.status().message();
  auto conv = ConvertToHlo(*ast);
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  ASSERT_TRUE(VerifyModule(*conv->module).ok()) << PrintModule(*conv->module);
  const std::string hlo = PrintModule(*conv->module);
  EXPECT_NE(hlo.find("replica_groups=mesh['x'=2,'y'=2] {'y'}"), std::string::npos) << hlo;
  auto data = ReadDataFile(dir + "shard_map.data.json");
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(DevicesToEvaluate(*conv->module), 4);
  std::vector<std::vector<Literal>> args(4, data->inputs);
  auto r = EvaluateModuleOnDevices(*conv->module, args);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (size_t d = 0; d < 4; ++d)
    EXPECT_EQ(CompareLiterals(data->outputs[0], (*r)[d], std::nullopt), "") << "device " << d;
  // Another input gives another output: the comparison is not empty.
  args.assign(4, data->inputs);
  for (auto& a : args) a[1].SetDouble(0, 5.0);
  auto other = EvaluateModuleOnDevices(*conv->module, args);
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_NE(CompareLiterals(data->outputs[0], (*other)[0], std::nullopt), "");
}

}  // namespace
}  // namespace hloscope::mlir
