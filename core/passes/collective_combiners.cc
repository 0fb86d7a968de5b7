// XLA GPU's collective combiners (gpu-all-gather-combiner,
// gpu-all-reduce-combiner, gpu-reduce-scatter-combiner, run after fusion)
// and all-reduce-contiguous.
//
// A collective costs a fixed latency however small it is, and a training
// step has hundreds (one per gradient, per norm). The combiners merge
// independent collectives of one kind and the same attributes into one over
// a tuple, as XLA's CombineInstructionsByKey does: walk the computation in
// XLA's post order; the first candidate fixes the group's key; later
// candidates with that key join until the results would pass 30 MiB + 7
// bytes or 2,048 members, or one of them depends on a member (then the
// group closes and that candidate starts a later one). all-reduce-contiguous
// then makes a combined all-reduce reduce one flat buffer: each operand
// bitcast to 1-D, concatenated, reduced, sliced back and bitcast to its
// shape (XLA wraps the concatenate and slices in fusions of one op each).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/collectives.h"
#include "core/passes/collective_passes.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/traversal.h"
#include "core/support/str_util.h"

namespace hloscope {
namespace {

// XLA's HloComputation::MakeInstructionPostOrder: a depth-first walk from
// each instruction without users, in list order; an instruction's control
// predecessors are walked first, then its operands in order.
enum class Kind { kAllGather, kAllReduce, kReduceScatter };

Opcode OpcodeOf(Kind k) {
  switch (k) {
    case Kind::kAllGather: return Opcode::kAllGather;
    case Kind::kAllReduce: return Opcode::kAllReduce;
    case Kind::kReduceScatter: return Opcode::kReduceScatter;
  }
  return Opcode::kAllReduce;
}

std::string Raw(const Instruction& i, std::string_view name) {
  const RawAttr* a = i.FindRaw(name);
  return a ? a->value : std::string();
}

// The value of frontend attribute `key` ("" when absent).
std::string FrontendAttribute(const Instruction& i, std::string_view key) {
  const std::string fa = Raw(i, "frontend_attributes");
  const std::string pat = std::string(key) + "=";
  size_t p = fa.find(pat);
  while (p != std::string::npos && p > 0 && fa[p - 1] != '{' && fa[p - 1] != ',' && fa[p - 1] != ' ')
    p = fa.find(pat, p + 1);
  if (p == std::string::npos) return "";
  p += pat.size();
  if (p < fa.size() && fa[p] == '"') {
    size_t q = fa.find('"', p + 1);
    return fa.substr(p + 1, q == std::string::npos ? std::string::npos : q - p - 1);
  }
  size_t q = fa.find_first_of(",}", p);
  return fa.substr(p, q == std::string::npos ? std::string::npos : q - p);
}

// The replica groups as a canonical list, so that `[1,8]<=[8]` and
// `{{0,1,...,7}}` are the same key.
std::string GroupsKey(const Instruction& i) {
  const RawAttr* g = i.FindRaw("replica_groups");
  if (!g) return "none";
  auto parsed = ParseReplicaGroups(g->value);
  if (!parsed) return "raw:" + g->value;
  std::string k;
  for (const auto& grp : *parsed) {
    k += '{';
    for (int64_t d : grp) k += std::to_string(d) + ',';
    k += '}';
  }
  return k;
}

// "op root_type" of a reduction computation of two parameters and one
// binary op (XLA's MatchReductionComputation), or "".
std::string ReductionKey(const Instruction& i) {
  const Computation* r = i.to_apply();
  if (!r || r->instructions().size() != 3) return "";
  int params = 0;
  for (const auto& x : r->instructions()) params += x->opcode() == Opcode::kParameter;
  const Instruction* root = r->root();
  if (params != 2 || !root || root->operand_count() != 2) return "";
  return std::string(OpcodeName(root->opcode())) + " " + std::string(PrimitiveTypeName(root->shape().element_type()));
}

// XLA's combine key (GetAllReduceKey / the all-gather key, plus the GPU's
// pipelined flag and the `combiner_key` frontend attribute), or "" for an
// instruction the combiner leaves alone.
std::string CombineKey(const Instruction& i, Kind kind) {
  if (i.opcode() != OpcodeOf(kind)) return "";
  if (!FrontendAttribute(i, "_scheduling_group_id").empty()) return "";
  std::string key;
  if (kind == Kind::kAllGather) {
    key = "all-gather";  // any element type (the GPU combines different types), any dimension
  } else {
    if (!i.control_predecessors().empty() || !i.control_successors().empty()) return "";
    const std::string red = ReductionKey(i);
    if (red.empty()) return "";
    key = std::string(OpcodeName(i.opcode())) + " " + red;
  }
  key += i.FindRaw("channel_id") ? " channel" : " no-channel";
  key += Raw(i, "use_global_device_ids") == "true" ? " global" : " local";
  key += " groups=" + GroupsKey(i);
  if (Raw(i, "backend_config").find("\"is_pipelined\":true") != std::string::npos) key += " pipelined=true";
  if (std::string ck = FrontendAttribute(i, "combiner_key"); !ck.empty()) key += " combiner_key=" + ck;
  return key;
}

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// The combined op's metadata: the first member's, with op_name the members'
// common prefix up to its last '/' and their suffixes,
// "prefix/(a:b:c)" (XLA since April 2026). A member without an op_name is
// named by its instruction name.
Metadata MergedMetadata(const std::vector<Instruction*>& members) {
  std::vector<std::string> names;
  for (const Instruction* m : members) {
    std::string n = m->MetadataValue("op_name");
    names.push_back(n.empty() ? m->name() : n);
  }
  Metadata out;
  bool same = std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n == names[0]; });
  std::string op_name = names[0];
  if (!same) {
    size_t common = names[0].size();
    for (const std::string& n : names) {
      size_t k = 0;
      while (k < common && k < n.size() && n[k] == names[0][k]) ++k;
      common = k;
    }
    size_t slash = names[0].rfind('/', common == 0 ? 0 : common - 1);
    size_t cut = (slash == std::string::npos || common == 0) ? 0 : slash + 1;
    op_name = names[0].substr(0, cut) + "(";
    for (size_t k = 0; k < names.size(); ++k) op_name += (k ? ":" : "") + names[k].substr(cut);
    op_name += ")";
  }
  for (const MetadataField& f : members[0]->metadata())
    if (f.name != "op_name") out.Add(f.name, f.value);
  out.Add("op_name", Quoted(op_name));
  return out;
}

