#include "core/report/archive_read.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace hloscope::report {
namespace {

using ArchivePtr = std::unique_ptr<struct archive, int (*)(struct archive*)>;

StatusOr<ArchivePtr> Open(const std::string& path) {
  ArchivePtr a(archive_read_new(), archive_read_free);
  if (!a) return Status::Error(path + ": error: cannot allocate an archive reader");
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_gnutar(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK)
    return Status::Error(path + ": error: " + (archive_error_string(a.get()) ? archive_error_string(a.get()) : "cannot open"));
  return a;
}

// Walks the regular files; `visit` returns false to stop.
Status Walk(const std::string& path, const std::function<bool(struct archive*, const std::string&)>& visit) {
  auto a = Open(path);
  if (!a.ok()) return a.status();
  struct archive_entry* e = nullptr;
  for (;;) {
    int r = archive_read_next_header(a->get(), &e);
    if (r == ARCHIVE_EOF) return Status::Ok();
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return Status::Error(path + ": error: " +
                           (archive_error_string(a->get()) ? archive_error_string(a->get()) : "unreadable archive"));
    if (archive_entry_filetype(e) != AE_IFREG) continue;
    const char* name = archive_entry_pathname(e);
    if (!visit(a->get(), name ? name : "")) return Status::Ok();
  }
}

}  // namespace

StatusOr<std::vector<std::string>> ListArchive(const std::string& path) {
  std::vector<std::string> names;
  RETURN_IF_ERROR(Walk(path, [&](struct archive*, const std::string& n) {
    names.push_back(n);
    return true;
  }));
  return names;
}

StatusOr<std::map<std::string, std::string>> ReadArchiveMembers(
    const std::string& path, const std::function<bool(const std::string&)>& want) {
  std::map<std::string, std::string> out;
  Status inner = Status::Ok();
  RETURN_IF_ERROR(Walk(path, [&](struct archive* a, const std::string& n) {
    if (want && !want(n)) return true;
    std::string data;
    char buf[1 << 16];
    for (;;) {
      la_ssize_t got = archive_read_data(a, buf, sizeof buf);
      if (got < 0) {
        inner = Status::Error(path + ": error: reading " + n + ": " +
                              (archive_error_string(a) ? archive_error_string(a) : "truncated archive"));
        return false;
      }
      if (got == 0) break;
      data.append(buf, static_cast<size_t>(got));
    }
    out[n] = std::move(data);
    return true;
  }));
  if (!inner.ok()) return inner;
  return out;
}

}  // namespace hloscope::report
