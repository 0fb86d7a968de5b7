// core/session/lesson: the guided tour of a run. Stages in order, each
// step index valid, subjects present in that step's module, and the numbers
// the text quotes equal to independent computations of the same things.
#include "core/session/lesson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "core/cost/cost_model.h"
#include "core/cost/device.h"
#include "core/memory/peak_buffers.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

std::string Sample(const std::string& name) { return hloscope::testing::SamplesDir() + "/" + name; }

struct Built {
  std::shared_ptr<const Session> session;
  std::shared_ptr<const PipelineRun> run;
  Lesson lesson;
};

Built Build(const std::string& file, bool kernel_code = true) {
  Built b;
  auto s = Session::Load(Sample(file));
  EXPECT_TRUE(s.ok()) << s.status().message();
  b.session = *s;
  RunOptions opts;
  opts.pipeline = "gpu";
  opts.device = "h200";
  auto run = b.session->RunPipeline(opts);
  EXPECT_TRUE(run.ok()) << run.status().message();
  b.run = *run;
  LessonOptions lo;
  lo.kernel_code = kernel_code;
  auto l = BuildLesson(*b.session, *b.run, lo);
  EXPECT_TRUE(l.ok()) << l.status().message();
  b.lesson = *l;
  return b;
}

std::vector<std::string> Ids(const Lesson& l) {
  std::vector<std::string> ids;
  for (const LessonStage& s : l.stages) ids.push_back(s.id);
  return ids;
}

std::string Fact(const LessonStage& s, const std::string& key) {
  for (const auto& [k, v] : s.facts)
    if (k == key) return v;
  ADD_FAILURE() << "stage " << s.id << " has no fact " << key;
  return {};
}

const LessonStage* StageOf(const Lesson& l, const std::string& id) {
  for (const LessonStage& s : l.stages)
    if (s.id == id) return &s;
  return nullptr;
}

// What every stage of every lesson must satisfy.
void CheckCommon(const Built& b) {
  const std::vector<std::string> order = {"stablehlo", "simplify", "cse", "fusion", "buffers", "kernels"};
  int last = -1;
  for (const LessonStage& s : b.lesson.stages) {
    auto it = std::find(order.begin(), order.end(), s.id);
    ASSERT_NE(it, order.end()) << s.id;
    int pos = static_cast<int>(it - order.begin());
    EXPECT_GT(pos, last) << s.id << " out of order";
    last = pos;
    EXPECT_FALSE(s.title.empty());
    EXPECT_FALSE(s.text.empty()) << s.id;
    EXPECT_FALSE(s.panel.empty()) << s.id;
    ASSERT_GE(s.step, 0) << s.id;
    ASSERT_LT(s.step, b.run->size()) << s.id;
    for (const std::string& name : s.subjects)
      EXPECT_GE(b.run->IdOfName(s.step, name), 0) << s.id << ": subject " << name << " not in step " << s.step;
  }
}

