// Structural checks: the module has an entry; computation names are unique;
// every computation has a root of its own and dense parameter numbers;
// instruction names are unique within their computation; operands, users and
// control edges stay inside the computation and agree with each other; the
// dependency graph (operands plus control predecessors) has no cycle; called
// computations belong to the module and never call back into their callers.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/flat_name_map.h"
#include "core/verify/verifier_internal.h"

namespace hloscope::verify {
namespace {

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string LocText(SourceLoc l) {
  return l.line > 0 ? " at " + std::to_string(l.line) + ":" + std::to_string(l.col) : std::string();
}

// `params` are the computation's parameter instructions in list order;
// `by_number` is scratch reused across computations.
void CheckParameters(const Computation& c, const std::vector<const Instruction*>& params,
                     std::vector<const Instruction*>& by_number, Errors& errors) {
  const int64_t n = static_cast<int64_t>(params.size());
  by_number.assign(static_cast<size_t>(n), nullptr);
  bool dense = true;
  for (const Instruction* p : params) {
    int64_t k = p->parameter_number();
    if (k < 0 || k >= n) {
      errors.Add(*p, "parameter number " + std::to_string(k) + " is out of range: computation " +
                         Quote(c.name()) + " has " + std::to_string(n) + " parameter(s), numbered 0.." +
                         std::to_string(n - 1));
      dense = false;
    } else if (by_number[k]) {
      errors.Add(*p, "parameter number " + std::to_string(k) + " is already used by " +
                         Quote(by_number[k]->name()) + LocText(by_number[k]->loc()));
      dense = false;
    } else {
      by_number[k] = p;
    }
  }
  if (!dense) return;
  bool table_ok = c.num_parameters() == n;
  for (int64_t k = 0; table_ok && k < n; ++k) table_ok = c.parameter(static_cast<int>(k)) == by_number[k];
  if (!table_ok)
    errors.Add(c,
               "the computation's parameter table does not match its parameter instructions "
               "(a pass added or removed parameters without Computation::RebuildParameters)");
}

}  // namespace

// Checks the edges of `instr` and returns whether every operand and control
// predecessor is present, in `c` and has a smaller id than `instr` (the
// per-instruction part of IdsAreTopological, computed in the same walk).
bool OperandLookup::Has(const Instruction& u, const Instruction* x) {
  const auto& ops = u.operands();
  if (ops.size() <= 32) return std::find(ops.begin(), ops.end(), x) != ops.end();
  auto [it, inserted] = sorted_.try_emplace(&u);
  if (inserted) {
    it->second.assign(ops.begin(), ops.end());
    std::sort(it->second.begin(), it->second.end());
  }
  return std::binary_search(it->second.begin(), it->second.end(), x);
}

bool CheckEdges(const Computation& c, const Instruction& instr, OperandLookup& lookup, Errors& errors) {
  const int64_t id = instr.id();
  bool topological = true;
  for (int i = 0; i < instr.operand_count(); ++i) {
    const Instruction* o = instr.operand(i);
    if (!o) {
      errors.Add(instr, "operand " + std::to_string(i) + " is missing");
      topological = false;
      continue;
    }
    if (o->parent() != &c) {
      topological = false;
      errors.Add(instr, "operand " + std::to_string(i) + " (" + Quote(o->name()) +
                            ") belongs to computation " +
                            Quote(o->parent() ? o->parent()->name() : "<none>") + ", not " + Quote(c.name()));
    } else if (o->id() >= id) {
      topological = false;
    }
  }
  for (const Instruction* u : instr.users()) {
    if (!u || !lookup.Has(*u, &instr)) {
      errors.Add(instr, "lists " + (u ? Quote(u->name()) : std::string("a missing instruction")) +
                            " as a user, but it is not among that instruction's operands");
    }
  }
  for (const Instruction* p : instr.control_predecessors()) {
    if (!p) {
      errors.Add(instr, "has a missing control predecessor");
      topological = false;
      continue;
    }
    if (p->parent() != &c) {
      topological = false;
      errors.Add(instr, "control predecessor " + Quote(p->name()) + " belongs to another computation (" +
                            Quote(p->parent() ? p->parent()->name() : "<none>") + ")");
    } else if (p->id() >= id) {
      topological = false;
    }
    bool mirrored = false;
    for (const Instruction* s : p->control_successors()) mirrored = mirrored || s == &instr;
    if (!mirrored)
      errors.Add(instr,
                 "has control predecessor " + Quote(p->name()) + " which does not list it as a successor");
  }
  return topological;
}

// Depth-first search over operands and control predecessors; reports the
// first cycle found. Only run when the walk in CheckComputation found the
// list order not to be a topological order by ids (ids strictly increase
// along the list, as the parser assigns them, and every operand and control
// predecessor has a smaller id than its user): then there is no cycle.
void CheckAcyclic(const Computation& c, Errors& errors) {
  std::unordered_map<const Instruction*, char> state;  // 1 = on the stack, 2 = done
  state.reserve(c.instructions().size() * 2);
  struct Frame {
    const Instruction* node;
    size_t next;
  };
  std::vector<Frame> stack;
  auto dep = [](const Instruction* n, size_t k) -> const Instruction* {
    size_t ops = n->operands().size();
    return k < ops ? n->operands()[k] : n->control_predecessors()[k - ops];
  };
  for (const auto& root : c.instructions()) {
    if (state[root.get()]) continue;
    stack.push_back({root.get(), 0});
    state[root.get()] = 1;
    while (!stack.empty()) {
      Frame& f = stack.back();
      size_t total = f.node->operands().size() + f.node->control_predecessors().size();
      if (f.next == total) {
        state[f.node] = 2;
        stack.pop_back();
        continue;
      }
      const Instruction* d = dep(f.node, f.next++);
      if (!d || d->parent() != &c) continue;
      char& st = state[d];
      if (st == 0) {
        st = 1;
        stack.push_back({d, 0});
      } else if (st == 1) {
        std::string path;
        size_t from = 0;
        while (stack[from].node != d) ++from;
        for (size_t k = from; k < stack.size(); ++k) path += stack[k].node->name() + " -> ";
        path += d->name();
        errors.Add(
            *d, "is part of a cycle: " + path + " (each arrow points to an operand or control predecessor)");
        return;
      }
    }
  }
}

namespace {

// XLA's CheckFusionInstruction: inside a fused computation every non-root
// instruction is used (or has a side effect) and the root has no users.
void CheckFusedComputation(const Computation& c, Errors& errors) {
  for (const auto& i : c.instructions()) {
    if (i.get() == c.root()) {
      if (i->user_count() != 0)
        errors.Add(*i, "the root of fused computation " + Quote(c.name()) + " cannot have users");
    } else if (i->user_count() == 0 && !i->HasSideEffect()) {
      errors.Add(*i, "is unused, but every non-root instruction of fused computation " + Quote(c.name()) +
                         " must have users");
    }
  }
}

// Scratch reused across computations and the facts the per-computation walk
// gathers for the module-wide checks, so that each instruction is visited
// once by the structural checks.
struct Walk : CallWalk {
  std::vector<const Instruction*> params;     // parameters of the current computation
  std::vector<const Instruction*> by_number;  // CheckParameters' table
  std::vector<const Instruction*>* order = nullptr;  // every instruction, in module order
  OperandLookup lookup;
  FlatNameMap<const Instruction*> names;  // of the current computation
};

}  // namespace

bool FusedRuleBroken(const Computation& c, const Instruction& i) {
  if (&i == c.root()) return i.user_count() != 0;
  return i.user_count() == 0 && !i.HasSideEffect();
}

bool CheckComputationHeader(const Module& m, const Computation& c, Errors& errors) {
  if (c.parent() != &m) errors.Add(c, "does not point back to its module");
  if (c.instructions().empty()) {
    errors.Add(c, "has no instructions");
    return false;
  }
  if (!c.root())
    errors.Add(c, "has no root instruction");
  else if (c.root()->parent() != &c)
    errors.Add(c, "has root " + Quote(c.root()->name()) + " which belongs to another computation");
  return true;
}

namespace {

void CheckComputation(const Module& m, const Computation& c, Walk& walk, Errors& errors) {
  if (!CheckComputationHeader(m, c, errors)) return;
  FlatNameMap<const Instruction*>& names = walk.names;
  names.clear();
  names.reserve(c.instructions().size());
  walk.params.clear();
  const bool fused = c.fusion_instruction != nullptr;
  bool fused_broken = false;
  bool topological = true;
  int64_t prev_id = -1;
  for (const auto& owned : c.instructions()) {
    if (errors.full()) return;
    const Instruction& i = *owned;
    walk.order->push_back(&i);
    if (i.parent() != &c) errors.Add(i, "does not point back to its computation " + Quote(c.name()));
    auto [first, inserted] = names.insert(i.name(), &i);
    if (!inserted)
      errors.Add(i, "the name is already used in computation " + Quote(c.name()) + LocText((*first)->loc()));
    if (!CheckEdges(c, i, walk.lookup, errors) || i.id() <= prev_id) topological = false;
    prev_id = i.id();
    if (i.opcode() == Opcode::kParameter) walk.params.push_back(&i);
    if (!i.called_refs().empty()) CallWalk::CallsOf(i, walk.calls);
    if (fused && !fused_broken) fused_broken = FusedRuleBroken(c, i);
  }
  CheckParameters(c, walk.params, walk.by_number, errors);
  if (fused_broken) CheckFusedComputation(c, errors);
  if (!topological) CheckAcyclic(c, errors);
}

}  // namespace

void CheckCalls(const Module& m, const CallWalk& walk, Errors& errors) {
  // Position in the module of each computation: a sorted table (a module
  // may hold thousands of small reducers; no node per entry).
  std::vector<std::pair<const Computation*, size_t>> table;
  table.reserve(m.computations().size());
  for (const auto& c : m.computations()) table.emplace_back(c.get(), table.size());
  std::sort(table.begin(), table.end());
  auto find = [&](const Computation* c) -> const size_t* {
    auto it = std::lower_bound(table.begin(), table.end(), std::make_pair(c, size_t{0}));
    return it != table.end() && it->first == c ? &it->second : nullptr;
  };
  bool ok = true;
  for (const CallWalk::Call& call : walk.calls)
    if (!call.callee || !find(call.callee)) {
      errors.Add(*call.caller, call.ref->attr + "= names a computation that is not in the module");
      ok = false;
    }
  if (!ok) return;
  std::vector<char> state(m.computations().size(), 0);
  std::vector<const Computation*> path;
  // Recursive over the call depth, which is small in practice.
  auto visit = [&](auto&& self, const Computation* c) -> bool {
    const size_t k = *find(c);
    state[k] = 1;
    path.push_back(c);
    for (size_t n = walk.calls_begin[k]; n < walk.calls_begin[k + 1]; ++n) {
      const Computation* callee = walk.calls[n].callee;
      char st = state[*find(callee)];
      if (st == 1) {
        std::string cycle;
        size_t from = 0;
        while (path[from] != callee) ++from;
        for (size_t j = from; j < path.size(); ++j) cycle += path[j]->name() + " -> ";
        errors.Add(*walk.calls[n].caller, "calls " + Quote(callee->name()) + ", which is already being called: " +
                                              cycle + callee->name() + " (computations cannot recurse)");
        return false;
      }
      if (st == 0 && !self(self, callee)) return false;
    }
    path.pop_back();
    state[k] = 2;
    return true;
  };
  for (const auto& c : m.computations())
    if (!state[*find(c.get())] && !visit(visit, c.get())) return;
}

bool CheckModuleHeader(const Module& m, Errors& errors) {
  if (!m.entry()) {
    errors.AddModule("the module has no entry computation");
    return false;
  }
  bool entry_found = false;
  FlatNameMap<const Computation*> names(m.computations().size());
  for (const auto& c : m.computations()) {
    if (!c) {
      errors.AddModule("the module holds a missing computation");
      return false;
    }
    entry_found = entry_found || c.get() == m.entry();
    auto [first, inserted] = names.insert(c->name(), c.get());
    if (!inserted)
      errors.Add(*c, "the name is already used by another computation" + LocText((*first)->loc()));
  }
  if (!entry_found)
    errors.AddModule("the entry computation " + Quote(m.entry()->name()) + " is not in the module");
  if (m.entry()->fusion_instruction)
    errors.Add(*m.entry(), "the entry computation cannot be a fused computation");
  return true;
}

void CheckStructure(const Module& m, Errors& errors, std::vector<const Instruction*>& order, int threads) {
  order.clear();
  if (threads > 1) {
    if (CheckStructureParallel(m, order, threads)) return;
    order.clear();  // something is wrong: the serial walk finds and words it
  }
  if (!CheckModuleHeader(m, errors)) return;
  Walk walk;
  walk.order = &order;
  order.reserve(static_cast<size_t>(m.instruction_count()));
  walk.calls_begin.reserve(m.computations().size() + 1);
  for (const auto& c : m.computations()) {
    if (errors.full()) return;
    walk.calls_begin.push_back(walk.calls.size());
    CheckComputation(m, *c, walk, errors);
  }
  walk.calls_begin.push_back(walk.calls.size());
  if (errors.empty()) CheckCalls(m, walk, errors);
}

}  // namespace hloscope::verify
