#include "core/memory/heap_packing.h"

#include <algorithm>
#include <numeric>

#include "core/memory/chunk_index.h"

namespace hloscope {
namespace {

int64_t AlignUp(int64_t v, int64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

}  // namespace

HeapResult PackHeapOrdered(const std::vector<HeapItem>& items, int64_t alignment, bool by_area) {
  HeapResult r;
  r.order = by_area ? "area" : "size";
  const size_t n = items.size();
  r.offsets.assign(n, 0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) {
    int64_t size = AlignUp(items[i].bytes, alignment);
    return by_area ? size * (items[i].end - items[i].start + 1) : size;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    int64_t ka = key(a), kb = key(b);
    if (ka != kb) return ka > kb;
    return items[a].start < items[b].start;
  });
  std::vector<int64_t> times;
  times.reserve(2 * n);
  for (const HeapItem& it : items) {
    times.push_back(it.start);
    times.push_back(it.end);
  }
  ChunkIndex index(std::move(times));
  std::vector<OffsetSegment> busy;
  for (int i : order) {
    int64_t size = AlignUp(items[i].bytes, alignment);
    index.Query(items[i].start, items[i].end, &busy);
    // Best fit: the smallest gap that holds the item (the lowest such on a
    // tie); else on top of everything overlapping it.
    int64_t best = -1, best_gap = INT64_MAX, cursor = 0;
    for (const OffsetSegment& seg : busy) {
      if (seg.lo > cursor) {
        int64_t gap = seg.lo - cursor;
        if (gap >= size && gap < best_gap) {
          best_gap = gap;
          best = cursor;
        }
      }
      cursor = std::max(cursor, seg.hi);
    }
    if (best < 0) best = cursor;
    r.offsets[i] = best;
    index.Insert(items[i].start, items[i].end, best, size);
    r.heap_bytes = std::max(r.heap_bytes, best + size);
  }
  return r;
}

HeapResult PackHeap(const std::vector<HeapItem>& items, int64_t alignment) {
  HeapResult by_size = PackHeapOrdered(items, alignment, false);
  HeapResult by_area = PackHeapOrdered(items, alignment, true);
  return by_area.heap_bytes < by_size.heap_bytes ? by_area : by_size;
}

int64_t HeapLowerBound(const std::vector<HeapItem>& items, int64_t alignment) {
  std::vector<std::pair<int64_t, int64_t>> delta;  // (position, change)
  delta.reserve(2 * items.size());
  for (const auto& it : items) {
    int64_t size = AlignUp(it.bytes, alignment);
    delta.push_back({it.start, size});
    delta.push_back({it.end + 1, -size});
  }
  std::sort(delta.begin(), delta.end());
  int64_t cur = 0, peak = 0;
  for (size_t k = 0; k < delta.size();) {
    int64_t p = delta[k].first;
    for (; k < delta.size() && delta[k].first == p; ++k) cur += delta[k].second;
    peak = std::max(peak, cur);
  }
  return peak;
}

}  // namespace hloscope