TEST(Lesson, TransformerBlockGpu) {
  Built b = Build("transformer_block.hlo");
  CheckCommon(b);
  EXPECT_EQ(Ids(b.lesson), (std::vector<std::string>{"simplify", "cse", "fusion", "buffers", "kernels"}));
  EXPECT_EQ(b.lesson.pipeline, "gpu");

  // Fusion: kernels and HBM bytes before fusion are the cost model's on the
  // step before the first fusion pass; after, the last module's.
  const LessonStage* fusion = StageOf(b.lesson, "fusion");
  ASSERT_NE(fusion, nullptr);
  int first = -1, lastf = -1;
  for (int k = 1; k < b.run->size(); ++k)
    if (!b.run->step(k).decisions.empty() || b.run->step(k).pass == "priority_fusion") {
      if (first < 0) first = k;
      lastf = k;
    }
  ASSERT_GT(first, 0);
  DeviceSpec h200 = *LoadDevice("h200");
  auto before = b.run->ModuleAt(first - 1);
  ASSERT_TRUE(before.ok());
  ModuleCost cb = EstimateModule(**before, h200);
  EXPECT_EQ(Fact(*fusion, "kernels_before"), std::to_string(cb.kernels));
  EXPECT_EQ(Fact(*fusion, "hbm_bytes_before"), std::to_string(cb.hbm_bytes));
  auto after = b.run->ModuleAt(b.run->size() - 1);
  ASSERT_TRUE(after.ok());
  ModuleCost ca = EstimateModule(**after, h200);
  EXPECT_EQ(Fact(*fusion, "kernels_after"), std::to_string(ca.kernels));
  EXPECT_LT(ca.kernels, cb.kernels);
  // The representative decision saves the most bytes of all fused ones.
  int64_t most = 0, fused = 0;
  for (int k = 1; k < b.run->size(); ++k)
    for (const FusionDecision& d : b.run->step(k).decisions)
      if (d.verdict != FusionVerdict::kNotFused) {
        ++fused;
        most = std::max(most, d.bytes_before - d.bytes_after);
      }
  EXPECT_EQ(Fact(*fusion, "bytes_saved"), std::to_string(most));
  EXPECT_EQ(Fact(*fusion, "decisions_fused"), std::to_string(fused));
  EXPECT_NE(fusion->text.find("warehouse"), std::string::npos);
  EXPECT_NE(fusion->text.find(Fact(*fusion, "producer")), std::string::npos);
  EXPECT_FALSE(fusion->subjects.empty());

  // Kernels before simplification: EstimateModule of the input (step 0).
  const LessonStage* simplify = StageOf(b.lesson, "simplify");
  ASSERT_NE(simplify, nullptr);
  auto input = b.run->ModuleAt(0);
  ASSERT_TRUE(input.ok());
  EXPECT_EQ(Fact(*simplify, "kernels_before"), std::to_string(EstimateModule(**input, h200).kernels));
  EXPECT_EQ(Fact(*simplify, "instructions_before"), std::to_string((*input)->instruction_count()));
  int64_t removed = 0;
  for (int k = 1; k < first; ++k) {
    const Step& st = b.run->step(k);
    if (st.pass == "dce" || st.pass == "algsimp" || st.pass == "constant_folding")
      removed += static_cast<int64_t>(st.diff.removed.size());
  }
  EXPECT_EQ(Fact(*simplify, "removed"), std::to_string(removed));

  // CSE: the count of the step it shows, and "the same value" in the text.
  const LessonStage* cse = StageOf(b.lesson, "cse");
  ASSERT_NE(cse, nullptr);
  EXPECT_EQ(b.run->step(cse->step).pass, "cse");
  EXPECT_EQ(Fact(*cse, "removed"), std::to_string(b.run->step(cse->step).diff.removed.size()));
  EXPECT_NE(cse->text.find("computed the same value"), std::string::npos);
  EXPECT_FALSE(cse->subjects.empty());

  // Buffers: the last step's assignment; the reuse example is real.
  const LessonStage* buffers = StageOf(b.lesson, "buffers");
  ASSERT_NE(buffers, nullptr);
  EXPECT_EQ(buffers->step, b.run->size() - 1);
  auto ba = b.run->BuffersAt(buffers->step);
  ASSERT_TRUE(ba.ok());
  EXPECT_EQ(Fact(*buffers, "peak_bytes"), std::to_string((*ba)->peak_bytes));
  EXPECT_EQ(Fact(*buffers, "lower_bound_bytes"), std::to_string((*ba)->lower_bound_bytes));
  LiveSet live = BuffersLiveAtPeak(**ba);
  ASSERT_FALSE(live.entries.empty());
  EXPECT_EQ(Fact(*buffers, "largest_at_peak"), (*ba)->buffers[live.entries.front().buffer].instruction);
  const std::string ra = Fact(*buffers, "reuse_first"), rb = Fact(*buffers, "reuse_second");
  const AssignedBuffer *a = nullptr, *c = nullptr;
  for (const AssignedBuffer& buf : (*ba)->buffers) {
    if (buf.instruction == ra && buf.kind == BufferKind::kTemp && std::to_string(buf.offset) == Fact(*buffers, "reuse_offset")) a = &buf;
    if (buf.instruction == rb && buf.kind == BufferKind::kTemp && std::to_string(buf.offset) == Fact(*buffers, "reuse_offset")) c = &buf;
  }
  ASSERT_TRUE(a && c) << ra << " / " << rb;
  EXPECT_EQ(a->allocation, c->allocation);
  EXPECT_LT(a->end, c->start);

  // Kernels: the count is the cost model's; the kernel is of the commonest
  // kind and has code.
  const LessonStage* kernels = StageOf(b.lesson, "kernels");
  ASSERT_NE(kernels, nullptr);
  EXPECT_EQ(Fact(*kernels, "kernels"), std::to_string(ca.kernels));
  EXPECT_EQ(kernels->kernel, Fact(*kernels, "kernel"));
  ASSERT_EQ(kernels->subjects, std::vector<std::string>{kernels->kernel});
  EXPECT_NE(kernels->kernel_ir.find("define"), std::string::npos);
  EXPECT_NE(kernels->kernel_ptx.find(".entry"), std::string::npos);
  std::map<std::string, int> kinds;
  for (const auto& i : (*after)->entry()->instructions())
    if (LaunchesKernel(*i))
      ++kinds[i->opcode() == Opcode::kFusion ? std::string(FusionKindName(i->fusion_kind())) + " fusion"
                                             : std::string(OpcodeName(i->opcode()))];
  int top = 0;
  for (const auto& [k, n] : kinds) top = std::max(top, n);
  EXPECT_EQ(kinds[Fact(*kernels, "kernel_kind")], top);
}

