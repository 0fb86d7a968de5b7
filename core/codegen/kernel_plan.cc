// Builds the ThunkPlan from the optimized module and its buffer assignment
// (see kernel_plan.h). Values of nested computations (while bodies,
// branches, calls) may have buffers of their own in our buffer assignment,
// so the loop state moves between them with device copies: init → body
// parameter before the loop, body root → body parameter after each
// iteration, body parameter → result after it; copies whose source and
// destination coincide are skipped — most of a loop's, since buffer
// assignment gives a while's state, parameters and result one set of
// buffers and writes the body's next state in place where it can
// (core/memory/logical_buffers.cc).
#include "core/codegen/kernel_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/kernel_emitter.h"
#include "core/codegen/kernel_plan_queries.h"
#include "core/cost/cost_model.h"
#include "core/ir/collectives.h"
#include "core/ir/computation.h"
#include "core/ir/custom_calls.h"
#include "core/memory/schedule.h"

namespace hloscope::codegen {
namespace {

using runtime::Slice;
using runtime::Thunk;
using runtime::ThunkSequence;
using plan::ContiguousSliceStartBytes;
using plan::IsBitcastLike;
using plan::Leaf;
using plan::LeavesOf;
using plan::MinorToMajor;
using plan::PhysicalBytes;
using plan::ReadsAtWrittenIndex;
using plan::ReductionKind;
using plan::Sanitize;
using plan::SameSlice;

class Planner {
 public:
  Planner(const Module& m, const BufferAssignment& ba, const NvptxTarget& t, const DeviceSpec& d)
      : module_(m), ba_(ba), target_(t), device_(d) {
    for (const AssignedBuffer& b : ba.buffers) buffers_[{b.instruction_id, b.index}] = &b;
    for (const auto& c : m.computations())
      for (const auto& i : c->instructions()) by_id_[i->id()] = i.get();
  }

  StatusOr<KernelPlan> Build() {
    KernelPlan out;
    runtime::ThunkPlan& plan = out.plan;
    plan.module = module_.name();
    plan.target = std::string(target_.sm);
    grid_ = ModuleDeviceGrid(module_);
    plan.replicas = grid_->replicas;
    plan.partitions = grid_->partitions;
    RETURN_IF_ERROR(Allocations(plan));
    const Computation* entry = module_.entry();
    if (!entry) return Status::Error("codegen: the module has no entry computation");
    std::vector<const Instruction*> order;
    for (int64_t id : ba_.sequence_ids) {
      auto it = by_id_.find(id);
      if (it == by_id_.end()) return Status::Error("codegen: the schedule names an unknown instruction id");
      order.push_back(it->second);
    }
    ASSIGN_OR_RETURN(plan.thunks, PlanSequence(order));
    for (const Instruction* p : entry->parameters()) {
      ASSIGN_OR_RETURN(auto slices, Slices(p));
      auto leaves = LeavesOf(p->shape());
      for (size_t l = 0; l < leaves.size(); ++l)
        plan.parameters.push_back({leaves[l].shape.ToString(), leaves[l].index, p->parameter_number(), slices[l]});
    }
    ASSIGN_OR_RETURN(auto outs, Slices(entry->root()));
    auto leaves = LeavesOf(entry->root()->shape());
    for (size_t l = 0; l < leaves.size(); ++l) plan.outputs.push_back({leaves[l].shape.ToString(), leaves[l].index, -1, outs[l]});
    for (auto& a : extra_allocations_) plan.allocations.push_back(std::move(a));
    out.specs = std::move(specs_);
    out.synthetic = std::move(synthetic_);
    return out;
  }

