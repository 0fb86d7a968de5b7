// Several devices, one thread each, meeting at collectives. The semantics
// are XLA's (operation_semantics): a group's members are combined in the
// order the group lists them (the reduction folds left to right, so every
// member computes bit-identical sums), all-gather and all-to-all place the
// members' pieces in that order, reduce-scatter gives the k-th member the
// k-th piece, collective-broadcast gives everyone the first member's value,
// and collective-permute gives each device its source's operand, or zeros.
#include "core/eval/eval_devices.h"

#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "core/eval/eval_types.h"
#include "core/eval/scalar_fn.h"
#include "core/ir/collectives.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"

namespace hloscope::eval {

// Where the devices meet. One entry per (collective, run, group): each
// member leaves its operands there and waits until every member has; the
// last member to read the values removes the entry. A device that stops (done
// or failed) while others still wait for it, or devices that all wait for
// each other, end the evaluation with an error instead of a hang.
class Rendezvous {
 public:
  explicit Rendezvous(int64_t devices) : running_(devices) {}

  using Values = std::vector<Literal>;

  // Leaves `mine` (device `device`, at position `pos` of `members`) for the
  // run `run` of `instr`; returns every member's values in group order, valid
  // until this device calls Leave with the same key.
  StatusOr<std::vector<const Values*>> Meet(const Instruction& instr, int64_t run, const std::vector<int64_t>& members,
                                            size_t pos, Values mine) {
    std::unique_lock<std::mutex> lock(mu_);
    if (failed_) return Status::Error(reason_);
    Entry& e = entries_[Key{&instr, run, members.front()}];
    if (e.values.empty()) {
      e.values.resize(members.size());
      e.present.assign(members.size(), false);
      e.members = members;
    }
    e.values[pos] = std::move(mine);
    e.present[pos] = true;
    if (++e.have == members.size()) {
      running_ += e.waiting;  // they are on their way
      e.waiting = 0;
      cv_.notify_all();
    } else {
      ++e.waiting;
      if (--running_ == 0) FailIfStuck();
      cv_.wait(lock, [&] { return e.have == e.members.size() || failed_; });
      if (e.have != e.members.size()) return Status::Error(reason_);
    }
    std::vector<const Values*> all;
    for (const Values& v : e.values) all.push_back(&v);
    return all;
  }

  void Leave(const Instruction& instr, int64_t run, int64_t first_member) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(Key{&instr, run, first_member});
    if (it != entries_.end() && ++it->second.left == it->second.members.size()) entries_.erase(it);
  }

  // A device's evaluation ended (with its status).
  void Finished(int64_t device, const Status& s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!s.ok() && first_error_.empty()) first_error_ = "device " + std::to_string(device) + ": " + s.message();
    if (--running_ == 0) FailIfStuck();
  }

  // Why the evaluation failed ("" when it did not), the first device error
  // first.
  std::string failure() const {
    std::lock_guard<std::mutex> lock(mu_);
    return !first_error_.empty() ? first_error_ : failed_ ? reason_ : "";
  }

 private:
  struct Key {
    const Instruction* instr;
    int64_t run, group;
    bool operator<(const Key& o) const { return std::tie(instr, run, group) < std::tie(o.instr, o.run, o.group); }
  };
  struct Entry {
    std::vector<int64_t> members;
    std::vector<Values> values;
    std::vector<bool> present;
    size_t have = 0, left = 0;
    int64_t waiting = 0;
  };

  // No device runs: whoever waits waits forever.
  void FailIfStuck() {
    if (failed_) return;
    std::string stuck;
    int listed = 0;
    for (const auto& [key, e] : entries_) {
      if (e.have == e.members.size()) continue;
      if (listed++ == 3) {
        stuck += "; …";
        break;
      }
      std::string missing;
      for (size_t k = 0; k < e.members.size(); ++k)
        if (!e.present[k]) missing += (missing.empty() ? "" : ", ") + std::to_string(e.members[k]);
      stuck += (stuck.empty() ? "" : "; ") + std::string("%") + key.instr->name() + " (run " +
               std::to_string(key.run + 1) + ") waits for device" + (missing.find(',') == std::string::npos ? " " : "s ") +
               missing;
    }
    if (stuck.empty()) return;
    failed_ = true;
    reason_ = !first_error_.empty() ? first_error_
                                    : "the devices stopped at different collectives (they took different paths "
                                      "through the program): " + stuck;
    cv_.notify_all();
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<Key, Entry> entries_;
  int64_t running_;
  bool failed_ = false;
  std::string reason_, first_error_;
};

