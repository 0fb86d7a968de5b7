// Large texts reach a QPlainTextEdit through a document built off the UI
// thread; a newer text supersedes a pending one; small texts are immediate.
#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <gtest/gtest.h>

#include "tests/views/view_test_util.h"
#include "views/text/async_document.h"

namespace hloscope::views {
namespace {

QString BigText(int lines, const QString& tag) {
  QString s;
  for (int i = 0; i < lines; ++i) s += QStringLiteral("%1 line %2 = f32[128,256]{1,0} add(a, b)\n").arg(tag).arg(i);
  return s;
}

class CountingHighlighter : public QSyntaxHighlighter {
 public:
  using QSyntaxHighlighter::QSyntaxHighlighter;
  int blocks = 0;

 protected:
  void highlightBlock(const QString&) override { ++blocks; }
};

TEST(AsyncDocumentTest, SmallTextIsSetAtOnce) {
  QPlainTextEdit edit;
  AsyncDocument doc(&edit);
  bool ready = false;
  doc.setText("a\nb", [&] { ready = true; });
  EXPECT_TRUE(ready);
  EXPECT_FALSE(doc.pending());
  EXPECT_EQ(edit.toPlainText(), "a\nb");
}

TEST(AsyncDocumentTest, LargeTextArrivesWholeAndLatestWins) {
  QPlainTextEdit edit;
  AsyncDocument doc(&edit);
  const QString first = BigText(12000, "first");
  const QString second = BigText(15000, "second");
  ASSERT_GE(first.size(), AsyncDocument::kAsyncThreshold);
  int first_ready = 0, second_ready = 0;
  doc.setText(first, [&] { ++first_ready; });
  EXPECT_TRUE(doc.pending());
  doc.setText(second, [&] { ++second_ready; });
  ASSERT_TRUE(views_test::WaitUntil([&] { return !doc.pending(); }, 60000));
  EXPECT_EQ(first_ready, 0);  // superseded
  EXPECT_EQ(second_ready, 1);
  EXPECT_EQ(edit.toPlainText(), second);
  EXPECT_EQ(edit.document()->blockCount(), 15001);
  // Replacing the large document again, then with a small text, keeps working.
  doc.setText(first);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !doc.pending(); }, 60000));
  EXPECT_TRUE(edit.toPlainText().startsWith("first line 0 "));
  doc.setText("small");
  EXPECT_EQ(edit.toPlainText(), "small");
}

TEST(AsyncDocumentTest, HighlightsOnlyUpToTheLineLimit) {
  QPlainTextEdit edit;
  AsyncDocument doc(&edit);
  CountingHighlighter h(static_cast<QTextDocument*>(nullptr));
  doc.setHighlighter(&h, 1000);
  doc.setText(BigText(50, "x"));
  EXPECT_EQ(h.document(), edit.document());
  EXPECT_TRUE(views_test::WaitUntil([&] { return h.blocks >= 50; }, 10000));  // highlighting is deferred
  doc.setText(BigText(12000, "y"));
  ASSERT_TRUE(views_test::WaitUntil([&] { return !doc.pending(); }, 60000));
  EXPECT_EQ(h.document(), nullptr);  // too long to highlight on the UI thread
}

}  // namespace
}  // namespace hloscope::views