 private:
  Status Allocations(runtime::ThunkPlan& plan) {
    for (const AllocationInfo& a : ba_.allocations) {
      runtime::PlanAllocation pa;
      pa.index = a.index;
      pa.kind = std::string(BufferKindName(a.kind));
      pa.size = a.size;
      pa.parameter_number = a.parameter_number;
      pa.parameter_index = a.parameter_index;
      pa.maybe_live_out = a.maybe_live_out;
      if (a.kind == BufferKind::kConstant) {
        pa.init.assign(static_cast<size_t>(a.size), 0);
        for (int bid : a.buffers) {
          const AssignedBuffer& b = ba_.buffers[bid];
          auto it = by_id_.find(b.instruction_id);
          if (it == by_id_.end() || !it->second->literal()) continue;
          const Literal* lit = it->second->literal();
          if (lit->elided())
            return Status::Error("codegen: constant %" + it->second->name() + " has elided values ({...})");
          const Literal* leaf = lit;
          for (int64_t k : b.index) leaf = &leaf->tuple_elements()[k];
          const Shape* s = ShapeAt(it->second->shape(), b.index);
          if (!s || !s->IsArray()) continue;
          std::vector<uint8_t> bytes = PhysicalBytes(*leaf, *s);
          if (b.offset + static_cast<int64_t>(bytes.size()) > a.size)
            return Status::Error("codegen: constant %" + it->second->name() + " does not fit its allocation");
          std::copy(bytes.begin(), bytes.end(), pa.init.begin() + b.offset);
        }
      }
      plan.allocations.push_back(std::move(pa));
    }
    return Status::Ok();
  }

  bool HasOwnBuffers(const Instruction* i) const {
    auto leaves = LeavesOf(i->shape());
    for (const Leaf& l : leaves)
      if (!buffers_.count({i->id(), l.index})) return false;
    return !leaves.empty();
  }

  // The slice of every array leaf of `i`'s value.
  StatusOr<std::vector<Slice>> Slices(const Instruction* i) {
    if (auto it = slices_.find(i); it != slices_.end()) return it->second;
    std::vector<Slice> out;
    auto leaves = LeavesOf(i->shape());
    if (leaves.empty()) return out;  // tokens and empty tuples carry no data
    if (HasOwnBuffers(i)) {
      for (const Leaf& l : leaves) {
        const AssignedBuffer* b = buffers_.at({i->id(), l.index});
        out.push_back({b->allocation, b->offset, b->bytes});
      }
    } else {
      ASSIGN_OR_RETURN(out, AliasSlices(i));
    }
    slices_[i] = out;
    return out;
  }

  // Slices of an instruction that defines no buffer of its own.
  StatusOr<std::vector<Slice>> AliasSlices(const Instruction* i) {
    switch (i->opcode()) {
      case Opcode::kBitcast:
      case Opcode::kReshape:
      case Opcode::kOptimizationBarrier:
        return Slices(i->operand(0));
      case Opcode::kCustomCall:
        if (IsIdentityCustomCall(*i)) return Slices(i->operand(0));  // Sharding, Pin, Unpin...
        break;
      case Opcode::kTuple: {
        std::vector<Slice> out;
        for (const Instruction* o : i->operands()) {
          ASSIGN_OR_RETURN(auto s, Slices(o));
          out.insert(out.end(), s.begin(), s.end());
        }
        return out;
      }
      case Opcode::kGetTupleElement: {
        ASSIGN_OR_RETURN(auto s, Slices(i->operand(0)));
        size_t first = 0;
        const Shape& ts = i->operand(0)->shape();
        for (int64_t k = 0; k < i->tuple_index(); ++k) first += LeavesOf(ts.tuple_shapes()[k]).size();
        size_t count = LeavesOf(i->shape()).size();
        if (first + count > s.size()) break;
        return std::vector<Slice>(s.begin() + first, s.begin() + first + count);
      }
      default: break;
    }
    return Status::Error("codegen: %" + i->name() + " (" + std::string(OpcodeName(i->opcode())) +
                         ") has no buffer in the buffer assignment");
  }

  // Device copies from `src` to `dst` leaves, skipping coinciding ones.
  static void Copies(const std::string& what, const std::vector<Slice>& src, const std::vector<Slice>& dst,
                     ThunkSequence& seq) {
    for (size_t l = 0; l < src.size() && l < dst.size(); ++l)
      if (!SameSlice(src[l], dst[l])) seq.push_back(Thunk{runtime::CopyThunk{what, src[l], dst[l]}});
  }

  static bool Overlap(const Slice& a, const Slice& b) {
    return a.allocation == b.allocation && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
  }