namespace {

// Copies `src` into `dst` at offset `at` along `dim` (TakeAlong: the block of
// `dst`'s extent from `src` at `at`).
void PlaceAlong(const Literal& src, Literal& dst, int dim, int64_t at) {
  const auto ss = RowMajorStrides(src.shape().dims()), ds = RowMajorStrides(dst.shape().dims());
  StridedCopy(src.element_bytes(), src.shape().dims(), src.raw(), 0, ss, dst.raw(), at * ds[static_cast<size_t>(dim)],
              ds);
}
void TakeAlong(const Literal& src, Literal& dst, int dim, int64_t at) {
  const auto ss = RowMajorStrides(src.shape().dims()), ds = RowMajorStrides(dst.shape().dims());
  StridedCopy(src.element_bytes(), dst.shape().dims(), src.raw(), at * ss[static_cast<size_t>(dim)], ss, dst.raw(), 0,
              ds);
}

// acc[i] = fn(acc[i], x[i]) for every element.
Status CombineInto(Interp& in, const Instruction& instr, const Computation& fn, Literal& acc, const Literal& x) {
  if (acc.IsTuple() || x.IsTuple() || !acc.shape().SameDims(x.shape()) ||
      acc.shape().element_type() != x.shape().element_type())
    return InstrError(instr, "the devices' operands differ in shape: " + acc.shape().ToString(false) + " and " +
                                 x.shape().ToString(false));
  const PrimitiveType t = acc.shape().element_type();
  const int64_t n = acc.num_elements();
  const BinaryForm form = ClassifyBinary(fn, t);
  if (form.kind != Combiner::kGeneral && FastCombineType(t)) {
    VisitReal(t, [&](auto tr) {
      using Tr = decltype(tr);
      using S = typename Tr::S;
      S* a = reinterpret_cast<S*>(acc.raw());
      const S* b = reinterpret_cast<const S*>(x.raw());
      for (int64_t i = 0; i < n; ++i) a[i] = Combine<Tr>(form.kind, form.swapped, a[i], b[i]);
    });
    return Status::Ok();
  }
  ScalarCall call(in, fn, {t, t});
  for (int64_t i = 0; i < n; ++i) {
    CopyElement(acc, i, call.arg(0), 0);
    CopyElement(x, i, call.arg(1), 0);
    if (Status s = call.Call(); !s.ok()) return InstrError(instr, "reducer: " + s.message());
    if (call.results().size() != 1 || call.results()[0].shape().element_type() != t)
      return InstrError(instr, "the reducer must return one value of the operands' type");
    CopyElement(call.results()[0], 0, acc, i);
  }
  return Status::Ok();
}

// The array shapes of an instruction's results (one, or a tuple's elements).
std::vector<Shape> ResultShapes(const Shape& s) {
  if (!s.IsTuple()) return {NoLayout(s)};
  std::vector<Shape> out;
  for (const Shape& e : s.tuple_shapes()) out.push_back(NoLayout(e));
  return out;
}

Literal Pack(std::vector<Literal> vals, bool tuple) {
  if (!tuple && vals.size() == 1) return std::move(vals[0]);
  return MakeTuple(std::move(vals));
}

// What the members left is everything the collective needs; `pos` is this
// device's place in the group. `results` are the result shapes of the
// collective proper (without a -start's operand half).
StatusOr<std::vector<Literal>> Compute(Interp& in, const Instruction& instr, Opcode op,
                                       const std::vector<const Rendezvous::Values*>& all, size_t pos,
                                       const std::vector<Shape>& results) {
  const size_t k = all.size();
  const size_t n = all[0]->size();  // operands per member
  for (const auto* v : all)
    if (v->size() != n) return InstrError(instr, "the devices pass different numbers of operands");
  std::vector<Literal> out;
  auto reduced = [&](size_t p) -> StatusOr<Literal> {
    const Computation* fn = instr.to_apply();
    if (!fn) return InstrError(instr, "no to_apply computation");
    Literal acc = (*all[0])[p];
    for (size_t j = 1; j < k; ++j) RETURN_IF_ERROR(CombineInto(in, instr, *fn, acc, (*all[j])[p]));
    return acc;
  };
  const int dim = instr.dimensions().empty() ? -1 : static_cast<int>(instr.dimensions()[0]);
  switch (op) {
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
      for (size_t p = 0; p < n; ++p) {
        ASSIGN_OR_RETURN(Literal r, reduced(p));
        out.push_back(std::move(r));
      }
      return out;
    case Opcode::kReduceScatter:
    case Opcode::kAllGather:
    case Opcode::kAllGatherStart:
      if (results.size() != n) return InstrError(instr, "malformed instruction (operands or shape)");
      for (size_t p = 0; p < n; ++p) {
        Literal piece(results[p]);
        const Literal& mine = (*all[pos])[p];
        if (dim < 0 || dim >= piece.shape().rank() || mine.IsTuple())
          return InstrError(instr, "malformed instruction (operands or shape)");
        if (op == Opcode::kReduceScatter) {
          ASSIGN_OR_RETURN(Literal r, reduced(p));
          const int64_t extent = piece.shape().dim(dim);
          if (r.shape().dim(dim) != extent * static_cast<int64_t>(k))
            return InstrError(instr, "the operand's dimension " + std::to_string(dim) + " is not " +
                                         std::to_string(k) + " times the result's");
          TakeAlong(r, piece, dim, static_cast<int64_t>(pos) * extent);
        } else {
          const int64_t extent = mine.shape().dim(dim);
          if (piece.shape().dim(dim) != extent * static_cast<int64_t>(k))
            return InstrError(instr, "the result's dimension " + std::to_string(dim) + " is not " +
                                         std::to_string(k) + " times the operand's");
          for (size_t j = 0; j < k; ++j) {
            const Literal& theirs = (*all[j])[p];
            if (!theirs.shape().SameDims(mine.shape())) return InstrError(instr, "the devices' operands differ in shape");
            PlaceAlong(theirs, piece, dim, static_cast<int64_t>(j) * extent);
          }
        }
        out.push_back(std::move(piece));
      }
      return out;
    case Opcode::kAllToAll:
      if (dim >= 0) {  // one array, split along `dim` and put together again along it
        if (n != 1 || results.size() != 1) return InstrError(instr, "malformed instruction (operands or shape)");
        Literal piece(results[0]);
        const Literal& mine = (*all[pos])[0];
        if (dim >= mine.shape().rank() || mine.shape().dim(dim) % static_cast<int64_t>(k) != 0)
          return InstrError(instr, "dimension " + std::to_string(dim) + " does not split into " + std::to_string(k) +
                                       " equal pieces");
        const int64_t extent = mine.shape().dim(dim) / static_cast<int64_t>(k);
        Shape block_shape = results[0];
        block_shape.mutable_dims()[static_cast<size_t>(dim)] = extent;
        Literal block(block_shape);
        for (size_t j = 0; j < k; ++j) {
          const Literal& theirs = (*all[j])[0];
          if (!theirs.shape().SameDims(mine.shape())) return InstrError(instr, "the devices' operands differ in shape");
          TakeAlong(theirs, block, dim, static_cast<int64_t>(pos) * extent);
          PlaceAlong(block, piece, dim, static_cast<int64_t>(j) * extent);
        }
        out.push_back(std::move(piece));
        return out;
      }
      // Tuple form: one operand per member; member j's operand `pos` becomes result j.
      if (n != k) return InstrError(instr, "a tuple all-to-all takes one operand per member of its group");
      for (size_t j = 0; j < k; ++j) out.push_back((*all[j])[pos]);
      return out;
    case Opcode::kCollectiveBroadcast:
      for (size_t p = 0; p < n; ++p) out.push_back((*all[0])[p]);
      return out;
    default: return Unsupported(instr, "no semantics on several devices");
  }
}

}  // namespace

