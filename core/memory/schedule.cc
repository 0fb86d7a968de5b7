#include "core/memory/schedule.h"

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace hloscope {

int64_t DefinedBytes(const Instruction& i) {
  switch (i.opcode()) {
    case Opcode::kBitcast: case Opcode::kTuple: case Opcode::kGetTupleElement:
    case Opcode::kParameter: case Opcode::kConstant:
      return 0;
    default:
      return i.shape().byte_size();
  }
}

namespace {

// Iterative post-order from `roots`; `order_operands` may reorder the
// dependencies visited first.
template <typename OrderFn>
Sequence PostOrder(const Computation& c, OrderFn order_operands) {
  Sequence out;
  out.reserve(c.instructions().size());
  std::unordered_map<const Instruction*, char> state;
  state.reserve(c.instructions().size() * 2);
  std::vector<std::pair<const Instruction*, std::vector<const Instruction*>>> stack;
  auto deps_of = [&](const Instruction* i) {
    std::vector<const Instruction*> d;
    for (const Instruction* o : i->operands())
      if (o->parent() == &c) d.push_back(o);
    for (const Instruction* o : i->control_predecessors())
      if (o->parent() == &c) d.push_back(o);
    order_operands(d);
    std::reverse(d.begin(), d.end());  // popped from the back
    return d;
  };
  auto visit = [&](const Instruction* start) {
    if (state[start]) return;
    state[start] = 1;
    stack.push_back({start, deps_of(start)});
    while (!stack.empty()) {
      auto& [node, deps] = stack.back();
      if (!deps.empty()) {
        const Instruction* d = deps.back();
        deps.pop_back();
        if (!state[d]) {
          state[d] = 1;
          stack.push_back({d, deps_of(d)});
        }
        continue;
      }
      out.push_back(node);
      state[node] = 2;
      stack.pop_back();
    }
  };
  if (c.root()) visit(c.root());
  for (const auto& i : c.instructions()) visit(i.get());
  return out;
}

}  // namespace

Sequence DfsSchedule(const Computation& c) {
  return PostOrder(c, [](std::vector<const Instruction*>&) {});
}

Sequence PostorderBySizeSchedule(const Computation& c) {
  return PostOrder(c, [](std::vector<const Instruction*>& d) {
    std::stable_sort(d.begin(), d.end(), [](const Instruction* a, const Instruction* b) {
      return a->shape().byte_size() > b->shape().byte_size();
    });
  });
}

Sequence TextOrderSchedule(const Computation& c) {
  Sequence out;
  for (const auto& i : c.instructions()) out.push_back(i.get());
  return out;
}

Sequence ListSchedule(const Computation& c) {
  const auto& list = c.instructions();
  std::unordered_map<const Instruction*, int> index;
  std::vector<const Instruction*> instrs;
  for (const auto& i : list) {
    index[i.get()] = static_cast<int>(instrs.size());
    instrs.push_back(i.get());
  }
  const int n = static_cast<int>(instrs.size());
  std::vector<int> pending_deps(n, 0), unscheduled_users(n, 0);
  std::vector<std::vector<int>> succs(n);
  for (int k = 0; k < n; ++k) {
    std::unordered_set<const Instruction*> seen;
    auto add_dep = [&](const Instruction* d) {
      auto it = index.find(d);
      if (it == index.end() || !seen.insert(d).second) return;
      ++pending_deps[k];
      succs[it->second].push_back(k);
    };
    for (const Instruction* o : instrs[k]->operands()) add_dep(o);
    for (const Instruction* o : instrs[k]->control_predecessors()) add_dep(o);
    std::unordered_set<const Instruction*> users(instrs[k]->users().begin(), instrs[k]->users().end());
    unscheduled_users[k] = static_cast<int>(users.size());
  }
  std::vector<int> version(n, 0);
  auto priority = [&](int k) {
    int64_t freed = 0;
    std::unordered_set<const Instruction*> seen;
    for (const Instruction* o : instrs[k]->operands()) {
      auto it = index.find(o);
      if (it == index.end() || !seen.insert(o).second) continue;
      if (unscheduled_users[it->second] == 1) freed += DefinedBytes(*o);
    }
    return freed - DefinedBytes(*instrs[k]);
  };
  // Max-heap on (priority, -input index).
  using Entry = std::tuple<int64_t, int, int, int>;  // priority, -index, index, version
  std::priority_queue<Entry> ready;
  for (int k = 0; k < n; ++k)
    if (pending_deps[k] == 0) ready.push({priority(k), -k, k, version[k]});
  std::vector<char> done(n, 0);
  Sequence out;
  out.reserve(n);
  while (!ready.empty()) {
    auto [p, neg, k, ver] = ready.top();
    ready.pop();
    if (done[k] || ver != version[k]) continue;
    done[k] = 1;
    out.push_back(instrs[k]);
    std::unordered_set<const Instruction*> seen;
    for (const Instruction* o : instrs[k]->operands()) {
      auto it = index.find(o);
      if (it == index.end() || !seen.insert(o).second) continue;
      int oi = it->second;
      if (--unscheduled_users[oi] == 1) {
        // The one remaining user now frees this operand: raise its priority.
        for (const Instruction* u : o->users()) {
          auto ui = index.find(u);
          if (ui == index.end() || done[ui->second] || pending_deps[ui->second] != 0) continue;
          ++version[ui->second];
          ready.push({priority(ui->second), -ui->second, ui->second, version[ui->second]});
        }
      }
    }
    for (int s : succs[k]) {
      if (--pending_deps[s] == 0) ready.push({priority(s), -s, s, version[s]});
    }
  }
  // Anything left is on a cycle (the verifier rejects those); keep text order.
  for (int k = 0; k < n; ++k)
    if (!done[k]) out.push_back(instrs[k]);
  return out;
}

}  // namespace hloscope
