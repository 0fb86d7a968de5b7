#include "core/report/xla_dump.h"

#include "core/parser/parser.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace hloscope::report {
namespace fs = std::filesystem;

namespace {

bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool ParseInt(std::string_view s, int64_t* v) {
  s = Trim(s);
  if (s.empty()) return false;
  int64_t r = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    r = r * 10 + (c - '0');
    if (r > (int64_t{1} << 60)) return false;
  }
  *v = r;
  return true;
}

// "<4 name{0,1} @0>" → name, index.
bool ParseValueRef(std::string_view s, std::string* name, std::vector<int64_t>* index) {
  if (s.size() < 3 || s.front() != '<') return false;
  size_t sp = s.find(' ');
  if (sp == std::string_view::npos) return false;
  s = s.substr(sp + 1);
  size_t end = s.find_first_of(" {>");
  if (end == std::string_view::npos || end == 0) return false;
  *name = std::string(s.substr(0, end));
  index->clear();
  if (s[end] == '{') {
    size_t close = s.find('}', end);
    if (close == std::string_view::npos) return false;
    std::string_view inner = s.substr(end + 1, close - end - 1);
    while (!inner.empty()) {
      size_t comma = inner.find(',');
      int64_t v;
      if (!ParseInt(inner.substr(0, comma), &v)) return false;
      index->push_back(v);
      if (comma == std::string_view::npos) break;
      inner = inner.substr(comma + 1);
    }
  }
  return true;
}

std::string IndexKey(const std::string& name, const std::vector<int64_t>& index) {
  std::string k = name + "{";
  for (size_t i = 0; i < index.size(); ++i) k += (i ? "," : "") + std::to_string(index[i]);
  return k + "}";
}

}  // namespace

const XlaDumpStep* XlaDumpModule::after() const {
  for (const auto& s : steps)
    if (s.kind == XlaDumpStep::Kind::kAfter) return &s;
  return nullptr;
}
const XlaDumpStep* XlaDumpModule::before() const {
  for (const auto& s : steps)
    if (s.kind == XlaDumpStep::Kind::kBefore) return &s;
  return nullptr;
}

namespace {

// A folder tools/xla_gpu_reference.py wrote (samples/xla_gpu/STEM): stable
// names beside REFERENCE.json, XLA's own names inside it. One module whose
// only step is after_optimizations (the per-pass files are in passes.tar.xz).
StatusOr<std::vector<XlaDumpModule>> ListReferenceFolder(const fs::path& dir) {
  std::error_code ec;
  XlaDumpModule m;
  m.id = "module_0001";
  m.name = dir.filename().string();
  std::ifstream f(dir / "REFERENCE.json");
  std::stringstream ss;
  ss << f.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Error((dir / "REFERENCE.json").string() + ": error: not valid JSON");
  if (j.contains("xla_module_prefix") && j["xla_module_prefix"].is_string()) m.id = j["xla_module_prefix"];
  if (j.contains("files") && j["files"].contains("after_optimizations.txt") &&
      j["files"]["after_optimizations.txt"].is_string()) {
    // module_0001.jit_NAME.sm_9.0a_gpu_after_optimizations.txt
    std::string xla = j["files"]["after_optimizations.txt"];
    size_t a = xla.find('.'), b = a == std::string::npos ? a : xla.find('.', a + 1);
    if (b != std::string::npos) m.name = xla.substr(a + 1, b - a - 1);
  }
  if (!fs::is_regular_file(dir / "after_optimizations.txt", ec))
    return Status::Error(dir.string() + ": error: a reference folder without after_optimizations.txt");
  XlaDumpStep after;
  after.path = (dir / "after_optimizations.txt").string();
  after.kind = XlaDumpStep::Kind::kAfter;
  after.label = "after_optimizations";
  m.steps.push_back(std::move(after));
  if (fs::is_regular_file(dir / "buffer_assignment.txt", ec)) m.buffer_assignment = (dir / "buffer_assignment.txt").string();
  if (fs::is_regular_file(dir / "priority_fusion_dump.txt", ec))
    m.fusion_log = (dir / "priority_fusion_dump.txt").string();
  return std::vector<XlaDumpModule>{std::move(m)};
}

}  // namespace

