#include "core/report/ptx_compare.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

#include "core/codegen/nvptx_backend.h"
#include "core/codegen/nvptx_targets.h"
#include "core/report/compare_match.h"
#include "core/report/xla_dump.h"

namespace hloscope::report {
namespace {

namespace fs = std::filesystem;
using compare_detail::Atom;
using compare_detail::Side;

std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool EndsWith(const std::string& s, const std::string& t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// XLA's kernel name for an instruction name (llvm_ir::SanitizeFunctionName).
std::string Sanitize(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return out;
}

// XLA's thunk sequence: per kernel, threads per block and dynamic shared memory.
struct Launch {
  int64_t threads = 0, shared = -1;
};
std::map<std::string, Launch> ParseThunkSequence(const std::string& text) {
  static const std::regex line(
      R"(kCustomKernel\s*\[[^\]]*\]\s+(\S+)\s+grid:\s*\[[^\]]*\]\s+threads:\s*\[(\d+),\s*(\d+),\s*(\d+)\]\s+shared_memory:\s*(\d+))");
  std::map<std::string, Launch> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (out.count(m[1])) continue;
    out[m[1]] = {std::stoll(m[2]) * std::stoll(m[3]) * std::stoll(m[4]), std::stoll(m[5])};
  }
  return out;
}

// The instructions of the computations that launch kernels (not fused ones), by name.
std::unordered_map<std::string, const Instruction*> LaunchingInstructions(const Module& m) {
  std::unordered_map<std::string, const Instruction*> out;
  for (const auto& c : m.computations()) {
    if (c->fusion_instruction) continue;
    for (const auto& i : c->instructions()) out[i->name()] = i.get();
  }
  return out;
}

}  // namespace

StatusOr<XlaKernelFiles> ReadXlaKernelFiles(const std::string& dir, const std::string& module) {
  ASSIGN_OR_RETURN(std::vector<XlaDumpModule> modules, ListXlaDump(dir));
  ASSIGN_OR_RETURN(XlaDumpModule m, PickXlaDumpModule(modules, module));
  const XlaDumpStep* after = m.after();
  if (!after)
    return Status::Error(dir + ": error: no after_optimizations module for " + m.id + " (" + m.name +
                         "); XLA writes *after_optimizations.txt with --xla_dump_to and --xla_dump_hlo_as_text");
  XlaKernelFiles f;
  f.module_path = after->path;
  const fs::path folder = fs::path(after->path).parent_path();
  std::error_code ec;
  if (fs::is_regular_file(folder / "kernels.ptx", ec)) {  // a reference folder (tools/xla_gpu_reference.py)
    f.ptx_paths.push_back((folder / "kernels.ptx").string());
    if (fs::is_regular_file(folder / "thunk_sequence.txt", ec)) f.thunk_sequence_path = (folder / "thunk_sequence.txt").string();
  } else {
    std::vector<std::string> ptx;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(m.id + ".", 0) != 0 || !e.is_regular_file()) continue;
      if (EndsWith(name, ".ptx")) ptx.push_back(e.path().string());
      if (EndsWith(name, "thunk_sequence.txt")) f.thunk_sequence_path = e.path().string();
    }
    std::sort(ptx.begin(), ptx.end());
    f.ptx_paths = ptx;
    if (f.ptx_paths.empty() && fs::is_regular_file(folder / "thunk_sequence.txt", ec))
      f.thunk_sequence_path = (folder / "thunk_sequence.txt").string();
  }
  if (f.ptx_paths.empty()) {
    std::string why;
    if (fs::is_regular_file(folder / "REFERENCE.json", ec)) {
      auto j = nlohmann::json::parse(ReadText((folder / "REFERENCE.json").string()), nullptr, false);
      if (!j.is_discarded() && j.contains("ptx") && j["ptx"].contains("reason") && j["ptx"]["reason"].is_string())
        why = " (REFERENCE.json: " + j["ptx"]["reason"].get<std::string>() + ")";
    }
    return Status::Error(folder.string() + ": error: no PTX for " + m.id + " (" + m.name + "): neither kernels.ptx nor " +
                         m.id + ".*.ptx" + why + "; XLA writes its PTX into --xla_dump_to folders");
  }
  for (const std::string& p : f.ptx_paths) f.ptx += ReadText(p) + "\n";
  if (!f.thunk_sequence_path.empty()) f.thunk_sequence = ReadText(f.thunk_sequence_path);
  return f;
}

