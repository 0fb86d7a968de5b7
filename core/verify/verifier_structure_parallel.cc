// CheckStructure on several threads, for large modules. It only answers
// "everything holds": the first thing found wrong stops it, and the serial
// walk (verifier_structure.cc) then runs and words every message, so the
// output never depends on the thread count. The checks are the serial
// walk's: each instruction's own (parent, edges, ids in topological order,
// the fused-computation rule) on runs of the module-order list that threads
// take in turn; then unique names, in partitions by hash so that both
// copies of a duplicate meet in one table, alongside parameters, cycles
// (only where ids are not topological) and calls.
// Users are checked against operands through sums of edge hashes (below).
#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

#include "core/ir/flat_name_map.h"
#include "core/verify/verifier_internal.h"

namespace hloscope::verify {
namespace {

// Runs work(t) for t in [0, threads) on that many threads (0 on this one).
template <typename F>
void OnThreads(int threads, F work) {
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work, t);
    } catch (const std::system_error&) {
      for (int u = t; u < threads; ++u) work(u);  // no thread: do its share here
      break;
    }
  }
  work(0);
  for (std::thread& th : pool) th.join();
}

// Instructions of one partition keyed by (computation, name); a repeat is a
// duplicate name.
class NameSet {
 public:
  explicit NameSet(size_t expected) {
    size_t n = 16;
    while (n < expected * 2) n *= 2;
    slots_.assign(n, Slot{});
  }
  // False when an instruction of the same computation already has the name.
  bool Insert(uint64_t hash, const Instruction* i) {
    if (++size_ * 2 > slots_.size()) Grow();  // a share larger than expected
    const size_t mask = slots_.size() - 1;
    for (size_t k = (hash >> 8) & mask;; k = (k + 1) & mask) {
      Slot& s = slots_[k];
      if (!s.instr) {
        s = {hash, i};
        return true;
      }
      if (s.hash == hash && s.instr->parent() == i->parent() && s.instr->name() == i->name()) return false;
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    const Instruction* instr = nullptr;
  };
  std::vector<Slot> slots_;
  size_t size_ = 0;

  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.instr) continue;
      size_t k = (s.hash >> 8) & mask;
      while (slots_[k].instr) k = (k + 1) & mask;
      slots_[k] = s;
    }
  }
};

// Users mirror operands: the serial walk looks every user up among its
// operands, a read of another instruction per edge (most of this check's
// time on a large module). Here each side of every edge is hashed where it
// is read anyway: (operand, user) for each distinct operand of an
// instruction, (instruction, user) for each entry of its user list. Equal
// sums and counts say the two edge sets agree (short of a collision of
// 64-bit sums: about 2^-64 for a broken module); anything else (even what the
// serial walk accepts, like a user listed twice) sends the module to the
// serial walk, which decides and words the messages.
struct EdgeSums {
  uint64_t operand_side = 0, user_side = 0;
  size_t operand_edges = 0, user_edges = 0;
};

inline uint64_t EdgeHash(const Instruction* from, const Instruction* to) {
  uint64_t x = reinterpret_cast<uintptr_t>(from) ^ (reinterpret_cast<uintptr_t>(to) * 0x9E3779B97F4A7C15ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 32);
}

