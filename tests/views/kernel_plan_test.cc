// Never all or nothing, as the GUI shows it: a module with a kernel no
// emitter implements (a collective inside a fusion, as XLA GPU's Triton collectives) and a custom-call into an external target
// ("foo"). The Kernels tab lists every launch (QAbstractItemModelTester), the
// kernel tabs give the missing kernel's reason instead of an error, and the
// graph and the details mark both.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <fstream>

#include "app/gui/main_window.h"
#include "core/codegen/codegen.h"
#include "tests/support/plan_marks_module.h"
#include "tests/views/view_test_util.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_view.h"
#include "views/kernels/kernels_model.h"
#include "views/text/text_panel.h"

namespace hloscope {
namespace {

using views_test::WaitUntil;

using testing::kPlanMarksHlo;

std::shared_ptr<const views::KernelListing> PlanMarksListing() {
  codegen::CodegenOptions o;
  o.emit_ptx = false;
  auto f = codegen::CompileText(kPlanMarksHlo, "plan_marks.hlo", "gpu", o);
  EXPECT_TRUE(f.ok()) << f.status().message();
  if (!f.ok()) return nullptr;
  return views::KernelListing::Make(std::make_shared<const codegen::CodegenResult>(std::move(f->codegen)));
}

TEST(KernelsModelTest, ListsEveryLaunchWithMissingAndExternalMarked) {
  auto listing = PlanMarksListing();
  ASSERT_TRUE(listing);
  views::KernelsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setListing(listing);
  EXPECT_EQ(listing->counts.missing, 1u);
  EXPECT_EQ(listing->counts.custom_calls, 1u);
  EXPECT_GE(listing->counts.kernels, 1u);
  EXPECT_EQ(listing->summary, std::to_string(listing->counts.kernels) + " kernel" +
                                  (listing->counts.kernels == 1 ? "" : "s") +
                                  " generated, 1 missing, 1 custom-call thunk");
  ASSERT_EQ(model.rowCount(), static_cast<int>(listing->entries.size()));
  ASSERT_EQ(model.columnCount(), views::KernelsModel::kColumnCount);
  int missing = -1, external = -1;
  for (int r = 0; r < model.rowCount(); ++r) {
    const QString kind = model.data(model.index(r, views::KernelsModel::kKind)).toString();
    const QString instr = model.data(model.index(r, 0), views::KernelsModel::kInstructionRole).toString();
    EXPECT_EQ(instr, model.data(model.index(r, views::KernelsModel::kInstruction)).toString());
    if (kind == "missing") missing = r;
    if (kind == "custom-call") external = r;
  }
  ASSERT_GE(missing, 0);
  ASSERT_GE(external, 0);
  EXPECT_EQ(model.data(model.index(missing, views::KernelsModel::kInstruction)).toString(), "collective");
  const QString why = model.data(model.index(missing, views::KernelsModel::kWhat)).toString();
  EXPECT_TRUE(why.startsWith("missing — no kernel emitter for fusion %collective")) << why.toStdString();
  EXPECT_EQ(model.data(model.index(missing, views::KernelsModel::kWhat), Qt::ForegroundRole).value<QColor>(),
            views::PlanEntryColor(report::PlanEntry::Kind::kMissing));
  EXPECT_EQ(model.data(model.index(external, views::KernelsModel::kInstruction)).toString(), "ext");
  EXPECT_TRUE(model.data(model.index(external, views::KernelsModel::kWhat)).toString().contains("\"foo\""));
  // Generated kernels carry no colour.
  for (int r = 0; r < model.rowCount(); ++r)
    if (r != missing && r != external)
      EXPECT_FALSE(model.data(model.index(r, views::KernelsModel::kWhat), Qt::ForegroundRole).isValid());
  model.setListing(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace hloscope

namespace hloscope::gui {
namespace {

using views_test::WaitUntil;

bool Idle(MainWindow& w) {
  return WaitUntil([&] { return !w.busy() && w.run() && w.shownStep() >= 0; });
}

TEST(MainWindowKernelsTest, MissingKernelAndExternalCallAreShownNotFailed) {
  QTemporaryDir dir;
  const QString path = dir.path() + "/plan_marks.hlo";
  std::ofstream(path.toStdString()) << kPlanMarksHlo;
  MainWindow w({.persist_settings = false, .dialogs = false, .auto_run = true});
  w.setPipelineChoice("gpu");
  w.resize(1400, 900);
  w.show();
  w.openFile(path);
  ASSERT_TRUE(Idle(w)) << w.lastError().toStdString();
  const int last = w.run()->size() - 1;
  w.selectStep(last);
  ASSERT_TRUE(Idle(w));
  ASSERT_TRUE(w.selectInstructionByName("collective", true));
  w.generateKernels();
  ASSERT_TRUE(Idle(w));
  ASSERT_TRUE(w.kernelsReadyForStep()) << w.lastError().toStdString();
  EXPECT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();  // no "Kernel generation failed"
  // The kernel tabs: the reason, not an error.
  const QString ir = w.textPanel()->irText();
  EXPECT_TRUE(ir.contains("%collective: kernel missing — no kernel emitter for fusion %collective")) << ir.toStdString();
  EXPECT_TRUE(w.textPanel()->ptxText().contains("missing")) << w.textPanel()->ptxText().toStdString();
  // The Kernels tab lists every launch, with the summary line.
  const auto& listing = w.kernels();
  ASSERT_TRUE(listing);
  EXPECT_EQ(w.textPanel()->kernelsModel()->rowCount(), static_cast<int>(listing->entries.size()));
  EXPECT_TRUE(w.textPanel()->kernelsSummary().contains("1 missing, 1 custom-call thunk"))
      << w.textPanel()->kernelsSummary().toStdString();
  // Graph marks and the details' "kernel" row.
  const qint64 collective = w.run()->IdOfName(last, "collective");
  const qint64 ext = w.run()->IdOfName(last, "ext");
  ASSERT_GE(collective, 0);
  ASSERT_GE(ext, 0);
  EXPECT_EQ(w.graph()->highlighted("missing"), std::vector<int64_t>{collective});
  EXPECT_EQ(w.graph()->highlighted("external"), std::vector<int64_t>{ext});
  EXPECT_TRUE(w.detailsPanel()->plainText().contains("missing — no kernel emitter for fusion %collective"))
      << w.detailsPanel()->plainText().toStdString();
  // The custom-call: what it calls.
  w.selectInstruction(ext, true);
  EXPECT_TRUE(w.textPanel()->irText().contains("custom-call thunk, not a kernel of ours"))
      << w.textPanel()->irText().toStdString();
  EXPECT_TRUE(w.textPanel()->irText().contains("\"foo\""));
  EXPECT_TRUE(w.detailsPanel()->plainText().contains("external target \"foo\""));
  // A generated kernel still shows its code.
  for (const report::PlanEntry& e : listing->entries) {
    if (e.kind != report::PlanEntry::Kind::kKernel) continue;
    ASSERT_TRUE(w.selectInstructionByName(QString::fromStdString(e.instruction), true));
    EXPECT_TRUE(w.textPanel()->irText().contains("define"))
        << w.textPanel()->irText().left(300).toStdString();
    break;
  }
  // Another step: the marks are those of the step they were generated for.
  w.selectStep(0);
  ASSERT_TRUE(Idle(w));
  EXPECT_TRUE(w.graph()->highlighted("missing").empty());
  EXPECT_TRUE(w.graph()->highlighted("external").empty());
  EXPECT_EQ(w.textPanel()->kernelsModel()->rowCount(), 0);
  w.selectStep(last);
  ASSERT_TRUE(Idle(w));
  EXPECT_EQ(w.graph()->highlighted("missing"), std::vector<int64_t>{collective});
}

}  // namespace
}  // namespace hloscope::gui
