// manifest.json and bundles: round trip, located errors for bad manifests,
// bundle files, layout conversion and output comparison naming the kernel.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/parser/parser.h"
#include "core/runtime/bundle.h"
#include "core/runtime/manifest.h"
#include "core/runtime/plan_io.h"

namespace hloscope::runtime {
namespace {

ThunkPlan SamplePlan() {
  ThunkPlan p;
  p.module = "m";
  p.target = "sm_90";
  PlanAllocation a0;
  a0.index = 0;
  a0.kind = "parameter";
  a0.size = 64;
  a0.parameter_number = 0;
  PlanAllocation a1;
  a1.index = 1;
  a1.kind = "constant";
  a1.size = 8;
  a1.init = {1, 2, 3, 4, 5, 6, 7, 8};
  PlanAllocation a2;
  a2.index = 2;
  a2.kind = "temp";
  a2.size = 68;
  a2.maybe_live_out = true;
  p.allocations = {a0, a1, a2};
  KernelThunk k;
  k.name = "loop_fusion";
  k.kind = "loop";
  k.strategy = "a thread per element";
  k.instruction = "fusion.1";
  k.dims.grid[0] = 2;
  k.dims.block[0] = 128;
  k.dims.shared_bytes = 16;
  k.args = {{0, 0, 64}, {1, 0, 8}, {2, 0, 64}};
  k.arg_written = {false, false, true};
  k.bytes = 136;
  k.flops = 16;
  k.estimated_us = 1.5;
  KernelThunk c = k;
  c.name = "cond";
  c.strategy.clear();
  c.args = {{2, 0, 64}, {2, 64, 1}};
  c.arg_written = {false, true};
  WhileThunk w;
  w.instruction = "while.1";
  w.condition.push_back(Thunk{c});
  w.pred = {2, 64, 1};
  CopyThunk cp{"copy.1", {0, 0, 64}, {2, 0, 64}};
  w.body.push_back(Thunk{cp});
  ConditionalThunk ct;
  ct.instruction = "conditional.1";
  ct.index = {2, 64, 4};
  ct.branches.push_back({Thunk{MemsetThunk{"memset", {2, 0, 64}, 0x3f800000u}}});
  ct.branches.push_back({});
  p.thunks = {Thunk{k}, Thunk{std::move(w)}, Thunk{std::move(ct)}};
  PlanValue in;
  in.shape = "f32[4,4]{0,1}";
  in.parameter_number = 0;
  in.slice = {0, 0, 64};
  PlanValue out;
  out.shape = "f32[16]{0}";
  out.index = {0};
  out.slice = {2, 0, 64};
  p.parameters = {in};
  p.outputs = {out};
  return p;
}

TEST(Manifest, RoundTripIsAFixedPoint) {
  ThunkPlan p = SamplePlan();
  std::string text = ManifestToString(p);
  auto back = ManifestFromString(text, "manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(ManifestToString(*back), text);
  ASSERT_EQ(AllKernels(*back).size(), 2u);
  const KernelThunk& k = *AllKernels(*back)[0];
  EXPECT_EQ(k.dims.grid[0], 2u);
  EXPECT_EQ(k.dims.block[0], 128u);
  EXPECT_EQ(k.dims.shared_bytes, 16u);
  EXPECT_EQ(k.strategy, "a thread per element");
  EXPECT_EQ(AllKernels(*back)[1]->strategy, "");  // optional: absent where the kind says it all
  EXPECT_EQ(k.arg_written, (std::vector<bool>{false, false, true}));
  EXPECT_DOUBLE_EQ(k.estimated_us, 1.5);
  EXPECT_TRUE(back->allocations[2].maybe_live_out);
  EXPECT_TRUE(back->allocations[1].init.empty());  // the bytes live in constants/
  EXPECT_NE(text.find("\"init\": \"constants/alloc1.bin\""), std::string::npos);
  auto& ct = std::get<ConditionalThunk>(back->thunks[2].v);
  EXPECT_EQ(std::get<MemsetThunk>(ct.branches[0][0].v).pattern, 0x3f800000u);
}

struct BadCase {
  const char* what;
  std::string from, to;  // text replacement in the good manifest
  std::string error;
};

TEST(Manifest, RefusesBadManifestsWithLocatedErrors) {
  std::string good = ManifestToString(SamplePlan());
  std::vector<BadCase> cases = {
      {"version", "\"version\": 1", "\"version\": 7", "m.json: /version: manifest version 7 is not supported"},
      {"format", "\"hloscope-bundle\"", "\"other\"", "m.json: /format: not a hloscope bundle manifest"},
      {"allocation", "\"allocation\": 1,", "\"allocation\": 9,", "m.json: /thunks/0/args/1: allocation 9 does not exist (the plan has 3)"},
      {"slice", "\"offset\": 64,\n", "\"offset\": 68,\n", "is outside allocation 2 (68 bytes)"},
      {"type", "\"type\": \"copy\"", "\"type\": \"jump\"", "m.json: /thunks/1/body/0/type: unknown thunk type 'jump'"},
      {"grid", "\"grid\": [", "\"grid\": [0, ", "m.json: /thunks/0/grid: expected 3 dimensions [x, y, z]"},
      {"kind", "\"kind\": \"temp\"", "\"kind\": \"scratch\"", "m.json: /allocations/2/kind: unknown allocation kind 'scratch'"},
      {"json", "\"thunks\": [", "\"thunks\": [,", "m.json:"},
  };
  for (const BadCase& c : cases) {
    std::string text = good;
    auto pos = text.find(c.from);
    ASSERT_NE(pos, std::string::npos) << c.what << ": " << c.from;
    text.replace(pos, c.from.size(), c.to);
    auto r = ManifestFromString(text, "m.json");
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_NE(r.status().message().find(c.error), std::string::npos) << c.what << ": " << r.status().message();
  }
  auto r = ManifestFromString("{\n  \"format\": \n}", "m.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("m.json:3:1: error: invalid JSON", 0), 0u) << r.status().message();
}

TEST(Bundle, WriteReadRoundTripAndRefusesToOverwrite) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("hloscope_bundle_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Bundle b;
  b.plan = SamplePlan();
  b.kernels = {{"loop_fusion", "; ll", "// ptx"}, {"cond", "; ll2", "// ptx2"}};
  Literal in(*ParseShape("f32[4,4]"));
  for (int i = 0; i < 16; ++i) in.Set<float>(i, float(i));
  b.inputs = {in};
  b.expected = {in};
  ASSERT_TRUE(WriteBundle(dir.string(), b, false).ok());
  Status again = WriteBundle(dir.string(), b, false);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.message().find("already holds a bundle"), std::string::npos);
  EXPECT_TRUE(WriteBundle(dir.string(), b, true).ok());
  auto r = ReadBundle(dir.string(), {.load_ll = true, .load_ptx = true});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->plan.allocations[1].init, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_EQ(r->kernels[0].ptx, "// ptx");
  EXPECT_EQ(r->kernels[1].ll, "; ll2");
  ASSERT_EQ(r->inputs.size(), 1u);
  EXPECT_TRUE(r->inputs[0] == in);
  ASSERT_EQ(r->expected.size(), 1u);
  // A constant file of the wrong size is named.
  { std::ofstream(dir / "constants" / "alloc1.bin") << "abc"; }
  auto bad = ReadBundle(dir.string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("alloc1.bin: error: holds 3 bytes, but allocation 1 has 8"), std::string::npos);
  fs::remove(dir / "cond.ptx");
  { std::ofstream(dir / "constants" / "alloc1.bin") << "12345678"; }
  bad = ReadBundle(dir.string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("cond.ptx: error: cannot open"), std::string::npos);
  fs::remove_all(dir);
}

TEST(PlanIo, ColumnMajorLayoutRoundTrip) {
  Literal l(*ParseShape("s32[2,3]"));
  for (int i = 0; i < 6; ++i) l.Set<int32_t>(i, i);  // row-major [[0,1,2],[3,4,5]]
  Shape phys = *ParseShape("s32[2,3]{0,1}");
  auto bytes = LiteralToBuffer(l, phys);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  std::vector<int32_t> v(6);
  std::memcpy(v.data(), bytes->data(), 24);
  EXPECT_EQ(v, (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  auto back = LiteralFromBuffer(bytes->data(), bytes->size(), phys);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == l);
  EXPECT_FALSE(LiteralToBuffer(l, *ParseShape("s32[3,3]")).ok());
}

TEST(PlanIo, MismatchNamesOutputElementAndKernel) {
  ThunkPlan p = SamplePlan();
  Literal want(*ParseShape("f32[16]"));
  Literal got = want;
  got.Set<float>(5, 2.0f);
  std::string d = CompareOutputs(p, {want}, {got});
  EXPECT_NE(d.find("element [5]"), std::string::npos) << d;
  EXPECT_NE(d.find("last written by kernel 'loop_fusion' (loop, fusion.1)"), std::string::npos) << d;
  EXPECT_EQ(CompareOutputs(p, {want}, {want}), "");
  auto leaves = ParameterLeaves(p, {got});
  ASSERT_FALSE(leaves.ok());
  EXPECT_NE(leaves.status().message().find("needs f32[4,4]"), std::string::npos) << leaves.status().message();
}

}  // namespace
}  // namespace hloscope::runtime