  // Copies src[l] → dst[l] for every l as if all happened at once: a copy
  // runs only when no copy still to come reads its destination; a cycle is
  // broken by moving one source to a scratch buffer first.
  void ParallelCopies(const std::string& what, const std::vector<Slice>& src, const std::vector<Slice>& dst,
                      ThunkSequence& seq) {
    std::vector<std::pair<Slice, Slice>> pending;
    for (size_t l = 0; l < src.size() && l < dst.size(); ++l)
      if (!SameSlice(src[l], dst[l])) pending.push_back({src[l], dst[l]});
    while (!pending.empty()) {
      bool progressed = false;
      for (size_t k = 0; k < pending.size(); ++k) {
        bool blocked = false;
        for (size_t j = 0; j < pending.size() && !blocked; ++j)
          blocked = j != k && Overlap(pending[j].first, pending[k].second);
        if (blocked) continue;
        seq.push_back(Thunk{runtime::CopyThunk{what, pending[k].first, pending[k].second}});
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
        progressed = true;
        break;
      }
      if (progressed) continue;
      runtime::PlanAllocation scratch;
      scratch.index = static_cast<int>(extra_allocations_.size() + ba_.allocations.size());
      scratch.kind = "temp";
      scratch.size = pending[0].first.size;
      Slice tmp{scratch.index, 0, scratch.size};
      extra_allocations_.push_back(scratch);
      seq.push_back(Thunk{runtime::CopyThunk{what, pending[0].first, tmp}});
      pending[0].first = tmp;
    }
  }

  StatusOr<ThunkSequence> PlanSequence(const std::vector<const Instruction*>& order) {
    ThunkSequence seq;
    for (const Instruction* i : order) RETURN_IF_ERROR(PlanInstruction(i, seq));
    return seq;
  }

  StatusOr<ThunkSequence> PlanComputation(const Computation& c) {
    Sequence s = DfsSchedule(c);
    return PlanSequence(std::vector<const Instruction*>(s.begin(), s.end()));
  }

  Status PlanInstruction(const Instruction* i, ThunkSequence& seq) {
    switch (i->opcode()) {
      case Opcode::kParameter:
      case Opcode::kConstant:
      case Opcode::kAfterAll:
      case Opcode::kAddDependency:
        return Status::Ok();
      case Opcode::kWhile: return PlanWhile(i, seq);
      case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kAllReduceDone:
      case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kAllGatherDone:
      case Opcode::kReduceScatter: case Opcode::kAllToAll:
      case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart: case Opcode::kCollectivePermuteDone:
      case Opcode::kPartitionId: case Opcode::kReplicaId: case Opcode::kCollectiveBroadcast:
        return PlanCollective(i, seq);
      case Opcode::kAsyncStart: return PlanAsyncStart(i, seq);
      case Opcode::kAsyncUpdate:
      case Opcode::kDomain:
      case Opcode::kSetDimensionSize:
        // The operand's (first operand's) value unchanged: a set-dimension-size
        // changes only the dynamic size of a bounded dimension, which a
        // buffer of the bound holds as is.
        return CopyInto(i, Slices(i->operand(0)), seq);
      case Opcode::kAsyncDone: return CopyInto(i, ElementSlices(i->operand(0), 1), seq);
      case Opcode::kCopyStart: return CopyInto(i, Slices(i->operand(0)), seq, /*element=*/0);
      case Opcode::kCopyDone: return CopyInto(i, ElementSlices(i->operand(0), 0), seq);
      case Opcode::kInfeed: case Opcode::kOutfeed: case Opcode::kSend: case Opcode::kSendDone:
      case Opcode::kRecv: case Opcode::kRecvDone:
        return PlanHostTransfer(i, seq);
      case Opcode::kConditional: return PlanConditional(i, seq);
      case Opcode::kCall: return PlanCall(i, seq);
      case Opcode::kCustomCall:
        if (IsExternalCustomCall(*i)) return PlanCustomCall(i, seq);
        break;
      default: break;
    }
    if (IsBitcastLike(*i) && !(i->opcode() == Opcode::kReshape && HasOwnBuffers(i))) {
      // Views of their operands' buffers: nothing to run, unless the
      // assignment gave the value storage of its own (then a device copy).
      ASSIGN_OR_RETURN(auto own, Slices(i));
      ASSIGN_OR_RETURN(auto alias, AliasSlices(i));
      Copies(i->name(), alias, own, seq);
      return Status::Ok();
    }
    if (i->opcode() == Opcode::kCopy && i->shape().IsArray() && i->operand(0)->shape() == i->shape()) {
      ASSIGN_OR_RETURN(auto src, Slices(i->operand(0)));
      ASSIGN_OR_RETURN(auto dst, Slices(i));
      Copies(i->name(), src, dst, seq);
      return Status::Ok();
    }
    return PlanKernel(i, seq);
  }

