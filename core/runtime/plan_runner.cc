#include "core/runtime/plan_runner.h"

#include <algorithm>
#include <cstring>

#include "core/runtime/run_result.h"

namespace hloscope::runtime {

Status PlanExecutor::Collective(const CollectiveThunk& c) { return RunCollectiveOnOneDevice(c, *this); }

Status RunCollectiveOnOneDevice(const CollectiveThunk& c, PlanExecutor& exec) {
  if (c.participants != 1)
    return Error(c.op + " '" + c.instruction + "' needs " + std::to_string(c.participants) + " devices");
  for (size_t l = 0; l < c.results.size(); ++l) {
    const Slice& dst = c.results[l];
    const bool id = c.op == "partition-id" || c.op == "replica-id";
    const bool receives = c.source_target_pairs.empty() || c.source_target_pairs.find("{0,0}") != std::string::npos;
    if (!id && receives && l < c.operands.size() && c.operands[l].size == dst.size) {
      if (c.operands[l].allocation != dst.allocation || c.operands[l].offset != dst.offset)
        RETURN_IF_ERROR(exec.Copy(CopyThunk{c.instruction, c.operands[l], dst}));
    } else if (dst.size % 4 == 0) {
      RETURN_IF_ERROR(exec.Memset(MemsetThunk{c.instruction, dst, 0}));
    } else {
      return Error(c.op + " '" + c.instruction + "': result " + std::to_string(l) + " has no operand to take");
    }
  }
  return Status::Ok();
}

Status RunThunks(const ThunkSequence& seq, PlanExecutor& exec, const RunLimits& limits) {
  for (const Thunk& t : seq) {
    if (auto* k = std::get_if<KernelThunk>(&t.v)) {
      RETURN_IF_ERROR(exec.Launch(*k));
    } else if (auto* c = std::get_if<CopyThunk>(&t.v)) {
      RETURN_IF_ERROR(exec.Copy(*c));
    } else if (auto* m = std::get_if<MemsetThunk>(&t.v)) {
      RETURN_IF_ERROR(exec.Memset(*m));
    } else if (auto* cc = std::get_if<CollectiveThunk>(&t.v)) {
      RETURN_IF_ERROR(exec.Collective(*cc));
    } else if (auto* h = std::get_if<HostTransferThunk>(&t.v)) {
      if (h->MovesData()) return Error(h->op + " '" + h->instruction + "' exchanges data with the host, and nothing here feeds it");
    } else if (auto* x = std::get_if<CustomCallThunk>(&t.v)) {
      return Error("custom-call '" + x->instruction + "' calls the external target '" + x->target +
                   "', which this runtime does not provide");
    } else if (auto* w = std::get_if<WhileThunk>(&t.v)) {
      for (int64_t it = 0;; ++it) {
        if (it > limits.max_while_iterations)
          return Error("while '" + w->instruction + "': more than " + std::to_string(limits.max_while_iterations) +
                       " iterations");
        RETURN_IF_ERROR(RunThunks(w->condition, exec, limits));
        std::vector<uint8_t> pred;
        RETURN_IF_ERROR(exec.Read(w->pred, &pred));
        if (pred.empty() || pred[0] == 0) break;
        RETURN_IF_ERROR(RunThunks(w->body, exec, limits));
      }
    } else if (auto* c = std::get_if<ConditionalThunk>(&t.v)) {
      std::vector<uint8_t> idx;
      RETURN_IF_ERROR(exec.Read(c->index, &idx));
      int64_t n = static_cast<int64_t>(c->branches.size());
      int64_t b;
      if (c->index_is_pred) {
        b = (!idx.empty() && idx[0] != 0) ? 0 : 1;
      } else {
        int32_t v = 0;
        if (idx.size() >= 4) std::memcpy(&v, idx.data(), 4);
        b = (v < 0 || v >= n) ? n - 1 : v;
      }
      if (b >= n) b = n - 1;
      if (b >= 0) RETURN_IF_ERROR(RunThunks(c->branches[b], exec, limits));
    }
  }
  return Status::Ok();
}

double KernelTiming::MedianUs() const {
  if (us.empty()) return 0;
  std::vector<double> v = us;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double KernelTiming::TotalUs() const {
  double t = 0;
  for (double x : us) t += x;
  return t;
}

}  // namespace hloscope::runtime
