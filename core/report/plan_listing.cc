#include "core/report/plan_listing.h"

#include <cstdio>
#include <variant>

namespace hloscope::report {
namespace {

std::string Plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string Launch(const runtime::LaunchDims& d) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "grid %ux%ux%u, block %ux%ux%u", d.grid[0], d.grid[1], d.grid[2], d.block[0],
                d.block[1], d.block[2]);
  return buf;
}

class Lister {
 public:
  explicit Lister(const codegen::CodegenResult& cg) : cg_(cg) {}

  void Walk(const runtime::ThunkSequence& seq) {
    for (const runtime::Thunk& t : seq) std::visit([this](const auto& x) { Add(x); }, t.v);
  }
  std::vector<PlanEntry> Take() { return std::move(out_); }

 private:
  void Add(const runtime::KernelThunk& k) {
    PlanEntry e;
    e.instruction = k.instruction;
    e.name = k.name;
    e.kernel = kernel_ < cg_.kernels.size() ? static_cast<int>(kernel_) : -1;
    ++kernel_;
    if (!k.missing.empty()) {
      e.kind = PlanEntry::Kind::kMissing;
      e.reason = k.missing;
      e.what = MissingText(e);
    } else {
      e.what = (k.kind.empty() ? std::string("kernel") : k.kind + " kernel") + ", " + Launch(k.dims);
      if (runtime::KernelFunction(k) != k.name)
        e.what += " (shares kernel " + runtime::KernelFunction(k) + ")";
    }
    out_.push_back(std::move(e));
  }
  void Add(const runtime::CustomCallThunk& c) {
    PlanEntry e;
    e.kind = PlanEntry::Kind::kCustomCall;
    e.instruction = e.name = c.instruction;
    e.target = c.target;
    e.what = "custom-call into external target \"" + c.target + "\"";
    if (!c.api_version.empty()) e.what += " (" + c.api_version + ")";
    e.what += ": no kernel of ours; a runtime that registers the target runs it";
    out_.push_back(std::move(e));
  }
  void Add(const runtime::CollectiveThunk& c) {
    PlanEntry e;
    e.kind = PlanEntry::Kind::kCollective;
    e.instruction = e.name = c.instruction;
    e.target = c.op;
    e.what = c.op + " over " + Plural(static_cast<size_t>(c.participants), "participant", "participants");
    if (!c.replica_groups.empty()) e.what += ", replica_groups " + c.replica_groups;
    if (!c.source_target_pairs.empty()) e.what += ", pairs " + c.source_target_pairs;
    if (!c.reduction.empty()) e.what += ", to_apply " + c.reduction;
    if (c.channel_id >= 0) e.what += ", channel " + std::to_string(c.channel_id);
    out_.push_back(std::move(e));
  }
  void Add(const runtime::HostTransferThunk& h) {
    PlanEntry e;
    e.kind = PlanEntry::Kind::kHostTransfer;
    e.instruction = e.name = h.instruction;
    e.target = h.op;
    e.what = h.op + (h.MovesData() ? std::string(", moves ") +
                                         Plural(h.operands.size() + h.results.size(), "array", "arrays") +
                                         " to or from the host"
                                   : std::string(", moves no data"));
    if (h.channel_id >= 0) e.what += ", channel " + std::to_string(h.channel_id);
    if (!h.config.empty()) e.what += ", config \"" + h.config + "\"";
    out_.push_back(std::move(e));
  }
  void Add(const runtime::WhileThunk& w) {
    Walk(w.condition);
    Walk(w.body);
  }
  void Add(const runtime::ConditionalThunk& c) {
    for (const runtime::ThunkSequence& b : c.branches) Walk(b);
  }
  void Add(const runtime::CopyThunk&) {}
  void Add(const runtime::MemsetThunk&) {}

  const codegen::CodegenResult& cg_;
  size_t kernel_ = 0;  // AllKernels index = CodegenResult::kernels index
  std::vector<PlanEntry> out_;
};

}  // namespace

const char* PlanEntryKindName(PlanEntry::Kind k) {
  switch (k) {
    case PlanEntry::Kind::kKernel:
      return "kernel";
    case PlanEntry::Kind::kMissing:
      return "missing";
    case PlanEntry::Kind::kCustomCall:
      return "custom-call";
    case PlanEntry::Kind::kCollective:
      return "collective";
    case PlanEntry::Kind::kHostTransfer:
      return "host-transfer";
  }
  return "";
}

std::vector<PlanEntry> ListPlan(const codegen::CodegenResult& cg) {
  Lister l(cg);
  l.Walk(cg.plan.thunks);
  return l.Take();
}

PlanCounts CountPlan(const std::vector<PlanEntry>& entries) {
  PlanCounts c;
  for (const PlanEntry& e : entries) {
    switch (e.kind) {
      case PlanEntry::Kind::kKernel:
        ++c.kernels;
        break;
      case PlanEntry::Kind::kMissing:
        ++c.missing;
        break;
      case PlanEntry::Kind::kCustomCall:
        ++c.custom_calls;
        break;
      case PlanEntry::Kind::kCollective:
        ++c.collectives;
        break;
      case PlanEntry::Kind::kHostTransfer:
        ++c.host_transfers;
        break;
    }
  }
  return c;
}

std::string PlanSummaryLine(const PlanCounts& c) {
  std::string s =
      Plural(c.kernels, "kernel", "kernels") + " generated, " + std::to_string(c.missing) + " missing";
  if (c.custom_calls) s += ", " + Plural(c.custom_calls, "custom-call thunk", "custom-call thunks");
  if (c.collectives) s += ", " + Plural(c.collectives, "collective", "collectives");
  if (c.host_transfers) s += ", " + Plural(c.host_transfers, "host transfer", "host transfers");
  return s;
}

std::string MissingText(const PlanEntry& e) {
  std::string why = e.reason;
  const std::string prefix = "%" + e.instruction + ": ";
  if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
  return "missing — " + why;
}

}  // namespace hloscope::report