StatusOr<std::vector<XlaDumpModule>> ListXlaDump(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::Error(dir + ": error: not a directory");
  if (fs::is_regular_file(fs::path(dir) / "REFERENCE.json", ec)) {
    if (fs::is_directory(fs::path(dir) / "xla_dump", ec)) return ListXlaDump((fs::path(dir) / "xla_dump").string());
    return ListReferenceFolder(fs::path(dir));
  }
  std::map<std::string, XlaDumpModule> modules;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string file = entry.path().filename().string();
    if (!StartsWith(file, "module_") || !EndsWith(file, ".txt") || !entry.is_regular_file()) continue;
    size_t dot = file.find('.');
    if (dot == std::string::npos) continue;
    std::string id = file.substr(0, dot);
    std::string rest = file.substr(dot + 1, file.size() - dot - 1 - 4);  // without ".txt"
    XlaDumpModule& m = modules[id];
    m.id = id;
    std::string path = entry.path().string();
    if (EndsWith(rest, "-memory-usage-report")) continue;
    if (EndsWith(rest, "buffer-assignment")) {
      m.buffer_assignment = path;
      continue;
    }
    if (EndsWith(rest, "priority_fusion_dump")) {
      m.fusion_log = path;
      continue;
    }
    XlaDumpStep step;
    step.path = path;
    if (EndsWith(rest, ".before_optimizations")) {
      step.kind = XlaDumpStep::Kind::kBefore;
      step.label = "before_optimizations";
      m.name = rest.substr(0, rest.size() - std::string_view(".before_optimizations").size());
    } else if (EndsWith(rest, "after_optimizations")) {
      step.kind = XlaDumpStep::Kind::kAfter;
      step.label = "after_optimizations";
    } else {
      // NAME.NNNN.PIPELINE.after_X[.before_Y]
      size_t k = 0;
      bool found = false;
      while ((k = rest.find('.', k)) != std::string::npos) {
        if (k + 5 < rest.size() && rest[k + 5] == '.' &&
            std::all_of(rest.begin() + k + 1, rest.begin() + k + 5, [](char c) { return std::isdigit(c); })) {
          found = true;
          break;
        }
        ++k;
      }
      if (!found) continue;
      step.kind = XlaDumpStep::Kind::kPass;
      step.index = std::stoi(rest.substr(k + 1, 4));
      std::string tail = rest.substr(k + 6);
      size_t d = tail.find('.');
      step.label = rest.substr(k + 1, 4) + " " + (d == std::string::npos ? tail : tail.substr(0, d) + " " + tail.substr(d + 1));
      if (m.name.empty()) m.name = rest.substr(0, k);
    }
    m.steps.push_back(std::move(step));
  }
  if (ec) return Status::Error(dir + ": error: " + ec.message());
  std::vector<XlaDumpModule> out;
  for (auto& [id, m] : modules) {
    if (m.steps.empty()) continue;
    std::stable_sort(m.steps.begin(), m.steps.end(), [](const XlaDumpStep& a, const XlaDumpStep& b) {
      auto rank = [](const XlaDumpStep& s) { return s.kind == XlaDumpStep::Kind::kBefore ? 0 : s.kind == XlaDumpStep::Kind::kPass ? 1 : 2; };
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      return a.index < b.index;
    });
    if (m.name.empty()) {
      std::string f = fs::path(m.steps.front().path).filename().string();
      size_t a = f.find('.'), b = f.find('.', a + 1);
      m.name = f.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
    }
    out.push_back(std::move(m));
  }
  if (out.empty()) return Status::Error(dir + ": error: no XLA dump files (module_*.txt) in this folder");
  return out;
}

StatusOr<XlaDumpModule> PickXlaDumpModule(const std::vector<XlaDumpModule>& modules, const std::string& selector) {
  if (modules.empty()) return Status::Error("error: no modules in the dump");
  if (selector.empty()) {
    const XlaDumpModule* best = nullptr;
    uintmax_t best_size = 0;
    for (const auto& m : modules) {
      const XlaDumpStep* s = m.after() ? m.after() : &m.steps.back();
      std::error_code ec;
      uintmax_t size = fs::file_size(s->path, ec);
      if (!best || (!ec && size > best_size)) {
        best = &m;
        best_size = ec ? 0 : size;
      }
    }
    return *best;
  }
  for (const auto& m : modules) {
    if (m.id == selector || m.name == selector) return m;
    int64_t n;
    if (ParseInt(selector, &n) && m.id.size() > 7 && ParseInt(m.id.substr(7), &n) &&
        std::stoll(m.id.substr(7)) == std::stoll(selector))
      return m;
  }
  std::string names;
  for (const auto& m : modules) names += (names.empty() ? "" : ", ") + m.id + " (" + m.name + ")";
  return Status::Error("error: no module '" + selector + "' in the dump; it has " + names);
}

