#include "core/passes/dump_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/printer/printer.h"

namespace hloscope {

namespace fs = std::filesystem;

namespace {

std::string Sanitize(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '/' || c == '\\' || c == '[' || c == ']' || c == ' ' || c == ':') c = '_';
  return out;
}

std::string Num4(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", n);
  return buf;
}

}  // namespace

std::string DumpWriter::Prefix(int module_id, std::string_view module_name) {
  return "module_" + Num4(module_id) + "." + Sanitize(module_name) + ".";
}

Status DumpWriter::BeforePipeline(const Module& m, std::string_view pipeline) {
  written_.clear();
  std::error_code ec;
  fs::create_directories(opts_.dir, ec);
  if (ec || !fs::is_directory(opts_.dir)) return Status::Error("cannot create dump directory '" + opts_.dir + "'");
  const std::string prefix = Prefix(opts_.module_id, m.name());
  std::vector<fs::path> existing;
  for (const auto& e : fs::directory_iterator(opts_.dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0)
      existing.push_back(e.path());
  }
  if (!existing.empty()) {
    if (!opts_.force)
      return Status::Error("dump directory '" + opts_.dir + "' already holds " + existing.front().string() +
                           " (and " + std::to_string(existing.size() - 1) + " more); use --force to replace them");
    for (const fs::path& p : existing) fs::remove(p, ec);
  }
  return Write(m, "before_optimizations.txt");
}

Status DumpWriter::AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) {
  if (!result.changed) return Status::Ok();
  std::string suffix =
      Num4(info.step) + "." + Sanitize(info.pipeline) + ".after_" + Sanitize(info.pass->name()) + ".txt";
  return Write(m, suffix);
}

Status DumpWriter::AfterPipeline(const Module& m, std::string_view pipeline, bool changed) {
  return Write(m, "after_optimizations.txt");
}

Status DumpWriter::Write(const Module& m, const std::string& suffix) {
  fs::path path = fs::path(opts_.dir) / (Prefix(opts_.module_id, m.name()) + suffix);
  if (fs::exists(path) && !opts_.force)
    return Status::Error("refusing to overwrite " + path.string() + " (use --force)");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::string text = PrintModule(m);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return Status::Error("cannot write " + path.string());
  written_.push_back(path.string());
  return Status::Ok();
}

}  // namespace hloscope
