#include "core/memory/io_alias.h"

#include <algorithm>
#include <regex>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/ir/custom_calls.h"
#include "core/support/str_util.h"

namespace hloscope {
namespace {

std::vector<int64_t> ParseInts(const std::string& s) {
  std::vector<int64_t> out;
  size_t p = 0;
  while (p < s.size()) {
    while (p < s.size() && !(s[p] >= '0' && s[p] <= '9')) ++p;
    if (p >= s.size()) break;
    int64_t v = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') v = v * 10 + (s[p++] - '0');
    out.push_back(v);
  }
  return out;
}

std::string Braced(const std::vector<int64_t>& v) { return "{" + JoinInts(v) + "}"; }

// The instruction holding the bytes `x` reads at tuple path `path`: through
// tuples (operand), get-tuple-elements (prepend the index), views.
const Instruction* Underlying(const Instruction* x, std::vector<int64_t> path,
                              std::vector<int64_t>* rest = nullptr) {
  for (int guard = 0; guard < 10000 && x; ++guard) {
    if (x->opcode() == Opcode::kTuple && !path.empty()) {
      if (path[0] < 0 || path[0] >= x->operand_count()) return nullptr;
      x = x->operand(static_cast<int>(path[0]));
      path.erase(path.begin());
      continue;
    }
    if (x->opcode() == Opcode::kGetTupleElement) {
      path.insert(path.begin(), x->tuple_index());
      x = x->operand(0);
      continue;
    }
    if (path.empty() && IsBufferView(*x)) {
      x = x->operand(0);
      continue;
    }
    break;
  }
  if (rest) *rest = std::move(path);
  return x;
}

// A fusion whose kernel computes every output of an element before storing
// any: loop fusions the loop emitter compiles, and reductions (their side
// outputs), core/codegen/{loop,reduction}_emitter.cc. A dot, convolution,
// sort, scatter or dynamic-update-slice picks another emitter.
bool ComputesEveryOutputBeforeStoring(const Instruction& fusion) {
  const Computation* c = fusion.fused_computation();
  if (!c || (fusion.fusion_kind() != FusionKind::kLoop && fusion.fusion_kind() != FusionKind::kInput)) return false;
  bool reduce = false;
  for (const auto& i : c->instructions()) {
    switch (i->opcode()) {
      case Opcode::kReduce: reduce = true; break;
      case Opcode::kDot: case Opcode::kConvolution: case Opcode::kSort: case Opcode::kScatter:
      case Opcode::kDynamicUpdateSlice:
        return false;
      default: break;
    }
  }
  return fusion.fusion_kind() == FusionKind::kLoop || reduce;
}

}  // namespace

std::string IoAlias::ToString() const {
  return Braced(output_index) + ": (" + std::to_string(parameter) + ", " + Braced(parameter_index) + ", " +
         (must_alias ? "must-alias" : "may-alias") + ")";
}

std::vector<IoAlias> ParseInputOutputAlias(const Module& m) {
  std::vector<IoAlias> out;
  const RawAttr* io = m.FindHeader("input_output_alias");
  if (!io) return out;
  static const std::regex entry(
      R"(\{([0-9,\s]*)\}\s*:\s*\(?\s*([0-9]+)\s*(?:,\s*\{([0-9,\s]*)\})?\s*(?:,\s*([a-z-]+))?\s*\)?)");
  for (auto it = std::sregex_iterator(io->value.begin(), io->value.end(), entry); it != std::sregex_iterator();
       ++it) {
    const std::smatch& mt = *it;
    IoAlias a;
    a.output_index = ParseInts(mt[1].str());
    a.parameter = std::atoll(mt[2].str().c_str());
    if (mt[3].matched) a.parameter_index = ParseInts(mt[3].str());
    a.must_alias = mt[4].matched && mt[4].str() == "must-alias";
    out.push_back(std::move(a));
  }
  return out;
}

bool ReshapeIsBitcast(const Instruction& i) {
  if (i.operand_count() < 1) return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  auto default_layout = [](const Shape& s) {
    return !s.has_layout() || s.layout().minor_to_major == Shape::DefaultLayout(s.rank()).minor_to_major;
  };
  return in.element_type() == out.element_type() && default_layout(in) && default_layout(out) &&
         !in.IsDynamic() && !out.IsDynamic();
}

bool IsBufferView(const Instruction& i) {
  switch (i.opcode()) {
    case Opcode::kBitcast: return i.operand_count() == 1;
    case Opcode::kReshape: return ReshapeIsBitcast(i);
    case Opcode::kCustomCall: return i.operand_count() >= 1 && IsIdentityCustomCall(i);
    default: return false;
  }
}

bool FusedParameterReadElementwise(const Instruction& fusion, int k, const std::vector<int64_t>& leaf,
                                   bool siblings_may_read) {
  const Computation* c = fusion.fused_computation();
  if (!c || k >= c->num_parameters()) return false;
  const Shape* leaf_shape = &fusion.shape();
  for (int64_t i : leaf) {
    if (!leaf_shape->IsTuple() || i < 0 || i >= leaf_shape->tuple_size()) return false;
    leaf_shape = &leaf_shape->tuple_shapes()[static_cast<size_t>(i)];
  }
  if (!leaf_shape->IsArray()) return false;
  const Shape& out = *leaf_shape;
  // The reduction emitter reads every element of a reduce's input once, at
  // the index where it also writes the side outputs, before storing them
  // (core/codegen/reduction_emitter.cc): a path may end in such a reduce
  // (XLA's FusionCanShareBufferHint stops at the reduction hero).
  const std::vector<const Instruction*> roots = FusionRoots(fusion);
  std::vector<const Instruction*> heroes;
  if (fusion.fusion_kind() == FusionKind::kInput)
    for (const Instruction* r : roots)
      if (const Instruction* hero = ReductionHero(r)) heroes.push_back(hero);
  std::vector<const Instruction*> todo{c->parameter(k)};
  std::vector<const Instruction*> seen;
  while (!todo.empty()) {
    const Instruction* x = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
    seen.push_back(x);
    if (x == c->root() && x->opcode() == Opcode::kTuple) continue;  // a multi-output fusion's outputs
    if (x->opcode() == Opcode::kReduce && std::find(heroes.begin(), heroes.end(), x) != heroes.end()) continue;
    // Every element in the same place in memory as the output's: the
    // output's dims and layout, or a reshape of it that moves no byte (a
    // bitcast, the tree-reduced view of a full reduction's input).
    // A reshaped value may only feed the reduction: an output of other dims
    // is written by another loop of the kernel (the loop emitter groups its
    // outputs by shape), after this one stored over the parameter.
    const bool exact = x->shape().dims() == out.dims() && x->shape().maybe_layout() == out.maybe_layout();
    const bool same_elements =
        exact || (!heroes.empty() && ReshapeIsBitcastBetween(x->shape(), out) &&
                  std::find(roots.begin(), roots.end(), x) == roots.end());
    const bool view = x->opcode() == Opcode::kBitcast || (x->opcode() == Opcode::kReshape && ReshapeIsBitcast(*x));
    // A dynamic-update-slice writes over its operand 0 in place (XLA's
    // in-place DUS fusions); its update and indices must not read it.
    const bool in_place_dus = x->opcode() == Opcode::kDynamicUpdateSlice;
    if (!same_elements ||
        (x->opcode() != Opcode::kParameter && !IsElementwise(x->opcode()) && !in_place_dus && !view))
      return false;
    for (const Instruction* u : x->users()) todo.push_back(u);
  }
  // In a multi-output fusion the parameter must feed the written output
  // alone, unless the emitter computes every output's element before it
  // stores any (the loop emitter does; a sibling output computed after the
  // store would read the new value).
  if (c->root()->opcode() == Opcode::kTuple && !leaf.empty() && !siblings_may_read) {
    for (int j = 0; j < c->root()->operand_count(); ++j)
      if (j != leaf[0] && std::find(seen.begin(), seen.end(), c->root()->operand(j)) != seen.end()) return false;
  }
  for (const Instruction* x : seen) {
    if (x->opcode() != Opcode::kDynamicUpdateSlice) continue;
    for (int k = 1; k < x->operand_count(); ++k)
      if (std::find(seen.begin(), seen.end(), x->operand(k)) != seen.end()) return false;
  }
  return true;
}

bool WritesOverOperandInPlace(const Instruction& writer, const std::vector<int>& operand_slots,
                              const std::vector<int64_t>& leaf) {
  if (!writer.shape().IsArray() && writer.opcode() != Opcode::kFusion && writer.opcode() != Opcode::kWhile)
    return false;
  for (int k : operand_slots) {
    if (k < 0 || k >= writer.operand_count()) return false;
    const Shape& in = writer.operand(k)->shape();
    switch (writer.opcode()) {
      case Opcode::kWhile:
        // The runtime copies the init into the loop state before the first
        // iteration and the state into the result after the last
        // (core/codegen/kernel_plan.cc, PlanWhile): the result is written
        // only after every read of the init.
        break;
      case Opcode::kDynamicUpdateSlice:
      case Opcode::kScatter:
        if (k != 0) return false;
        break;
      case Opcode::kFusion:
        // XLA's CanShareBuffer: loop and input fusions whose parameter is used
        // only elementwise (or by the root tuple).
        if ((writer.fusion_kind() != FusionKind::kLoop && writer.fusion_kind() != FusionKind::kInput) ||
            !FusedParameterReadElementwise(writer, k, leaf, /*siblings_may_read=*/ComputesEveryOutputBeforeStoring(writer)))
          return false;
        break;
      default:
        if (!IsElementwise(writer.opcode()) || in.dims() != writer.shape().dims() ||
            in.maybe_layout() != writer.shape().maybe_layout())
          return false;
    }
  }
  return true;
}

namespace {

// One alias, analysed up to the question of order: which readers of the
// parameter are ancestors of the writer.
struct Pending {
  AliasHazard h;
  IoAlias alias;
  std::vector<Instruction*> readers;
  std::vector<int64_t> writer_leaf;
  bool foreign = false, copyable = false;
  bool done = true;  // nothing left to decide
};

Pending Prepare(const Module& m, const IoAlias& alias) {
  Pending pd;
  pd.alias = alias;
  AliasHazard& h = pd.h;
  const Computation* entry = m.entry();
  if (!entry || !entry->root() || alias.parameter < 0 || alias.parameter >= entry->num_parameters()) return pd;
  const Instruction* param = entry->parameter(static_cast<int>(alias.parameter));
  h.parameter = param;

  // The root's leaf and the tuple that holds it.
  Instruction* x = entry->root();
  bool tuples_private = true;  // each tuple on the path feeds only the next
  for (size_t d = 0; d < alias.output_index.size(); ++d) {
    const int64_t k = alias.output_index[d];
    if (x->opcode() != Opcode::kTuple || k < 0 || k >= x->operand_count()) {
      // A leaf of a tuple that is not built here (a while or fusion result).
      h.leaf_tuple = nullptr;
      h.leaf_value = nullptr;
      break;
    }
    if (x != entry->root() && x->user_count() != 1) tuples_private = false;
    h.leaf_tuple = x;
    h.leaf_operand = static_cast<int>(k);
    x = x->operand(static_cast<int>(k));
    h.leaf_value = x;
  }
  if (alias.output_index.empty()) h.leaf_value = x;
  std::vector<int64_t>& writer_leaf = pd.writer_leaf;  // the output's leaf within the writer's result
  if (!h.leaf_value) {
    // Walk what is left through get-tuple-elements as the root reads it.
    h.writer = Underlying(entry->root(), alias.output_index, &writer_leaf);
  } else {
    h.writer = Underlying(h.leaf_value, {}, &writer_leaf);
  }
  if (!h.writer) return pd;

  // Every instruction that reads the parameter leaf's value, seen through
  // tuples, get-tuple-elements and views; and the output paths where the
  // value itself reaches the root.
  struct State {
    const Instruction* at;
    std::vector<int64_t> path;  // where the leaf sits in `at`'s result
  };
  std::vector<State> todo{{param, alias.parameter_index}};
  std::unordered_set<const Instruction*> readers_seen;
  std::vector<Instruction*>& readers = pd.readers;
  std::vector<std::vector<int64_t>> returned_at;
  int guard = 0;
  while (!todo.empty() && ++guard < 1000000) {
    State s = std::move(todo.back());
    todo.pop_back();
    if (s.at == entry->root()) returned_at.push_back(s.path);
    for (Instruction* u : s.at->users()) {
      if (u->opcode() == Opcode::kGetTupleElement) {
        if (!s.path.empty() && s.path[0] == u->tuple_index())
          todo.push_back({u, std::vector<int64_t>(s.path.begin() + 1, s.path.end())});
        continue;
      }
      if (u->opcode() == Opcode::kTuple) {
        for (int j = 0; j < u->operand_count(); ++j)
          if (u->operand(j) == s.at) {
            std::vector<int64_t> p{j};
            p.insert(p.end(), s.path.begin(), s.path.end());
            todo.push_back({u, std::move(p)});
          }
        continue;
      }
      if (s.path.empty() && IsBufferView(*u)) {
        todo.push_back({u, {}});
        continue;
      }
      if (readers_seen.insert(u).second) readers.push_back(u);
    }
  }
  // Reaching the root at the aliased index is the output itself.
  bool other_output = false;
  for (const auto& p : returned_at) {
    std::vector<int64_t> full = p;
    if (full == alias.output_index) h.passthrough = true;
    else other_output = true;
  }
  if (h.passthrough && !other_output) return pd;
  if (other_output) {
    h.why_not = "parameter " + std::to_string(alias.parameter) + " is also returned as another output";
    h.copy_fixes = false;
    return pd;
  }
  // A copy can take the leaf's place where the root's tuples are private, or
  // where the root is a multi-output instruction (copy_insertion first
  // rebuilds it as a tuple of its elements).
  const bool copyable = pd.copyable = tuples_private && (h.leaf_value || (!alias.output_index.empty() &&
                                                            entry->root()->opcode() != Opcode::kTuple));
  // An output that is another parameter or a constant is not this output's
  // to hand over: it needs a copy, and the copy must follow every read.
  const bool foreign = pd.foreign = h.writer->opcode() == Opcode::kParameter || h.writer->opcode() == Opcode::kConstant;
  if (foreign) {
    h.why_not = "the output is " +
                std::string(h.writer->opcode() == Opcode::kParameter ? "parameter %" : "the constant %") +
                h.writer->name() + ", whose bytes are not this output's to overwrite";
    h.copy_fixes = copyable;
  }

  (void)foreign;
  (void)copyable;
  pd.done = false;
  return pd;
}

// Decides the readers' order: `before(r)` is true when `r` is an ancestor
// of the writer (it runs first under every schedule).
template <typename Before>
void Finish(Pending& pd, const Before& before) {
  AliasHazard& h = pd.h;
  const IoAlias& alias = pd.alias;
  const Instruction* param = h.parameter;
  const bool foreign = pd.foreign, copyable = pd.copyable;
  const std::vector<int64_t>& writer_leaf = pd.writer_leaf;
  std::string late;
  for (Instruction* r : pd.readers) {
    if (r == h.writer) {
      // The writer reads the old value itself: fine where it reads each
      // element only to write that element.
      std::vector<int> slots;
      for (int k = 0; k < r->operand_count(); ++k)
        if (Underlying(r->operand(k), {}) == param) slots.push_back(k);
      if (r->opcode() == Opcode::kWhile) continue;  // reads its init before the first iteration (see above)
      if (!slots.empty() && WritesOverOperandInPlace(*r, slots, writer_leaf)) continue;
      h.late_readers.push_back(r);
      if (late.empty()) late = "%" + r->name() + " reads it other than element by element while writing the output";
      continue;
    }
    if (before(r)) continue;
    h.late_readers.push_back(r);
    if (late.empty()) late = "%" + r->name() + " reads it and need not run before %" + h.writer->name();
  }
  if (!h.late_readers.empty() && !foreign) {
    h.why_not = "parameter " + std::to_string(alias.parameter) + " is still read after its new value is written: " +
                late;
    if (h.late_readers.size() > 1)
      h.why_not += " (and " + std::to_string(h.late_readers.size() - 1) + " more)";
    h.copy_fixes = copyable;
  }
}

}  // namespace

std::vector<AliasHazard> AnalyzeAliasHazards(const Module& m, const std::vector<IoAlias>& aliases) {
  std::vector<Pending> pending;
  pending.reserve(aliases.size());
  for (const IoAlias& a : aliases) pending.push_back(Prepare(m, a));
  // Which writers each entry instruction is an ancestor (or the writer) of:
  // one bit per distinct writer, OR-ed from users and control successors
  // into operands in reverse post-order; O(instructions x writers / 64).
  std::unordered_map<const Instruction*, size_t> writer_bit;
  for (const Pending& pd : pending)
    if (!pd.done) writer_bit.emplace(pd.h.writer, writer_bit.size());
  if (!writer_bit.empty()) {
    const size_t words = (writer_bit.size() + 63) / 64;
    const std::vector<Instruction*> order = m.entry()->MakePostOrder();
    std::unordered_map<const Instruction*, size_t> slot;
    slot.reserve(order.size() * 2);
    for (size_t i = 0; i < order.size(); ++i) slot.emplace(order[i], i);
    std::vector<uint64_t> bits(order.size() * words, 0);
    for (size_t i = order.size(); i-- > 0;) {
      uint64_t* row = &bits[i * words];
      if (auto w = writer_bit.find(order[i]); w != writer_bit.end())
        row[w->second / 64] |= uint64_t{1} << (w->second % 64);
      auto merge = [&](const Instruction* u) {
        auto it = slot.find(u);
        if (it == slot.end()) return;
        const uint64_t* from = &bits[it->second * words];
        for (size_t k = 0; k < words; ++k) row[k] |= from[k];
      };
      for (const Instruction* u : order[i]->users()) merge(u);
      for (const Instruction* u : order[i]->control_successors()) merge(u);
    }
    for (Pending& pd : pending) {
      if (pd.done) continue;
      const size_t b = writer_bit.at(pd.h.writer);
      Finish(pd, [&](const Instruction* r) {
        auto it = slot.find(r);
        return it != slot.end() && ((bits[it->second * words + b / 64] >> (b % 64)) & 1) != 0;
      });
    }
  }
  std::vector<AliasHazard> out;
  out.reserve(pending.size());
  for (Pending& pd : pending) out.push_back(std::move(pd.h));
  return out;
}

AliasHazard AnalyzeAliasHazard(const Module& m, const IoAlias& alias) {
  return std::move(AnalyzeAliasHazards(m, {alias})[0]);
}

}  // namespace hloscope