StatusOr<Literal> EvalOnDevice(Interp& in, const Instruction& instr, Operands ops) {
  DeviceContext& ctx = *in.device();
  const Opcode op = instr.opcode();
  auto id_literal = [&](int64_t v) -> StatusOr<Literal> {
    Literal out(NoLayout(instr.shape()));
    if (out.IsTuple() || out.num_elements() != 1) return InstrError(instr, "malformed instruction (operands or shape)");
    out.SetInt(0, v);
    return out;
  };
  switch (op) {
    case Opcode::kReplicaId: return id_literal(ctx.replica);
    case Opcode::kPartitionId: return id_literal(ctx.partition);
    case Opcode::kAllReduceDone:  // the -start's value is the result
      if (ops.size() != 1) break;
      return *ops[0];
    case Opcode::kAllGatherDone:
    case Opcode::kCollectivePermuteDone:
      if (ops.size() != 1) break;
      // A -start of the older form, shaped as its result alone, is the result.
      if (!instr.operand(0)->shape().IsTuple()) return *ops[0];
      if (!ops[0]->IsTuple() || ops[0]->tuple_elements().size() < 2) break;
      return ops[0]->tuple_elements()[1];
    case Opcode::kRaggedAllToAll: return Unsupported(instr, "ragged-all-to-all is not evaluated");
    default: break;
  }
  if (!IsCollective(op)) return Unsupported(instr, "no semantics on several devices");
  if (ops.empty()) return InstrError(instr, "malformed instruction (operands or shape)");
  const int64_t device = ctx.device();
  const int64_t run = ctx.runs[&instr]++;
  std::vector<Literal> mine;
  for (const Literal* o : ops) mine.push_back(*o);

  if (op == Opcode::kCollectivePermute || op == Opcode::kCollectivePermuteStart) {
    if (ops.size() == 4 && !instr.shape().IsTuple())
      return Unsupported(instr, "collective-permute with dynamic offsets is not evaluated");
    auto it = ctx.sources.find(&instr);
    if (it == ctx.sources.end()) {
      auto s = PermuteSources(instr, ctx.replicas, ctx.partitions);
      if (!s.ok()) return InstrError(instr, s.status().message());
      it = ctx.sources.emplace(&instr, std::move(*s)).first;
    }
    const int64_t devices = ctx.replicas * ctx.partitions;
    std::vector<int64_t> everyone(static_cast<size_t>(devices));
    for (int64_t d = 0; d < devices; ++d) everyone[static_cast<size_t>(d)] = d;
    // The operands go to the rendezvous; a -start keeps a copy for its result.
    const bool keep = op == Opcode::kCollectivePermuteStart && instr.shape().IsTuple();
    std::vector<Literal> sent;
    if (keep) sent = mine;
    else sent = std::move(mine);
    ASSIGN_OR_RETURN(auto all, ctx.rendezvous->Meet(instr, run, everyone, static_cast<size_t>(device), std::move(sent)));
    const int64_t from = it->second[static_cast<size_t>(device)];
    std::vector<Literal> received;
    for (size_t p = 0; p < ops.size(); ++p)
      received.push_back(from >= 0 ? (*all[static_cast<size_t>(from)])[p] : Literal(NoLayout(ops[p]->shape())));
    ctx.rendezvous->Leave(instr, run, 0);
    if (op == Opcode::kCollectivePermute || !instr.shape().IsTuple())  // (or a -start shaped as its result)
      return Pack(std::move(received), instr.shape().IsTuple());
    // -start: (operand, result, contexts...).
    const Shape& s = instr.shape();
    if (!s.IsTuple() || s.tuple_size() < 2) return InstrError(instr, "malformed instruction (operands or shape)");
    Literal out(NoLayout(s));
    out.tuple_elements()[0] = Pack(std::move(mine), s.tuple_shapes()[0].IsTuple());
    out.tuple_elements()[1] = Pack(std::move(received), s.tuple_shapes()[1].IsTuple());
    return out;
  }

  auto it = ctx.groups.find(&instr);
  if (it == ctx.groups.end()) {
    auto g = CollectiveDeviceGroups(instr, ctx.replicas, ctx.partitions);
    if (!g.ok()) return InstrError(instr, g.status().message());
    it = ctx.groups.emplace(&instr, std::move(*g)).first;
  }
  const std::vector<int64_t>* members = nullptr;
  size_t pos = 0;
  for (const auto& g : it->second)
    for (size_t k = 0; k < g.size(); ++k)
      if (g[k] == device) {
        members = &g;
        pos = k;
      }
  if (!members) {
    // collective-broadcast leaves a device outside every group with zeros
    // (StableHLO's definition); the others need every device in a group.
    if (op == Opcode::kCollectiveBroadcast) {
      std::vector<Literal> zeros;
      for (const Literal* o : ops) zeros.emplace_back(NoLayout(o->shape()));
      return Pack(std::move(zeros), instr.shape().IsTuple());
    }
    return InstrError(instr, "device " + std::to_string(device) + " is in none of its replica_groups");
  }

  // The collective proper's result shapes (a -start also carries its operands).
  // (An all-gather-start of the older form is shaped as its result alone.)
  const bool gather_start = op == Opcode::kAllGatherStart && instr.shape().IsTuple();
  if (gather_start && instr.shape().tuple_size() != 2)
    return InstrError(instr, "malformed instruction (operands or shape)");
  const Shape& result_shape = gather_start ? instr.shape().tuple_shapes()[1] : instr.shape();
  const std::vector<Shape> results = ResultShapes(result_shape);

  std::vector<Literal> sent;
  if (gather_start) sent = mine;  // its result carries its operands too
  else sent = std::move(mine);
  ASSIGN_OR_RETURN(auto all, ctx.rendezvous->Meet(instr, run, *members, pos, std::move(sent)));
  StatusOr<std::vector<Literal>> computed = Compute(in, instr, op, all, pos, results);
  ctx.rendezvous->Leave(instr, run, members->front());
  if (!computed.ok()) return computed.status();
  Literal value = Pack(std::move(*computed), result_shape.IsTuple());
  if (!gather_start) return value;
  std::vector<Literal> pair;
  pair.push_back(Pack(std::move(mine), instr.shape().tuple_shapes()[0].IsTuple()));
  pair.push_back(std::move(value));
  return MakeTuple(std::move(pair));
}

}  // namespace hloscope::eval

