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
      if (!k.strategy.empty()) e.what += ": " + k.strategy;
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
    // What the attributes mean once XLA's group mode is applied: the devices
    // (flattened ids) that exchange data, or who sends to whom.
    if (c.device_groups.size() > 0 && c.participants > 1) {
      std::string groups;
      for (size_t g = 0; g < c.device_groups.size() && g < 4; ++g) {
        groups += g ? " " : "";
        groups += "{";
        for (size_t k = 0; k < c.device_groups[g].size() && k < 16; ++k)
          groups += (k ? "," : "") + std::to_string(c.device_groups[g][k]);
        groups += c.device_groups[g].size() > 16 ? ",…}" : "}";
      }
      if (c.device_groups.size() > 4) groups += " … (" + std::to_string(c.device_groups.size()) + " groups)";
      e.what += "; devices " + groups;
    }
    if (!c.permute_sources.empty()) {
      std::string sends;
      int shown = 0;
      for (size_t d = 0; d < c.permute_sources.size(); ++d) {
        if (c.permute_sources[d] < 0) continue;
        if (shown++ == 8) {
          sends += " …";
          break;
        }
        sends += (shown > 1 ? " " : "") + std::to_string(c.permute_sources[d]) + "→" + std::to_string(d);
      }
      e.what += "; devices " + (sends.empty() ? std::string("none send") : sends);
    }
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

KernelResourceText DescribeResources(const codegen::CodegenResult& cg, const PlanEntry& e, const DeviceSpec& device,
                                     const std::vector<const runtime::KernelThunk*>* thunks) {
  KernelResourceText out;
  if (e.kind != PlanEntry::Kind::kKernel || e.kernel < 0 || static_cast<size_t>(e.kernel) >= cg.kernels.size())
    return out;
  const codegen::KernelCode& code = cg.CodeOf(static_cast<size_t>(e.kernel));
  if (code.sass.empty()) {
    out.sass_error = code.sass_error;
    return out;
  }
  std::vector<const runtime::KernelThunk*> own;
  if (!thunks) {
    own = runtime::AllKernels(cg.plan);
    thunks = &own;
  }
  if (static_cast<size_t>(e.kernel) >= thunks->size()) return out;
  const runtime::KernelThunk& t = *(*thunks)[static_cast<size_t>(e.kernel)];
  const codegen::KernelResources& r = code.resources;
  auto bytes = [](int64_t b) { return std::to_string(b) + " B"; };
  out.registers = r.registers;
  out.spill_bytes = r.spill_stores + r.spill_loads;
  out.resources = Plural(static_cast<size_t>(r.registers), "register", "registers") + ", ";
  out.resources += out.spill_bytes == 0 ? std::string("no spills")
                                        : "spills " + bytes(r.spill_stores) + " stored / " + bytes(r.spill_loads) +
                                              " loaded";
  const int64_t dynamic_shared = t.dims.shared_bytes;
  if (r.shared_bytes + dynamic_shared == 0)
    out.resources += ", no shared memory";
  else if (dynamic_shared == 0)
    out.resources += ", " + bytes(r.shared_bytes) + " shared memory";
  else
    out.resources += ", shared memory static " + bytes(r.shared_bytes) + " + dynamic " + bytes(dynamic_shared);
  if (r.stack_bytes) out.resources += ", " + bytes(r.stack_bytes) + " stack";
  out.resources += ", " + Plural(static_cast<size_t>(r.barriers), "barrier", "barriers");
  if (r.constant_bytes > 0) out.resources += ", constant bank 0 " + bytes(r.constant_bytes);
  const int64_t threads = int64_t{t.dims.block[0]} * t.dims.block[1] * t.dims.block[2];
  const codegen::Occupancy o = codegen::ComputeOccupancy(r, threads, dynamic_shared, device);
  out.active_warps = o.active_warps_per_sm;
  out.max_warps = o.max_warps_per_sm;
  out.limited_by = o.limited_by;
  out.occupancy = std::to_string(o.active_warps_per_sm) + " of " + std::to_string(o.max_warps_per_sm) +
                  " warps per SM (" + Plural(static_cast<size_t>(o.blocks_per_sm), "block", "blocks") + " of " +
                  std::to_string(threads) + " threads) on " + (device.name.empty() ? device.id : device.name) +
                  (o.active_warps_per_sm == o.max_warps_per_sm ? std::string(" — full occupancy") : " — limited by " +
                  (o.limited_by == "warps"    ? std::string("the SM's warp slots")
                   : o.limited_by == "blocks" ? std::string("the SM's block slots")
                   : o.limited_by.empty()     ? std::string("nothing")
                                              : o.limited_by));
  const codegen::SassStats& s = code.sass_stats;
  out.sass = std::to_string(s.total) + " instructions: " + std::to_string(s.memory) + " memory, " +
             std::to_string(s.fma_alu) + " FMA/ALU, " + std::to_string(s.tensor) + " tensor, " +
             std::to_string(s.control) + " control, " + std::to_string(s.other) + " other";
  return out;
}

}  // namespace hloscope::report
