// The large-text viewer (painted line by line, no QTextDocument): scrolling
// to a line, the selected instruction's highlight, line selection and copy,
// find; the colours it paints agree with the small viewer's highlighter; the
// TextViewer picks the viewer by size; the text panel shows a large module's
// HLO and diff in it.
#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <gtest/gtest.h>

#include "tests/views/view_test_util.h"
#include "views/text/hlo_highlighter.h"
#include "views/text/hlo_syntax.h"
#include "views/text/large_text_view.h"
#include "views/text/line_text.h"
#include "views/text/text_panel.h"
#include "views/text/text_viewer.h"

namespace hloscope::views {
namespace {

QString Lines(int n, const QString& tag = "line") {
  QString s;
  for (int i = 0; i < n; ++i) s += QStringLiteral("%1 %2 = f32[128,256]{1,0} add(a, b)\n").arg(tag).arg(i);
  s.chop(1);
  return s;
}

// The background of the view's row `row` (right edge: past the text).
QColor RowBackground(LargeTextView& view, int row) {
  const QImage img = view.viewport()->grab().toImage();
  return img.pixelColor(img.width() - 3, row * view.lineHeight() + view.lineHeight() / 2);
}

TEST(LineTextTest, IndexesLines) {
  LineText t("a\nbb\r\n\nccc");
  ASSERT_EQ(t.lineCount(), 4);
  EXPECT_EQ(t.line(0), u"a");
  EXPECT_EQ(t.line(1), u"bb");
  EXPECT_EQ(t.line(2), u"");
  EXPECT_EQ(t.line(3), u"ccc");
  EXPECT_TRUE(t.line(4).isEmpty());
  EXPECT_EQ(t.maxLineLength(), 3);  // "bb\r", "ccc"
  EXPECT_EQ(t.lines(1, 3), "bb\r\n\nccc");
  EXPECT_EQ(t.find("C", 0, false), 3);
  EXPECT_EQ(t.find("b", 3, true), 1);
  EXPECT_EQ(t.find("zz", 0, false), -1);
  EXPECT_EQ(LineText("").lineCount(), 1);
}

TEST(LargeTextViewTest, ScrollsToALineAndHighlightsIt) {
  LargeTextView view;
  view.resize(700, 400);
  view.show();
  view.setText(std::make_shared<const LineText>(Lines(50000)));
  EXPECT_EQ(view.firstVisibleLine(), 0);
  const int rows = view.visibleLineCount();
  ASSERT_GT(rows, 5);
  view.setHighlightedLine(31234);
  view.scrollToLine(31234, true);
  const int first = view.firstVisibleLine();
  EXPECT_LE(first, 31234);
  EXPECT_GT(first + rows, 31234);
  EXPECT_NEAR(31234 - first, rows / 2, 1);  // centred
  const int row = 31234 - first;
  EXPECT_EQ(view.lineAt(QPoint(10, row * view.lineHeight() + 1)), 31234);
  EXPECT_EQ(RowBackground(view, row), QColor("#fff3c4"));
  EXPECT_EQ(RowBackground(view, row + 1), view.palette().base().color());
  // Scrolling without centring keeps a visible line where it is, and brings
  // an invisible one to the edge.
  view.scrollToLine(first + 1, false);
  EXPECT_EQ(view.firstVisibleLine(), first);
  view.scrollToLine(100, false);
  EXPECT_EQ(view.firstVisibleLine(), 100);
  view.scrollToLine(49999, false);
  EXPECT_EQ(view.firstVisibleLine(), 49999 - rows + 1);
  // A new text starts at the top with nothing highlighted.
  view.setText(std::make_shared<const LineText>(Lines(10)));
  EXPECT_EQ(view.firstVisibleLine(), 0);
  EXPECT_EQ(view.highlightedLine(), -1);
}

TEST(LargeTextViewTest, StaysCentredWhenShownLater) {
  // Centred while tiny (a panel not shown yet), then given its real size:
  // the line is centred for that size; once the user scrolls, it is not.
  LargeTextView view;
  view.resize(300, 40);
  view.setText(std::make_shared<const LineText>(Lines(5000)));
  view.setHighlightedLine(2500);
  view.scrollToLine(2500, true);
  view.resize(700, 600);
  view.show();
  ASSERT_TRUE(views_test::WaitUntil([&] { return view.visibleLineCount() > 10; }, 5000));
  EXPECT_NEAR(2500 - view.firstVisibleLine(), view.visibleLineCount() / 2, 1);
  view.verticalScrollBar()->setValue(100);
  view.resize(700, 400);
  EXPECT_EQ(view.firstVisibleLine(), 100);
}

TEST(LargeTextViewTest, SelectsLinesAndCopies) {
  LargeTextView view;
  view.resize(700, 400);
  view.show();
  const QString text = Lines(20000);
  view.setText(std::make_shared<const LineText>(text));
  view.scrollToLine(5000, false);
  const int first = view.firstVisibleLine();
  // Click on the third visible row, shift+click two rows further.
  const int y = 2 * view.lineHeight() + 2;
  QMouseEvent press(QEvent::MouseButtonPress, QPointF(20, y), view.viewport()->mapToGlobal(QPointF(20, y)),
                    Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(view.viewport(), &press);
  EXPECT_EQ(view.selectionFirst(), first + 2);
  EXPECT_EQ(view.selectionLast(), first + 2);
  const int y2 = 4 * view.lineHeight() + 2;
  QMouseEvent shift(QEvent::MouseButtonPress, QPointF(20, y2), view.viewport()->mapToGlobal(QPointF(20, y2)),
                    Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
  QApplication::sendEvent(view.viewport(), &shift);
  EXPECT_EQ(view.selectionFirst(), first + 2);
  EXPECT_EQ(view.selectionLast(), first + 4);
  EXPECT_EQ(RowBackground(view, 3), QColor("#cfe2ff"));
  // Shift+Down extends by a line; Ctrl+C copies the selected lines.
  QKeyEvent down(QEvent::KeyPress, Qt::Key_Down, Qt::ShiftModifier);
  QApplication::sendEvent(&view, &down);
  EXPECT_EQ(view.selectionLast(), first + 5);
  const QString want = text.split('\n').mid(first + 2, 4).join('\n');
  EXPECT_EQ(view.selectedText(), want);
  QApplication::clipboard()->clear();
  QKeyEvent copy(QEvent::KeyPress, Qt::Key_C, Qt::ControlModifier);
  QApplication::sendEvent(&view, &copy);
  EXPECT_EQ(QApplication::clipboard()->text(), want);
  // End goes to the last line and shows it.
  QKeyEvent end(QEvent::KeyPress, Qt::Key_End, Qt::NoModifier);
  QApplication::sendEvent(&view, &end);
  EXPECT_EQ(view.selectionFirst(), 19999);
  EXPECT_GT(view.firstVisibleLine() + view.visibleLineCount(), 19999);
  // Find: the next line containing the needle, wrapping around.
  EXPECT_TRUE(view.find("line 4242 "));
  EXPECT_EQ(view.selectionFirst(), 4242);
  EXPECT_LE(view.firstVisibleLine(), 4242);
  EXPECT_GT(view.firstVisibleLine() + view.visibleLineCount(), 4242);
  EXPECT_FALSE(view.find("no such text"));
}

// The large viewer paints the runs the HLO highlighter gives the small one.
TEST(HloSyntaxTest, LargeViewerColoursMatchTheHighlighter) {
  const QString hlo = QStringLiteral(
      "HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n"
      "\n"
      "ENTRY %main (p: f32[4]) -> f32[4] {\n"
      "  %p = f32[4]{0} parameter(0)  // the input\n"
      "  %c = f32[] constant(1), metadata={op_name=\"jit(f)/add\" source_file=\"a.py\"}\n"
      "  ROOT %add.1 = f32[4]{0} add(f32[4]{0} %p, f32[4]{0} %p) /* fused */\n"
      "}");
  QTextDocument doc;
  doc.setPlainText(hlo);
  HloHighlighter h(&doc);
  h.rehighlight();
  HloSyntax syntax;
  int styled = 0;
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
    std::vector<StyledRun> runs;
    syntax.style(b.text(), runs);
    const std::vector<StyledRun> flat = FlattenRuns(runs, static_cast<int>(b.text().size()));
    // Per character: the highlighter's format equals the flattened run's.
    for (int i = 0; i < b.text().size(); ++i) {
      QTextCharFormat want;
      for (const StyledRun& r : flat)
        if (i >= r.start && i < r.start + r.length) want = syntax.formats()[static_cast<size_t>(r.format)];
      QTextCharFormat got;
      for (const QTextLayout::FormatRange& r : b.layout()->formats())
        if (i >= r.start && i < r.start + r.length) got = r.format;
      EXPECT_EQ(got.foreground().color(), want.foreground().color()) << b.text().toStdString() << " @" << i;
      EXPECT_EQ(got.fontWeight(), want.fontWeight()) << b.text().toStdString() << " @" << i;
      styled += want.foreground().style() != Qt::NoBrush;
    }
  }
  EXPECT_GT(styled, 50);
  // Spot checks: the opcode is bold blue, the comment grey italic.
  std::vector<StyledRun> runs;
  const QString line = "  ROOT %add.1 = f32[4]{0} add(f32[4]{0} %p, f32[4]{0} %p) // x";
  syntax.style(line, runs);
  const auto flat = FlattenRuns(runs, static_cast<int>(line.size()));
  auto format_at = [&](int col) {
    for (const StyledRun& r : flat)
      if (col >= r.start && col < r.start + r.length) return syntax.formats()[static_cast<size_t>(r.format)];
    return QTextCharFormat();
  };
  EXPECT_EQ(format_at(static_cast<int>(line.indexOf(" add(")) + 1).foreground().color(), QColor("#1565c0"));
  EXPECT_TRUE(format_at(static_cast<int>(line.indexOf("//"))).fontItalic());
  EXPECT_EQ(format_at(2).foreground().color(), QColor("#c62828"));  // ROOT
}

TEST(TextViewerTest, PicksTheViewerBySizeAndLatestWins) {
  TextViewer viewer(TextViewer::Syntax::kHlo);
  viewer.resize(600, 300);
  viewer.show();
  bool ready = false;
  viewer.setText("a\nb\nc", [&] { ready = true; });
  EXPECT_TRUE(ready);
  EXPECT_FALSE(viewer.isLarge());
  EXPECT_EQ(viewer.text(), "a\nb\nc");
  viewer.setHighlightedLine(1);
  EXPECT_EQ(viewer.edit()->textCursor().blockNumber(), 1);
  EXPECT_EQ(viewer.edit()->extraSelections().size(), 1);

  const QString first = Lines(12000, "first");
  const QString second = Lines(15000, "second");
  ASSERT_GE(first.size(), TextViewer::kLargeTextChars);
  int first_ready = 0, second_ready = 0;
  viewer.setText(first, [&] { ++first_ready; });
  EXPECT_TRUE(viewer.pending());
  viewer.setUtf8(std::make_shared<const std::string>(second.toStdString()), [&] { ++second_ready; });
  viewer.setHighlightedLine(14000);  // while pending: applied once shown
  ASSERT_TRUE(views_test::WaitUntil([&] { return !viewer.pending(); }, 60000));
  EXPECT_EQ(first_ready, 0);  // superseded
  EXPECT_EQ(second_ready, 1);
  EXPECT_TRUE(viewer.isLarge());
  EXPECT_EQ(viewer.text(), second);
  EXPECT_EQ(viewer.largeView()->lineText()->lineCount(), 15000);
  EXPECT_EQ(viewer.largeView()->highlightedLine(), 14000);
  EXPECT_LE(viewer.largeView()->firstVisibleLine(), 14000);
  EXPECT_GT(viewer.largeView()->firstVisibleLine() + viewer.largeView()->visibleLineCount(), 14000);
  // Back to a small text: the edit again, the large text released.
  viewer.setText("small");
  EXPECT_FALSE(viewer.isLarge());
  EXPECT_EQ(viewer.text(), "small");
  EXPECT_EQ(viewer.largeView()->lineText()->lineCount(), 1);
}

// A module whose printed text is large (over kLargeTextChars) and that
// `simplify` changes a lot (dead instructions removed): its HLO and diff go
// to the large viewer.
std::shared_ptr<const PipelineRun> LargeRun() {
  std::string hlo = "HloModule big\n\nENTRY %main (p: f32[16]) -> f32[16] {\n  %p = f32[16]{0} parameter(0)\n";
  std::string prev = "%p";
  for (int i = 0; i < 3000; ++i) {
    hlo += "  %dead." + std::to_string(i) + " = f32[16]{0} multiply(f32[16]{0} %p, f32[16]{0} %p)\n";
    hlo += "  %add." + std::to_string(i) + " = f32[16]{0} add(f32[16]{0} " + prev + ", f32[16]{0} %p)\n";
    prev = "%add." + std::to_string(i);
  }
  hlo += "  ROOT %out = f32[16]{0} negate(f32[16]{0} " + prev + ")\n}\n";
  auto s = Session::FromText(hlo, "big.hlo");
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return nullptr;
  RunOptions o;
  o.pipeline = "simplify";
  o.device = "";
  auto r = (*s)->RunPipeline(o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : nullptr;
}

TEST(TextPanelTest, LargeModuleUsesTheLargeViewerForTextAndDiff) {
  auto run = LargeRun();
  ASSERT_TRUE(run);
  int k = 1;
  while (k < run->size() && !run->step(k).changed) ++k;
  ASSERT_LT(k, run->size());
  TextPanel panel;
  panel.resize(800, 500);
  panel.show();
  panel.setStep(run, k);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !panel.textPending() && !panel.diffPending(); }, 60000));
  const Step& step = run->step(k);
  ASSERT_GE(static_cast<qsizetype>(step.module->text.size()), TextViewer::kLargeTextChars);
  EXPECT_TRUE(panel.hloViewer()->isLarge());
  EXPECT_EQ(panel.hloText().toStdString(), step.module->text);
  // The selected instruction's line is highlighted and shown.
  const InstructionRecord& last = step.module->instructions.back();
  panel.setInstruction(last.id);
  ASSERT_GE(panel.selectedLine(), 0);
  LargeTextView* view = panel.hloViewer()->largeView();
  EXPECT_EQ(view->highlightedLine(), panel.selectedLine());
  EXPECT_TRUE(view->lineText()->line(panel.selectedLine()).contains(QString::fromStdString(last.name)));
  EXPECT_LE(view->firstVisibleLine(), panel.selectedLine());
  EXPECT_GT(view->firstVisibleLine() + view->visibleLineCount(), panel.selectedLine());
  // The diff: large, a unified diff that removes the dead multiplies.
  EXPECT_TRUE(panel.diffViewer()->isLarge());
  EXPECT_TRUE(panel.diffText().startsWith("--- step")) << panel.diffText().left(100).toStdString();
  EXPECT_TRUE(panel.diffText().contains("\n-  %dead.1234 = "));
  panel.tabs()->setCurrentWidget(panel.diffViewer());
  EXPECT_FALSE(panel.diffViewer()->largeView()->grab().isNull());
  // Stepping back to the (large) input re-fills the HLO; the selection follows.
  panel.setStep(run, 0);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !panel.textPending() && !panel.diffPending(); }, 60000));
  EXPECT_EQ(panel.hloText().toStdString(), run->step(0).module->text);
  EXPECT_TRUE(panel.diffText().contains("input"));
  EXPECT_FALSE(panel.diffViewer()->isLarge());
}

}  // namespace
}  // namespace hloscope::views