  // Slices of tuple element `k` of `i`'s value.
  StatusOr<std::vector<Slice>> ElementSlices(const Instruction* i, int64_t k) {
    ASSIGN_OR_RETURN(auto s, Slices(i));
    const Shape& ts = i->shape();
    if (!ts.IsTuple() || k >= ts.tuple_size()) return s;
    size_t first = 0;
    for (int64_t e = 0; e < k; ++e) first += LeavesOf(ts.tuple_shapes()[static_cast<size_t>(e)]).size();
    size_t count = LeavesOf(ts.tuple_shapes()[static_cast<size_t>(k)]).size();
    if (first + count > s.size()) return Status::Error("codegen: %" + i->name() + ": tuple element slices");
    return std::vector<Slice>(s.begin() + first, s.begin() + first + count);
  }

  // The most devices one group of collective `i` holds, by XLA's group modes
  // (a cross-replica all-reduce on one replica of 8 partitions is 1: each
  // partition reduces alone); the header's count where the groups do not read.
  int64_t Participants(const Instruction& i) {
    if (!grid_) grid_ = ModuleDeviceGrid(module_);
    const bool permute = i.opcode() == Opcode::kCollectivePermute || i.opcode() == Opcode::kCollectivePermuteStart;
    if (permute) return grid_->devices() == 1 ? 1 : CollectiveParticipants(i, module_);
    auto groups = CollectiveDeviceGroups(i, grid_->replicas, grid_->partitions);
    if (!groups.ok()) return CollectiveParticipants(i, module_);
    int64_t most = 1;
    for (const auto& g : *groups) most = std::max<int64_t>(most, static_cast<int64_t>(g.size()));
    return most;
  }

  // A collective or a device id becomes a collective thunk (XLA's
  // collective thunks), not a kernel.
  Status PlanCollective(const Instruction* i, ThunkSequence& seq) {
    runtime::CollectiveThunk c;
    c.instruction = i->name();
    c.op = std::string(OpcodeName(i->opcode()));
    if (const RawAttr* g = i->FindRaw("replica_groups")) c.replica_groups = g->value;
    if (const RawAttr* ch = i->FindRaw("channel_id")) c.channel_id = std::atoll(ch->value.c_str());
    if (const RawAttr* st = i->FindRaw("source_target_pairs")) c.source_target_pairs = st->value;
    c.dimensions = i->dimensions();
    if (const Computation* r = i->to_apply()) c.reduction = r->name();
    const bool done = i->opcode() == Opcode::kAllReduceDone || i->opcode() == Opcode::kAllGatherDone ||
                      i->opcode() == Opcode::kCollectivePermuteDone;
    const bool id = i->opcode() == Opcode::kPartitionId || i->opcode() == Opcode::kReplicaId;
    c.participants = done ? 1 : Participants(*i);
    if (id) {
      const char* header = i->opcode() == Opcode::kPartitionId ? "num_partitions" : "replica_count";
      const RawAttr* a = module_.FindHeader(header);
      c.participants = a ? std::max<int64_t>(1, std::atoll(a->value.c_str())) : 1;
    }
    const bool async_tuple = (i->opcode() == Opcode::kAllGatherStart || i->opcode() == Opcode::kCollectivePermuteStart) &&
                             i->shape().IsTuple();
    if (done) {
      const Instruction* start = i->operand(0);
      const bool tuple_start = start->opcode() != Opcode::kAllReduceStart && start->shape().IsTuple();
      ASSIGN_OR_RETURN(c.operands, tuple_start ? ElementSlices(start, 1) : Slices(start));
    } else {
      for (const Instruction* o : i->operands()) {
        if (i->opcode() == Opcode::kCollectivePermuteStart && o != i->operand(0)) break;
        ASSIGN_OR_RETURN(auto s, Slices(o));
        c.operands.insert(c.operands.end(), s.begin(), s.end());
      }
    }
    ASSIGN_OR_RETURN(c.results, async_tuple ? ElementSlices(i, 1) : Slices(i));
    if (!done && !id) DescribeForDevices(*i, async_tuple, c);
    seq.push_back(Thunk{std::move(c)});
    return Status::Ok();
  }

