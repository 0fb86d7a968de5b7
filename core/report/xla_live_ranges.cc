// XLA's buffer timeline from its scheduled module: XLA GPU's
// *-buffer-assignment.txt gives values, allocations and offsets but no live
// ranges, so they are derived here (core/report/xla_dump.h).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <unordered_map>

#include "core/report/xla_dump.h"

namespace hloscope::report {
namespace fs = std::filesystem;

namespace {

// The file beside a buffer assignment: `stable` in a reference folder
// (buffer_assignment.txt), X + `xla_suffix` for X-buffer-assignment.txt.
std::string Beside(const std::string& path, const char* stable, const char* xla_suffix) {
  std::error_code ec;
  fs::path p(path);
  const std::string file = p.filename().string();
  const std::string suffix = "-buffer-assignment.txt";
  fs::path candidate;
  if (file == "buffer_assignment.txt") {
    candidate = p.parent_path() / stable;
  } else if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
    candidate = p.parent_path() / (file.substr(0, file.size() - suffix.size()) + xla_suffix);
  }
  return !candidate.empty() && fs::is_regular_file(candidate, ec) ? candidate.string() : "";
}

}  // namespace

std::string XlaModuleOfBufferAssignment(const std::string& path) {
  return Beside(path, "after_optimizations.txt", ".txt");
}

std::string XlaLiveRangeOfBufferAssignment(const std::string& path) {
  return Beside(path, "live_range.txt", "-live-range.txt");
}

namespace {

bool Aliases(Opcode op) {
  return op == Opcode::kBitcast || op == Opcode::kTuple || op == Opcode::kGetTupleElement ||
         op == Opcode::kOptimizationBarrier;
}

}  // namespace

Status DeriveXlaLiveRanges(const Module& scheduled, BufferAssignment* ba) {
  const Computation* entry = scheduled.entry();
  if (!entry) return Status::Error("error: the module has no entry computation");
  // Positions: the entry as printed, which is XLA's execution order.
  std::unordered_map<const Instruction*, int64_t> pos;
  ba->sequence.clear();
  ba->sequence_ids.clear();
  for (const auto& i : entry->instructions()) {
    pos[i.get()] = static_cast<int64_t>(ba->sequence.size());
    ba->sequence.push_back(i->name());
    ba->sequence_ids.push_back(i->id());
  }
  const int64_t n = static_cast<int64_t>(ba->sequence.size());
  if (n == 0) return Status::Error("error: the entry computation is empty");
  // Nested computations (while bodies, called computations) live at the
  // position of the entry instruction that calls them.
  std::unordered_map<const Computation*, int64_t> at_caller;
  std::function<void(const Computation*, int64_t)> mark = [&](const Computation* c, int64_t p) {
    if (!c || !at_caller.emplace(c, p).second) return;
    for (const auto& i : c->instructions())
      for (const Computation* callee : i->called_computations()) mark(callee, p);
  };
  for (const auto& i : entry->instructions())
    for (const Computation* callee : i->called_computations()) mark(callee, pos[i.get()]);
  std::unordered_map<std::string, const Instruction*> by_name;
  for (const auto& c : scheduled.computations())
    for (const auto& i : c->instructions()) by_name.emplace(i->name(), i.get());

  // The last position a value of `i` at tuple `index` is used at, through
  // the ops that alias it; n when it reaches the entry's root.
  std::function<int64_t(const Instruction*, const std::vector<int64_t>&, size_t, int)> last_use =
      [&](const Instruction* i, const std::vector<int64_t>& index, size_t k, int depth) -> int64_t {
    int64_t end = pos.count(i) ? pos[i] : 0;
    if (i == entry->root()) return n;
    if (depth > 64) return n;
    for (const Instruction* u : i->users()) {
      auto up = pos.find(u);
      if (up == pos.end()) continue;
      if (u->opcode() == Opcode::kGetTupleElement && k < index.size()) {
        if (u->tuple_index() != index[k]) continue;
        end = std::max(end, last_use(u, index, k + 1, depth + 1));
      } else if (Aliases(u->opcode())) {
        end = std::max(end, std::max(up->second, last_use(u, index, u->opcode() == Opcode::kTuple ? index.size() : k,
                                                          depth + 1)));
      } else {
        end = std::max(end, up->second);
      }
    }
    return end;
  };

  for (AssignedBuffer& b : ba->buffers) {
    auto it = by_name.find(b.instruction);
    if (it == by_name.end()) {  // not in the module: the whole program, as before
      b.start = 0;
      b.end = n;
      continue;
    }
    const Instruction* def = it->second;
    b.instruction_id = def->id();
    if (def->parent() != entry) {
      auto c = at_caller.find(def->parent());
      b.start = b.end = c == at_caller.end() ? 0 : c->second;
      continue;
    }
    if (def->opcode() == Opcode::kParameter || def->opcode() == Opcode::kConstant) {
      // The entry's parameters and constants belong to the caller: live
      // from the start to past the end, as in XLA's HloLiveRange.
      b.start = 0;
      b.end = n;
      continue;
    }
    b.start = pos[def];
    b.end = std::max(b.start, last_use(def, b.index, 0, 0));
  }
  // Positions 0..n: n is "after the program", where live-out values end
  // (XLA's HloLiveRange convention).
  SummarizeXlaAssignment(n + 1, ba);
  return Status::Ok();
}

}  // namespace hloscope::report
