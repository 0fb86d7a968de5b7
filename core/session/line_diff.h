// A line diff (Myers' O(ND) algorithm after trimming the common prefix and
// suffix) and a unified-diff rendering, for the text panel's Diff tab.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hloscope {

struct DiffLine {
  enum class Kind { kSame, kAdded, kRemoved };
  Kind kind = Kind::kSame;
  std::string_view text;  // into the inputs given to DiffLines
  int old_line = 0, new_line = 0;  // 1-based; 0 where the line is absent
};

// Every line of `a` and `b` in order, marked same/removed/added. When more
// than `max_edits` edits would be needed, the differing middle is reported
// as all removed then all added (still a correct, if not minimal, diff).
std::vector<DiffLine> DiffLines(std::string_view a, std::string_view b, int max_edits = 2000);

// A unified diff with `context` lines around changes ("" when equal).
std::string UnifiedDiff(const std::vector<DiffLine>& diff, std::string_view a_name, std::string_view b_name,
                        int context = 3);

}  // namespace hloscope