// `s` with dimensions a and b exchanged, its layout exchanged with them so
// that the bytes keep their places (a bitcast).
Shape SwapDims(const Shape& s, int64_t a, int64_t b) {
  Shape out = s;
  std::swap(out.mutable_dims()[static_cast<size_t>(a)], out.mutable_dims()[static_cast<size_t>(b)]);
  if (s.has_layout() && !s.layout().minor_to_major.empty()) {
    Layout l = s.layout();
    for (int64_t& d : l.minor_to_major) d = d == a ? b : (d == b ? a : d);
    out.set_layout(l);
  }
  return out;
}

class CombinerPass : public Pass {
 public:
  explicit CombinerPass(Kind kind) : kind_(kind) {}
  std::string_view name() const override {
    switch (kind_) {
      case Kind::kAllGather: return "gpu-all-gather-combiner";
      case Kind::kAllReduce: return "gpu-all-reduce-combiner";
      case Kind::kReduceScatter: return "gpu-reduce-scatter-combiner";
    }
    return "";
  }
  std::string_view description() const override {
    switch (kind_) {
      case Kind::kAllGather:
        return "Independent all-gathers with the same devices become one all-gather over a tuple, up to 30 MiB "
               "and 2,048 of them (XLA GPU's GpuAllGatherCombiner): one collective's latency instead of many.";
      case Kind::kAllReduce:
        return "Independent all-reduces with the same reduction and devices become one all-reduce over a tuple, "
               "up to 30 MiB and 2,048 of them (XLA GPU's GpuAllReduceCombiner).";
      case Kind::kReduceScatter:
        return "Independent reduce-scatters with the same reduction and devices become one over a tuple, up to "
               "30 MiB and 2,048 of them (XLA GPU's GpuReduceScatterCombiner).";
    }
    return "";
  }

