// ChunkIndex (the packer's overlap structure) against brute force, and the
// packer against a straightforward quadratic best-fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/memory/chunk_index.h"
#include "core/memory/heap_packing.h"

namespace hloscope {
namespace {

struct Chunk {
  int64_t start, end, offset, size;
};

// Merged offsets of the chunks overlapping [s, e], computed naively.
std::vector<OffsetSegment> BruteBusy(const std::vector<Chunk>& placed, int64_t s, int64_t e) {
  std::vector<OffsetSegment> busy;
  for (const Chunk& c : placed)
    if (c.size > 0 && c.start <= e && s <= c.end) busy.push_back({c.offset, c.offset + c.size});
  std::sort(busy.begin(), busy.end(), [](auto& a, auto& b) { return a.lo < b.lo; });
  std::vector<OffsetSegment> merged;
  for (const auto& seg : busy) {
    if (!merged.empty() && seg.lo <= merged.back().hi) merged.back().hi = std::max(merged.back().hi, seg.hi);
    else merged.push_back(seg);
  }
  return merged;
}

TEST(ChunkIndex, MatchesBruteForceOnRandomPlacements) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    const int64_t horizon = 1 + static_cast<int64_t>(rng() % 200);
    std::vector<int64_t> times;
    std::vector<Chunk> chunks;
    for (int k = 0; k < 150; ++k) {
      int64_t s = static_cast<int64_t>(rng() % horizon);
      int64_t e = s + static_cast<int64_t>(rng() % (rng() % 3 == 0 ? horizon : 8));
      // Offsets on a coarse grid so that chunks touch, nest and overlap.
      int64_t off = static_cast<int64_t>(rng() % 40) * 16;
      int64_t size = static_cast<int64_t>(rng() % 6) * 16;  // some empty
      chunks.push_back({s, e, off, size});
      times.push_back(s);
      times.push_back(e);
    }
    ChunkIndex index(times);
    std::vector<Chunk> placed;
    std::vector<OffsetSegment> got;
    for (const Chunk& c : chunks) {
      ASSERT_TRUE(index.Insert(c.start, c.end, c.offset, c.size));
      placed.push_back(c);
      for (int q = 0; q < 5; ++q) {
        const Chunk& probe = chunks[rng() % chunks.size()];
        ASSERT_TRUE(index.Query(probe.start, probe.end, &got));
        ASSERT_EQ(got, BruteBusy(placed, probe.start, probe.end))
            << "round " << round << " after " << placed.size() << " chunks, query [" << probe.start << ", "
            << probe.end << "]";
      }
    }
  }
}

TEST(ChunkIndex, RejectsUnknownTimes) {
  ChunkIndex index({0, 5, 9});
  std::vector<OffsetSegment> out;
  EXPECT_FALSE(index.Insert(0, 4, 0, 64));  // 4 was not declared
  EXPECT_FALSE(index.Query(9, 5, &out));    // start after end
  EXPECT_TRUE(index.Insert(0, 5, 0, 64));
  EXPECT_TRUE(index.Query(5, 9, &out));
  EXPECT_EQ(out, (std::vector<OffsetSegment>{{0, 64}}));
  EXPECT_TRUE(index.Query(9, 9, &out));
  EXPECT_TRUE(out.empty());
}

// The packer before ChunkIndex: every placed overlapping chunk, sorted, then
// the smallest gap that fits (lowest on a tie), else the top.
HeapResult QuadraticBestFit(const std::vector<HeapItem>& items, int64_t alignment, bool by_area) {
  auto align = [&](int64_t v) { return (v + alignment - 1) / alignment * alignment; };
  std::vector<int> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) { return by_area ? align(items[i].bytes) * (items[i].end - items[i].start + 1) : align(items[i].bytes); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (key(a) != key(b)) return key(a) > key(b);
    return items[a].start < items[b].start;
  });
  HeapResult r;
  r.offsets.assign(items.size(), 0);
  std::vector<Chunk> placed;
  for (int i : order) {
    int64_t size = align(items[i].bytes);
    int64_t best = -1, best_gap = INT64_MAX, cursor = 0;
    for (const auto& seg : BruteBusy(placed, items[i].start, items[i].end)) {
      if (seg.lo > cursor && seg.lo - cursor >= size && seg.lo - cursor < best_gap) {
        best_gap = seg.lo - cursor;
        best = cursor;
      }
      cursor = std::max(cursor, seg.hi);
    }
    if (best < 0) best = cursor;
    r.offsets[i] = best;
    placed.push_back({items[i].start, items[i].end, best, size});
    r.heap_bytes = std::max(r.heap_bytes, best + size);
  }
  return r;
}

TEST(HeapPacking, SameAsQuadraticBestFitAndNoOverlap) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 10; ++round) {
    std::vector<HeapItem> items;
    for (int k = 0; k < 400; ++k) {
      int64_t s = static_cast<int64_t>(rng() % 300);
      int64_t life = static_cast<int64_t>(rng() % (rng() % 10 == 0 ? 300 : 12));
      items.push_back({s, s + life, 1 + static_cast<int64_t>(rng() % 5000)});
    }
    for (bool by_area : {false, true}) {
      HeapResult got = PackHeapOrdered(items, 64, by_area);
      HeapResult want = QuadraticBestFit(items, 64, by_area);
      ASSERT_EQ(got.offsets, want.offsets) << "round " << round << (by_area ? " area" : " size");
      EXPECT_EQ(got.heap_bytes, want.heap_bytes);
      for (size_t a = 0; a < items.size(); ++a) {
        EXPECT_EQ(got.offsets[a] % 64, 0);
        for (size_t b = a + 1; b < items.size(); ++b) {
          bool live_together = items[a].start <= items[b].end && items[b].start <= items[a].end;
          bool bytes_overlap = got.offsets[a] < got.offsets[b] + items[b].bytes &&
                               got.offsets[b] < got.offsets[a] + items[a].bytes;
          ASSERT_FALSE(live_together && bytes_overlap) << "items " << a << " and " << b;
        }
      }
    }
    EXPECT_GE(PackHeap(items, 64).heap_bytes, HeapLowerBound(items, 64));
  }
}

}  // namespace
}  // namespace hloscope