StatusOr<BufferAssignment> ParseXlaBufferAssignment(std::string_view text, const std::string& origin) {
  BufferAssignment ba;
  ba.scheduler = "xla";
  ba.packing = "xla";
  ba.alignment = 1;
  std::map<std::string, int> by_key;  // name{index} → buffer
  std::vector<bool> skip_alloc;      // thread-local
  enum class Section { kNone, kAllocations, kSequence, kRanges, kOther } section = Section::kNone;
  AllocationInfo* current = nullptr;
  bool current_skipped = false;
  int64_t max_position = -1;
  bool have_ranges = false;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  auto fail = [&](const std::string& what) {
    return Status::Error(origin + ":" + std::to_string(line_no) + ": error: " + what);
  };
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    std::string_view t = Trim(line);
    if (t.empty()) continue;
    if (StartsWith(t, "BufferAssignment:")) {
      section = Section::kAllocations;
      continue;
    }
    if (StartsWith(t, "allocation ") && section != Section::kOther) {
      section = Section::kAllocations;
      size_t colon = t.find(':');
      size_t comma = t.find(", size ");
      if (colon == std::string_view::npos) return fail("malformed allocation line");
      int64_t index, size;
      std::string_view size_part = t.substr(colon + 1);
      size_part = Trim(size_part);
      if (!StartsWith(size_part, "size ")) return fail("allocation without a size");
      size_part = size_part.substr(5);
      size_t end = size_part.find_first_of(",:");
      if (!ParseInt(t.substr(11, colon - 11), &index) || !ParseInt(size_part.substr(0, end), &size))
        return fail("malformed allocation line");
      (void)comma;
      std::string_view attrs = end == std::string_view::npos ? std::string_view() : size_part.substr(end);
      current_skipped = attrs.find("thread-local") != std::string_view::npos;
      if (current_skipped) {
        current = nullptr;
        continue;
      }
      AllocationInfo a;
      a.index = static_cast<int>(index);
      a.size = size;
      a.maybe_live_out = attrs.find("maybe-live-out") != std::string_view::npos;
      size_t p = attrs.find("parameter ");
      if (p != std::string_view::npos) {
        a.kind = BufferKind::kParameter;
        int64_t num;
        std::string_view rest = attrs.substr(p + 10);
        if (ParseInt(rest.substr(0, rest.find_first_of(", :")), &num)) a.parameter_number = num;
      } else if (attrs.find("constant") != std::string_view::npos) {
        a.kind = BufferKind::kConstant;
      } else if (attrs.find("output shape") != std::string_view::npos || a.maybe_live_out) {
        a.kind = BufferKind::kOutput;
      } else {
        a.kind = BufferKind::kTemp;
      }
      ba.allocations.push_back(a);
      current = &ba.allocations.back();
      continue;
    }
    if (StartsWith(t, "value: ") && section == Section::kAllocations) {
      if (current_skipped) continue;
      if (!current) return fail("value outside an allocation");
      std::string_view v = t.substr(7);
      size_t close = v.find('>');
      if (close == std::string_view::npos) return fail("malformed value line");
      AssignedBuffer b;
      if (!ParseValueRef(v.substr(0, close + 1), &b.instruction, &b.index)) return fail("malformed value reference");
      size_t sz = v.find("(size=", close), off = v.find(",offset=", close);
      if (sz == std::string_view::npos || off == std::string_view::npos) return fail("value without size/offset");
      size_t rp = v.find(')', off);
      if (!ParseInt(v.substr(sz + 6, off - sz - 6), &b.bytes) ||
          !ParseInt(v.substr(off + 8, rp == std::string_view::npos ? std::string_view::npos : rp - off - 8), &b.offset))
        return fail("malformed size/offset");
      size_t colon = v.find(':', rp == std::string_view::npos ? off : rp);
      if (colon != std::string_view::npos) b.shape = std::string(Trim(v.substr(colon + 1)));
      b.id = static_cast<int>(ba.buffers.size());
      b.allocation = current->index;
      b.kind = current->kind;
      current->buffers.push_back(b.id);
      by_key[IndexKey(b.instruction, b.index)] = b.id;
      ba.buffers.push_back(std::move(b));
      continue;
    }
    if (StartsWith(t, "InstructionSequence:")) {
      section = Section::kSequence;
      continue;
    }
    if (StartsWith(t, "BufferLiveRange:")) {
      section = Section::kRanges;
      continue;
    }
    if (StartsWith(t, "HloLiveRange") || StartsWith(t, "Live ranges at") || StartsWith(t, "Used values:") ||
        StartsWith(t, "Total bytes used")) {
      if (StartsWith(t, "Used values:")) section = Section::kOther;
      else if (!StartsWith(t, "HloLiveRange")) section = Section::kOther;
      continue;
    }
    if (section == Section::kSequence) {
      size_t colon = t.find(':');
      int64_t pos;
      if (colon == std::string_view::npos || !ParseInt(t.substr(0, colon), &pos)) {
        section = Section::kOther;
        continue;
      }
      ba.sequence.push_back(std::string(t.substr(colon + 1)));
      max_position = std::max(max_position, pos);
      continue;
    }
    if (section == Section::kRanges) {
      size_t colon = t.rfind(':');
      size_t dash = t.rfind('-');
      int64_t s, e;
      if (colon == std::string_view::npos || dash == std::string_view::npos || dash < colon ||
          !ParseInt(t.substr(colon + 1, dash - colon - 1), &s) || !ParseInt(t.substr(dash + 1), &e)) {
        section = Section::kOther;
        continue;
      }
      std::string key(t.substr(0, colon));
      if (key.find('{') == std::string::npos) key += "{}";
      auto it = by_key.find(key);
      if (it != by_key.end()) {
        ba.buffers[it->second].start = s;
        ba.buffers[it->second].end = e;
        have_ranges = true;
      }
      max_position = std::max(max_position, e);
      continue;
    }
  }
  if (ba.allocations.empty())
    return Status::Error(origin + ": error: no 'allocation N: size S' line; not an XLA buffer assignment");
  if (max_position < 0) max_position = 0;
  if (!have_ranges)
    for (auto& b : ba.buffers) {
      b.start = 0;
      b.end = max_position;
    }
  // A value XLA's live range leaves out (e.g. a constant it never lists) spans the program.
  SummarizeXlaAssignment(max_position + 1, &ba);
  return ba;
}