TEST(Lesson, TransformerBlockStablehlo) {
  Built b = Build("transformer_block.stablehlo.mlir");
  CheckCommon(b);
  std::vector<std::string> ids = Ids(b.lesson);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "stablehlo");
  EXPECT_EQ(ids.back(), "kernels");
  EXPECT_NE(std::find(ids.begin(), ids.end(), "fusion"), ids.end());
  const LessonStage& st = b.lesson.stages.front();
  EXPECT_EQ(st.step, 0);
  EXPECT_EQ(Fact(st, "hlo_instructions"), std::to_string(b.run->step(0).module->instruction_count()));
  EXPECT_GT(std::stoll(Fact(st, "stablehlo_ops")), 0);
}

TEST(Lesson, HloInputHasNoStablehloStageAndKernelCodeIsOptional) {
  Built b = Build("transformer_block.hlo", /*kernel_code=*/false);
  ASSERT_FALSE(b.lesson.stages.empty());
  EXPECT_NE(b.lesson.stages.front().id, "stablehlo");
  const LessonStage& k = b.lesson.stages.back();
  EXPECT_EQ(k.id, "kernels");
  EXPECT_FALSE(k.kernel.empty());
  EXPECT_TRUE(k.kernel_ir.empty());
  EXPECT_TRUE(k.kernel_ptx.empty());
}

TEST(Lesson, InputOnlyRunHasOnlyTheKernelsStage) {
  auto s = Session::Load(Sample("transformer_block.hlo"));
  ASSERT_TRUE(s.ok());
  auto l = BuildLesson(**s, *(*s)->InputOnly(), {.kernel_code = false});
  ASSERT_TRUE(l.ok());
  std::vector<std::string> ids = Ids(*l);
  EXPECT_EQ(ids.back(), "kernels");
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "fusion"), 0);
}

// A 30k-instruction module: every stage is there, valid, and built in
// seconds (linear scans; one kernel compiled). Skipped without the corpus.
TEST(Lesson, Llama8BIsQuick) {
  const std::string shared = hloscope::testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "no shared corpus";
  auto s = Session::Load(shared + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo");
  ASSERT_TRUE(s.ok()) << s.status().message();
  RunOptions opts;
  opts.pipeline = "gpu";
  opts.device = "h200";
  auto run = (*s)->RunPipeline(opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  auto t0 = std::chrono::steady_clock::now();
  auto l = BuildLesson(**s, **run);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(l.ok()) << l.status().message();
  std::printf("BuildLesson on Llama 3.1 8B (%lld instructions): %.0f ms\n",
              static_cast<long long>((*s)->instruction_count()), ms);
  Built b{*s, *run, *l};
  CheckCommon(b);
  EXPECT_EQ(Ids(b.lesson), (std::vector<std::string>{"simplify", "cse", "fusion", "buffers", "kernels"}));
  EXPECT_FALSE(b.lesson.stages.back().kernel_ptx.empty());
  EXPECT_LT(ms, 10000) << "the lesson must stay linear";  // 0.44 s measured (RelWithDebInfo, 2 cores shared)
}

}  // namespace
}  // namespace hloscope
