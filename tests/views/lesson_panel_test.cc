// The guided tour (issue 30, item 3): the side panel on a hand-made lesson,
// and the tour on samples/transformer_block.hlo in the main window — stage 1
// when it opens from Help → Guided tour, Next / Back move the window's step
// and selection to the stage's step and first subject, the kernels stage
// generates the kernels and shows the PTX tab, the close button hides it.
#include <QAction>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <gtest/gtest.h>

#include "app/gui/main_window.h"
#include "tests/views/view_test_util.h"
#include "views/lesson/lesson_panel.h"
#include "views/text/text_panel.h"
#include "views/text/text_viewer.h"

namespace hloscope::gui {
namespace {

using views_test::WaitUntil;

constexpr MainWindowOptions kTestOptions{.persist_settings = false, .dialogs = false, .auto_run = true};

std::shared_ptr<const Lesson> HandMade() {
  auto l = std::make_shared<Lesson>();
  l->module_name = "m";
  LessonStage a;
  a.id = "cse";
  a.title = "Simplification: CSE";
  a.text = "These 2 instructions computed the same value: `add.2` and `add.3`.\n\nA <second> paragraph.";
  a.step = 3;
  a.panel = "graph";
  a.subjects = {"add.2", "add.3"};
  LessonStage b = a;
  b.id = "fusion";
  b.title = "Fusion";
  b.text = "- one\n- two";
  b.subjects = {};
  l->stages = {a, b};
  return l;
}

TEST(LessonPanelTest, ShowsStagesWithCodeSpansAndLinks) {
  views::LessonPanel p;
  p.setMessage("building");
  EXPECT_EQ(p.stage(), -1);
  EXPECT_TRUE(p.bodyText().contains("building"));
  EXPECT_FALSE(p.nextButton()->isEnabled());
  QSignalSpy changed(&p, &views::LessonPanel::stageChanged);
  p.setLesson(HandMade(), 0, {"Step 3 · cse"});
  ASSERT_EQ(changed.count(), 1);
  EXPECT_EQ(p.stage(), 0);
  EXPECT_EQ(p.positionText(), "Stage 1 of 2");
  EXPECT_EQ(p.titleText(), "Simplification: CSE");
  EXPECT_TRUE(p.bodyText().contains("Step 3 · cse"));
  EXPECT_TRUE(p.bodyText().contains("computed the same value: add.2 and add.3."));
  EXPECT_TRUE(p.bodyText().contains("A <second> paragraph."));  // escaped, not markup
  EXPECT_FALSE(p.backButton()->isEnabled());
  EXPECT_TRUE(p.nextButton()->isEnabled());
  const QString html = views::LessonPanel::StageHtml(HandMade()->stages[0], {});
  EXPECT_TRUE(html.contains("font-family:'"));  // `code` in the fixed font
  EXPECT_TRUE(html.contains("href=\"subject:add.3\""));
  EXPECT_FALSE(html.contains('`'));

  QSignalSpy subject(&p, &views::LessonPanel::subjectActivated);
  emit p.browser()->anchorClicked(QUrl("subject:add.3"));
  ASSERT_EQ(subject.count(), 1);
  EXPECT_EQ(subject.front().front().toString(), "add.3");

  p.nextButton()->click();
  EXPECT_EQ(p.stage(), 1);
  EXPECT_EQ(changed.count(), 2);
  EXPECT_TRUE(views::LessonPanel::StageHtml(HandMade()->stages[1], {}).contains("<li>two</li>"));
  EXPECT_TRUE(p.backButton()->isEnabled());
  EXPECT_FALSE(p.nextButton()->isEnabled());
  p.nextButton()->click();  // disabled: nothing
  p.next();                 // clamped
  EXPECT_EQ(p.stage(), 1);
  EXPECT_EQ(changed.count(), 2);
  p.backButton()->click();
  EXPECT_EQ(p.stage(), 0);

  QSignalSpy closed(&p, &views::LessonPanel::closeRequested);
  p.closeButton()->click();
  EXPECT_EQ(closed.count(), 1);
}

QString SelectedName(const MainWindow& w) {
  const InstructionRecord* r = w.run()->step(w.currentStep()).module->Find(w.selectedInstruction());
  return r ? QString::fromStdString(r->name) : QString();
}

bool StageShown(MainWindow& w, int k) {
  return WaitUntil([&] { return w.lesson() && w.lessonStage() == k && !w.busy(); });
}

void ExpectStageShown(const MainWindow& w, int k) {
  const LessonStage& s = w.lesson()->stages[k];
  EXPECT_EQ(w.currentStep(), s.step) << s.id;
  EXPECT_EQ(w.shownStep(), s.step) << s.id;
  if (!s.subjects.empty()) EXPECT_EQ(SelectedName(w), QString::fromStdString(s.subjects.front())) << s.id;
  EXPECT_EQ(w.lessonPanel()->titleText(), QString::fromStdString(s.title));
  EXPECT_EQ(w.lessonPanel()->positionText(),
            QStringLiteral("Stage %1 of %2").arg(k + 1).arg(w.lesson()->stages.size()));
}

TEST(LessonPanelTest, TourWalksTheStagesInTheMainWindow) {
  MainWindow w(kTestOptions);
  w.resize(1400, 860);
  w.show();
  w.setPipelineChoice("gpu");
  QSignalSpy done(&w, &MainWindow::runFinished);
  w.openFile(QString::fromStdString(hloscope::testing::SamplesDir()) + "/transformer_block.hlo");
  ASSERT_TRUE(WaitUntil([&] { return done.count() > 0; }));
  ASSERT_TRUE(WaitUntil([&] { return !w.busy() && w.shownStep() >= 0; }));
  w.selectStep(w.run()->size() - 1);
  ASSERT_TRUE(WaitUntil([&] { return !w.busy() && w.shownStep() == w.run()->size() - 1; }));

  QAction* tour = w.findChild<QAction*>("guided_tour");
  ASSERT_NE(tour, nullptr);
  tour->trigger();  // Help → Guided tour
  EXPECT_TRUE(w.lessonOpen());
  ASSERT_TRUE(StageShown(w, 0));
  const Lesson& lesson = *w.lesson();
  ASSERT_GE(lesson.stages.size(), 3u);
  EXPECT_EQ(lesson.stages.back().id, "kernels");
  ExpectStageShown(w, 0);
  EXPECT_LT(w.currentStep(), w.run()->size() - 1);  // stage 1 (simplification) is an early step

  QSignalSpy shown(&w, &MainWindow::lessonStageShown);
  w.lessonPanel()->nextButton()->click();
  ASSERT_TRUE(StageShown(w, 1));
  ExpectStageShown(w, 1);
  ASSERT_GE(shown.count(), 1);
  EXPECT_EQ(shown.back().front().toInt(), 1);

  w.lessonPanel()->backButton()->click();
  ASSERT_TRUE(StageShown(w, 0));
  ExpectStageShown(w, 0);

  // The kernels stage: the step's kernels are generated and its kernel's PTX shown.
  const int kernels = static_cast<int>(lesson.stages.size()) - 1;
  w.showLessonStage(kernels);
  ASSERT_TRUE(StageShown(w, kernels));
  ExpectStageShown(w, kernels);
  EXPECT_TRUE(w.kernelsReadyForStep());
  EXPECT_EQ(w.textPanel()->tabs()->currentWidget(), static_cast<QWidget*>(w.textPanel()->ptxViewer()));
  EXPECT_FALSE(w.lessonPanel()->nextButton()->isEnabled());

  // Closing hides the panel; Help → Guided tour opens it again where it was.
  w.lessonPanel()->closeButton()->click();
  EXPECT_FALSE(w.lessonOpen());
  tour->trigger();
  EXPECT_TRUE(w.lessonOpen());
  ASSERT_TRUE(StageShown(w, kernels));
}

TEST(LessonPanelTest, OpenedBeforeTheFileWaitsForThePipeline) {
  MainWindow w(kTestOptions);
  w.setPipelineChoice("gpu");
  w.openLesson(0);  // hloscope --lesson FILE: the panel first, the tour once the pipeline has run
  EXPECT_TRUE(w.lessonOpen());
  EXPECT_TRUE(w.lessonPanel()->bodyText().contains("once the pipeline has run"));
  w.openFile(QString::fromStdString(hloscope::testing::SamplesDir()) + "/mlp_gelu.hlo");
  ASSERT_TRUE(StageShown(w, 0));
  ExpectStageShown(w, 0);
}

}  // namespace
}  // namespace hloscope::gui
