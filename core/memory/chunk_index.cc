#include "core/memory/chunk_index.h"

#include <algorithm>

namespace hloscope {

ChunkIndex::ChunkIndex(std::vector<int64_t> times) : times_(std::move(times)) {
  std::sort(times_.begin(), times_.end());
  times_.erase(std::unique(times_.begin(), times_.end()), times_.end());
  size_t nodes = times_.empty() ? 0 : 4 * times_.size();
  own_.resize(nodes);
  sub_.resize(nodes);
}

bool ChunkIndex::Compress(int64_t start, int64_t end, int* s, int* e) const {
  if (start > end) return false;
  auto si = std::lower_bound(times_.begin(), times_.end(), start);
  auto ei = std::lower_bound(times_.begin(), times_.end(), end);
  if (si == times_.end() || *si != start || ei == times_.end() || *ei != end) return false;
  *s = static_cast<int>(si - times_.begin());
  *e = static_cast<int>(ei - times_.begin());
  return true;
}

void ChunkIndex::AddTo(SegmentSet& set, OffsetSegment seg) {
  // First segment that touches or follows `seg`: hi >= seg.lo.
  auto first = std::lower_bound(set.begin(), set.end(), seg.lo,
                                [](const OffsetSegment& x, int64_t lo) { return x.hi < lo; });
  auto last = first;
  while (last != set.end() && last->lo <= seg.hi) {
    seg.lo = std::min(seg.lo, last->lo);
    seg.hi = std::max(seg.hi, last->hi);
    ++last;
  }
  if (first == last) {
    set.insert(first, seg);
    return;
  }
  *first = seg;
  set.erase(first + 1, last);
}

void ChunkIndex::InsertAt(int node, int l, int r, int s, int e, OffsetSegment seg) {
  if (r < s || l > e) return;
  AddTo(sub_[node], seg);
  if (s <= l && r <= e) {
    AddTo(own_[node], seg);
    return;
  }
  int mid = l + (r - l) / 2;
  InsertAt(2 * node, l, mid, s, e, seg);
  InsertAt(2 * node + 1, mid + 1, r, s, e, seg);
}

void ChunkIndex::QueryAt(int node, int l, int r, int s, int e, std::vector<OffsetSegment>* out) const {
  if (r < s || l > e) return;
  if (s <= l && r <= e) {
    out->insert(out->end(), sub_[node].begin(), sub_[node].end());
    return;
  }
  out->insert(out->end(), own_[node].begin(), own_[node].end());
  int mid = l + (r - l) / 2;
  QueryAt(2 * node, l, mid, s, e, out);
  QueryAt(2 * node + 1, mid + 1, r, s, e, out);
}

bool ChunkIndex::Insert(int64_t start, int64_t end, int64_t offset, int64_t size) {
  int s = 0, e = 0;
  if (!Compress(start, end, &s, &e)) return false;
  if (size <= 0) return true;
  InsertAt(1, 0, static_cast<int>(times_.size()) - 1, s, e, {offset, offset + size});
  return true;
}

bool ChunkIndex::Query(int64_t start, int64_t end, std::vector<OffsetSegment>* out) const {
  out->clear();
  int s = 0, e = 0;
  if (!Compress(start, end, &s, &e)) return false;
  QueryAt(1, 0, static_cast<int>(times_.size()) - 1, s, e, out);
  std::sort(out->begin(), out->end(), [](const OffsetSegment& a, const OffsetSegment& b) { return a.lo < b.lo; });
  size_t w = 0;
  for (size_t k = 0; k < out->size(); ++k) {
    const OffsetSegment& seg = (*out)[k];
    if (w > 0 && seg.lo <= (*out)[w - 1].hi) {
      (*out)[w - 1].hi = std::max((*out)[w - 1].hi, seg.hi);
    } else {
      (*out)[w++] = seg;
    }
  }
  out->resize(w);
  return true;
}

}  // namespace hloscope
