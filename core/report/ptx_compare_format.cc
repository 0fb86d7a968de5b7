// Text (Markdown tables) and JSON of a PtxComparison (ptx_compare.h).
#include <nlohmann/json.hpp>

#include "core/report/ptx_compare.h"

namespace hloscope::report {
namespace {

std::string Registers(const KernelSide& s) { return s.resources ? std::to_string(s.resources->registers) : "n/a"; }

std::string Spills(const KernelSide& s) {
  if (!s.resources) return "n/a";
  return std::to_string(s.resources->spill_stores) + "+" + std::to_string(s.resources->spill_loads);
}

// Shared memory per block: static (ptxas's smem, else what the PTX declares)
// plus the launch's dynamic shared memory.
std::string Shared(const KernelSide& s) {
  int64_t stat = s.resources ? s.resources->shared_bytes : s.ptx.shared_bytes;
  std::string out = std::to_string(stat);
  if (s.launch_shared > 0) out = std::to_string(stat + s.launch_shared) + " (" + std::to_string(s.launch_shared) + " dyn)";
  return out;
}

std::string Pair(const std::string& ours, const std::string& xla) { return ours + " / " + xla; }

std::string Row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + c + " |";
  return out + "\n";
}

nlohmann::ordered_json SideJson(const KernelSide& s) {
  using J = nlohmann::ordered_json;
  J classes = J::object();
  for (size_t c = 0; c < static_cast<size_t>(PtxClass::kCount); ++c)
    if (s.ptx.by_class[c]) classes[PtxClassName(static_cast<PtxClass>(c))] = s.ptx.by_class[c];
  auto widths = [](const std::map<int, int64_t>& bytes, const std::map<int, int64_t>& vec) {
    J b = J::object(), v = J::object();
    int64_t n = 0;
    for (const auto& [k, c] : bytes) b[std::to_string(k)] = c, n += c;
    for (const auto& [k, c] : vec) v[std::to_string(k)] = c;
    return J{{"count", n}, {"bytes", b}, {"vector", v}};
  };
  J j = {{"kernel", s.kernel},
         {"instruction", s.instruction},
         {"ops", s.ops},
         {"instructions", s.ptx.total},
         {"classes", classes},
         {"ld_global", widths(s.ptx.ld_global_bytes, s.ptx.ld_global_vector)},
         {"st_global", widths(s.ptx.st_global_bytes, s.ptx.st_global_vector)},
         {"static_shared_bytes", s.ptx.shared_bytes},
         {"dynamic_shared_declared", s.ptx.dynamic_shared},
         {"launch_shared_bytes", s.launch_shared},
         {"block_threads", s.block_threads}};
  if (s.resources) {
    const codegen::KernelResources& r = *s.resources;
    j["resources"] = {{"registers", r.registers},       {"spill_stores", r.spill_stores}, {"spill_loads", r.spill_loads},
                      {"stack_bytes", r.stack_bytes},   {"shared_bytes", r.shared_bytes}, {"barriers", r.barriers}};
  } else {
    j["resources"] = nullptr;
  }
  if (!s.resources_error.empty()) j["resources_error"] = s.resources_error;
  return j;
}

}  // namespace