void SummarizeXlaAssignment(int64_t positions, BufferAssignment* out) {
  BufferAssignment& ba = *out;
  const int64_t max_position = positions - 1;
  ba.peak_bytes = ba.parameter_bytes = ba.constant_bytes = ba.output_bytes = ba.total_bytes = 0;
  ba.live_bytes.assign(static_cast<size_t>(positions), 0);
  for (const auto& b : ba.buffers) {
    if (b.kind != BufferKind::kTemp) continue;
    for (int64_t p = std::max<int64_t>(b.start, 0); p <= std::min(b.end, max_position); ++p) ba.live_bytes[p] += b.bytes;
  }
  // A hand-over: a value born where another dies, in bytes XLA gave both
  // (an in-place op writing over its operand). Both are live at that
  // position but the shared bytes are held once.
  for (const auto& a : ba.allocations) {
    if (a.kind != BufferKind::kTemp) continue;
    std::unordered_multimap<int64_t, const AssignedBuffer*> by_start;
    for (int id : a.buffers) by_start.emplace(ba.buffers[id].start, &ba.buffers[id]);
    for (int id : a.buffers) {
      const AssignedBuffer& dying = ba.buffers[id];
      if (dying.end < 0 || dying.end > max_position) continue;
      auto [lo, hi] = by_start.equal_range(dying.end);
      for (auto it = lo; it != hi; ++it) {
        const AssignedBuffer& born = *it->second;
        if (&born == &dying || (born.end == born.start && dying.start == dying.end)) continue;
        const int64_t overlap = std::min(dying.offset + dying.bytes, born.offset + born.bytes) -
                                std::max(dying.offset, born.offset);
        if (overlap > 0) ba.live_bytes[static_cast<size_t>(dying.end)] -= overlap;
      }
    }
  }
  for (const auto& a : ba.allocations) {
    switch (a.kind) {
      case BufferKind::kTemp: ba.peak_bytes += a.size; break;
      case BufferKind::kParameter: ba.parameter_bytes += a.size; break;
      case BufferKind::kConstant: ba.constant_bytes += a.size; break;
      case BufferKind::kOutput: ba.output_bytes += a.size; break;
    }
    ba.total_bytes += a.size;
  }
  auto mx = std::max_element(ba.live_bytes.begin(), ba.live_bytes.end());
  ba.lower_bound_bytes = mx == ba.live_bytes.end() ? 0 : *mx;
  ba.peak_position = mx == ba.live_bytes.end() ? 0 : mx - ba.live_bytes.begin();
}

StatusOr<BufferAssignment> ReadXlaBufferAssignment(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::Error(path + ": error: cannot read the file");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  // XLA GPU writes the live ranges to a file of their own: read it with the
  // assignment when it is there.
  const std::string ranges = XlaLiveRangeOfBufferAssignment(path);
  if (!ranges.empty()) {
    std::ifstream r(ranges, std::ios::binary);
    std::stringstream rs;
    rs << r.rdbuf();
    text += "\n" + rs.str();
  }
  auto ba = ParseXlaBufferAssignment(text, path);
  if (!ba.ok()) return ba;
  ba->module = fs::path(path).filename().string();
  // No live ranges in the file (XLA GPU writes none): derive them from the
  // scheduled module beside it, when there is one.
  if (ba->sequence.empty()) {
    std::string module_path = XlaModuleOfBufferAssignment(path);
    if (!module_path.empty()) {
      auto m = ParseHloFile(module_path);
      if (m.ok()) {
        Status s = DeriveXlaLiveRanges(**m, &*ba);
        if (!s.ok()) return Status::Error(path + ": " + s.message());
      }
    }
  }
  return ba;
}

}  // namespace hloscope::report