namespace hloscope {

namespace {
constexpr int64_t kMaxDevices = 512;
}  // namespace

Status ModuleEvaluableOnDevices(const Module& m) {
  if (!m.entry()) return Status::Error("module " + m.name() + " has no entry computation");
  const DeviceGrid grid = ModuleDeviceGrid(m);
  const int64_t devices = grid.devices();
  if (devices > kMaxDevices)
    return Status::Error("module " + m.name() + " runs on " + std::to_string(devices) +
                         " devices; the interpreter evaluates at most " + std::to_string(kMaxDevices));
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      const Opcode op = i->opcode();
      if (op == Opcode::kRaggedAllToAll) return eval::Unsupported(*i, "ragged-all-to-all is not evaluated");
      if (!IsCollective(op) || op == Opcode::kAllReduceDone || op == Opcode::kAllGatherDone ||
          op == Opcode::kCollectivePermuteDone)
        continue;
      if (op == Opcode::kCollectivePermute || op == Opcode::kCollectivePermuteStart) {
        if (auto s = PermuteSources(*i, grid.replicas, grid.partitions); !s.ok())
          return eval::InstrError(*i, s.status().message());
      } else if (auto g = CollectiveDeviceGroups(*i, grid.replicas, grid.partitions); !g.ok()) {
        return eval::InstrError(*i, g.status().message());
      }
    }
  return Status::Ok();
}