  // What a run on every device needs to move the data of collective `i`:
  // its groups (or permute sources) in flattened device ids, its reducer,
  // and the shape of every leaf. Left empty where it does not read; the
  // run then refuses the thunk, naming it.
  void DescribeForDevices(const Instruction& i, bool async_tuple, runtime::CollectiveThunk& c) {
    if (!grid_) grid_ = ModuleDeviceGrid(module_);
    const bool permute = i.opcode() == Opcode::kCollectivePermute || i.opcode() == Opcode::kCollectivePermuteStart;
    if (permute) {
      if (auto sources = PermuteSources(i, grid_->replicas, grid_->partitions); sources.ok()) c.permute_sources = *sources;
    } else if (auto groups = CollectiveDeviceGroups(i, grid_->replicas, grid_->partitions); groups.ok()) {
      c.device_groups = *groups;
    }
    c.reduction_kind = ReductionKind(i.to_apply());
    const size_t operand_count = i.opcode() == Opcode::kCollectivePermuteStart ? 1 : i.operands().size();
    for (size_t o = 0; o < operand_count && o < i.operands().size(); ++o)
      for (const Leaf& l : LeavesOf(i.operand(o)->shape())) c.operand_shapes.push_back(l.shape.ToString());
    const Shape& result = async_tuple ? i.shape().tuple_shapes()[1] : i.shape();
    for (const Leaf& l : LeavesOf(result)) c.result_shapes.push_back(l.shape.ToString());
    if (c.operand_shapes.size() != c.operands.size()) c.operand_shapes.clear();
    if (c.result_shapes.size() != c.results.size()) c.result_shapes.clear();
  }

  // The array leaves each side moves; tokens and the send/recv context
  // (u32[]) are not data.
  Status PlanHostTransfer(const Instruction* i, ThunkSequence& seq) {
    runtime::HostTransferThunk h;
    h.instruction = i->name();
    h.op = std::string(OpcodeName(i->opcode()));
    if (const RawAttr* ch = i->FindRaw("channel_id")) h.channel_id = std::atoll(ch->value.c_str());
    for (const char* key : {"infeed_config", "outfeed_config"})
      if (const RawAttr* c = i->FindRaw(key)) h.config = c->value;
    auto data = [&](const Instruction* x, std::vector<Slice>& out) -> Status {
      const Shape& s = x->shape();
      if (s.IsTuple() && (x->opcode() == Opcode::kSend || x->opcode() == Opcode::kRecv || x->opcode() == Opcode::kInfeed)) {
        ASSIGN_OR_RETURN(auto e, ElementSlices(x, 0));  // (data, context, token) / (data, token)
        out.insert(out.end(), e.begin(), e.end());
        return Status::Ok();
      }
      ASSIGN_OR_RETURN(auto e, Slices(x));
      out.insert(out.end(), e.begin(), e.end());
      return Status::Ok();
    };
    switch (i->opcode()) {
      case Opcode::kOutfeed:
      case Opcode::kSend: RETURN_IF_ERROR(data(i->operand(0), h.operands)); break;
      case Opcode::kInfeed:
      case Opcode::kRecv: RETURN_IF_ERROR(data(i, h.results)); break;
      case Opcode::kRecvDone: RETURN_IF_ERROR(data(i->operand(0), h.results)); break;
      default: break;  // send-done: the data left with its send
    }
    seq.push_back(Thunk{std::move(h)});
    return Status::Ok();
  }

  // A custom-call no kernel implements: a call into the library or framework
  // that registered its target (XLA's CustomCallThunk).
  Status PlanCustomCall(const Instruction* i, ThunkSequence& seq) {
    runtime::CustomCallThunk x;
    x.instruction = i->name();
    x.target = i->attrs().custom_call_target;
    if (const RawAttr* a = i->FindRaw("api_version")) x.api_version = a->value;
    if (const RawAttr* a = i->FindRaw("backend_config")) x.backend_config = a->value;
    for (const Instruction* o : i->operands()) {
      ASSIGN_OR_RETURN(auto s, Slices(o));
      x.operands.insert(x.operands.end(), s.begin(), s.end());
    }
    ASSIGN_OR_RETURN(x.results, Slices(i));
    seq.push_back(Thunk{std::move(x)});
    return Status::Ok();
  }

