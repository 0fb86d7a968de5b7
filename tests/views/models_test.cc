// Item models over a real run (transformer_block through `gpu`), checked
// with QAbstractItemModelTester and against the steps' own numbers.
#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

#include "core/session/session.h"
#include "tests/support/test_paths.h"
#include "tests/views/view_test_util.h"
#include "views/decisions/decisions_model.h"
#include "views/pipeline/steps_model.h"

namespace hloscope::views {
namespace {

std::shared_ptr<const PipelineRun> GpuRun() {
  static std::shared_ptr<const PipelineRun> run = views_test::SampleRun("transformer_block.hlo");
  return run;
}

TEST(StepsModelTest, TesterAndDeltas) {
  auto run = GpuRun();
  StepsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSteps(run->steps());
  ASSERT_EQ(model.rowCount(), run->size());
  EXPECT_EQ(model.columnCount(), StepsModel::kColumnCount);
  for (int r = 1; r < model.rowCount(); ++r) {
    const Step& s = run->step(r);
    const Step& p = run->step(r - 1);
    EXPECT_EQ(model.data(model.index(r, StepsModel::kPass)).toString().toStdString(), s.pass);
    EXPECT_EQ(model.data(model.index(r, StepsModel::kDeltaKernels)).toString(), SignedCount(s.cost.kernels - p.cost.kernels));
    EXPECT_EQ(model.data(model.index(r, StepsModel::kDeltaInstructions)).toString(),
              SignedCount(s.instructions - p.instructions));
  }
  // Appending keeps the tester happy too.
  model.clear();
  for (const auto& s : run->steps()) model.appendStep(s);
  EXPECT_EQ(model.rowCount(), run->size());
}

TEST(StepsModelTest, HideNoOpsKeepsOnlyChangedSteps) {
  auto run = GpuRun();
  StepsModel model;
  ChangedStepsFilter filter;
  filter.setSourceModel(&model);
  QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSteps(run->steps());
  EXPECT_EQ(filter.rowCount(), run->size());
  filter.setHideNoOps(true);
  int changed = 0;
  for (int k = 1; k < run->size(); ++k) changed += run->step(k).changed;
  ASSERT_LT(changed + 1, run->size()) << "the gpu pipeline should have no-op steps";
  EXPECT_EQ(filter.rowCount(), changed + 1);
  for (int r = 1; r < filter.rowCount(); ++r)
    EXPECT_TRUE(filter.data(filter.index(r, 0), StepsModel::kChangedRole).toBool());
}

// The first column is the step number the CLI takes (export-graph --step N,
// explain's "step N", opt --json "step", reports, --dump-dir's NNNN): 0 is
// the input, 1, 2, 3... the pass runs; priority_fusion is step 52 of gpu on
// the transformer block. Hiding no-op steps keeps the numbers.
TEST(StepsModelTest, FirstColumnIsTheCliStepNumber) {
  auto run = GpuRun();
  StepsModel model;
  model.setSteps(run->steps());
  for (int r = 0; r < model.rowCount(); ++r) {
    EXPECT_EQ(model.data(model.index(r, StepsModel::kIndex)).toInt(), r);
    EXPECT_EQ(run->step(r).index, r);
  }
  EXPECT_EQ(model.data(model.index(0, StepsModel::kPass)).toString(), "input");
  ASSERT_GT(model.rowCount(), 52);
  EXPECT_EQ(model.data(model.index(52, StepsModel::kPass)).toString(), "priority_fusion");
  EXPECT_EQ(model.data(model.index(52, StepsModel::kIndex)).toString(), "52");
  ChangedStepsFilter filter;
  filter.setSourceModel(&model);
  filter.setHideNoOps(true);
  int seen = 0;
  for (int r = 0; r < filter.rowCount(); ++r)
    if (filter.data(filter.index(r, StepsModel::kPass)).toString() == "priority_fusion") {
      EXPECT_LT(r, 52);  // rows above it were hidden...
      EXPECT_EQ(filter.data(filter.index(r, StepsModel::kIndex)).toInt(), 52);  // ...its number stays
      ++seen;
    }
  EXPECT_EQ(seen, 1);
}

TEST(SignedTest, Formats) {
  EXPECT_EQ(SignedCount(0), "0");
  EXPECT_EQ(SignedCount(12), "+12");
  EXPECT_EQ(SignedCount(-3), "−3");
  EXPECT_EQ(HumanBytes(1536), "1.5 kB");
  EXPECT_EQ(SignedBytes(-2000000), "−2.00 MB");
}

TEST(DecisionsModelTest, TesterStepAndAll) {
  auto run = GpuRun();
  DecisionsModel model;
  DecisionsFilter filter;
  filter.setSourceModel(&model);
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester ftester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  size_t total = 0;
  int fusion_step = -1;
  for (const auto& s : run->steps()) {
    total += s->decisions.size();
    if (fusion_step < 0 && !s->decisions.empty()) fusion_step = s->index;
  }
  ASSERT_GE(fusion_step, 0);
  model.setSteps(run->steps(), -1);
  EXPECT_EQ(model.rowCount(), static_cast<int>(total));
  model.setSteps(run->steps(), fusion_step);
  ASSERT_EQ(model.rowCount(), static_cast<int>(run->step(fusion_step).decisions.size()));
  const FusionDecision& d0 = run->step(fusion_step).decisions[0];
  EXPECT_EQ(model.data(model.index(0, DecisionsModel::kProducer)).toString().toStdString(), d0.producer);
  EXPECT_EQ(model.data(model.index(0, 0), DecisionsModel::kProducerIdRole).toLongLong(),
            d0.producer_id);
  EXPECT_EQ(model.data(model.index(0, DecisionsModel::kDeltaBytes)).toLongLong(), d0.bytes_after - d0.bytes_before);
  // Verdict filter: every visible row has that verdict, and fused + not fused
  // + the others add up to the total.
  model.setSteps(run->steps(), -1);
  int sum = 0;
  for (const char* v : {"fused", "not fused", "fused with duplication", "merged"}) {
    filter.setVerdict(v);
    for (int r = 0; r < filter.rowCount(); ++r)
      EXPECT_EQ(filter.data(filter.index(r, DecisionsModel::kVerdict)).toString(), v);
    sum += filter.rowCount();
  }
  EXPECT_EQ(sum, model.rowCount());
  filter.setVerdict("");
  filter.setText(QString::fromStdString(d0.producer));
  EXPECT_GT(filter.rowCount(), 0);
  EXPECT_LT(filter.rowCount(), model.rowCount());
  filter.setText("zzz-no-such-text-zzz");
  EXPECT_EQ(filter.rowCount(), 0);
}

}  // namespace
}  // namespace hloscope::views
