// Session: loading (HLO, StableHLO, errors), pipeline runs with steps and
// cancellation, lazily parsed step modules and buffer assignments.
#include "core/session/session.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

RunOptions WithDevice(const char* pipeline, const char* device) {
  RunOptions o;
  o.pipeline = pipeline;
  o.device = device;
  return o;
}

std::string Sample(const std::string& name) { return hloscope::testing::SamplesDir() + "/" + name; }

TEST(SessionTest, LoadsSampleAndRunsGpu) {
  auto s = Session::Load(Sample("transformer_block.hlo"));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_FALSE((*s)->is_stablehlo());
  EXPECT_GT((*s)->instruction_count(), 100);
  int seen = 0;
  RunOptions opts;
  opts.pipeline = "gpu";
  opts.on_step = [&](const std::shared_ptr<const Step>& st) { EXPECT_EQ(st->index, seen++); };
  auto run = (*s)->RunPipeline(opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const PipelineRun& r = **run;
  ASSERT_GT(r.size(), 3);
  EXPECT_EQ(seen, r.size());
  EXPECT_EQ(r.step(0).pass, "input");
  EXPECT_LT(r.steps().back()->cost.kernels, r.step(0).cost.kernels);
  bool any_decision = false;
  for (const auto& st : r.steps()) any_decision |= !st->decisions.empty();
  EXPECT_TRUE(any_decision);
  // The last step's module parses and every snapshot id maps to an instruction.
  const int last = r.size() - 1;
  auto m = r.ModuleAt(last);
  ASSERT_TRUE(m.ok()) << m.status().message();
  for (const InstructionRecord& rec : r.step(last).module->instructions) {
    const Instruction* i = r.InstructionAt(last, rec.id);
    ASSERT_NE(i, nullptr) << rec.name;
    EXPECT_EQ(i->name(), rec.name);
  }
  auto ba = r.BuffersAt(last);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  EXPECT_FALSE((*ba)->buffers.empty());
  EXPECT_GE((*ba)->peak_bytes, (*ba)->lower_bound_bytes);
  // Cached: the same object comes back.
  EXPECT_EQ(r.BuffersAt(last)->get(), ba->get());
}

TEST(SessionTest, DecisionsAboutNameTheInstruction) {
  auto s = Session::Load(Sample("transformer_block.hlo"));
  ASSERT_TRUE(s.ok());
  auto run = (*s)->RunPipeline({});
  ASSERT_TRUE(run.ok());
  const FusionDecision* any = nullptr;
  for (const auto& st : (*run)->steps())
    if (!st->decisions.empty()) any = &st->decisions.front();
  ASSERT_NE(any, nullptr);
  auto about = (*run)->DecisionsAbout(any->producer_id, any->producer);
  ASSERT_FALSE(about.empty());
  for (const auto& [k, d] : about) {
    bool names = d->producer == any->producer || d->producer_id == any->producer_id;
    for (const auto& c : d->consumers) names |= c == any->producer;
    for (int64_t c : d->consumer_ids) names |= c == any->producer_id;
    EXPECT_TRUE(names);
  }
  EXPECT_TRUE((*run)->DecisionsAbout(-12345, "no_such_instruction").empty());
}

TEST(SessionTest, BadFileGivesLocatedError) {
  auto s = Session::FromText("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT b = f32[2] add(a)\n}\n",
                             "bad.hlo");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("bad.hlo:4:"), std::string::npos) << s.status().message();
  auto missing = Session::Load("/nonexistent/file.hlo");
  EXPECT_FALSE(missing.ok());
}

TEST(SessionTest, StablehloInputIsFirstStep) {
  const char* mlir = R"(module @m {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";
  auto s = Session::FromText(mlir, "x.mlir");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE((*s)->is_stablehlo());
  auto run = (*s)->RunPipeline(WithDevice("simplify", ""));
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ((*run)->step(0).pass, "stablehlo→hlo");
  EXPECT_EQ((*s)->InputOnly()->size(), 1);
}

TEST(SessionTest, CancelStopsTheRun) {
  auto s = Session::Load(Sample("transformer_block.hlo"));
  ASSERT_TRUE(s.ok());
  std::atomic<bool> cancel{false};
  RunOptions opts;
  opts.cancel = &cancel;
  opts.on_step = [&](const std::shared_ptr<const Step>& st) {
    if (st->index == 2) cancel = true;
  };
  auto run = (*s)->RunPipeline(opts);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), "cancelled");
}

TEST(SessionTest, UnknownPipelineAndDevice) {
  auto s = Session::Load(Sample("transformer_block.hlo"));
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE((*s)->RunPipeline(WithDevice("nope", "")).ok());
  EXPECT_FALSE((*s)->RunPipeline(WithDevice("gpu", "no_such_gpu")).ok());
}

}  // namespace
}  // namespace hloscope
