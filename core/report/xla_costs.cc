#include "core/report/xla_costs.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "core/cost/cost_model.h"
#include "core/parser/parser.h"
#include "core/support/proto_text.h"

namespace hloscope::report {
namespace {

Status Bad(std::string_view file, int line, int column, const std::string& what) {
  return Status::Error(std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column) +
                       ": error: " + what);
}

std::vector<std::string_view> SplitTabs(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t t = s.find('\t', start);
    out.push_back(s.substr(start, t == std::string_view::npos ? std::string_view::npos : t - start));
    if (t == std::string_view::npos) return out;
    start = t + 1;
  }
}

bool ToDouble(std::string_view s, double* v) {
  if (s.empty()) return false;
  std::string str(s);
  char* end = nullptr;
  *v = std::strtod(str.c_str(), &end);
  return end == str.c_str() + str.size() && std::isfinite(*v) && *v >= 0;
}

constexpr const char* kColumns[] = {"name",     "blocks",  "threads",    "flops",  "bytes_read",
                                    "bytes_written", "read_ns", "write_ns", "compute_ns", "exec_ns"};
constexpr size_t kNumColumns = sizeof(kColumns) / sizeof(kColumns[0]);

}  // namespace

StatusOr<XlaCostTable> ParseXlaCosts(std::string_view text, std::string_view filename) {
  XlaCostTable t;
  t.origin = std::string(filename);
  bool header = false;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string_view> f = SplitTabs(line);
    if (!header) {
      for (size_t k = 0; k < kNumColumns; ++k)
        if (k >= f.size() || f[k] != kColumns[k])
          return Bad(filename, line_no, 1,
                     "expected the header \"name, blocks, threads, flops, bytes_read, bytes_written, read_ns, "
                     "write_ns, compute_ns, exec_ns\" (tab-separated)");
      header = true;
      continue;
    }
    if (f.size() != kNumColumns)
      return Bad(filename, line_no, 1,
                 "expected " + std::to_string(kNumColumns) + " tab-separated fields, found " + std::to_string(f.size()));
    XlaInstructionCost c;
    c.name = std::string(f[0]);
    c.line = line_no;
    double v[kNumColumns] = {};
    int column = static_cast<int>(f[0].size()) + 2;
    for (size_t k = 1; k < kNumColumns; ++k) {
      if (!ToDouble(f[k], &v[k])) return Bad(filename, line_no, column, std::string(kColumns[k]) + " is not a number");
      column += static_cast<int>(f[k].size()) + 1;
    }
    c.blocks = static_cast<int64_t>(v[1]);
    c.threads = static_cast<int64_t>(v[2]);
    c.flops = v[3];
    c.bytes_read = static_cast<int64_t>(v[4]);
    c.bytes_written = static_cast<int64_t>(v[5]);
    c.read_ns = v[6];
    c.write_ns = v[7];
    c.compute_ns = v[8];
    c.exec_ns = v[9];
    if (c.name.empty()) return Bad(filename, line_no, 1, "empty instruction name");
    t.rows.push_back(std::move(c));
  }
  if (!header) return Bad(filename, line_no > 0 ? line_no : 1, 1, "no header line: is this an xla_costs.tsv?");
  return t;
}

StatusOr<XlaCostTable> ReadXlaCosts(const std::string& dir_or_file) {
  std::error_code ec;
  std::filesystem::path p(dir_or_file);
  if (std::filesystem::is_directory(p, ec)) p /= "xla_costs.tsv";
  if (!std::filesystem::exists(p, ec))
    return Status::Error(p.string() + ": no XLA cost estimates (tools/xla_gpu_reference.py FILE --costs writes them)");
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(p.string()));
  return ParseXlaCosts(text, p.string());
}

StatusOr<std::unique_ptr<Module>> XlaModuleBeforeFusion(std::string_view dump_text, std::string_view filename) {
  ASSIGN_OR_RETURN(std::vector<ProtoTextField> fields, ParseProtoText(dump_text, std::string(filename)));
  for (const ProtoTextField& f : fields)
    if (f.name == "hlo_module_before_fusion" && f.is_string)
      return ParseHloModule(f.scalar, std::string(filename) + ":" + std::to_string(f.line) + ":hlo_module_before_fusion");
  return Status::Error(std::string(filename) + ": error: no hlo_module_before_fusion in this priority fusion log");
}

InstructionCostComparison CompareInstructionCosts(const Module& before_fusion, const XlaCostTable& xla,
                                                  const DeviceSpec& device) {
  std::unordered_map<std::string, const XlaInstructionCost*> by_name;
  for (const XlaInstructionCost& c : xla.rows) by_name.emplace(c.name, &c);
  InstructionCostComparison out;
  for (const auto& comp : before_fusion.computations()) {
    if (comp->fusion_instruction) continue;
    for (const auto& i : comp->instructions()) {
      if (!LaunchesKernel(*i)) continue;
      auto it = by_name.find(i->name());
      if (it == by_name.end()) continue;
      const Cost c = KernelCost(*i, device);
      InstructionCostPair p;
      p.name = i->name();
      p.opcode = std::string(OpcodeName(i->opcode()));
      p.xla = *it->second;
      p.blocks = c.blocks;
      p.threads = c.threads;
      p.cycles = c.cycles;
      p.exec_ns = (c.time_us - c.launch_us) * 1e3;
      p.within = std::abs(p.exec_ns - p.xla.exec_ns) <=
                 std::max(InstructionCostComparison::kAbsNs, InstructionCostComparison::kRel * p.xla.exec_ns);
      ++out.compared;
      if (p.within) ++out.within;
      if (p.blocks == p.xla.blocks && p.threads == p.xla.threads) ++out.same_launch;
      out.pairs.push_back(std::move(p));
    }
  }
  auto off = [](const InstructionCostPair& p) {
    return std::abs(p.exec_ns - p.xla.exec_ns) / std::max(p.xla.exec_ns, InstructionCostComparison::kAbsNs);
  };
  std::stable_sort(out.pairs.begin(), out.pairs.end(),
                   [&](const InstructionCostPair& a, const InstructionCostPair& b) { return off(a) > off(b); });
  return out;
}

StatusOr<std::optional<InstructionCostsFound>> InstructionCostsBesideLog(const std::string& log_path,
                                                                        const DeviceSpec& device) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::path(log_path).parent_path();
  fs::path table = dir / "xla_costs.tsv";
  // A raw dump: its logs are in xla_dump/, the table beside that folder.
  if (!fs::exists(table, ec) && dir.filename() == "xla_dump") table = dir.parent_path() / "xla_costs.tsv";
  if (!fs::exists(table, ec)) return std::optional<InstructionCostsFound>();
  ASSIGN_OR_RETURN(XlaCostTable costs, ReadXlaCosts(table.string()));
  ASSIGN_OR_RETURN(std::string dump, ReadFileToString(log_path));
  ASSIGN_OR_RETURN(std::unique_ptr<Module> before, XlaModuleBeforeFusion(dump, log_path));
  InstructionCostsFound found;
  found.comparison = CompareInstructionCosts(*before, costs, device);
  found.table = costs.origin;
  return std::optional<InstructionCostsFound>(std::move(found));
}

}  // namespace hloscope::report
