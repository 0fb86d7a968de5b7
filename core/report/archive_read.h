// Reading members of an archive (tar, optionally xz/gzip/zstd-compressed)
// through libarchive: the committed XLA GPU references keep XLA's per-pass
// dumps in one passes.tar.xz.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/support/status.h"

namespace hloscope::report {

// The names of the regular files in the archive, in archive order.
StatusOr<std::vector<std::string>> ListArchive(const std::string& path);
// The contents of the members whose names `want` accepts (all when empty).
StatusOr<std::map<std::string, std::string>> ReadArchiveMembers(
    const std::string& path, const std::function<bool(const std::string&)>& want = nullptr);

}  // namespace hloscope::report
