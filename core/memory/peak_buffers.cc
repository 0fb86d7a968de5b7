#include "core/memory/peak_buffers.h"

#include <algorithm>
#include <climits>

namespace hloscope {

LiveSet BuffersLiveAt(const BufferAssignment& ba, int64_t position) {
  LiveSet out;
  out.position = position;
  const int n = static_cast<int>(ba.buffers.size());
  // A storage is named by its lowest buffer id: a buffer's aliases are the
  // other members of its storage, in increasing id order.
  auto storage_of = [&](const AssignedBuffer& b) {
    return b.aliases.empty() ? b.id : std::min(b.id, b.aliases.front());
  };
  auto index_of = [&](int id) { return id >= 0 && id < n && ba.buffers[id].id == id ? id : -1; };
  std::vector<int64_t> first(n, INT64_MAX), last(n, INT64_MIN), bytes(n, 0);
  std::vector<int> live_member(n, -1), members(n, 0);
  const int64_t align = ba.alignment > 1 ? ba.alignment : 1;
  // Only temporaries count (as in live_bytes: parameters, constants and
  // outputs are not in the heap), each storage once over the hull of its
  // temp members' ranges, with the largest member's aligned bytes.
  for (int i = 0; i < n; ++i) {
    const AssignedBuffer& b = ba.buffers[i];
    if (b.kind != BufferKind::kTemp) continue;
    const int s = index_of(storage_of(b));
    if (s < 0) continue;
    first[s] = std::min(first[s], b.start);
    last[s] = std::max(last[s], b.end);
    bytes[s] = std::max(bytes[s], (b.bytes + align - 1) / align * align);
    ++members[s];
    if (live_member[s] < 0 && b.start <= position && position <= b.end) live_member[s] = i;
  }
  const int64_t positions = static_cast<int64_t>(ba.live_bytes.size());
  for (int s = 0; s < n; ++s) {
    if (last[s] == INT64_MIN || first[s] > position || last[s] < position) continue;
    if (positions > 0 && (first[s] < 0 || first[s] >= positions)) continue;  // live_bytes skips these too
    out.entries.push_back({live_member[s] >= 0 ? live_member[s] : s, bytes[s], first[s], last[s], members[s] - 1});
    out.bytes += bytes[s];
  }
  std::sort(out.entries.begin(), out.entries.end(), [](const LiveBuffer& a, const LiveBuffer& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.buffer < b.buffer;
  });
  return out;
}

}  // namespace hloscope
