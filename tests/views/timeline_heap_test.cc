// The timeline shows the heap: temporaries get most of the plot, parameters,
// constants and outputs are one labelled band each (collapsed until their
// label is clicked), and the buffers live at the peak are listed, linked to
// the selection. The peak set is checked against the assignment's own data
// (live ranges, aliases, live_bytes), not against the code that computes it.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/memory/peak_buffers.h"
#include "core/parser/parser.h"
#include "tests/views/view_test_util.h"
#include "views/pipeline/steps_model.h"
#include "views/timeline/peak_list.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::views {
namespace {

std::shared_ptr<const BufferAssignment> AssignSample(const std::string& name) {
  std::ifstream in(hloscope::testing::SamplesDir() + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  auto m = ParseHloModule(text.str(), name);
  EXPECT_TRUE(m.ok()) << name << ": " << m.status().message();
  if (!m.ok()) return nullptr;
  auto ba = AssignBuffers(**m);
  EXPECT_TRUE(ba.ok()) << name;
  return ba.ok() ? *ba : nullptr;
}

// The peak set against a brute-force reading of the assignment: every temp
// buffer live at the position is listed or shares the bytes of one listed,
// every listed buffer is a live temp, no two entries share bytes, and the
// entries' bytes add up to what live_bytes says is live there.
void ExpectExactLiveSet(const BufferAssignment& ba, int64_t position) {
  SCOPED_TRACE("position " + std::to_string(position));
  const LiveSet set = BuffersLiveAt(ba, position);
  auto live_temp = [&](const AssignedBuffer& b) {
    return b.kind == BufferKind::kTemp && b.start <= position && position <= b.end;
  };
  std::set<int> listed, covered;
  int64_t sum = 0;
  for (const LiveBuffer& e : set.entries) {
    ASSERT_GE(e.buffer, 0);
    ASSERT_LT(e.buffer, static_cast<int>(ba.buffers.size()));
    const AssignedBuffer& b = ba.buffers[static_cast<size_t>(e.buffer)];
    EXPECT_TRUE(live_temp(b)) << "buffer " << b.id << " (" << b.instruction << ") is not a temp live there";
    EXPECT_TRUE(listed.insert(e.buffer).second);
    EXPECT_TRUE(covered.insert(b.id).second) << "buffer " << b.id << " listed twice (shares bytes with another entry)";
    for (int a : b.aliases) EXPECT_TRUE(covered.insert(a).second) << "entries " << b.id << " and " << a << " share bytes";
    EXPECT_GE(e.bytes, b.bytes);
    EXPECT_LT(e.bytes, std::max<int64_t>(b.bytes, 1) + ba.alignment * 2 + 1 + [&] {
      int64_t m = 0;  // an in-place storage is as big as its largest member
      for (int a : b.aliases) m = std::max(m, ba.buffers[static_cast<size_t>(a)].bytes);
      return m;
    }());
    EXPECT_LE(e.start, b.start);
    EXPECT_GE(e.end, b.end);
    sum += e.bytes;
  }
  for (const AssignedBuffer& b : ba.buffers)
    if (live_temp(b)) EXPECT_TRUE(covered.count(b.id)) << "live temp " << b.id << " (" << b.instruction << ") missing";
  EXPECT_EQ(set.bytes, sum);
  ASSERT_LT(position, static_cast<int64_t>(ba.live_bytes.size()));
  EXPECT_EQ(sum, ba.live_bytes[static_cast<size_t>(position)]);
  EXPECT_TRUE(std::is_sorted(set.entries.begin(), set.entries.end(),
                             [](const LiveBuffer& x, const LiveBuffer& y) { return x.bytes > y.bytes; }));
}

TEST(TimelineHeapTest, PeakSetIsExactlyTheTempsLiveAtThePeak) {
  int checked = 0;
  for (const char* name : {"transformer_block.hlo", "attention.hlo", "mlp_gelu.hlo", "scan_rnn.hlo",
                           "resnet_block.hlo", "layer_norm.hlo", "embedding_xent.hlo"}) {
    SCOPED_TRACE(name);
    auto ba = AssignSample(name);
    ASSERT_TRUE(ba);
    for (size_t i = 0; i < ba->buffers.size(); ++i) ASSERT_EQ(ba->buffers[i].id, static_cast<int>(i));
    if (ba->live_bytes.empty()) continue;
    // The peak: where the most temp bytes are live, which is the lower bound.
    EXPECT_EQ(ba->live_bytes[static_cast<size_t>(ba->peak_position)],
              *std::max_element(ba->live_bytes.begin(), ba->live_bytes.end()));
    const LiveSet peak = BuffersLiveAtPeak(*ba);
    EXPECT_EQ(peak.position, ba->peak_position);
    EXPECT_EQ(peak.bytes, ba->lower_bound_bytes);
    EXPECT_FALSE(peak.entries.empty());
    ExpectExactLiveSet(*ba, ba->peak_position);
    ExpectExactLiveSet(*ba, 0);
    ExpectExactLiveSet(*ba, static_cast<int64_t>(ba->live_bytes.size()) / 2);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

class TimelineHeapWidgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = views_test::SampleRun("transformer_block.hlo");
    ASSERT_TRUE(run_);
    auto ba = run_->BuffersAt(0);
    ASSERT_TRUE(ba.ok());
    ba_ = *ba;
    snapshot_ = run_->step(0).module;
  }
  std::shared_ptr<const PipelineRun> run_;
  std::shared_ptr<const BufferAssignment> ba_;
  std::shared_ptr<const ModuleSnapshot> snapshot_;
};

TEST_F(TimelineHeapWidgetTest, HeapGetsMostOfTheHeightAndTheOthersAreOneBandEach) {
  TimelineWidget w;
  w.resize(900, 260);  // about the dock's size in the main window
  w.setAssignment(ba_, snapshot_);
  std::vector<TimelineWidget::Band> bands = w.bands();
  ASSERT_GE(bands.size(), 2u);
  const TimelineWidget::Band& heap = bands.back();
  ASSERT_EQ(heap.kind, BufferKind::kTemp);
  double plot = 0;
  for (const auto& b : bands) plot += b.rect.height();
  EXPECT_GT(heap.rect.height(), 0.6 * plot) << "heap " << heap.rect.height() << " of " << plot;
  // One band per kind present, with the kind's totals.
  std::map<BufferKind, int> buffers;
  std::map<BufferKind, int64_t> bytes;
  for (const AssignedBuffer& b : ba_->buffers) ++buffers[ba_->allocations[static_cast<size_t>(b.allocation)].kind];
  for (const AllocationInfo& a : ba_->allocations) bytes[a.kind] += a.size;
  EXPECT_EQ(bands.size(), bytes.size());
  std::set<BufferKind> seen;
  for (const auto& b : bands) {
    SCOPED_TRACE(b.label.toStdString());
    EXPECT_TRUE(seen.insert(b.kind).second);
    EXPECT_EQ(b.buffers, buffers[b.kind]);
    EXPECT_EQ(b.bytes, bytes[b.kind]);
    EXPECT_TRUE(b.label.contains(b.buffers == 1 ? QString("1 buffer") : QString("%1 buffers").arg(b.buffers)));
    EXPECT_TRUE(b.label.contains(HumanBytes(b.bytes)));
    if (b.kind == BufferKind::kTemp) continue;
    EXPECT_FALSE(b.expanded);
    EXPECT_LE(b.rect.height(), 20);
    EXPECT_FALSE(b.header.isEmpty());
  }
  ASSERT_TRUE(bytes.count(BufferKind::kParameter));
  EXPECT_EQ(bytes[BufferKind::kParameter], ba_->parameter_bytes);
  EXPECT_TRUE(bands.front().label.contains("parameters"));
  // Every buffer is drawn inside its kind's band.
  for (int i = 0; i < static_cast<int>(ba_->buffers.size()); ++i) {
    const BufferKind k = ba_->allocations[static_cast<size_t>(ba_->buffers[i].allocation)].kind;
    const auto band = std::find_if(bands.begin(), bands.end(), [&](const auto& b) { return b.kind == k; });
    ASSERT_NE(band, bands.end());
    const QRectF r = w.bufferRect(i);
    EXPECT_GE(r.top(), band->rect.top() - 0.5) << "buffer " << i;
    EXPECT_LE(r.top(), band->rect.bottom() + 0.5) << "buffer " << i;
  }
  // Temporaries: offsets linear over the heap band.
  const AssignedBuffer* big = nullptr;
  for (const AssignedBuffer& b : ba_->buffers)
    if (b.kind == BufferKind::kTemp && (!big || b.bytes > big->bytes)) big = &b;
  ASSERT_NE(big, nullptr);
  EXPECT_NEAR(w.bufferRect(big->id).height(),
              heap.rect.height() * double(big->bytes) / double(ba_->allocations[big->allocation].size), 1.0);

  // A click on the parameters' label expands them; the heap keeps more than half.
  w.show();
  const QPointF at = bands.front().header.center();
  EXPECT_EQ(w.bufferAt(at), -1);  // the label is not a buffer
  QTest::mouseClick(&w, Qt::LeftButton, {}, at.toPoint());
  EXPECT_TRUE(w.bandExpanded(BufferKind::kParameter));
  bands = w.bands();
  EXPECT_TRUE(bands.front().expanded);
  EXPECT_GT(bands.front().rect.height(), 30);
  EXPECT_GE(bands.back().rect.height(), 0.5 * plot - 0.5);
  EXPECT_FALSE(w.grab().isNull());
  QTest::mouseClick(&w, Qt::LeftButton, {}, bands.front().header.center().toPoint());
  EXPECT_FALSE(w.bandExpanded(BufferKind::kParameter));
}

TEST_F(TimelineHeapWidgetTest, PeakListIsLinkedToTheSelection) {
  TimelinePanel panel;
  panel.resize(1400, 280);
  panel.show();
  TimelineWidget* w = panel.timeline();
  PeakList* list = panel.peakList();
  QAbstractItemModelTester tester(list->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  w->setAssignment(ba_, snapshot_);
  const LiveSet peak = BuffersLiveAtPeak(*ba_);
  ASSERT_FALSE(peak.entries.empty());
  PeakBuffersModel* model = list->model();
  ASSERT_EQ(model->rowCount(), static_cast<int>(peak.entries.size()));
  EXPECT_EQ(model->totalBytes(), ba_->live_bytes[static_cast<size_t>(ba_->peak_position)]);
  EXPECT_EQ(list->peakPosition(), ba_->peak_position);
  EXPECT_TRUE(list->title().contains(HumanBytes(peak.bytes)));
  for (int r = 1; r < model->rowCount(); ++r) EXPECT_GE(model->row(r - 1).bytes, model->row(r).bytes);
  // Rows name their defining instruction by the graph's ids.
  std::map<int64_t, std::string> name_of;
  for (const InstructionRecord& rec : snapshot_->instructions) name_of[rec.id] = rec.name;
  for (int r = 0; r < model->rowCount(); ++r) {
    const auto& row = model->row(r);
    ASSERT_TRUE(name_of.count(row.instruction_id)) << row.instruction.toStdString();
    EXPECT_EQ(name_of[row.instruction_id], ba_->buffers[static_cast<size_t>(row.buffer)].instruction);
  }

  // A click on a row selects its instruction, through the timeline's signal.
  QSignalSpy from_timeline(w, &TimelineWidget::instructionSelected);
  const int r = model->rowCount() > 1 ? 1 : 0;
  QTableView* table = list->table();
  table->scrollTo(model->index(r, 0));
  const QPoint c = table->visualRect(model->index(r, PeakBuffersModel::kSize)).center();
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, c);
  ASSERT_EQ(from_timeline.count(), 1);
  const int64_t id = from_timeline.at(0).at(0).toLongLong();
  EXPECT_EQ(id, model->row(r).instruction_id);
  EXPECT_EQ(w->selectedInstruction(), id);
  EXPECT_FALSE(w->highlightedBuffers().empty());

  // Selecting an instruction elsewhere selects its rows, and only those.
  const int64_t other = model->row(0).instruction_id;
  w->selectInstruction(other);
  const std::vector<int> rows = list->rowsOf(other);
  ASSERT_FALSE(rows.empty());
  const QModelIndexList selected = table->selectionModel()->selectedRows();
  ASSERT_EQ(selected.size(), static_cast<qsizetype>(rows.size()));
  for (const QModelIndex& i : selected) EXPECT_EQ(model->row(i.row()).instruction_id, other);
  // Nothing selected for an instruction with no buffer at the peak.
  w->selectInstruction(-1);
  EXPECT_TRUE(table->selectionModel()->selectedRows().empty());

  // A new step replaces the rows; no assignment empties them.
  w->setMessage("computing…");
  EXPECT_EQ(model->rowCount(), 0);
}

}  // namespace
}  // namespace hloscope::views
