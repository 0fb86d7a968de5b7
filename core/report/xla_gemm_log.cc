#include "core/report/xla_gemm_log.h"

#include <filesystem>
#include <map>
#include <set>

#include "core/parser/parser.h"

namespace hloscope::report {
namespace {

constexpr std::string_view kSource = "gemm_fusion.cc:";
constexpr std::string_view kDot = "Creating dot fusion v2 around dot: ";
constexpr std::string_view kFusingOperand = "Fusing operand: ";
constexpr std::string_view kNotFusingOperand = "Not fusing operand: ";
constexpr std::string_view kFusingUser = "Fusing user into epilogue: ";
constexpr std::string_view kNotFusingUser = "Not fusing user: ";
constexpr std::string_view kDueTo = " due to ";

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "%add_any.0 = f32[16,8]{1,0} add(...), metadata={op_name="add_any.51"}":
// the name, the op_name, and the instruction without its metadata.
void ReadInstruction(std::string_view text, std::string* name, std::string* op_name, std::string* instruction) {
  if (!text.empty() && text.front() == '%') text.remove_prefix(1);
  const size_t eq = text.find(" = ");
  *name = std::string(text.substr(0, eq == std::string_view::npos ? text.find(' ') : eq));
  const size_t md = text.find(", metadata={");
  *instruction = std::string(text.substr(0, md));
  const std::string_view key = "op_name=\"";
  if (const size_t at = text.find(key, md == std::string_view::npos ? 0 : md); at != std::string_view::npos) {
    const size_t from = at + key.size();
    const size_t to = text.find('"', from);
    if (to != std::string_view::npos) *op_name = std::string(text.substr(from, to - from));
  }
}

}  // namespace

XlaGemmLog ParseXlaGemmLog(std::string_view text, const std::string& origin) {
  XlaGemmLog log;
  log.origin = origin;
  int line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    // glog's prefix ("I1204 22:21:17.379301   31913 gemm_fusion.cc:1830] ").
    const size_t src = line.find(kSource);
    if (src == std::string_view::npos) continue;
    const size_t close = line.find("] ", src);
    if (close == std::string_view::npos) continue;
    std::string_view msg = line.substr(close + 2);
    if (StartsWith(msg, kDot)) {
      XlaGemmSearch s;
      std::string ignored;
      ReadInstruction(msg.substr(kDot.size()), &s.dot, &s.op_name, &ignored);
      s.line = line_no;
      log.searches.push_back(std::move(s));
      continue;
    }
    if (log.searches.empty()) continue;
    XlaGemmCandidate c;
    std::string_view rest;
    if (StartsWith(msg, kFusingOperand)) {
      c.fused = true;
      rest = msg.substr(kFusingOperand.size());
    } else if (StartsWith(msg, kNotFusingOperand)) {
      rest = msg.substr(kNotFusingOperand.size());
    } else if (StartsWith(msg, kFusingUser)) {
      c.fused = c.user = true;
      rest = msg.substr(kFusingUser.size());
    } else if (StartsWith(msg, kNotFusingUser)) {
      c.user = true;
      rest = msg.substr(kNotFusingUser.size());
    } else {
      continue;
    }
    if (!c.fused) {
      const size_t due = rest.rfind(kDueTo);
      if (due != std::string_view::npos) {
        std::string_view why = rest.substr(due + kDueTo.size());
        while (!why.empty() && (why.back() == '.' || why.back() == ' ' || why.back() == '\r')) why.remove_suffix(1);
        c.reason = std::string(why);
        rest = rest.substr(0, due);
      }
    }
    ReadInstruction(rest, &c.name, &c.op_name, &c.instruction);
    c.line = line_no;
    log.searches.back().candidates.push_back(std::move(c));
  }
  return log;
}

StatusOr<XlaGemmLog> ReadXlaGemmLog(const std::string& dir_or_file) {
  std::error_code ec;
  std::filesystem::path p(dir_or_file);
  if (std::filesystem::is_directory(p, ec)) {
    // The tool's folder, or its xla_dump/ (the log sits beside it).
    p /= "xla_vlog.txt";
    if (!std::filesystem::exists(p, ec) && std::filesystem::path(dir_or_file).filename() == "xla_dump")
      p = std::filesystem::path(dir_or_file).parent_path() / "xla_vlog.txt";
  }
  if (!std::filesystem::exists(p, ec))
    return Error(p.string() + ": no XLA log (compile with `hloscope-cli xla-gpu FILE --out DIR`, whose "
                         "default --vlog gemm_fusion=6 writes it)");
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(p.string()));
  return ParseXlaGemmLog(text, p.string());
}

std::vector<XlaGemmSearch> XlaGemmStoryOf(const XlaGemmLog& log, std::string_view instruction) {
  std::vector<XlaGemmSearch> out;
  for (const XlaGemmSearch& s : log.searches)
    if (s.op_name == instruction || s.dot == instruction) out.push_back(s);
  if (!out.empty()) return out;
  for (const XlaGemmSearch& s : log.searches) {
    XlaGemmSearch mine = s;
    mine.candidates.clear();
    for (const XlaGemmCandidate& c : s.candidates)
      if (c.op_name == instruction) mine.candidates.push_back(c);
    if (!mine.candidates.empty()) out.push_back(std::move(mine));
  }
  return out;
}

GemmAgreement CompareGemmSearches(const Module& ours, const XlaGemmLog& log) {
  // Our GEMM fusions by the dot they hold, and every name with its opcode.
  std::map<std::string, std::set<std::string>> gemm;
  std::map<std::string, std::string> opcode_of;
  for (const auto& c : ours.computations()) {
    std::set<std::string> members;
    std::string dot;
    for (const auto& i : c->instructions()) {
      opcode_of[i->name()] = std::string(OpcodeName(i->opcode()));
      members.insert(i->name());
      if (i->opcode() == Opcode::kDot) dot = i->name();
    }
    if (c->fusion_instruction && c->fusion_instruction->fusion_kind() == FusionKind::kCustom && !dot.empty())
      gemm[dot] = std::move(members);
  }
  GemmAgreement out;
  for (const XlaGemmSearch& x : log.searches) {
    auto g = gemm.find(x.op_name);
    if (g == gemm.end()) continue;
    ++out.searches;
    for (const XlaGemmCandidate& c : x.candidates) {
      if (c.user || c.op_name.empty()) continue;
      auto op = opcode_of.find(c.op_name);
      if (op == opcode_of.end() || c.instruction.find(" " + op->second + "(") == std::string::npos) continue;
      ++out.compared;
      const bool fused = g->second.count(c.op_name) > 0;
      if (fused == c.fused)
        ++out.agree;
      else
        out.differ.push_back({x.op_name, c, fused});
    }
  }
  return out;
}

std::string XlaGemmCandidateLine(const XlaGemmCandidate& c) {
  std::string t = std::string(c.fused ? "fused " : "left out ") + (c.user ? "user " : "operand ");
  t += c.op_name.empty() ? c.name : c.op_name + " (XLA's " + c.name + ")";
  if (!c.reason.empty()) t += ": " + c.reason;
  return t;
}

}  // namespace hloscope::report