PtxComparison ComparePtx(const Module& ours, const codegen::CodegenResult& cg, const Module& xla,
                         const XlaKernelFiles& files, const PtxCompareOptions& options) {
  PtxComparison out;
  out.arch = options.arch;
  if (!options.run_ptxas) out.ptxas_missing = "not asked";
  else if (codegen::PtxasPath().empty()) out.ptxas_missing = "ptxas not found (set HLOSCOPE_PTXAS or put it on PATH)";
  const std::optional<codegen::NvptxTarget> target = codegen::FindNvptxTarget(options.arch);
  if (!target && out.ptxas_missing.empty()) out.ptxas_missing = "unknown architecture " + options.arch;

  // Ops matched as `compare` matches them; a = ours, b = XLA's.
  Side sa, sb;
  sa.CollectModule(ours);
  sb.CollectModule(xla);
  std::map<std::string, int64_t> matched_by;
  compare_detail::MatchSides(sa, sb, &matched_by);
  std::unordered_map<const Instruction*, int> ops_a, ops_b;
  for (const Atom& x : sa.atoms) ++ops_a[x.kernel];
  for (const Atom& y : sb.atoms) ++ops_b[y.kernel];

  // Our kernels by instruction; the launch of each.
  const std::vector<const runtime::KernelThunk*> thunks = runtime::AllKernels(cg.plan);
  std::unordered_map<std::string, size_t> our_kernel_of;
  for (size_t k = 0; k < cg.kernels.size(); ++k)
    if (cg.kernels[k].missing.empty()) our_kernel_of.emplace(cg.kernels[k].instruction, k);

  std::map<std::string, std::optional<codegen::KernelResources>> our_resources;
  std::map<std::string, std::string> our_errors;
  auto our_side = [&](size_t k, const Instruction* instr) {
    const codegen::KernelCode& code = cg.CodeOf(k);
    KernelSide s;
    s.kernel = code.kernel.empty() ? code.name : code.kernel;
    s.instruction = cg.kernels[k].instruction;
    s.ops = ops_a[instr];
    const std::vector<PtxEntry> entries = FindPtxEntries(code.ptx);
    for (const PtxEntry& e : entries)
      if (e.name == s.kernel) s.ptx = CountPtx(e);
    if (k < thunks.size()) {
      const runtime::LaunchDims& d = thunks[k]->dims;
      s.launch_shared = d.shared_bytes;
      s.block_threads = int64_t(d.block[0]) * d.block[1] * d.block[2];
    }
    if (out.ptxas_missing.empty()) {
      if (!our_resources.count(s.kernel)) {
        auto r = codegen::PtxasResources(code.ptx, {s.kernel}, *target);
        our_resources[s.kernel] = r.ok() ? std::optional(r->at(s.kernel)) : std::nullopt;
        if (!r.ok()) our_errors[s.kernel] = r.status().message();
      }
      s.resources = our_resources[s.kernel];
      s.resources_error = our_errors[s.kernel];
    }
    return s;
  };

  // XLA's kernels: the entries of its PTX, resources per PTX module.
  const std::vector<PtxEntry> xla_entries = FindPtxEntries(files.ptx);
  const std::map<std::string, Launch> launches = ParseThunkSequence(files.thunk_sequence);
  std::map<std::string, codegen::KernelResources> xla_resources;
  std::map<int, std::string> xla_errors;
  if (out.ptxas_missing.empty()) {
    std::map<int, std::vector<std::string>> by_module;
    for (const PtxEntry& e : xla_entries) by_module[e.module].push_back(e.name);
    for (const auto& [module_index, names] : by_module) {
      const int mi = module_index;  // (clang 14 cannot capture a structured binding)
      const PtxEntry& first = *std::find_if(xla_entries.begin(), xla_entries.end(), [&](const PtxEntry& e) { return e.module == mi; });
      auto r = codegen::PtxasResources(std::string(first.module_text), names, *target);
      if (r.ok()) xla_resources.insert(r->begin(), r->end());
      else xla_errors[mi] = r.status().message();
    }
  }
  std::unordered_map<std::string, const Instruction*> xla_by_kernel;
  // Fusions first: the parser's names for `%fusion#1` tuple elements sanitize alike.
  for (const auto& [name, instr] : LaunchingInstructions(xla)) {
    if (instr->opcode() == Opcode::kFusion) xla_by_kernel[Sanitize(name)] = instr;
    else xla_by_kernel.emplace(Sanitize(name), instr);
  }
  std::unordered_map<std::string, const Instruction*> ours_by_name = LaunchingInstructions(ours);

  std::set<std::string> paired_ours, xla_kernel_names;
  for (const PtxEntry& e : xla_entries) {
    xla_kernel_names.insert(e.name);
    auto it = xla_by_kernel.find(e.name);
    if (it == xla_by_kernel.end()) {
      out.xla_unpaired.push_back(e.name + " (no instruction of that name in XLA's module)");
      continue;
    }
    const Instruction* xi = it->second;
    // Our kernel holding the counterpart of the fusion's dot or convolution
    // (a GEMM fusion against our GEMM, not against the kernel that took most
    // of its epilogue), else the one holding most of its matched ops (ties:
    // the first name).
    std::map<std::string, int> votes;
    std::string hero;
    for (const Atom& y : sb.atoms) {
      if (y.kernel != xi || y.match < 0 || !our_kernel_of.count(sa.atoms[y.match].kernel->name())) continue;
      const std::string& k = sa.atoms[y.match].kernel->name();
      ++votes[k];
      if (hero.empty() && (y.instr->opcode() == Opcode::kDot || y.instr->opcode() == Opcode::kConvolution)) hero = k;
    }
    if (votes.empty()) {
      out.xla_unpaired.push_back(e.name + " (" + xi->name() + ")");
      continue;
    }
    auto best = hero.empty() ? std::max_element(votes.begin(), votes.end(),
                                                [](const auto& x, const auto& y) { return x.second < y.second; })
                             : votes.find(hero);
    const Instruction* oi = ours_by_name.at(best->first);
    KernelPair p;
    p.matched = best->second;
    p.ours = our_side(our_kernel_of.at(best->first), oi);
    p.xla.kernel = e.name;
    p.xla.instruction = xi->name();
    p.xla.ops = ops_b[xi];
    p.xla.ptx = CountPtx(e);
    if (auto l = launches.find(e.name); l != launches.end()) {
      p.xla.launch_shared = l->second.shared;
      p.xla.block_threads = l->second.threads;
    }
    if (out.ptxas_missing.empty()) {
      if (auto r = xla_resources.find(e.name); r != xla_resources.end()) p.xla.resources = r->second;
      else if (auto er = xla_errors.find(e.module); er != xla_errors.end()) p.xla.resources_error = er->second;
    }
    bool one = votes.size() == 1 && std::all_of(sb.atoms.begin(), sb.atoms.end(), [&](const Atom& y) {
                 return y.kernel != xi || y.match < 0 || sa.atoms[y.match].kernel == oi;
               });
    bool back = std::all_of(sa.atoms.begin(), sa.atoms.end(), [&](const Atom& x) {
      return x.kernel != oi || x.match < 0 || sb.atoms[x.match].kernel == xi;
    });
    p.same_members = one && back;
    p.inside_ours = one && !back;
    paired_ours.insert(p.ours.kernel);
    out.pairs.push_back(std::move(p));
  }
  for (size_t k = 0; k < cg.kernels.size(); ++k) {
    const codegen::KernelCode& c = cg.kernels[k];
    if (c.same_as >= 0 || !c.missing.empty() || paired_ours.count(c.kernel.empty() ? c.name : c.kernel)) continue;
    out.ours_unpaired.push_back((c.kernel.empty() ? c.name : c.kernel) + " (" + c.instruction + ")");
  }
  for (const auto& c : xla.computations()) {
    if (c->fusion_instruction) continue;
    for (const auto& i : c->instructions())
      if (i->opcode() == Opcode::kFusion && !xla_kernel_names.count(Sanitize(i->name())))
        out.xla_without_ptx.push_back(i->name());
  }
  return out;
}

}  // namespace hloscope::report