// The serial walk's CheckEdges for `i`, with users checked through `sums`
// (control edges, rare, take CheckEdges itself). Returns whether every
// operand is in `c` with a smaller id; sets `failed` on a broken edge.
bool CheckEdgesHashed(const Computation& c, const Instruction& i, EdgeSums& sums,
                      std::vector<const Instruction*>& distinct, OperandLookup& lookup, Errors& errors,
                      bool* failed) {
  bool topological = true;
  const auto& ops = i.operands();
  if (!i.control_predecessors().empty() || !i.control_successors().empty()) {
    topological = CheckEdges(c, i, lookup, errors);
    if (!errors.empty()) *failed = true;
  } else {
    for (const Instruction* o : ops) {
      if (!o || o->parent() != &c) {
        *failed = true;
        return false;
      }
      if (o->id() >= i.id()) topological = false;
    }
  }
  for (const Instruction* o : ops)
    if (!o) return false;  // reported by CheckEdges above
  // Distinct operands (a repeated operand has one user entry).
  if (ops.size() <= 16) {
    for (size_t j = 0; j < ops.size(); ++j) {
      if (std::find(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(j), ops[j]) != ops.begin() + static_cast<std::ptrdiff_t>(j))
        continue;
      sums.operand_side += EdgeHash(ops[j], &i);
      ++sums.operand_edges;
    }
  } else {
    distinct.assign(ops.begin(), ops.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (const Instruction* o : distinct) sums.operand_side += EdgeHash(o, &i);
    sums.operand_edges += distinct.size();
  }
  for (const Instruction* u : i.users()) {
    if (!u) {
      *failed = true;
      return false;
    }
    sums.user_side += EdgeHash(&i, u);
  }
  sums.user_edges += i.users().size();
  return topological;
}

// Parameters (as many as each table holds: each one was found in its table
// at its number), cycles where ids alone do not rule them out, and calls
// from the callers in module order.
bool ParamsCyclesAndCalls(const Module& m, const std::vector<std::vector<CallWalk::Call>>& run_calls,
                          const std::vector<std::vector<size_t>>& run_call_comps,
                          const std::vector<std::atomic<int>>& params,
                          const std::vector<std::atomic<bool>>& cyclic_check) {
  Errors scratch(m, 1);
  const auto& comps = m.computations();
  for (size_t ci = 0; ci < comps.size(); ++ci) {
    const Computation& c = *comps[ci];
    if (params[ci].load() != c.num_parameters()) return false;
    if (cyclic_check[ci].load()) {
      CheckAcyclic(c, scratch);
      if (!scratch.empty()) return false;
    }
  }
  CallWalk walk;
  std::vector<size_t> comp_of;  // computation index of each call
  for (size_t r = 0; r < run_calls.size(); ++r) {
    walk.calls.insert(walk.calls.end(), run_calls[r].begin(), run_calls[r].end());
    comp_of.insert(comp_of.end(), run_call_comps[r].begin(), run_call_comps[r].end());
  }
  walk.calls_begin.reserve(comps.size() + 1);
  size_t call = 0;
  for (size_t ci = 0; ci < comps.size(); ++ci) {  // calls come grouped by computation, in module order
    walk.calls_begin.push_back(call);
    while (call < comp_of.size() && comp_of[call] == ci) ++call;
  }
  walk.calls_begin.push_back(walk.calls.size());
  CheckCalls(m, walk, scratch);
  return scratch.empty();
}

}  // namespace