StatusOr<std::vector<Literal>> EvaluateModuleOnDevices(const Module& m, const std::vector<std::vector<Literal>>& args,
                                                       const EvalOptions& opts) {
  RETURN_IF_ERROR(ModuleEvaluableOnDevices(m));
  const DeviceGrid grid = ModuleDeviceGrid(m);
  const int64_t replicas = grid.replicas, partitions = grid.partitions;
  const int64_t devices = grid.devices();
  if (static_cast<int64_t>(args.size()) != devices)
    return Status::Error("module " + m.name() + " runs on " + std::to_string(devices) + " devices but " +
                         std::to_string(args.size()) + " sets of arguments were given");
  eval::Rendezvous rendezvous(devices);
  std::vector<StatusOr<Literal>> results(static_cast<size_t>(devices), Status::Error("not run"));
  auto run = [&](int64_t d) {
    eval::DeviceContext ctx;
    ctx.replica = d / partitions;
    ctx.partition = d % partitions;
    ctx.replicas = replicas;
    ctx.partitions = partitions;
    ctx.rendezvous = &rendezvous;
    std::vector<const Literal*> ptrs;
    for (const Literal& a : args[static_cast<size_t>(d)]) ptrs.push_back(&a);
    eval::Interp in(opts);
    in.set_device(&ctx);
    StatusOr<Literal> r = in.Run(*m.entry(), ptrs);
    rendezvous.Finished(d, r.ok() ? Status::Ok() : r.status());
    results[static_cast<size_t>(d)] = std::move(r);
  };
  if (devices == 1) {
    run(0);
  } else {
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(devices));
    for (int64_t d = 0; d < devices; ++d) threads.emplace_back(run, d);
    for (std::thread& t : threads) t.join();
  }
  if (std::string why = rendezvous.failure(); !why.empty()) return Status::Error(why);
  std::vector<Literal> out;
  for (int64_t d = 0; d < devices; ++d) {
    if (!results[static_cast<size_t>(d)].ok())
      return Status::Error("device " + std::to_string(d) + ": " + results[static_cast<size_t>(d)].status().message());
    out.push_back(std::move(*results[static_cast<size_t>(d)]));
  }
  return out;
}

int64_t DevicesToEvaluate(const Module& m) {
  const int64_t devices = ModuleDeviceGrid(m).devices();
  if (devices == 1) return 1;
  // Anything that differs between devices: a collective, or a device id.
  bool per_device = false;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      per_device |= IsCollective(i->opcode()) || i->opcode() == Opcode::kReplicaId ||
                    i->opcode() == Opcode::kPartitionId;
  if (!per_device) return 1;
  return ModuleEvaluableOnDevices(m).ok() ? devices : 1;
}

StatusOr<std::vector<Literal>> EvaluateOnDevices(const Module& m, int64_t devices,
                                                 const std::vector<std::vector<Literal>>& args,
                                                 const EvalOptions& opts) {
  if (devices > 1) return EvaluateModuleOnDevices(m, args, opts);
  if (args.size() != 1) return Status::Error("one device, but " + std::to_string(args.size()) + " sets of arguments");
  StatusOr<Literal> out = EvaluateModule(m, args[0], opts);
  if (!out.ok()) return out.status();
  std::vector<Literal> one;
  one.push_back(std::move(*out));
  return one;
}

}  // namespace hloscope
