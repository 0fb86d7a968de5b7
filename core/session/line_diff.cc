// Myers' diff on lines (E. Myers, "An O(ND) Difference Algorithm and Its
// Variations", 1986), greedy forward search with a saved trace per D.
#include "core/session/line_diff.h"

#include <algorithm>

namespace hloscope {
namespace {

std::vector<std::string_view> SplitLines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) nl = s.size();
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// Edit script between a[0..n) and b[0..m) as (kind, index) pairs, or false
// when more than max_d edits are needed.
bool Myers(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b, int max_d,
           std::vector<DiffLine::Kind>* script) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = std::min(n + m, max_d);
  const int offset = max + 1;
  std::vector<int> v(2 * max + 3, 0);
  std::vector<std::vector<int>> trace;
  int found_d = -1;
  for (int d = 0; d <= max && found_d < 0; ++d) {
    // v as it was after d-1 edits, for diagonals -d..d (all the walk back reads).
    trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1]
                                                                            : v[offset + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found_d = d;
        break;
      }
    }
  }
  if (found_d < 0) return false;
  // Walk back through the trace.
  std::vector<DiffLine::Kind> rev;
  int x = n, y = m;
  for (int d = found_d; d > 0; --d) {
    const std::vector<int>& pv = trace[d];
    int k = x - y;
    int prev_k = (k == -d || (k != d && pv[d + k - 1] < pv[d + k + 1])) ? k + 1 : k - 1;
    int prev_x = pv[d + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) rev.push_back(DiffLine::Kind::kSame), --x, --y;
    rev.push_back(x == prev_x ? DiffLine::Kind::kAdded : DiffLine::Kind::kRemoved);
    x = prev_x;
    y = prev_y;
  }
  while (x > 0 && y > 0) rev.push_back(DiffLine::Kind::kSame), --x, --y;
  script->assign(rev.rbegin(), rev.rend());
  return true;
}

}  // namespace

std::vector<DiffLine> DiffLines(std::string_view a_text, std::string_view b_text, int max_edits) {
  std::vector<std::string_view> a = SplitLines(a_text), b = SplitLines(b_text);
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  std::vector<std::string_view> am(a.begin() + pre, a.end() - suf), bm(b.begin() + pre, b.end() - suf);
  std::vector<DiffLine::Kind> script;
  if (!Myers(am, bm, max_edits, &script)) {
    script.assign(am.size(), DiffLine::Kind::kRemoved);
    script.insert(script.end(), bm.size(), DiffLine::Kind::kAdded);
  }
  std::vector<DiffLine> out;
  out.reserve(pre + script.size() + suf);
  int ol = 0, nl = 0;
  for (size_t i = 0; i < pre; ++i) out.push_back({DiffLine::Kind::kSame, a[i], ++ol, ++nl});
  size_t ai = pre, bi = pre;
  for (DiffLine::Kind k : script) {
    if (k == DiffLine::Kind::kSame) out.push_back({k, a[ai++], ++ol, ++nl}), ++bi;
    else if (k == DiffLine::Kind::kRemoved) out.push_back({k, a[ai++], ++ol, 0});
    else out.push_back({k, b[bi++], 0, ++nl});
  }
  for (size_t i = a.size() - suf; i < a.size(); ++i) out.push_back({DiffLine::Kind::kSame, a[i], ++ol, ++nl});
  return out;
}

std::string UnifiedDiff(const std::vector<DiffLine>& diff, std::string_view a_name, std::string_view b_name,
                        int context) {
  std::vector<size_t> changed;
  for (size_t i = 0; i < diff.size(); ++i)
    if (diff[i].kind != DiffLine::Kind::kSame) changed.push_back(i);
  if (changed.empty()) return "";
  std::string out = "--- " + std::string(a_name) + "\n+++ " + std::string(b_name) + "\n";
  size_t c = 0;
  const size_t ctx = static_cast<size_t>(context);
  while (c < changed.size()) {
    size_t begin = changed[c] > ctx ? changed[c] - ctx : 0;
    size_t end = changed[c];
    while (c < changed.size() && changed[c] <= end + 2 * ctx + 1) end = changed[c++];
    end = std::min(diff.size() - 1, end + ctx);
    int old_start = 0, new_start = 0, old_count = 0, new_count = 0;
    for (size_t i = begin; i <= end; ++i) {
      const DiffLine& d = diff[i];
      if (d.old_line) {
        if (!old_start) old_start = d.old_line;
        ++old_count;
      }
      if (d.new_line) {
        if (!new_start) new_start = d.new_line;
        ++new_count;
      }
    }
    out += "@@ -" + std::to_string(old_start) + "," + std::to_string(old_count) + " +" + std::to_string(new_start) +
           "," + std::to_string(new_count) + " @@\n";
    for (size_t i = begin; i <= end; ++i) {
      const DiffLine& d = diff[i];
      out += d.kind == DiffLine::Kind::kSame ? ' ' : d.kind == DiffLine::Kind::kAdded ? '+' : '-';
      out.append(d.text);
      out += '\n';
    }
  }
  return out;
}

}  // namespace hloscope
