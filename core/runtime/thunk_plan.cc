#include "core/runtime/thunk_plan.h"

#include <set>

namespace hloscope::runtime {
namespace {

template <typename T>
void Collect(const ThunkSequence& seq, std::vector<const T*>& out) {
  for (const Thunk& t : seq) {
    if (auto* k = std::get_if<T>(&t.v)) {
      out.push_back(k);
    } else if (auto* w = std::get_if<WhileThunk>(&t.v)) {
      Collect(w->condition, out);
      Collect(w->body, out);
    } else if (auto* c = std::get_if<ConditionalThunk>(&t.v)) {
      for (const ThunkSequence& b : c->branches) Collect(b, out);
    }
  }
}

}  // namespace

std::vector<const KernelThunk*> MissingKernels(const ThunkPlan& plan) {
  std::vector<const KernelThunk*> out;
  for (const KernelThunk* k : AllKernels(plan))
    if (!k->missing.empty()) out.push_back(k);
  return out;
}

std::vector<const CollectiveThunk*> AllCollectives(const ThunkPlan& plan) {
  std::vector<const CollectiveThunk*> out;
  Collect(plan.thunks, out);
  return out;
}

std::vector<const HostTransferThunk*> AllHostTransfers(const ThunkPlan& plan) {
  std::vector<const HostTransferThunk*> out;
  Collect(plan.thunks, out);
  return out;
}

std::vector<const CustomCallThunk*> AllCustomCalls(const ThunkPlan& plan) {
  std::vector<const CustomCallThunk*> out;
  Collect(plan.thunks, out);
  return out;
}

std::vector<const KernelThunk*> AllKernels(const ThunkPlan& plan) {
  std::vector<const KernelThunk*> out;
  Collect(plan.thunks, out);
  return out;
}

std::vector<const KernelThunk*> DistinctKernels(const ThunkPlan& plan) {
  std::vector<const KernelThunk*> out;
  std::set<std::string> seen;
  for (const KernelThunk* k : AllKernels(plan))
    if (k->missing.empty() && seen.insert(KernelFunction(*k)).second) out.push_back(k);
  return out;
}

}  // namespace hloscope::runtime