  StatusOr<bool> Run(Module& module) override {
    // XLA skips the pass when any collective of the kind has its layout constrained.
    for (Computation* comp : NonFusionComputations(module))
      for (const auto& i : comp->instructions())
        if (i->opcode() == OpcodeOf(kind_) && Raw(*i, "constrain_layout") == "true") return false;
    bool changed = false;
    for (Computation* comp : NonFusionComputations(module)) changed |= RunOn(*comp);
    return changed;
  }

 private:
  bool RunOn(Computation& comp) {
    // The instructions as dense indices, with their operands and control
    // predecessors (all in this computation): the walk below runs once per
    // group formed, and pointer-chasing 60k instructions each time is what
    // would cost.
    std::vector<Instruction*> node;
    std::unordered_map<const Instruction*, int> index;
    for (const auto& i : comp.instructions()) {
      index.emplace(i.get(), static_cast<int>(node.size()));
      node.push_back(i.get());
    }
    const int n = static_cast<int>(node.size());
    std::vector<int> ops_begin{0}, ops, ctl_begin{0}, ctl, roots;
    for (Instruction* i : node) {
      for (const Instruction* o : i->operands()) ops.push_back(index.at(o));
      for (const Instruction* o : i->control_predecessors()) ctl.push_back(index.at(o));
      ops_begin.push_back(static_cast<int>(ops.size()));
      ctl_begin.push_back(static_cast<int>(ctl.size()));
      if (i->users().empty()) roots.push_back(index.at(i));
    }
    std::vector<std::string> key(static_cast<size_t>(n));
    std::map<std::string, int64_t> left;  // candidates not yet placed, per key
    int64_t candidates = 0;
    for (int k = 0; k < n; ++k) {
      key[static_cast<size_t>(k)] = CombineKey(*node[static_cast<size_t>(k)], kind_);
      if (!key[static_cast<size_t>(k)].empty()) ++left[key[static_cast<size_t>(k)]], ++candidates;
    }
    if (candidates < 2) return false;

    // Groups are formed on the graph as it would be after combining the
    // earlier ones, without changing it until the end: a combined group is
    // a virtual node n + g whose operands are its members' operands, and a
    // member stands for its get-tuple-element (one operand: the group).
    // User-less members' get-tuple-elements join the roots at the end, as
    // XLA appends new instructions to the computation.
    std::vector<int> group_of(static_cast<size_t>(n), -1);
    std::vector<std::vector<int>> groups;
    std::vector<int> order;
    std::vector<char> state, mark;
    std::vector<int> stack, children;
    auto expand = [&](int v) {
      children.clear();
      if (v >= n) {
        for (int m : groups[static_cast<size_t>(v - n)])
          for (int k = ops_begin[static_cast<size_t>(m)]; k < ops_begin[static_cast<size_t>(m) + 1]; ++k)
            children.push_back(ops[static_cast<size_t>(k)]);
        return;  // (members of a kind with control predecessors are not keyed)
      }
      if (group_of[static_cast<size_t>(v)] >= 0) {
        children.push_back(n + group_of[static_cast<size_t>(v)]);
        return;
      }
      for (int k = ops_begin[static_cast<size_t>(v)]; k < ops_begin[static_cast<size_t>(v) + 1]; ++k)
        children.push_back(ops[static_cast<size_t>(k)]);
    };
    auto post_order = [&] {
      // XLA's MakeInstructionPostOrder: operands pushed in reverse so that
      // the first is walked first, control predecessors after them (walked
      // before the operands).
      order.clear();
      state.assign(static_cast<size_t>(n) + groups.size(), 0);
      std::vector<int> all_roots;
      for (int r : roots)
        if (group_of[static_cast<size_t>(r)] < 0) all_roots.push_back(r);
      for (const auto& g : groups)
        for (int m : g)
          if (node[static_cast<size_t>(m)]->users().empty()) all_roots.push_back(m);
      for (int r : all_roots) {
        if (state[static_cast<size_t>(r)]) continue;
        stack.push_back(r);
        while (!stack.empty()) {
          const int cur = stack.back();
          char& st = state[static_cast<size_t>(cur)];
          if (st) {
            stack.pop_back();
            if (st != 2) {
              st = 2;
              order.push_back(cur);
            }
            continue;
          }
          st = 1;
          expand(cur);
          for (size_t k = children.size(); k-- > 0;)
            if (!state[static_cast<size_t>(children[k])]) stack.push_back(children[k]);
          if (cur < n && group_of[static_cast<size_t>(cur)] < 0)
            for (int k = ctl_begin[static_cast<size_t>(cur)]; k < ctl_begin[static_cast<size_t>(cur) + 1]; ++k)
              if (!state[static_cast<size_t>(ctl[static_cast<size_t>(k)])]) stack.push_back(ctl[static_cast<size_t>(k)]);
        }
      }
    };

    std::vector<int64_t> group_bytes;
    std::vector<std::string> closed;  // why each group stopped growing
    std::string closed_by;
    std::vector<char> keyed(static_cast<size_t>(n), 0);
    for (int k = 0; k < n; ++k) keyed[static_cast<size_t>(k)] = !key[static_cast<size_t>(k)].empty();
    size_t start = 0;  // no candidate before this position of `order`
    bool stale = true;
    while (candidates > 0) {
      if (stale) {
        post_order();
        start = 0;
        stale = false;
      }
      while (start < order.size() && !(order[start] < n && keyed[static_cast<size_t>(order[start])])) ++start;
      // mark: 1 = depends on a member of the group being formed, 2 = is one.
      mark.assign(static_cast<size_t>(n) + groups.size(), 0);
      std::vector<int> group;
      const std::string* active = nullptr;
      int64_t bytes = 0;
      // Nothing depends on a member before the first candidate: the walk
      // starts there, and ends when no candidate of the group's key is left.
      for (size_t p = start; p < order.size(); ++p) {
        if (!group.empty() && left[*active] == 0) break;
        const int v = order[p];
        expand(v);
        bool dep = false;
        for (int c : children) dep |= mark[static_cast<size_t>(c)] != 0;
        if (v < n && group_of[static_cast<size_t>(v)] < 0)
          for (int k = ctl_begin[static_cast<size_t>(v)]; k < ctl_begin[static_cast<size_t>(v) + 1]; ++k)
            dep |= mark[static_cast<size_t>(ctl[static_cast<size_t>(k)])] != 0;
        if (dep) mark[static_cast<size_t>(v)] = 1;
        if (v >= n || !keyed[static_cast<size_t>(v)]) continue;
        const std::string& kv = key[static_cast<size_t>(v)];
        if (!group.empty() && kv != *active) continue;
        Instruction* x = node[static_cast<size_t>(v)];
        auto drop = [&] {
          keyed[static_cast<size_t>(v)] = 0;
          --left[kv];
          --candidates;
        };
        const int64_t b = x->shape().byte_size();
        if (x->operand_count() != 1 || b > kCombineThresholdBytes) {  // XLA combines single-operand ones under the threshold
          Refuse(*x, x->operand_count() != 1
                         ? "it already has several operands (XLA combines only single-operand ones)"
                         : "its result alone, " + HumanBytes(b) + ", passes the 30 MiB + 7 bytes a combined one may hold");
          drop();
          continue;
        }
        if (!group.empty() && (bytes + b > kCombineThresholdBytes || dep)) {
          closed_by = x->name() + (dep ? " depends on a member (it reads one's result, directly or not)"
                                       : " would take the results to " + HumanBytes(bytes + b) + ", past 30 MiB + 7 bytes");
          break;
        }
        if (group.empty()) active = &kv;
        group.push_back(v);
        mark[static_cast<size_t>(v)] = 2;
        bytes += b;
        drop();
        if (static_cast<int64_t>(group.size()) >= kCombineThresholdCount) {
          closed_by = "the group reached 2,048 members";
          break;
        }
      }
      if (closed_by.empty() && !group.empty()) closed_by = "no later candidate of its kind and attributes was left";
      if (group.size() >= 2) {
        for (int m : group) group_of[static_cast<size_t>(m)] = static_cast<int>(groups.size());
        groups.push_back(std::move(group));
        group_bytes.push_back(bytes);
        closed.push_back(closed_by);
        stale = true;
      } else if (group.size() == 1) {
        Refuse(*node[static_cast<size_t>(group[0])], "it stays alone: " + closed_by);
      } else {
        break;
      }
      closed_by.clear();
    }
    if (groups.empty()) return false;
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<Instruction*> members;
      for (int m : groups[g]) members.push_back(node[static_cast<size_t>(m)]);
      // One record per group, as a merge of its first member with the rest.
      FusionDecision d;
      d.pass = std::string(name());
      d.producer = members[0]->name();
      d.producer_id = members[0]->id();
      for (size_t k = 1; k < members.size(); ++k) {
        d.consumers.push_back(members[k]->name());
        d.consumer_ids.push_back(members[k]->id());
      }
      d.verdict = FusionVerdict::kMerged;
      d.reason = std::to_string(members.size()) + " independent " + std::string(OpcodeName(OpcodeOf(kind_))) +
                 "s with " +
                 (kind_ == Kind::kAllGather ? "the same devices and channel kind" : "the same reduction, devices and channel kind") +
                 " become one over a tuple (" +
                 HumanBytes(group_bytes[g]) + " of results): one collective's start-up latency instead of " +
                 std::to_string(members.size()) + "; the group closed because " + closed[g];
      const size_t record = mutable_log().decisions.size();
      mutable_log().decisions.push_back(std::move(d));
      mutable_log().decisions[record].result = Combine(comp, members)->name();
    }
    comp.SortTopologically();
    return true;
  }

  // The dimension the combined all-gather or reduce-scatter works on: the
  // members' most frequent one (the smallest among equals), or 0 when a
  // member's rank does not have it.
  static int64_t CombinedDim(const std::vector<Instruction*>& group) {
    std::map<int64_t, int64_t> count;
    int64_t min_rank = std::numeric_limits<int64_t>::max();
    for (const Instruction* m : group) {
      if (!m->dimensions().empty()) ++count[m->dimensions()[0]];
      min_rank = std::min<int64_t>(min_rank, m->operand(0)->shape().rank());
    }
    int64_t best = 0, best_n = -1;
    for (const auto& [d, n] : count)
      if (n > best_n) best = d, best_n = n;
    return best < min_rank ? best : 0;
  }

  // A candidate left as it is, with the reason.
  void Refuse(const Instruction& x, const std::string& why) {
    FusionDecision d;
    d.pass = std::string(name());
    d.producer = x.name();
    d.producer_id = x.id();
    d.verdict = FusionVerdict::kNotFused;
    d.reason = "not combined: " + why;
    mutable_log().decisions.push_back(std::move(d));
  }

  // The combined instruction.
  Instruction* Combine(Computation& comp, const std::vector<Instruction*>& group) {
    Instruction* first = group[0];
    const bool dimensional = kind_ != Kind::kAllReduce;
    const int64_t dim = dimensional ? CombinedDim(group) : 0;
    std::vector<Instruction*> operands;
    std::vector<Shape> results;
    std::vector<int64_t> member_dim;
    for (Instruction* m : group) {
      Instruction* o = m->operand(0);
      Shape r = m->shape();
      const int64_t d = dimensional && !m->dimensions().empty() ? m->dimensions()[0] : dim;
      member_dim.push_back(d);
      if (dimensional && d != dim) {
        // Swap the member's dimension into the combined one through bitcasts.
        Instruction* bc = AddNew(&comp, nullptr, Opcode::kBitcast, SwapDims(o->shape(), d, dim), {o});
        CopyMetadataIfMissing(*m, *bc);
        o = bc;
        r = SwapDims(r, d, dim);
      }
      operands.push_back(o);
      results.push_back(r);
    }
    Instruction* combined = AddNew(&comp, nullptr, OpcodeOf(kind_), Shape::Tuple(results), operands);
    for (const RawAttr& a : first->raw_attrs())
      if (a.name != "frontend_attributes") combined->SetRaw(a.name, a.value);
    if (const RawAttr* fa = first->FindRaw("frontend_attributes")) combined->SetRaw(fa->name, fa->value);
    if (dimensional) combined->set_dimensions({dim});
    if (kind_ != Kind::kAllGather) combined->SetCalled("to_apply", first->to_apply());
    combined->metadata() = MergedMetadata(group);
    for (size_t k = 0; k < group.size(); ++k) {
      Instruction* m = group[k];
      Instruction* gte = AddNew(&comp, nullptr, Opcode::kGetTupleElement, results[k], {combined});
      gte->attrs().index = static_cast<int64_t>(k);
      gte->attrs().mark(Attr::kIndex);
      gte->metadata() = m->metadata();
      Instruction* value = gte;
      if (dimensional && member_dim[k] != dim) {
        value = AddNew(&comp, nullptr, Opcode::kBitcast, m->shape(), {gte});
        value->metadata() = m->metadata();
      }
      ReplaceInstruction(m, value, mutable_log(), std::string(OpcodeName(OpcodeOf(kind_))) + "s combined");
    }
    mutable_log().Count("combined ops", 1);
    return combined;
  }

  Kind kind_;
};