std::string PtxComparisonToText(const PtxComparison& c) {
  std::string out;
  out += "Kernels XLA compiled, each against the kernel of ours holding its dot's counterpart, else most of its\n"
         "matched ops (ours / XLA). same ops: yes = the same matched ops; in ours = ours holds XLA's and more;\n"
         "k of n = k of XLA's n ops are in ours.\n";
  out += c.ptxas_missing.empty() ? "Registers, spills (store+load bytes) and static shared memory: ptxas -v -arch=" + c.arch + ".\n"
                                 : "Registers and spills: n/a (" + c.ptxas_missing + ").\n";
  out += "\n";
  out += Row({"kernel ours / XLA", "same ops", "instrs", "ld.global ours", "ld.global XLA", "st.global", "regs", "spills",
              "smem B", "threads"});
  out += Row({"---", "---", "---:", "---", "---", "---", "---:", "---:", "---:", "---:"});
  for (const KernelPair& p : c.pairs) {
    // "yes": the same matched ops; "in ours": ours holds XLA's and more;
    // "k of n": k of XLA's n ops are in ours, the rest elsewhere or unmatched.
    std::string same = p.same_members  ? "yes"
                       : p.inside_ours ? "in ours"
                                       : std::to_string(p.matched) + " of " + std::to_string(p.xla.ops);
    out += Row({Pair(p.ours.kernel, p.xla.kernel), same, Pair(std::to_string(p.ours.ptx.total), std::to_string(p.xla.ptx.total)),
                FormatWidths(p.ours.ptx.ld_global_bytes), FormatWidths(p.xla.ptx.ld_global_bytes),
                Pair(FormatWidths(p.ours.ptx.st_global_bytes), FormatWidths(p.xla.ptx.st_global_bytes)),
                Pair(Registers(p.ours), Registers(p.xla)), Pair(Spills(p.ours), Spills(p.xla)),
                Pair(Shared(p.ours), Shared(p.xla)),
                Pair(p.ours.block_threads ? std::to_string(p.ours.block_threads) : "?",
                     p.xla.block_threads ? std::to_string(p.xla.block_threads) : "?")});
  }
  if (c.pairs.empty()) out += "(no kernel pairs)\n";
  // Instruction classes: the columns any pair uses.
  std::vector<size_t> used;
  for (size_t k = 0; k < static_cast<size_t>(PtxClass::kCount); ++k)
    for (const KernelPair& p : c.pairs)
      if (p.ours.ptx.by_class[k] || p.xla.ptx.by_class[k]) {
        used.push_back(k);
        break;
      }
  if (!c.pairs.empty()) {
    out += "\nInstructions by class (ours / XLA):\n\n";
    std::vector<std::string> head = {"kernel ours / XLA"}, rule = {"---"};
    for (size_t k : used) head.push_back(PtxClassName(static_cast<PtxClass>(k))), rule.push_back("---:");
    out += Row(head) + Row(rule);
    for (const KernelPair& p : c.pairs) {
      std::vector<std::string> cells = {Pair(p.ours.kernel, p.xla.kernel)};
      for (size_t k : used) cells.push_back(Pair(std::to_string(p.ours.ptx.by_class[k]), std::to_string(p.xla.ptx.by_class[k])));
      out += Row(cells);
    }
  }
  auto list = [&](const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    out += std::string("\n") + what + " (" + std::to_string(names.size()) + "): ";
    for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
    out += "\n";
  };
  list("XLA kernels with no counterpart of ours", c.xla_unpaired);
  list("our kernels paired with no XLA kernel", c.ours_unpaired);
  list("XLA fusions with no PTX entry of their own (an identical fusion's kernel, or no PTX kernel)", c.xla_without_ptx);
  for (const KernelPair& p : c.pairs)
    for (const KernelSide* s : {&p.ours, &p.xla})
      if (!s->resources_error.empty()) out += "ptxas on " + s->kernel + ": " + s->resources_error + "\n";
  return out;
}

std::string PtxComparisonToJson(const PtxComparison& c) {
  using J = nlohmann::ordered_json;
  J j = {{"arch", c.arch}, {"ptxas", c.ptxas_missing.empty()}};
  if (!c.ptxas_missing.empty()) j["ptxas_missing"] = c.ptxas_missing;
  j["pairs"] = J::array();
  for (const KernelPair& p : c.pairs)
    j["pairs"].push_back({{"same_members", p.same_members}, {"inside_ours", p.inside_ours}, {"matched_ops", p.matched},
                          {"ours", SideJson(p.ours)}, {"xla", SideJson(p.xla)}});
  j["xla_unpaired"] = c.xla_unpaired;
  j["ours_unpaired"] = c.ours_unpaired;
  j["xla_without_ptx"] = c.xla_without_ptx;
  return j.dump(2);
}

}  // namespace hloscope::report
