#include "core/memory/heap_packing.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace hloscope {
namespace {

int64_t AlignUp(int64_t v, int64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

// Static centered interval tree over all items; queries return the placed
// items whose ranges overlap [s, e].
class IntervalTree {
 public:
  explicit IntervalTree(const std::vector<HeapItem>& items) : items_(items) {
    std::vector<int> all(items.size());
    std::iota(all.begin(), all.end(), 0);
    root_ = Build(all);
  }
  template <typename Fn>
  void Query(int64_t s, int64_t e, Fn fn) const {
    int n = root_;
    std::vector<int> stack;
    if (n >= 0) stack.push_back(n);
    while (!stack.empty()) {
      const Node& node = nodes_[stack.back()];
      stack.pop_back();
      // Items at this node contain `center`.
      if (e < node.center) {
        for (int id : node.by_start) {
          if (items_[id].start > e) break;
          fn(id);
        }
        if (node.left >= 0) stack.push_back(node.left);
      } else if (s > node.center) {
        for (int id : node.by_end_desc) {
          if (items_[id].end < s) break;
          fn(id);
        }
        if (node.right >= 0) stack.push_back(node.right);
      } else {
        for (int id : node.by_start) fn(id);
        if (node.left >= 0) stack.push_back(node.left);
        if (node.right >= 0) stack.push_back(node.right);
      }
    }
  }

 private:
  struct Node {
    int64_t center;
    std::vector<int> by_start, by_end_desc;
    int left = -1, right = -1;
  };
  int Build(std::vector<int>& ids) {
    if (ids.empty()) return -1;
    std::vector<int64_t> points;
    for (int id : ids) {
      points.push_back(items_[id].start);
      points.push_back(items_[id].end);
    }
    std::nth_element(points.begin(), points.begin() + points.size() / 2, points.end());
    int64_t center = points[points.size() / 2];
    std::vector<int> left, right, here;
    for (int id : ids) {
      if (items_[id].end < center) left.push_back(id);
      else if (items_[id].start > center) right.push_back(id);
      else here.push_back(id);
    }
    int index = static_cast<int>(nodes_.size());
    nodes_.push_back(Node{center, here, here});
    std::sort(nodes_[index].by_start.begin(), nodes_[index].by_start.end(),
              [&](int a, int b) { return items_[a].start < items_[b].start; });
    std::sort(nodes_[index].by_end_desc.begin(), nodes_[index].by_end_desc.end(),
              [&](int a, int b) { return items_[a].end > items_[b].end; });
    int l = Build(left);
    int r = Build(right);
    nodes_[index].left = l;
    nodes_[index].right = r;
    return index;
  }
  const std::vector<HeapItem>& items_;
  std::vector<Node> nodes_;
  int root_ = -1;
};

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
  IntervalTree tree(items);
  std::vector<char> placed(n, 0);
  std::vector<std::pair<int64_t, int64_t>> busy;  // (offset, end offset)
  for (int i : order) {
    int64_t size = AlignUp(items[i].bytes, alignment);
    busy.clear();
    tree.Query(items[i].start, items[i].end, [&](int j) {
      if (placed[j]) busy.push_back({r.offsets[j], r.offsets[j] + AlignUp(items[j].bytes, alignment)});
    });
    std::sort(busy.begin(), busy.end());
    // Best fit: the smallest gap that holds the item; else the top.
    int64_t best = -1, best_gap = INT64_MAX, cursor = 0;
    for (const auto& [lo, hi] : busy) {
      if (lo > cursor) {
        int64_t gap = lo - cursor;
        if (gap >= size && gap < best_gap) {
          best_gap = gap;
          best = cursor;
        }
      }
      cursor = std::max(cursor, hi);
    }
    if (best < 0) best = cursor;
    r.offsets[i] = best;
    placed[i] = 1;
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
  std::map<int64_t, int64_t> delta;
  for (const auto& it : items) {
    int64_t size = AlignUp(it.bytes, alignment);
    delta[it.start] += size;
    delta[it.end + 1] -= size;
  }
  int64_t cur = 0, peak = 0;
  for (const auto& [p, d] : delta) {
    cur += d;
    peak = std::max(peak, cur);
  }
  return peak;
}

}  // namespace hloscope
