// Pipeline, fixed-point groups, instrumentation order and the registry.
#include "core/passes/pipeline.h"

#include "core/passes/simplify_passes.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

// Changes the module the first `n` times it runs (renames the root).
class CountdownPass : public Pass {
 public:
  explicit CountdownPass(int n) : n_(n) {}
  std::string_view name() const override { return "countdown"; }
  std::string_view description() const override { return "test pass"; }
  StatusOr<bool> Run(Module& m) override {
    ++runs;
    if (n_ <= 0) return false;
    --n_;
    m.entry()->root()->set_name(m.UniqueName("renamed"));
    return true;
  }
  int runs = 0;

 private:
  int n_;
};

class FailingPass : public Pass {
 public:
  std::string_view name() const override { return "failing"; }
  std::string_view description() const override { return "test pass"; }
  StatusOr<bool> Run(Module&) override { return Status::Error("boom"); }
};

class Log : public PassInstrumentation {
 public:
  Status BeforePipeline(const Module&, std::string_view p) override {
    events.push_back("begin " + std::string(p));
    return Status::Ok();
  }
  Status BeforePass(const Module&, const PassRunInfo& i) override {
    events.push_back("before " + std::string(i.pass->name()) + " #" + std::to_string(i.iteration));
    return Status::Ok();
  }
  Status AfterPass(const Module&, const PassRunInfo& i, const PassRunResult& r) override {
    events.push_back("after " + std::string(i.pass->name()) + (r.changed ? " changed" : ""));
    return Status::Ok();
  }
  Status AfterPipeline(const Module&, std::string_view p, bool changed) override {
    events.push_back("end " + std::string(p) + (changed ? " changed" : ""));
    return Status::Ok();
  }
  std::vector<std::string> events;
};

const char* kTiny = "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n";

TEST(PipelineTest, FixedPointRunsUntilNothingChanges) {
  auto m = ParseOrDie(kTiny);
  Pipeline p("test");
  auto owned = std::make_unique<CountdownPass>(2);
  CountdownPass* countdown = owned.get();
  p.AddFixedPoint("loop", 10).AddPass(std::move(owned));
  Log log;
  p.AddInstrumentation(&log);
  auto changed = p.Run(*m);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(countdown->runs, 3);  // two changing iterations, one to see the fixed point
  EXPECT_EQ(log.events, (std::vector<std::string>{"begin test", "before countdown #1", "after countdown changed",
                                                  "before countdown #2", "after countdown changed",
                                                  "before countdown #3", "after countdown", "end test changed"}));
  ASSERT_EQ(p.group_iterations().size(), 1u);
  EXPECT_EQ(p.group_iterations()[0].second, 3);
}

TEST(PipelineTest, IterationCap) {
  auto m = ParseOrDie(kTiny);
  Pipeline p("test");
  p.AddFixedPoint("loop", 4).AddPass(std::make_unique<CountdownPass>(100));
  ASSERT_TRUE(p.Run(*m).ok());
  EXPECT_EQ(p.group_iterations()[0].second, 4);
}

TEST(PipelineTest, PassErrorStopsThePipelineWithItsName) {
  auto m = ParseOrDie(kTiny);
  Pipeline p("test");
  p.AddPass(std::make_unique<FailingPass>());
  auto r = p.Run(*m);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "pass failing failed: boom");
}

TEST(PassRegistryTest, SimplifyPipelineAndPassList) {
  const PassRegistry& reg = PassRegistry::Global();
  for (const char* name : {"dce", "cse", "algsimp", "constant_folding", "tuple_simplifier", "call_inliner",
                           "zero_sized_hlo_elimination", "reshape_mover", "while_loop_simplifier",
                           "flatten_call_graph"}) {
    const PassInfo* info = reg.FindPass(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->description.empty());
    std::vector<std::string> pipes = reg.PipelinesContaining(name);
    EXPECT_NE(std::find(pipes.begin(), pipes.end(), "simplify"), pipes.end()) << name;
    EXPECT_EQ(info->create()->name(), name);
  }
  auto p = reg.BuildPipeline("simplify");
  ASSERT_TRUE(p.ok());
  EXPECT_NE((*p)->Describe().find("fixed-point"), std::string::npos);
  EXPECT_FALSE(reg.BuildPipeline("nope").ok());
  EXPECT_FALSE(reg.BuildPassList({"dce", "nope"}).ok());
  EXPECT_TRUE(reg.BuildPassList({"dce", "cse"}).ok());
}

TEST(PassRegistryTest, OtherCodeRegistersPipelines) {
  PassRegistry reg;  // a private registry, as a later issue would use Global()
  RegisterSimplifyPasses(reg);
  ASSERT_TRUE(reg.RegisterPass({"countdown", "test", [] { return std::unique_ptr<Pass>(new CountdownPass(1)); }}).ok());
  EXPECT_FALSE(reg.RegisterPass({"dce", "dup", [] { return MakeDcePass(); }}).ok());
  using S = PipelineStage;
  ASSERT_TRUE(reg.RegisterPipeline({"gpu", "test", {S::Include("simplify"), S::Pass("countdown")}}).ok());
  ASSERT_TRUE(reg.ExtendPipeline("gpu", {S::FixedPoint("cleanup", {S::Pass("cse"), S::Pass("dce")}, 3)}).ok());
  EXPECT_FALSE(reg.RegisterPipeline({"bad", "test", {S::Pass("no_such_pass")}}).ok());
  EXPECT_EQ(reg.PipelinesContaining("countdown"), std::vector<std::string>{"gpu"});
  EXPECT_EQ(reg.PipelinesContaining("algsimp"), (std::vector<std::string>{"simplify", "gpu"}));
  auto p = reg.BuildPipeline("gpu");
  ASSERT_TRUE(p.ok());
  auto m = ParseOrDie(kTiny);
  EXPECT_TRUE((*p)->Run(*m).ok());
}

}  // namespace
}  // namespace hloscope::testing