bool CheckStructureParallel(const Module& m, std::vector<const Instruction*>& order, int threads) {
  Errors scratch(m, 1);
  if (!CheckModuleHeader(m, scratch) || !scratch.empty()) return false;
  // The module-order list and where each computation starts in it.
  const auto& comps = m.computations();
  std::vector<size_t> begin;
  begin.reserve(comps.size() + 1);
  order.reserve(static_cast<size_t>(m.instruction_count()));
  for (const auto& c : comps) {
    if (!CheckComputationHeader(m, *c, scratch) || !scratch.empty()) return false;
    begin.push_back(order.size());
    for (const auto& i : c->instructions()) order.push_back(i.get());
  }
  begin.push_back(order.size());
  const size_t n = order.size();

  // Per instruction, in runs: parent, edges, ids, fused rule, the name's hash.
  constexpr size_t kRun = 1024;
  const size_t runs = (n + kRun - 1) / kRun;
  std::vector<uint64_t> hashes(n);
  std::vector<std::atomic<bool>> cyclic_check(comps.size());  // ids not topological here
  std::vector<std::vector<CallWalk::Call>> run_calls(runs);
  std::vector<std::vector<size_t>> run_call_comps(runs);  // computation index of each
  std::vector<std::atomic<int>> params(comps.size());
  std::atomic<bool> failed{false};
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> operand_side{0}, user_side{0};
  std::atomic<size_t> operand_edges{0}, user_edges{0};
  OnThreads(threads, [&](int) {
    Errors errors(m, 1);
    OperandLookup lookup;
    EdgeSums sums;
    std::vector<const Instruction*> distinct;
    bool broken = false;
    for (size_t r; !failed.load(std::memory_order_relaxed) && (r = next.fetch_add(1)) < runs;) {
      const size_t from = r * kRun, to = std::min(n, from + kRun);
      // The computation holding `from`.
      size_t ci = static_cast<size_t>(std::upper_bound(begin.begin(), begin.end(), from) - begin.begin()) - 1;
      int param_count = 0;
      for (size_t k = from; k < to; ++k) {
        while (k >= begin[ci + 1]) {
          params[ci].fetch_add(param_count, std::memory_order_relaxed);
          param_count = 0;
          ++ci;
        }
        const Computation& c = *comps[ci];
        const Instruction& i = *order[k];
        if (i.parent() != &c) failed.store(true);
        bool topological = CheckEdgesHashed(c, i, sums, distinct, lookup, errors, &broken);
        if (broken) failed.store(true);
        if (k > begin[ci] && order[k - 1]->id() >= i.id()) topological = false;
        if (!topological) cyclic_check[ci].store(true, std::memory_order_relaxed);
        if (c.fusion_instruction && FusedRuleBroken(c, i)) failed.store(true);
        if (i.opcode() == Opcode::kParameter) {
          // In the table at its number (with the count below: the table
          // holds exactly the parameters, numbered densely).
          const int64_t num = i.parameter_number();
          if (num < 0 || num >= c.num_parameters() || c.parameter(static_cast<int>(num)) != &i) failed.store(true);
          ++param_count;
        }
        if (!i.called_refs().empty()) {
          CallWalk::CallsOf(i, run_calls[r]);
          run_call_comps[r].resize(run_calls[r].size(), ci);
        }
        hashes[k] = (HashName(i.name()) ^ (ci * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
      }
      params[ci].fetch_add(param_count, std::memory_order_relaxed);
      if (!errors.empty()) failed.store(true);
    }
    operand_side.fetch_add(sums.operand_side);
    user_side.fetch_add(sums.user_side);
    operand_edges.fetch_add(sums.operand_edges);
    user_edges.fetch_add(sums.user_edges);
  });
  if (failed.load()) return false;
  if (operand_side.load() != user_side.load() || operand_edges.load() != user_edges.load()) return false;

  // Unique names, in partitions by the hash's top bits (both copies of a
  // duplicate meet in one table), and, as one more job taken first, the
  // parameters, cycles and calls: threads take jobs in turn.
  constexpr int kPartitions = 8;
  std::atomic<bool> duplicate{false}, calls_ok{false};
  std::atomic<int> next_job{0};
  OnThreads(threads, [&](int) {
    for (int job; (job = next_job.fetch_add(1)) <= kPartitions;) {
      if (job == 0) {
        calls_ok.store(ParamsCyclesAndCalls(m, run_calls, run_call_comps, params, cyclic_check));
        continue;
      }
      const uint64_t part = static_cast<uint64_t>(job - 1);
      NameSet set(n / kPartitions + 16);
      for (size_t k = 0; k < n && !duplicate.load(std::memory_order_relaxed); ++k) {
        if ((hashes[k] >> 40) % kPartitions != part) continue;
        if (!set.Insert(hashes[k] | 1, order[k])) duplicate.store(true);
      }
    }
  });
  return !duplicate.load() && calls_ok.load();
}

}  // namespace hloscope::verify