class AllReduceContiguousPass : public Pass {
 public:
  std::string_view name() const override { return "all-reduce-contiguous"; }
  std::string_view description() const override {
    return "An all-reduce over a tuple reduces one contiguous buffer instead: each operand bitcast to 1-D, "
           "concatenated, reduced, then sliced back (XLA GPU's AllReduceContiguous).";
  }

  StatusOr<bool> Run(Module& module) override {
    for (Computation* comp : NonFusionComputations(module))
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kAllReduce && Raw(*i, "constrain_layout") == "true") return false;
    bool changed = false;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> ars;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kAllReduce && i->operand_count() > 1 && i->shape().IsTuple() &&
            !i->FindRaw("sharding"))
          ars.push_back(i.get());
      for (Instruction* ar : ars) changed |= Flatten(*comp, ar);
      if (changed) comp->SortTopologically();
    }
    return changed;
  }

 private:
  bool Flatten(Computation& comp, Instruction* ar) {
    const PrimitiveType type = ar->operand(0)->shape().element_type();
    for (const Instruction* o : ar->operands())
      if (!o->shape().IsArray() || o->shape().element_type() != type) return false;  // the combiner keys by type
    // Each operand's pieces carry the metadata of the collective it was
    // before combining (its get-tuple-element's, where the combiner left
    // one), as XLA's slices name theirs; the combined op's list of every
    // member's name stays on the concatenate and the all-reduce only.
    std::vector<const Metadata*> member(static_cast<size_t>(ar->operand_count()), nullptr);
    for (const Instruction* u : ar->users())
      if (u->opcode() == Opcode::kGetTupleElement && u->tuple_index() >= 0 && u->tuple_index() < ar->operand_count() &&
          !member[static_cast<size_t>(u->tuple_index())])
        member[static_cast<size_t>(u->tuple_index())] = &u->metadata();
    auto member_metadata = [&](int k) { return member[static_cast<size_t>(k)] ? *member[static_cast<size_t>(k)] : Metadata(); };
    std::vector<Instruction*> flat;
    int64_t total = 0;
    for (int k = 0; k < ar->operand_count(); ++k) {
      Instruction* o = ar->operand(k);
      const int64_t n = o->shape().num_elements();
      Instruction* bc = AddNew(&comp, nullptr, Opcode::kBitcast, ShapeLike(o->shape(), type, {n}), {o});
      bc->metadata() = member_metadata(k);
      flat.push_back(bc);
      total += n;
    }
    const Shape flat_shape = ShapeLike(ar->operand(0)->shape(), type, {total});
    Instruction* cat = AddNew(&comp, nullptr, Opcode::kConcatenate, flat_shape, flat);
    cat->set_dimensions({0});
    cat->metadata() = ar->metadata();
    Instruction* red = AddNew(&comp, nullptr, Opcode::kAllReduce, flat_shape, {cat});
    for (const RawAttr& a : ar->raw_attrs())
      if (a.name != "constrain_layout") red->SetRaw(a.name, a.value);
    red->SetCalled("to_apply", ar->to_apply());
    red->metadata() = ar->metadata();
    std::vector<Instruction*> parts;
    int64_t offset = 0;
    for (int k = 0; k < ar->operand_count(); ++k) {
      const Shape& s = ar->shape().tuple_shapes()[static_cast<size_t>(k)];
      const int64_t n = s.num_elements();
      Instruction* sl = AddNew(&comp, nullptr, Opcode::kSlice, ShapeLike(s, type, {n}), {red});
      sl->attrs().slice = {SliceDim{offset, offset + n, 1}};
      sl->attrs().mark(Attr::kSlice);
      sl->metadata() = member_metadata(k);
      offset += n;
      Instruction* back = AddNew(&comp, nullptr, Opcode::kBitcast, s, {sl});
      back->metadata() = member_metadata(k);
      parts.push_back(back);
    }
    // Users that take one element read its part directly; any other use
    // reads a tuple of the parts.
    const std::vector<Instruction*> users(ar->users().begin(), ar->users().end());
    for (Instruction* u : users) {
      if (u->opcode() != Opcode::kGetTupleElement || u->tuple_index() < 0 ||
          u->tuple_index() >= static_cast<int64_t>(parts.size()))
        continue;
      ReplaceInstruction(u, parts[static_cast<size_t>(u->tuple_index())], mutable_log(), "gte(all-reduce) → slice");
    }
    const char* rule = "all-reduce of a tuple → all-reduce of one contiguous buffer";
    if (ar->user_count() == 0 && !ar->IsRoot()) {
      mutable_log().Record(rule, *ar);
      mutable_log().Replaced(*ar, *red);
      comp.RemoveInstruction(ar);
    } else {
      ReplaceInstruction(ar, AddNew(&comp, nullptr, Opcode::kTuple, ar->shape(), parts), mutable_log(), rule);
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeAllGatherCombinerPass() { return std::make_unique<CombinerPass>(Kind::kAllGather); }
std::unique_ptr<Pass> MakeAllReduceCombinerPass() { return std::make_unique<CombinerPass>(Kind::kAllReduce); }
std::unique_ptr<Pass> MakeReduceScatterCombinerPass() { return std::make_unique<CombinerPass>(Kind::kReduceScatter); }
std::unique_ptr<Pass> MakeAllReduceContiguousPass() { return std::make_unique<AllReduceContiguousPass>(); }

}  // namespace hloscope
