// Heap packing of buffers with known live ranges: XLA's global
// decreasing-size best-fit (ordered by size and by area = size × lifetime;
// the smaller heap wins) and the exact lower bound for a schedule (the most
// bytes simultaneously live). Overlap queries go through ChunkIndex, a
// segment tree over time that keeps merged offset segments (chunk_index.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hloscope {

struct HeapItem {
  int64_t start = 0, end = 0;  // inclusive live range
  int64_t bytes = 0;
};

struct HeapResult {
  std::vector<int64_t> offsets;  // per item
  int64_t heap_bytes = 0;        // peak (size of the packed heap)
  std::string order;             // "size" or "area"
};

// Packs with both orders and returns the smaller heap. Sizes are rounded up
// to `alignment`; offsets are multiples of it.
HeapResult PackHeap(const std::vector<HeapItem>& items, int64_t alignment);
HeapResult PackHeapOrdered(const std::vector<HeapItem>& items, int64_t alignment, bool by_area);
// Maximum over positions of the aligned bytes live at once.
int64_t HeapLowerBound(const std::vector<HeapItem>& items, int64_t alignment);

}  // namespace hloscope