  Status PlanKernel(const Instruction* i, ThunkSequence& seq) {
    KernelSpec spec;
    spec.instr = i;
    spec.target = target_;
    spec.device = &device_;
    std::string base = Sanitize(i->name());
    spec.name = base;
    for (int n = 1; names_.count(spec.name); ++n) spec.name = base + "_" + std::to_string(n);
    names_.insert(spec.name);
    runtime::KernelThunk k;
    k.name = spec.name;
    k.instruction = i->name();
    for (int op = 0; op < i->operand_count(); ++op) {
      ASSIGN_OR_RETURN(auto s, Slices(i->operand(op)));
      auto leaves = LeavesOf(i->operand(op)->shape());
      for (size_t l = 0; l < leaves.size(); ++l) {
        KernelArg a;
        a.shape = leaves[l].shape;
        a.operand = op;
        spec.args.push_back(a);
        k.args.push_back(s[l]);
        k.arg_written.push_back(false);
      }
    }
    size_t first_out = spec.args.size();
    ASSIGN_OR_RETURN(auto outs, Slices(i));
    auto leaves = LeavesOf(i->shape());
    for (size_t l = 0; l < leaves.size(); ++l) {
      KernelArg a;
      a.shape = leaves[l].shape;
      a.is_output = true;
      for (size_t j = 0; j < first_out; ++j)
        if (SameSlice(k.args[j], outs[l])) {
          a.aliases = static_cast<int>(j);
          spec.args[j].aliases = static_cast<int>(first_out + l);
          k.arg_written[j] = true;
        }
      spec.args.push_back(a);
      k.args.push_back(outs[l]);
      k.arg_written.push_back(true);
    }
    RETURN_IF_ERROR(UnshareUnsafeAliases(i, spec, k, seq));
    if (std::optional<int64_t> start = ContiguousSliceStartBytes(*i); start && k.args.size() == 2) {
      // The kernel copies the run its argument starts at: one kernel for
      // every slice of this shape (Llama 3.1 8B: the 970 slices that
      // all-reduce-contiguous cuts from combined all-reduces, at as many
      // offsets, share a few kernels).
      auto param = std::make_shared<Instruction>(Opcode::kParameter, i->shape(), "run");
      auto copy = std::make_shared<Instruction>(Opcode::kCopy, i->shape(), i->name());
      copy->AppendOperand(param.get());
      k.args[0].offset += *start;
      k.args[0].size = i->shape().byte_size();
      spec.args[0].shape = i->shape();
      // The kernel may assume only the alignment the run's start has (up to
      // 16 bytes): one kernel per shape and alignment.
      spec.args[0].align = 16;
      while (spec.args[0].align > 1 && k.args[0].offset % spec.args[0].align != 0) spec.args[0].align /= 2;
      spec.instr = copy.get();
      synthetic_.push_back(std::move(param));
      synthetic_.push_back(std::move(copy));
    }
    Cost c = KernelCost(*i, device_);
    k.bytes = c.bytes();
    k.flops = static_cast<int64_t>(c.flops);
    k.estimated_us = c.time_us;
    seq.push_back(Thunk{std::move(k)});
    specs_.push_back(std::move(spec));
    return Status::Ok();
  }

  // Buffer assignment lets an elementwise op or loop fusion write into a
  // dying operand's buffer. That is only safe when the kernel reads that
  // operand at the element it writes; otherwise the operand moves to a
  // scratch allocation first. In-place dynamic-update-slice/scatter keep it.
  Status UnshareUnsafeAliases(const Instruction* i, KernelSpec& spec, runtime::KernelThunk& k, ThunkSequence& seq) {
    const Instruction* hero = i;
    if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
      for (const auto& m : i->fused_computation()->instructions())
        if (m->opcode() == Opcode::kDynamicUpdateSlice || m->opcode() == Opcode::kScatter) return Status::Ok();
    } else if (hero->opcode() == Opcode::kDynamicUpdateSlice || hero->opcode() == Opcode::kScatter) {
      return Status::Ok();
    }
    for (size_t j = 0; j < spec.args.size(); ++j) {
      KernelArg& a = spec.args[j];
      if (a.is_output || a.aliases < 0) continue;
      const Shape& out = spec.args[a.aliases].shape;
      bool same_layout = MinorToMajor(a.shape) == MinorToMajor(out) && a.shape.SameDims(out);
      if (same_layout && ReadsAtWrittenIndex(*i, a.operand, out)) continue;
      runtime::PlanAllocation scratch;
      scratch.index = static_cast<int>(extra_allocations_.size() + ba_.allocations.size());
      scratch.kind = "temp";
      scratch.size = k.args[j].size;
      Slice dst{scratch.index, 0, k.args[j].size};
      extra_allocations_.push_back(scratch);
      seq.push_back(Thunk{runtime::CopyThunk{i->name(), k.args[j], dst}});
      k.args[j] = dst;
      k.arg_written[j] = false;
      spec.args[a.aliases].aliases = -1;
      a.aliases = -1;
    }
    return Status::Ok();
  }

