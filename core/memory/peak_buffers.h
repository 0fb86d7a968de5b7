// The buffers live in the temp heap at one schedule position: XProf's
// "buffers live at the peak". One entry per storage (buffers that share bytes
// in place are one entry), counted exactly as BufferAssignment::live_bytes
// counts them, so the entries' bytes add up to live_bytes[position]. Linear in
// the number of buffers, plus sorting the entries.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memory/buffer_assignment.h"

namespace hloscope {

struct LiveBuffer {
  int buffer = 0;         // index into BufferAssignment::buffers: the member live at the position
  int64_t bytes = 0;      // the storage's bytes, aligned as live_bytes counts them
  int64_t start = 0, end = 0;  // the storage's live range (all its temp members)
  int sharing = 0;        // other temp buffers in the same storage
};

struct LiveSet {
  int64_t position = 0;
  int64_t bytes = 0;               // sum of entries' bytes
  std::vector<LiveBuffer> entries; // by decreasing bytes, then buffer index
};

LiveSet BuffersLiveAt(const BufferAssignment& ba, int64_t position);
// At ba.peak_position (where the temp bytes live are highest).
inline LiveSet BuffersLiveAtPeak(const BufferAssignment& ba) { return BuffersLiveAt(ba, ba.peak_position); }

}  // namespace hloscope
