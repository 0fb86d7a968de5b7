// Small string helpers used across core.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace hloscope {

template <typename Range, typename Fn>
std::string JoinMapped(const Range& r, std::string_view sep, Fn fn) {
  std::string out;
  bool first = true;
  for (const auto& x : r) {
    if (!first) out += sep;
    first = false;
    out += fn(x);
  }
  return out;
}

inline std::string JoinInts(const std::vector<int64_t>& v, std::string_view sep = ",") {
  return JoinMapped(v, sep, [](int64_t x) { return std::to_string(x); });
}

inline bool StartsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(0, p.size()) == p;
}
inline bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Formats a byte count as "1.5 MiB".
std::string HumanBytes(int64_t bytes);

// Why `path` could not be opened for reading, as a user should read it:
// "no such file or directory", "is a folder, not a file", or the system's
// reason (errno, right after the failed open).
std::string OpenFailureReason(const std::string& path);

}  // namespace hloscope
