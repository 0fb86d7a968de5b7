// The timeline draws its buffers and curve into an image on a worker thread:
// the image arrives, shows the buffers where bufferRect() says, and is drawn
// again when the size or the highlight changes.
#include <QImage>
#include <gtest/gtest.h>

#include "tests/views/view_test_util.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::views {
namespace {

// The largest buffer drawn entirely inside the plot (its centre is its own).
int BigBuffer(const TimelineWidget& w) {
  const BufferAssignment* ba = w.assignment();
  int best = -1;
  double area = 0;
  for (int i = 0; i < static_cast<int>(ba->buffers.size()); ++i) {
    const QRectF r = w.bufferRect(i);
    if (w.bufferAt(r.center()) != i || r.width() < 4 || r.height() < 4) continue;
    if (r.width() * r.height() > area) best = i, area = r.width() * r.height();
  }
  return best;
}

TEST(TimelineLayerTest, DrawnOffTheUiThreadAndRedrawnOnChange) {
  auto run = views_test::SampleRun("transformer_block.hlo");
  ASSERT_TRUE(run);
  const int k = run->size() - 1;
  auto ba = run->BuffersAt(k);
  ASSERT_TRUE(ba.ok());
  TimelineWidget w;
  w.resize(800, 400);
  w.show();
  w.setAssignment(*ba, run->step(k).module);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !w.rendering(); }, 30000));
  const QColor plot("#fafafa");
  int i = BigBuffer(w);
  ASSERT_GE(i, 0);
  QImage img = w.grab().toImage();
  QPoint c = w.bufferRect(i).center().toPoint();
  EXPECT_NE(img.pixelColor(c), plot) << "buffer " << i << " not drawn";
  EXPECT_NE(img.pixelColor(c), QColor(Qt::white));
  // A new size: drawn again for it (no stale, stretched image left).
  w.resize(1000, 500);
  w.grab();  // paints, which asks for the new image
  ASSERT_TRUE(views_test::WaitUntil([&] { return !w.rendering(); }, 30000));
  i = BigBuffer(w);
  ASSERT_GE(i, 0);
  img = w.grab().toImage();
  c = w.bufferRect(i).center().toPoint();
  const QColor normal = img.pixelColor(c);
  EXPECT_NE(normal, plot);
  // Highlighting another instruction's buffers dims the others.
  const BufferAssignment* a = w.assignment();
  int other = -1;
  for (int j = 0; j < static_cast<int>(a->buffers.size()) && other < 0; ++j)
    if (a->buffers[j].instruction != a->buffers[i].instruction) other = j;
  ASSERT_GE(other, 0);
  const InstructionRecord* rec = nullptr;
  for (const InstructionRecord& r : run->step(k).module->instructions)
    if (r.name == a->buffers[other].instruction) rec = &r;
  ASSERT_NE(rec, nullptr);
  w.selectInstruction(rec->id);
  ASSERT_FALSE(w.highlightedBuffers().empty());
  w.grab();
  ASSERT_TRUE(views_test::WaitUntil([&] { return !w.rendering(); }, 30000));
  img = w.grab().toImage();
  if (!w.bufferRect(other).intersects(w.bufferRect(i))) EXPECT_NE(img.pixelColor(c), normal);
}

}  // namespace
}  // namespace hloscope::views