  Status PlanWhile(const Instruction* w, ThunkSequence& seq) {
    const Computation* cond = w->called("condition");
    const Computation* body = w->called("body");
    if (!cond || !body || cond->num_parameters() != 1 || body->num_parameters() != 1)
      return Status::Error("codegen: while %" + w->name() + " needs a condition and a body of one parameter");
    ASSIGN_OR_RETURN(auto init, Slices(w->operand(0)));
    ASSIGN_OR_RETURN(auto state, Slices(body->parameter(0)));
    ASSIGN_OR_RETURN(auto cond_param, Slices(cond->parameter(0)));
    ASSIGN_OR_RETURN(auto result, Slices(w));
    Copies(w->name(), init, state, seq);
    runtime::WhileThunk t;
    t.instruction = w->name();
    Copies(w->name(), state, cond_param, t.condition);
    ASSIGN_OR_RETURN(ThunkSequence c, PlanComputation(*cond));
    t.condition.insert(t.condition.end(), c.begin(), c.end());
    ASSIGN_OR_RETURN(auto pred, Slices(cond->root()));
    if (pred.size() != 1) return Status::Error("codegen: while %" + w->name() + ": the condition must return a pred");
    t.pred = pred[0];
    ASSIGN_OR_RETURN(t.body, PlanComputation(*body));
    ASSIGN_OR_RETURN(auto root, Slices(body->root()));
    // The next state is the body's root; when the root reads state buffers
    // in another order (a body that permutes its state, as threefry's
    // rounds do), the copies must not overwrite what a later copy reads.
    ParallelCopies(w->name(), root, state, t.body);
    seq.push_back(Thunk{std::move(t)});
    Copies(w->name(), state, result, seq);
    return Status::Ok();
  }

  Status PlanConditional(const Instruction* c, ThunkSequence& seq) {
    std::vector<const Computation*> branches;
    if (const Computation* t = c->called("true_computation")) {
      branches = {t, c->called("false_computation")};
    } else {
      for (const CalledRef& r : c->called_refs())
        if (r.attr == "branch_computations") branches.assign(r.comps.begin(), r.comps.end());
    }
    if (branches.empty() || static_cast<int>(branches.size()) + 1 != c->operand_count())
      return Status::Error("codegen: conditional %" + c->name() + " needs one operand per branch");
    runtime::ConditionalThunk t;
    t.instruction = c->name();
    ASSIGN_OR_RETURN(auto index, Slices(c->operand(0)));
    t.index = index.at(0);
    t.index_is_pred = c->operand(0)->shape().element_type() == PrimitiveType::kPred;
    ASSIGN_OR_RETURN(auto result, Slices(c));
    for (size_t k = 0; k < branches.size(); ++k) {
      const Computation* b = branches[k];
      if (!b || b->num_parameters() != 1) return Status::Error("codegen: conditional %" + c->name() + ": a branch needs one parameter");
      ThunkSequence s;
      ASSIGN_OR_RETURN(auto arg, Slices(c->operand(static_cast<int>(k) + 1)));
      ASSIGN_OR_RETURN(auto param, Slices(b->parameter(0)));
      Copies(c->name(), arg, param, s);
      ASSIGN_OR_RETURN(ThunkSequence inner, PlanComputation(*b));
      s.insert(s.end(), inner.begin(), inner.end());
      ASSIGN_OR_RETURN(auto root, Slices(b->root()));
      Copies(c->name(), root, result, s);
      t.branches.push_back(std::move(s));
    }
    seq.push_back(Thunk{std::move(t)});
    return Status::Ok();
  }

  // Device copies of `src` into `i`'s value (or into tuple element
  // `element` of it), skipping leaves that already coincide.
  Status CopyInto(const Instruction* i, StatusOr<std::vector<Slice>> src, ThunkSequence& seq, int64_t element = -1) {
    if (!src.ok()) return src.status();
    ASSIGN_OR_RETURN(auto dst, element < 0 ? Slices(i) : ElementSlices(i, element));
    if (src->size() != dst.size())
      return Status::Error("codegen: %" + i->name() + " (" + std::string(OpcodeName(i->opcode())) + "): " +
                           std::to_string(src->size()) + " source leaves for " + std::to_string(dst.size()) + " results");
    Copies(i->name(), *src, dst, seq);
    return Status::Ok();
  }

