#include "core/support/str_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace hloscope {

std::string HumanBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}

std::string OpenFailureReason(const std::string& path) {
  const int err = errno;
  std::error_code ec;
  const std::filesystem::path p(path);
  if (!std::filesystem::exists(p, ec)) return "no such file or directory";
  if (std::filesystem::is_directory(p, ec)) return "is a folder, not a file";
  if (err != 0) return std::strerror(err);
  return "unreadable";
}

}  // namespace hloscope
