#include "core/memory/schedule.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "core/memory/instruction_index.h"

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

// Iterative post-order from the root, then from every other instruction in
// text order; `order_deps` may reorder the dependencies visited first.
template <typename OrderFn>
Sequence PostOrder(const Computation& c, OrderFn order_deps) {
  const InstructionIndex index(c);
  const int n = index.size();
  Sequence out;
  out.reserve(n);
  std::vector<char> visited(n, 0);
  // Dependencies still to visit live in one pool; each stack frame owns the
  // tail [begin, end) it pushed (popped from the back).
  std::vector<const Instruction*> pool;
  struct Frame {
    const Instruction* node;
    size_t begin;
  };
  std::vector<Frame> stack;
  auto push = [&](const Instruction* i) {
    visited[index.Of(i)] = 1;
    size_t begin = pool.size();
    for (const Instruction* o : i->operands())
      if (index.Of(o) >= 0) pool.push_back(o);
    for (const Instruction* o : i->control_predecessors())
      if (index.Of(o) >= 0) pool.push_back(o);
    order_deps(pool.begin() + static_cast<std::ptrdiff_t>(begin), pool.end());
    std::reverse(pool.begin() + static_cast<std::ptrdiff_t>(begin), pool.end());
    stack.push_back({i, begin});
  };
  auto visit = [&](const Instruction* start) {
    if (visited[index.Of(start)]) return;
    push(start);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (pool.size() > f.begin) {
        const Instruction* d = pool.back();
        pool.pop_back();
        if (!visited[index.Of(d)]) push(d);
        continue;
      }
      out.push_back(f.node);
      stack.pop_back();
    }
  };
  if (c.root() && index.Of(c.root()) >= 0) visit(c.root());
  for (int k = 0; k < n; ++k) visit(index.at(k));
  return out;
}

}  // namespace

Sequence DfsSchedule(const Computation& c) {
  return PostOrder(c, [](auto, auto) {});
}

Sequence PostorderBySizeSchedule(const Computation& c) {
  return PostOrder(c, [](auto begin, auto end) {
    std::stable_sort(begin, end, [](const Instruction* a, const Instruction* b) {
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
  const InstructionIndex index(c);
  const int n = index.size();
  // Distinct in-computation dependencies (operands and control
  // predecessors) and operands of each instruction, as dense indices.
  std::vector<int> dep_begin(n + 1, 0), operand_begin(n + 1, 0);
  std::vector<int> deps, operands;
  std::vector<int> pending_deps(n, 0), unscheduled_users(n, 0);
  std::vector<int64_t> defined(n, 0);
  std::vector<std::vector<int>> succs(n);
  std::vector<int> stamp(n, -1);
  for (int k = 0; k < n; ++k) {
    const Instruction* i = index.at(k);
    defined[k] = DefinedBytes(*i);
    dep_begin[k] = static_cast<int>(deps.size());
    operand_begin[k] = static_cast<int>(operands.size());
    for (const Instruction* o : i->operands()) {
      int d = index.Of(o);
      if (d < 0 || stamp[d] == k) continue;
      stamp[d] = k;
      deps.push_back(d);
      operands.push_back(d);
    }
    for (const Instruction* o : i->control_predecessors()) {
      int d = index.Of(o);
      if (d < 0 || stamp[d] == k) continue;
      stamp[d] = k;
      deps.push_back(d);
    }
    pending_deps[k] = static_cast<int>(deps.size()) - dep_begin[k];
    for (int p = dep_begin[k]; p < static_cast<int>(deps.size()); ++p) succs[deps[p]].push_back(k);
  }
  dep_begin[n] = static_cast<int>(deps.size());
  operand_begin[n] = static_cast<int>(operands.size());
  std::fill(stamp.begin(), stamp.end(), -1);
  for (int k = 0; k < n; ++k) {
    int distinct = 0;
    for (const Instruction* u : index.at(k)->users()) {
      int ui = index.Of(u);
      if (ui >= 0) {
        if (stamp[ui] == k) continue;
        stamp[ui] = k;
      }
      ++distinct;
    }
    unscheduled_users[k] = distinct;
  }
  std::vector<int> version(n, 0);
  auto priority = [&](int k) {
    int64_t freed = 0;
    for (int p = operand_begin[k]; p < operand_begin[k + 1]; ++p)
      if (unscheduled_users[operands[p]] == 1) freed += defined[operands[p]];
    return freed - defined[k];
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
    out.push_back(index.at(k));
    for (int q = operand_begin[k]; q < operand_begin[k + 1]; ++q) {
      int oi = operands[q];
      if (--unscheduled_users[oi] == 1) {
        // The one remaining user now frees this operand: raise its priority.
        for (const Instruction* u : index.at(oi)->users()) {
          int ui = index.Of(u);
          if (ui < 0 || done[ui] || pending_deps[ui] != 0) continue;
          ++version[ui];
          ready.push({priority(ui), -ui, ui, version[ui]});
        }
      }
    }
    for (int s : succs[k]) {
      if (--pending_deps[s] == 0) ready.push({priority(s), -s, s, version[s]});
    }
  }
  // Anything left is on a cycle (the verifier rejects those); keep text order.
  for (int k = 0; k < n; ++k)
    if (!done[k]) out.push_back(index.at(k));
  return out;
}

}  // namespace hloscope