  // async-start runs its wrapped computation where it starts (the thunks
  // are in order on one stream, as XLA's are when nothing overlaps): its
  // operands are copied into the computation's parameters and the root into
  // the start's result element ((operands), result, context); async-done
  // takes that element.
  Status PlanAsyncStart(const Instruction* start, ThunkSequence& seq) {
    const Computation* callee = start->called("calls");
    if (!callee) callee = start->to_apply();
    if (!callee || callee->num_parameters() != start->operand_count())
      return Status::Error("codegen: async-start %" + start->name() + " needs a wrapped computation of one parameter per operand");
    std::vector<Slice> operands;
    for (int p = 0; p < callee->num_parameters(); ++p) {
      ASSIGN_OR_RETURN(auto arg, Slices(start->operand(p)));
      ASSIGN_OR_RETURN(auto param, Slices(callee->parameter(p)));
      Copies(start->name(), arg, param, seq);
      operands.insert(operands.end(), arg.begin(), arg.end());
    }
    ASSIGN_OR_RETURN(ThunkSequence inner, PlanComputation(*callee));
    seq.insert(seq.end(), inner.begin(), inner.end());
    ASSIGN_OR_RETURN(auto held, ElementSlices(start, 0));
    if (held.size() == operands.size()) Copies(start->name(), operands, held, seq);
    ASSIGN_OR_RETURN(auto root, Slices(callee->root()));
    ASSIGN_OR_RETURN(auto result, ElementSlices(start, 1));
    Copies(start->name(), root, result, seq);
    return Status::Ok();
  }

  Status PlanCall(const Instruction* call, ThunkSequence& seq) {
    const Computation* callee = call->to_apply();
    if (!callee || callee->num_parameters() != call->operand_count())
      return Status::Error("codegen: call %" + call->name() + " needs one operand per callee parameter");
    for (int p = 0; p < callee->num_parameters(); ++p) {
      ASSIGN_OR_RETURN(auto arg, Slices(call->operand(p)));
      ASSIGN_OR_RETURN(auto param, Slices(callee->parameter(p)));
      Copies(call->name(), arg, param, seq);
    }
    ASSIGN_OR_RETURN(ThunkSequence inner, PlanComputation(*callee));
    seq.insert(seq.end(), inner.begin(), inner.end());
    ASSIGN_OR_RETURN(auto root, Slices(callee->root()));
    ASSIGN_OR_RETURN(auto result, Slices(call));
    Copies(call->name(), root, result, seq);
    return Status::Ok();
  }

  const Module& module_;
  std::optional<DeviceGrid> grid_;  // the module's devices, read on the first collective
  const BufferAssignment& ba_;
  const NvptxTarget& target_;
  const DeviceSpec& device_;
  std::map<std::pair<int64_t, std::vector<int64_t>>, const AssignedBuffer*> buffers_;
  std::map<int64_t, const Instruction*> by_id_;
  std::map<const Instruction*, std::vector<Slice>> slices_;
  std::set<std::string> names_;
  std::vector<KernelSpec> specs_;
  std::vector<std::shared_ptr<Instruction>> synthetic_;
  std::vector<runtime::PlanAllocation> extra_allocations_;  // scratch for unsafe in-place reuse
};

void CollectMutable(ThunkSequence& seq, std::vector<runtime::KernelThunk*>& out) {
  for (Thunk& t : seq) {
    if (auto* k = std::get_if<runtime::KernelThunk>(&t.v)) {
      out.push_back(k);
    } else if (auto* w = std::get_if<runtime::WhileThunk>(&t.v)) {
      CollectMutable(w->condition, out);
      CollectMutable(w->body, out);
    } else if (auto* c = std::get_if<runtime::ConditionalThunk>(&t.v)) {
      for (ThunkSequence& b : c->branches) CollectMutable(b, out);
    }
  }
}

}  // namespace

StatusOr<KernelPlan> BuildKernelPlan(const Module& module, const BufferAssignment& buffers, const NvptxTarget& target,
                                     const DeviceSpec& device) {
  Planner p(module, buffers, target, device);
  return p.Build();
}

std::vector<runtime::KernelThunk*> MutableKernels(runtime::ThunkPlan& plan) {
  std::vector<runtime::KernelThunk*> out;
  CollectMutable(plan.thunks, out);
  return out;
}

}  // namespace hloscope::codegen
