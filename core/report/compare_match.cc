#include "core/report/compare_match.h"


#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <cmath>
#include <optional>

#include "core/ir/custom_calls.h"
#include "core/ir/literal.h"
#include "core/printer/printer.h"

namespace hloscope::report::compare_detail {
namespace {

bool Transparent(Opcode op) {
  return op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape ||
         op == Opcode::kGetTupleElement || op == Opcode::kTuple || op == Opcode::kParameter ||
         op == Opcode::kConstant;  // constants match by value (Side::ClassOf), they are no kernels
}

// A cuDNN convolution's value is the first element of its (result, scratch).
std::string ShapeKey(const Instruction* i) { return ConvolutionResultShape(*i).ToString(false); }

// The value of a float scalar constant, seen through broadcasts (both sides
// keep such constants inside the fusions that read them).
std::optional<double> SplatValue(const Instruction* i) {
  while (i->opcode() == Opcode::kBroadcast && i->operand_count() == 1) i = i->operand(0);
  if (i->opcode() != Opcode::kConstant || !i->literal() || !i->shape().IsArray() || i->shape().rank() != 0 ||
      !IsFloat(i->shape().element_type()))
    return std::nullopt;
  return i->literal()->GetDouble(0);
}

// x / c on one side and x * d on the other with c · d = 1 to the rounding
// of d's type (XLA rounds 1/c to it: about 1e-7 in f32, 4e-3 in bf16):
// XLA's algsimp multiplies by the reciprocal where ours keeps the division
// (exact only for powers of two; docs/fusion.md).
bool ReciprocalPair(const Instruction* x, const Instruction* y) {
  if (x->opcode() == Opcode::kMultiply && y->opcode() == Opcode::kDivide) std::swap(x, y);
  if (x->opcode() != Opcode::kDivide || y->opcode() != Opcode::kMultiply) return false;
  std::optional<double> c = SplatValue(x->operand(1));
  std::optional<double> d = SplatValue(y->operand(1));
  if (!d) d = SplatValue(y->operand(0));
  PrimitiveType t = y->shape().element_type();
  double tol = t == PrimitiveType::kF32 || t == PrimitiveType::kF64 ? 1e-6 : 1e-2;
  return c && d && std::fabs(*c * *d - 1.0) < tol;
}

// The same operation on both sides: the same opcode, XLA GPU's cuDNN call
// for a convolution, or a division by a constant for the multiplication by
// its reciprocal.
bool SameOp(const Instruction* x, const Instruction* y) {
  if (x->opcode() == y->opcode())
    return x->opcode() != Opcode::kCustomCall || IsCudnnConvCustomCall(*x) == IsCudnnConvCustomCall(*y);
  auto conv = [](const Instruction* i) { return i->opcode() == Opcode::kConvolution || IsCudnnConvCustomCall(*i); };
  if (conv(x) && conv(y)) return true;
  return ReciprocalPair(x, y);
}

// How well two ops' shapes agree: 2 the same element type and dimensions,
// 1 the same element type and element count (XLA GPU flattens batch
// dimensions and picks other physical shapes for dots), 0 not at all.
// With `any_type`, another element type counts as 1 too (XLA GPU computes
// some bf16 ops in f32 between converts).
int ShapeFit(const Instruction* x, const Instruction* y, bool any_type = false) {
  const Shape& s = ConvolutionResultShape(*x);
  const Shape& t = ConvolutionResultShape(*y);
  if (!s.IsArray() || !t.IsArray()) return ShapeKey(x) == ShapeKey(y) ? 2 : 0;
  if (s.element_type() != t.element_type()) return any_type && s.num_elements() == t.num_elements() ? 1 : 0;
  if (s.SameDims(t)) return 2;
  return s.num_elements() == t.num_elements() ? 1 : 0;
}

// The attributes that change what an op computes (dimensions, directions,
// slices...), without computation names, metadata or backend configs.
std::string AttrKey(const Instruction* i) {
  PrintOptions po;
  po.print_metadata = false;
  po.print_backend_config = false;
  std::string text = PrintAttributes(*i, po);
  std::string key;
  for (const char* name : {"dimensions=", "iota_dimension=", "direction=", "slice=", "padding=", "lhs_contracting_dims=",
                           "rhs_contracting_dims=", "lhs_batch_dims=", "rhs_batch_dims=", "index=", "window=",
                           "dim_labels=", "feature_group_count=", "dynamic_slice_sizes=", "comparison_type="}) {
    size_t p = 0;
    while ((p = text.find(name, p)) != std::string::npos) {
      if (p > 0 && text[p - 1] != ' ' && text[p - 1] != ',') {  // part of a longer name
        p += 1;
        continue;
      }
      int depth = 0;
      size_t e = p;
      for (; e < text.size(); ++e) {
        if (text[e] == '{') ++depth;
        else if (text[e] == '}') --depth;
        else if (text[e] == ',' && depth == 0) break;
      }
      key += "|" + text.substr(p, e - p);
      break;
    }
  }
  return key;
}

// Opcode + shape + operand classes ("" when an operand is not matched yet);
// `leaf_values`: see Side::ClassOf.
std::string Signature(const Side& s, const Instruction* i, bool leaf_values = false) {
  std::vector<std::string> ops;
  for (const Instruction* o : i->operands()) {
    std::string c = s.ClassOf(o, leaf_values);
    if (c.empty()) return {};
    ops.push_back(c);
  }
  if (IsCommutative(i->opcode())) std::sort(ops.begin(), ops.end());
  std::string sig = std::string(OpcodeName(i->opcode())) + "|" + ShapeKey(i) + AttrKey(i);
  if (i->opcode() == Opcode::kConstant && i->literal()) sig += "|" + i->literal()->ToString();
  for (const auto& c : ops) sig += "|" + c;
  return sig;
}

// The classes of an op's operands that are known (matched, parameters, constants).
std::multiset<std::string> KnownOperandClasses(const Side& s, const Instruction* i) {
  std::multiset<std::string> out;
  for (const Instruction* o : i->operands())
    if (std::string c = s.ClassOf(o); !c.empty()) out.insert(std::move(c));
  return out;
}

int CommonCount(const std::multiset<std::string>& x, const std::multiset<std::string>& y) {
  int n = 0;
  auto i = x.begin();
  auto j = y.begin();
  while (i != x.end() && j != y.end()) {
    if (*i < *j) ++i;
    else if (*j < *i) ++j;
    else ++n, ++i, ++j;
  }
  return n;
}

// A rematerializable leaf: an iota, or a broadcast of a constant or of a
// scalar. Fusion duplicates these into every consumer kernel, on both sides,
// so their names and op_names are no identities: an op of that name in
// another kernel is another copy.
bool RematLeaf(const Side& s, const Instruction* i) {
  if (i->opcode() == Opcode::kIota) return true;
  if (i->opcode() != Opcode::kBroadcast || i->operand_count() != 1) return false;
  const Shape& o = i->operand(0)->shape();
  return (o.IsArray() && o.rank() == 0) || s.Resolve(i->operand(0))->opcode() == Opcode::kConstant;
}

}  // namespace

void Side::Collect(const Computation& c, const Instruction* kernel) {
  for (const Instruction* i : c.MakePostOrder()) {
    if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
      Collect(*i->fused_computation(), kernel ? kernel : i);
      continue;
    }
    // An asynchronous op is its wrapped computation's work: its ops are
    // the ops of the kernel it wraps, and the async-done is its value.
    if (i->opcode() == Opcode::kAsyncStart && !i->called_computations().empty()) {
      for (const Computation* w : i->called_computations()) {
        async_caller[w] = i;
        Collect(*w, kernel);  // the wrapped fusion is the kernel (XLA's loop_dynamic_slice_fusion)
      }
      continue;
    }
    if (i->opcode() == Opcode::kAsyncUpdate || i->opcode() == Opcode::kAsyncDone) continue;
    if (Transparent(i->opcode())) continue;
    atom_of[i] = static_cast<int>(atoms.size());
    atoms.push_back({i, kernel ? kernel : i, -1, nullptr});
  }
}

void Side::CollectModule(const Module& module) {
  m = &module;
  if (!module.entry()) return;
  Collect(*module.entry(), nullptr);
  std::unordered_set<const Computation*> bodies;
  for (const auto& c : module.computations())
    for (const auto& i : c->instructions())
      if (i->opcode() == Opcode::kWhile || i->opcode() == Opcode::kConditional || i->opcode() == Opcode::kCall)
        for (const Computation* b : i->called_computations()) bodies.insert(b);
  for (const auto& c : module.computations())
    if (c.get() != module.entry() && !c->fusion_instruction && bodies.count(c.get())) Collect(*c, nullptr);
}

const Instruction* Side::Resolve(const Instruction* i) const {
  std::vector<int64_t> index;  // pending tuple indices
  for (int depth = 0; depth < 256; ++depth) {
    Opcode op = i->opcode();
    if (op == Opcode::kParameter) {
      const Computation* c = i->parent();
      if (c && c->fusion_instruction && i->parameter_number() < c->fusion_instruction->operand_count()) {
        i = c->fusion_instruction->operand(static_cast<int>(i->parameter_number()));
        continue;
      }
      if (auto a = c ? async_caller.find(c) : async_caller.end();
          a != async_caller.end() && i->parameter_number() < a->second->operand_count()) {
        i = a->second->operand(static_cast<int>(i->parameter_number()));
        continue;
      }
      return i;
    }
    // async-done (through async-updates) carries the wrapped computation's
    // result.
    if ((op == Opcode::kAsyncDone || op == Opcode::kAsyncUpdate) && i->operand_count() == 1) {
      i = i->operand(0);
      continue;
    }
    if (op == Opcode::kAsyncStart && !i->called_computations().empty() && i->called_computations()[0]->root() &&
        index.empty()) {
      i = i->called_computations()[0]->root();
      continue;
    }
    if (op == Opcode::kFusion && i->fused_computation() && i->fused_computation()->root()) {
      i = i->fused_computation()->root();
      continue;
    }
    if (op == Opcode::kGetTupleElement && i->operand_count() == 1) {
      index.push_back(i->tuple_index());
      i = i->operand(0);
      continue;
    }
    if (op == Opcode::kTuple && !index.empty()) {
      int64_t k = index.back();
      index.pop_back();
      if (k < 0 || k >= i->operand_count()) return i;
      i = i->operand(static_cast<int>(k));
      continue;
    }
    if ((op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape) && i->operand_count() == 1) {
      i = i->operand(0);
      continue;
    }
    return i;
  }
  return i;
}

std::string Side::ClassOf(const Instruction* operand, bool leaf_values) const {
  const Instruction* r = Resolve(operand);
  if (r->opcode() == Opcode::kParameter) return "p" + std::to_string(r->parameter_number());
  if (r->opcode() == Opcode::kConstant && r->literal())
    return "c" + r->shape().ToString(false) + (r->shape().num_elements() <= 16 ? r->literal()->ToString() : r->name());
  if (leaf_values && RematLeaf(*this, r)) {  // whichever copy: by what it broadcasts, or the iota
    if (r->opcode() == Opcode::kIota) return "i" + ShapeKey(r) + AttrKey(r);
    const Instruction* o = r->operand(0);
    std::string v = ClassOf(o, true);
    if (v.empty()) return v;
    if (o->shape().rank() == 0)  // every element the scalar: the dimensions do not matter
      return "s" + std::to_string(r->shape().num_elements()) + "|" + v;
    return "b" + ShapeKey(r) + AttrKey(r) + "|" + v;
  }
  auto it = class_of.find(r);
  return it == class_of.end() ? std::string() : it->second;
}

int Side::AtomIndex(const Instruction* i) const {
  auto it = atom_of.find(Resolve(i));
  return it == atom_of.end() ? -1 : it->second;
}

namespace {

// Keys an atom is known by for one way of matching (op_name, scheduling_name).
using KeyFn = std::vector<std::string> (*)(const Instruction*);

// Where an op came from: its op_name metadata, or its own name when it has
// none (XLA names the ops of a module read from HLO text after the input's
// instructions: op_name="mul.33").
std::vector<std::string> SourceKey(const Instruction* i) {
  std::string op = i->MetadataValue("op_name");
  return {op.empty() ? i->name() : op};
}
// The same, and the op's own name when its op_name is another (XLA CPU's
// op_name is JAX's path, "jit(f)/conv_general_dilated", while an op of ours
// made from its instruction names it: op_name="conv_general_dilated.3").
std::vector<std::string> SourceKeyAndName(const Instruction* i) {
  std::vector<std::string> keys = SourceKey(i);
  if (keys[0] != i->name()) keys.push_back(i->name());
  return keys;
}
std::vector<std::string> OwnName(const Instruction* i) { return {i->name()}; }
std::vector<std::string> EarlierNames(const Instruction* i) {
  std::vector<std::string> out;
  for (const char* k : {"scheduling_name", "deduplicated_name"})
    if (std::string v = i->MetadataValue(k); !v.empty() && v != i->name()) out.push_back(std::move(v));
  return out;
}

class Matcher {
 public:
  Matcher(Side& a, Side& b, std::map<std::string, int64_t>* by) : a_(a), b_(b), by_(by) {
    for (const Atom& x : a_.atoms) a_names_.insert(x.instr->name());
    for (const Atom& y : b_.atoms) b_names_.insert(y.instr->name());
    for (const Atom& x : a_.atoms) a_leaf_.push_back(RematLeaf(a_, x.instr));
    for (const Atom& y : b_.atoms) b_leaf_.push_back(RematLeaf(b_, y.instr));
    a_renamed_ = Renamed(a_);
    b_renamed_ = Renamed(b_);
  }

  // Whether a side renamed the ops of the module it was given (XLA GPU's
  // output: most ops carry an op_name, an instruction name other than their
  // own). Its ops without an op_name are ops it made (a broadcast it split
  // off), and their names say nothing about the other side's.
  static bool Renamed(const Side& s) {
    int64_t named = 0, renamed = 0;
    for (const Atom& x : s.atoms) {
      std::string op = x.instr->MetadataValue("op_name");
      if (op.empty()) continue;
      ++named;
      renamed += op != x.instr->name() && IsInstructionName(op);
    }
    return named > 0 && 2 * renamed > static_cast<int64_t>(s.atoms.size());
  }

  void Run() {
    // Rematerializable leaves (RematLeaf) are matched through their users
    // (ByUsers); those that no matched user placed are matched by name,
    // op_name, scheduling_name and structure in a second pass (LeafHeld).
    leaves_by_name_ = false;
    ByName();
    ByOutputs();
    Rounds();
    leaves_by_name_ = true;
    ByName();
    Rounds();
    any_type_ = true;
    ByCopies();
    any_type_ = false;
    PlaceCopies();
  }

  // Copies meet copies in the kernels that hold them. Fusion duplicates a
  // producer into several consumers on both sides (our copies keep the
  // producer's name; XLA's are renamed), and the ways above pair each of
  // XLA's copies with one of ours without looking at where either sits.
  // Each kernel of B is anchored in the A kernel holding most of the
  // counterparts of its ops that have no copies (the dot of a GEMM fusion,
  // a reduction); a B op matched to an op of ours that has copies is moved
  // to the copy in its kernel's anchor, where there is one. A's side then
  // points at a B op that now points back, preferring one anchored in its
  // own kernel, or at none.
  void PlaceCopies() {
    std::map<std::tuple<std::string, int, std::string>, std::vector<int>> copies;
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      const Instruction* x = a_.atoms[k].instr;
      copies[{x->name(), static_cast<int>(x->opcode()), ShapeKey(x)}].push_back(static_cast<int>(k));
    }
    std::vector<const std::vector<int>*> group_of(a_.atoms.size(), nullptr);
    for (const auto& entry : copies)
      if (entry.second.size() > 1)
        for (int k : entry.second) group_of[static_cast<size_t>(k)] = &entry.second;
    // The anchor of each B kernel.
    std::unordered_map<const Instruction*, std::unordered_map<const Instruction*, int>> votes;
    for (const Atom& y : b_.atoms)
      if (y.match >= 0 && !group_of[static_cast<size_t>(y.match)]) ++votes[y.kernel][a_.atoms[y.match].kernel];
    std::unordered_map<const Instruction*, const Instruction*> anchor;
    for (const auto& [kb, counts] : votes) {
      const Instruction* best = nullptr;
      int most = 0, second = 0;
      for (const auto& [ka, n] : counts) {
        if (n > most) second = most, most = n, best = ka;
        else if (n > second) second = n;
      }
      if (best && most > second) anchor[kb] = best;
    }
    for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
      Atom& y = b_.atoms[kb];
      if (y.match < 0 || !group_of[static_cast<size_t>(y.match)]) continue;
      auto it = anchor.find(y.kernel);
      if (it == anchor.end() || a_.atoms[y.match].kernel == it->second) continue;
      for (int x : *group_of[static_cast<size_t>(y.match)]) {
        if (a_.atoms[x].kernel != it->second) continue;
        y.match = x;
        break;
      }
    }
    // A B op left without a counterpart in an anchored kernel takes the
    // one op of the anchor that computes the same from the same operands
    // and whose own counterpart sits in a kernel anchored elsewhere (a
    // broadcast of a bias, copied into both sides' kernels: one-to-one
    // matching gave our copy to another of XLA's copies).
    std::unordered_map<const Instruction*, std::vector<int>> a_of_kernel;
    for (size_t x = 0; x < a_.atoms.size(); ++x) a_of_kernel[a_.atoms[x].kernel].push_back(static_cast<int>(x));
    for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
      Atom& y = b_.atoms[kb];
      if (y.match >= 0) continue;
      auto it = anchor.find(y.kernel);
      if (it == anchor.end()) continue;
      const std::multiset<std::string> want = KnownOperandClasses(b_, y.instr);
      if (static_cast<int>(want.size()) != y.instr->operand_count()) continue;
      int found = -1, count = 0;
      for (int x : a_of_kernel[it->second]) {
        if (count > 1) break;
        const Atom& ax = a_.atoms[static_cast<size_t>(x)];
        if (!SameOp(ax.instr, y.instr) || ShapeFit(ax.instr, y.instr, true) == 0) continue;
        if (ax.match >= 0) {
          auto there = anchor.find(b_.atoms[static_cast<size_t>(ax.match)].kernel);
          if (there != anchor.end() && there->second == ax.kernel) continue;  // placed at home
        }
        const std::multiset<std::string> have = KnownOperandClasses(a_, ax.instr);
        if (have.size() != want.size() || CommonCount(have, want) != static_cast<int>(want.size())) continue;
        found = x;
        ++count;
      }
      if (count == 1) Point(static_cast<int>(kb), found, "copy in place");
    }
    // A's side: each op points at a B op pointing at it, one anchored in
    // its own kernel where there is one (B's leaves and copies point many
    // to one, so A's pairing may name a B op in another kernel).
    std::vector<int> home(a_.atoms.size(), -1), any(a_.atoms.size(), -1);
    for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
      const int x = b_.atoms[kb].match;
      if (x < 0) continue;
      if (any[static_cast<size_t>(x)] < 0) any[static_cast<size_t>(x)] = static_cast<int>(kb);
      auto it = anchor.find(b_.atoms[kb].kernel);
      if (it != anchor.end() && it->second == a_.atoms[x].kernel && home[static_cast<size_t>(x)] < 0)
        home[static_cast<size_t>(x)] = static_cast<int>(kb);
    }
    for (size_t x = 0; x < a_.atoms.size(); ++x) {
      Atom& ax = a_.atoms[x];
      const bool mutual = ax.match >= 0 && b_.atoms[static_cast<size_t>(ax.match)].match == static_cast<int>(x);
      int pick = ax.match;
      if (home[x] >= 0) {
        auto it = mutual ? anchor.find(b_.atoms[static_cast<size_t>(ax.match)].kernel) : anchor.end();
        if (!mutual || it == anchor.end() || it->second != ax.kernel) pick = home[x];
      } else if (!mutual && group_of[x]) {
        pick = any[x];
      }
      if (pick == ax.match) continue;
      ax.match = pick;
      ax.how = pick >= 0 ? b_.atoms[static_cast<size_t>(pick)].how : nullptr;
    }
  }

 private:
  // Each round tries the ways in order of trust and starts over as soon as
  // one matched something: later ways see the earlier ones' matches. The
  // numbers are docs/compare.md's ("How instructions are matched"): leaves
  // by their users first, 3 op_name, 4 scheduling_name, 5 structure (exact
  // shapes), 6 fused contents, 7 structure by element count and op_name
  // ties; 8 copies after the rounds.
  void Rounds() {
    for (int round = 0; round < 1000; ++round) {
      int64_t n = ByUsers();
      if (n == 0) n = ByOpName(false);
      if (n == 0) n = BySchedulingName();
      if (n == 0) n = ByStructure(true);
      if (n == 0) n = ByOperands(false);
      if (n == 0) n = ByNeighbour(false);
      if (n == 0) n = ByStructure(false);
      if (n == 0) n = ByFusedContents();
      if (n == 0) n = ByOperands(true) + ByNeighbour(true);
      if (n == 0) n = ByOpName(true);
      if (n == 0) break;
    }
  }

  void Pair(int ia, int ib, const char* how) {
    ++changes_;
    Atom& x = a_.atoms[ia];
    Atom& y = b_.atoms[ib];
    x.match = ib;
    y.match = ia;
    x.how = y.how = how;
    std::string key = "m" + std::to_string(next_++);
    a_.class_of[x.instr] = key;
    b_.class_of[y.instr] = key;
    (*by_)[how]++;
  }

  bool Free(int ia, int ib) const { return a_.atoms[ia].match < 0 && b_.atoms[ib].match < 0; }

  // An op whose op_name names an instruction of the other side came from
  // that instruction: a same-named op there is a different one.
  bool NamesOther(const Instruction* i, const std::set<std::string>& other_names) const {
    std::string op = i->MetadataValue("op_name");
    return !op.empty() && op != i->name() && other_names.count(op);
  }

  // Whether `i` says, by an op_name that is an instruction name (XLA GPU
  // renames its ops and keeps the name of the op they were made from, for a
  // module given without JAX metadata), that it was made from an op other
  // than `other`: then a shared name is a coincidence of numbering, even
  // where `other`'s own passes replaced the op it was made from (our
  // algsimp's multiply.40 for div.230 against XLA's multiply.51 with
  // op_name="div.230").
  static bool RenamedFromAnother(const Instruction* i, const Instruction* other) {
    std::string op = i->MetadataValue("op_name");
    if (op == i->name() || !IsInstructionName(op)) return false;
    return op != other->name() && op != other->MetadataValue("op_name");
  }

  // Whether a pair of A's `ia` and B's `ib` waits when either is a leaf,
  // rather than being matched by name, op_name, scheduling_name, structure
  // or as a copy: always in Run's first pass. In the second, a leaf that a
  // matched user's counterpart has a leaf in the place of (ForLeafOperands:
  // another copy took that place, this one is a copy too) waits, and the
  // others pair only within kernels already linked by a match, or kernels
  // with no match yet on either side: the same leaf in another kernel is
  // another copy.
  bool LeafHeld(int ia, int ib) const {
    if (!a_leaf_[ia] && !b_leaf_[ib]) return false;
    if (!leaves_by_name_) return true;
    if (seen_changes_ != changes_) {  // placed and linked change with every match
      a_placed_.assign(a_.atoms.size(), 0);
      b_placed_.assign(b_.atoms.size(), 0);
      ForLeafOperands([&](int x, int y) { a_placed_[x] = b_placed_[y] = 1; });
      linked_.clear();
      a_linked_.clear();
      b_linked_.clear();
      for (const Atom& y : b_.atoms) {
        if (y.match < 0) continue;
        const Instruction* ka = a_.atoms[y.match].kernel;
        linked_.insert({ka, y.kernel});
        a_linked_.insert(ka);
        b_linked_.insert(y.kernel);
      }
      seen_changes_ = changes_;
    }
    if ((a_placed_[ia] && a_.atoms[ia].match < 0) || (b_placed_[ib] && b_.atoms[ib].match < 0)) return true;
    const Instruction* ka = a_.atoms[ia].kernel;
    const Instruction* kb = b_.atoms[ib].kernel;
    return !linked_.count({ka, kb}) && (a_linked_.count(ka) || b_linked_.count(kb));
  }

  // Calls f(ia, ib) for the leaves in the same place under a matched pair:
  // operand k of the op of A and operand k of its match on B (for a
  // commutative binary op, the other operand where k's does not fit), both
  // leaves of the same opcode and element type and count, the same
  // attributes if the same dimensions, and their own operands (the
  // broadcast value) not known to differ.
  template <typename F>
  void ForLeafOperands(F f) const {
    auto fits = [&](const Instruction* ox, const Instruction* oy, int* ia, int* ib) {
      *ia = a_.AtomIndex(ox);
      *ib = b_.AtomIndex(oy);
      if (*ia < 0 || *ib < 0 || !a_leaf_[*ia] || !b_leaf_[*ib]) return false;
      const Instruction* p = a_.atoms[*ia].instr;
      const Instruction* q = b_.atoms[*ib].instr;
      int fit = ShapeFit(p, q);
      if (p->opcode() != q->opcode() || fit == 0 || (fit == 2 && Attrs(p) != Attrs(q))) return false;
      for (int k = 0; k < p->operand_count() && k < q->operand_count(); ++k) {
        std::string cp = a_.ClassOf(p->operand(k)), cq = b_.ClassOf(q->operand(k));
        if (!cp.empty() && !cq.empty() && cp != cq) return false;
      }
      return true;
    };
    auto under = [&](const Instruction* u, const Instruction* v) {
      if (u->operand_count() != v->operand_count()) return;
      bool swappable = IsCommutative(u->opcode()) && u->opcode() == v->opcode() && u->operand_count() == 2;
      for (int o = 0; o < u->operand_count(); ++o) {
        int ia = -1, ib = -1;
        if (fits(u->operand(o), v->operand(o), &ia, &ib) ||
            (swappable && fits(u->operand(o), v->operand(1 - o), &ia, &ib)))
          f(ia, ib);
      }
    };
    for (const Atom& x : a_.atoms)
      if (x.match >= 0) under(x.instr, b_.atoms[x.match].instr);
    for (size_t k = 0; k < b_.atoms.size(); ++k) {  // B's copies (many to one)
      const Atom& y = b_.atoms[k];
      if (y.match >= 0 && a_.atoms[y.match].match != static_cast<int>(k))
        under(a_.atoms[y.match].instr, y.instr);
    }
  }

  // Rematerializable leaves through their users, first in every round: a
  // free leaf of A in the place of a free leaf of B under a matched pair
  // (ForLeafOperands).
  int64_t ByUsers() {
    int64_t n = 0;
    ForLeafOperands([&](int ia, int ib) {
      if (!Free(ia, ib)) return;
      Pair(ia, ib, "user");
      ++n;
    });
    return n;
  }

  // With the copies (8): a leaf of B left over in the place of a leaf of A
  // under a matched pair or a copy — many to one when A's is matched (XLA
  // made a copy for each consumer where we have one), one to one when it is
  // free too.
  int64_t ByUserCopies() {
    int64_t n = 0;
    ForLeafOperands([&](int ia, int ib) {
      const Atom& x = a_.atoms[ia];
      const Atom& y = b_.atoms[ib];
      if (y.match >= 0) return;
      if (x.match < 0) {  // under a copy, still free on both sides: one to one
        Pair(ia, ib, "user");
        ++n;
        return;
      }
      // The copy takes the class of what it copies, so that its users'
      // signatures are known (ByStructuralCopies).
      if (auto c = a_.class_of.find(x.instr); c != a_.class_of.end()) b_.class_of[y.instr] = c->second;
      Point(ib, ia, "user");
      ++n;
    });
    return n;
  }

  // 1. Exact names (unique on B), same opcode, element type and dimensions.
  void ByName() {
    std::unordered_map<std::string, int> b_index;
    std::set<std::string> dup;
    for (size_t k = 0; k < b_.atoms.size(); ++k)
      if (!b_index.emplace(b_.atoms[k].instr->name(), static_cast<int>(k)).second) dup.insert(b_.atoms[k].instr->name());
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      const Instruction* i = a_.atoms[k].instr;
      auto it = b_index.find(i->name());
      if (it == b_index.end() || dup.count(i->name()) || b_.atoms[it->second].match >= 0) continue;
      const Instruction* j = b_.atoms[it->second].instr;
      if (NamesOther(i, b_names_) || NamesOther(j, a_names_)) continue;
      if (RenamedFromAnother(i, j) || RenamedFromAnother(j, i)) continue;
      if ((a_renamed_ && i->MetadataValue("op_name").empty()) || (b_renamed_ && j->MetadataValue("op_name").empty()))
        continue;
      if (LeafHeld(static_cast<int>(k), it->second)) continue;
      if (SameOp(i, j) && ShapeFit(i, j) == 2) Pair(static_cast<int>(k), it->second, "name");
    }
  }

  // 2. The entry outputs carry the same values on both sides (leaf by leaf),
  // whatever rewrite produced them.
  void ByOutputs() {
    const Instruction* ra = a_.m->entry() ? a_.m->entry()->root() : nullptr;
    const Instruction* rb = b_.m->entry() ? b_.m->entry()->root() : nullptr;
    if (!ra || !rb) return;
    std::vector<std::pair<const Instruction*, const Instruction*>> leaves;
    if (ra->opcode() == Opcode::kTuple && rb->opcode() == Opcode::kTuple && ra->operand_count() == rb->operand_count())
      for (int k = 0; k < ra->operand_count(); ++k) leaves.push_back({ra->operand(k), rb->operand(k)});
    else
      leaves.push_back({ra, rb});
    for (const auto& [x, y] : leaves) {
      int ia = a_.AtomIndex(x), ib = b_.AtomIndex(y);
      if (ia < 0 || ib < 0 || !Free(ia, ib)) continue;
      if (!a_.atoms[ia].instr->shape().SameDims(b_.atoms[ib].instr->shape())) continue;
      Pair(ia, ib, "output");
    }
  }

  // How well x (on A) and y (on B) agree as a candidate pair: -1 not at all
  // (another opcode, another element type or count); else exact dimensions,
  // the same attributes and each operand already matched to one of the
  // other's operands add to it.
  int Score(int ia, int ib) const {
    const Instruction* x = a_.atoms[ia].instr;
    const Instruction* y = b_.atoms[ib].instr;
    if (!SameOp(x, y)) return -1;
    int fit = ShapeFit(x, y, any_type_);
    if (fit == 0) return -1;
    int s = fit == 2 ? 1 : 0;
    if (fit == 2 && Attrs(x) == Attrs(y)) s += 1;
    s += 2 * CommonCount(KnownOperandClasses(a_, x), KnownOperandClasses(b_, y));
    return s;
  }

  // Pairs candidates (x from xs on A, y from ys on B, both unmatched,
  // `valid`) that are each other's single best by Score; with `ties`, the
  // first of equally good ones (in post order) instead.
  template <typename Valid>
  int64_t PairBest(const std::vector<int>& xs, const std::vector<int>& ys, Valid valid, bool ties, const char* how) {
    int64_t n = 0;
    // The best partner of `from` (first in order among equals), its score
    // and how many share that score.
    auto best_of = [&](int from, bool from_a, int* score, int* count) {
      int best = -1;
      *score = -1;
      *count = 0;
      for (int to : from_a ? ys : xs) {
        int ia = from_a ? from : to, ib = from_a ? to : from;
        if (!Free(ia, ib) || !valid(ia, ib)) continue;
        int s = Score(ia, ib);
        if (s < 0) continue;
        if (s > *score) *score = s, best = to, *count = 1;
        else if (s == *score) ++*count;
      }
      return best;
    };
    for (int x : xs) {
      if (a_.atoms[x].match >= 0) continue;
      int sy = 0, cy = 0, sx = 0, cx = 0;
      int y = best_of(x, true, &sy, &cy);
      if (y < 0 || (cy != 1 && !ties)) continue;
      int back = best_of(y, false, &sx, &cx);
      if (ties ? sx != sy : (back != x || cx != 1)) continue;
      Pair(x, y, how);
      ++n;
    }
    return n;
  }

  // Atoms grouped by a key on each side (key order: deterministic), paired
  // by PairBest within each group.
  template <typename Valid>
  int64_t ByKeys(KeyFn ka, KeyFn kb, Valid valid, bool ties, const char* how) {
    std::map<std::string, std::pair<std::vector<int>, std::vector<int>>> groups;
    for (size_t k = 0; k < a_.atoms.size(); ++k)
      if (a_.atoms[k].match < 0)
        for (std::string& key : ka(a_.atoms[k].instr)) groups[key].first.push_back(static_cast<int>(k));
    for (size_t k = 0; k < b_.atoms.size(); ++k)
      if (b_.atoms[k].match < 0)
        for (std::string& key : kb(b_.atoms[k].instr)) {
          auto it = groups.find(key);
          if (it != groups.end()) it->second.second.push_back(static_cast<int>(k));
        }
    int64_t n = 0;
    for (const auto& [key, g] : groups)
      if (!g.first.empty() && !g.second.empty()) n += PairBest(g.first, g.second, valid, ties, how);
    return n;
  }

  // 3. op_name: the same source op (op_name metadata, or the name of the
  // instruction it was made from), same opcode and element count.
  int64_t ByOpName(bool ties) {
    auto has_op_name = [](const Instruction* i) { return !i->MetadataValue("op_name").empty(); };
    // A pair made by one side's own name, where that side's op_name names
    // another instruction of the other side, is a coincidence of numbering
    // (XLA GPU renames its ops: its `rsqrt.10` with op_name="rsqrt.5" is our
    // rsqrt.5, not an op of ours that our passes happened to name rsqrt.10).
    auto named_elsewhere = [&](const Instruction* i, const Instruction* other, const std::set<std::string>& names) {
      std::string op = i->MetadataValue("op_name");
      return !op.empty() && op != SourceKey(other)[0] && op != other->name() && names.count(op);
    };
    auto valid = [&](int ia, int ib) {
      const Instruction* x = a_.atoms[ia].instr;
      const Instruction* y = b_.atoms[ib].instr;
      return (has_op_name(x) || has_op_name(y)) && !named_elsewhere(y, x, a_names_) &&
             !named_elsewhere(x, y, b_names_) && !RenamedFromAnother(x, y) && !RenamedFromAnother(y, x) &&
             !LeafHeld(ia, ib);
    };
    any_type_ = true;
    int64_t n = ByKeys(SourceKey, SourceKeyAndName, valid, ties, "op_name");
    any_type_ = false;
    return n;
  }

  // 4. scheduling_name / deduplicated_name naming an instruction of the
  // other side. An op whose op_name names an instruction there is left to
  // op_name.
  int64_t BySchedulingName() {
    auto valid = [&](int ia, int ib) {
      return !NamesOther(a_.atoms[ia].instr, b_names_) && !NamesOther(b_.atoms[ib].instr, a_names_) &&
             !LeafHeld(ia, ib);
    };
    int64_t n = ByKeys(OwnName, EarlierNames, valid, false, "scheduling_name");
    return n + ByKeys(EarlierNames, OwnName, valid, false, "scheduling_name");
  }

  // 6. Fused contents: the unmatched ops of a fusion against the unmatched
  // ops of the kernels its matched ops' counterparts are in, by opcode,
  // element count and matched operands.
  int64_t ByFusedContents() {
    std::unordered_map<const Instruction*, int> kernel_id_a, kernel_id_b;
    auto kid = [](std::unordered_map<const Instruction*, int>& ids, const Instruction* k) {
      return ids.emplace(k, static_cast<int>(ids.size())).first->second;
    };
    std::map<int, std::set<int>> b_to_a, a_to_b;  // kernels linked by a match
    std::map<int, std::vector<int>> a_free, b_free;
    std::vector<int> kernel_of_a(a_.atoms.size());
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      const Atom& x = a_.atoms[k];
      int ka = kernel_of_a[k] = kid(kernel_id_a, x.kernel);
      if (x.match < 0) {
        a_free[ka].push_back(static_cast<int>(k));
        continue;
      }
      int kb = kid(kernel_id_b, b_.atoms[x.match].kernel);
      b_to_a[kb].insert(ka);
      a_to_b[ka].insert(kb);
    }
    for (size_t k = 0; k < b_.atoms.size(); ++k)
      if (b_.atoms[k].match < 0 && b_.atoms[k].kernel->opcode() == Opcode::kFusion)
        b_free[kid(kernel_id_b, b_.atoms[k].kernel)].push_back(static_cast<int>(k));
    // The single best candidate of `from` among `to` (-1 if none or a tie).
    auto best = [&](int from, const std::vector<int>& to, bool from_a) {
      int found = -1, score = -1, count = 0;
      for (int t : to) {
        int ia = from_a ? from : t, ib = from_a ? t : from;
        if (!Free(ia, ib) || !SameOperands(a_.atoms[ia].instr, b_.atoms[ib].instr)) continue;
        int s = Score(ia, ib);
        if (s < 0) continue;
        if (s > score) score = s, found = t, count = 1;
        else if (s == score) ++count;
      }
      return count == 1 ? found : -1;
    };
    auto gather = [](const std::set<int>& kernels, const std::map<int, std::vector<int>>& free) {
      std::vector<int> out;
      for (int k : kernels)
        if (auto f = free.find(k); f != free.end()) out.insert(out.end(), f->second.begin(), f->second.end());
      std::sort(out.begin(), out.end());
      return out;
    };
    // Each pair must be the other's single best among all the ops of the
    // kernels linked to its own: a copy of the op in another linked kernel
    // makes it a tie.
    int64_t n = 0;
    for (const auto& [kb, ys] : b_free) {
      auto it = b_to_a.find(kb);
      if (it == b_to_a.end()) continue;
      std::vector<int> xs = gather(it->second, a_free);
      for (int y : ys) {
        int x = b_.atoms[y].match < 0 ? best(y, xs, false) : -1;
        if (x < 0 || best(x, gather(a_to_b[kernel_of_a[x]], b_free), true) != y) continue;
        Pair(x, y, "fused_contents");
        ++n;
      }
    }
    return n;
  }

  // 8. Many to one, for B's ops left over: XLA duplicates an op into more
  // fusions than we do ("duplicate": same op_name, opcode and element count
  // as an op of ours already matched, all our candidates copies of one
  // instruction), and expands one op into several ("expansion": an op of
  // another opcode feeding a matched op of the same op_name, e.g. the
  // concatenate of iotas XLA builds for a gather's batch dimensions). Only
  // B's atom points back.
  void ByCopies() {
    std::map<std::string, std::vector<int>> a_by_key;
    for (size_t k = 0; k < a_.atoms.size(); ++k) a_by_key[SourceKey(a_.atoms[k].instr)[0]].push_back(static_cast<int>(k));
    for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
      Atom& y = b_.atoms[kb];
      if (y.match >= 0) continue;
      std::string op = y.instr->MetadataValue("op_name");
      if (op.empty()) continue;
      auto it = a_by_key.find(op);
      int best = -1, score = -1;
      std::set<std::string> names;
      for (int x : it == a_by_key.end() ? std::vector<int>() : it->second) {
        const Instruction* xi = a_.atoms[x].instr;
        if (!SameOp(xi, y.instr) || ShapeFit(xi, y.instr, true) == 0) continue;
        if (LeafHeld(x, static_cast<int>(kb))) continue;
        names.insert(xi->name());
        if (a_.atoms[x].match < 0) best = -2;  // a candidate one to one could not place: ambiguous
        if (best == -2) break;
        int s = Score(x, static_cast<int>(kb));
        if (s > score) score = s, best = x;
      }
      if (best >= 0 && names.size() == 1) {
        // The copy takes the class of what it copies (as in ByStructuralCopies).
        if (auto c = a_.class_of.find(a_.atoms[best].instr); c != a_.class_of.end())
          b_.class_of[y.instr] = c->second;
        Point(static_cast<int>(kb), best, "duplicate");
        continue;
      }
      if (!names.empty()) continue;
      // An expansion: y feeds a matched B op of the same op_name.
      for (int ku : AtomUsers(b_, y.instr)) {
        const Instruction* u = b_.atoms[ku].instr;
        if (b_.atoms[ku].match < 0 || u->opcode() == y.instr->opcode() || u->MetadataValue("op_name") != op) continue;
        Point(static_cast<int>(kb), b_.atoms[ku].match, "expansion");
        break;
      }
    }
    ByStructuralCopies();
  }

  // Many to one without op_name: a B op computing exactly what a matched B op
  // computes (same signature: opcode, shape, attributes and operand classes)
  // is a copy XLA made — a broadcast or a layer norm's arithmetic duplicated
  // into a GEMM prologue — and points to the same op of ours. The copy takes
  // the original's class, so copies of copies follow (a few rounds, each
  // after ByUserCopies for the leaves under the copies so far). Leaves count
  // by value here (whichever copy an op holds), and a leaf joins only a
  // kernel LeafHeld allows.
  void ByStructuralCopies() {
    for (int round = 0; round < 16; ++round) {
      int64_t found = ByUserCopies();  // the leaves of the copies found so far
      std::unordered_map<std::string, std::vector<int>> matched_sig;
      for (size_t k = 0; k < b_.atoms.size(); ++k) {
        if (b_.atoms[k].match < 0) continue;
        std::string sig = Signature(b_, b_.atoms[k].instr, true);
        if (!sig.empty()) matched_sig[sig].push_back(static_cast<int>(k));
      }
      for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
        Atom& y = b_.atoms[kb];
        if (y.match >= 0) continue;
        std::string sig = Signature(b_, y.instr, true);
        if (sig.empty()) continue;
        auto it = matched_sig.find(sig);
        if (it == matched_sig.end()) continue;
        // The first whose counterpart's kernel a leaf may join (LeafHeld).
        auto o = std::find_if(it->second.begin(), it->second.end(),
                              [&](int k) { return !LeafHeld(b_.atoms[k].match, static_cast<int>(kb)); });
        if (o == it->second.end()) continue;
        const Atom& orig = b_.atoms[static_cast<size_t>(*o)];
        if (auto c = b_.class_of.find(orig.instr); c != b_.class_of.end()) b_.class_of[y.instr] = c->second;
        Point(static_cast<int>(kb), orig.match, "duplicate");
        ++found;
      }
      if (!found) break;
    }
  }

  // The atoms using `i`'s value, through bitcasts, copies and reshapes.
  static std::vector<int> AtomUsers(const Side& s, const Instruction* i, int depth = 0) {
    std::vector<int> out;
    for (const Instruction* u : i->users()) {
      Opcode op = u->opcode();
      if ((op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape) && depth < 8) {
        for (int k : AtomUsers(s, u, depth + 1)) out.push_back(k);
      } else if (auto it = s.atom_of.find(u); it != s.atom_of.end()) {
        out.push_back(it->second);
      }
    }
    return out;
  }

  // B's atom `ib` to A's `ia`, one way (A's keeps its own match).
  void Point(int ib, int ia, const char* how) {
    ++changes_;
    b_.atoms[ib].match = ia;
    b_.atoms[ib].how = how;
    (*by_)[how]++;
  }

  // Operands of a matched pair, position by position, when they have the
  // same opcode and dimensions (`relaxed`: element count) — backwards from
  // matches; for commutative binary ops the swapped order is tried too.
  int64_t ByOperands(bool relaxed) {
    int64_t n = 0;
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match < 0) continue;
      const Instruction* x = a_.atoms[k].instr;
      const Instruction* y = b_.atoms[a_.atoms[k].match].instr;
      if (x->operand_count() != y->operand_count()) continue;
      auto try_pair = [&](const Instruction* ox, const Instruction* oy) {
        int ia = a_.AtomIndex(ox), ib = b_.AtomIndex(oy);
        if (ia < 0 || ib < 0 || !Free(ia, ib)) return false;
        const Instruction* p = a_.atoms[ia].instr;
        const Instruction* q = b_.atoms[ib].instr;
        if (!SameOp(p, q) || ShapeFit(p, q) < (relaxed ? 1 : 2)) return false;
        Pair(ia, ib, "operand");
        ++n;
        return true;
      };
      bool swapped = IsCommutative(x->opcode()) && x->opcode() == y->opcode() && x->operand_count() == 2;
      for (int o = 0; o < x->operand_count(); ++o)
        if (!try_pair(x->operand(o), y->operand(o)) && swapped) try_pair(x->operand(o), y->operand(1 - o));
    }
    return n;
  }

  // Same signature on both sides. `unique_only`: only signatures that occur
  // once on each side (duplicated ops — iotas, ops a fusion duplicated —
  // are left to the neighbourhood first, then paired in order).
  int64_t ByStructure(bool unique_only) {
    int64_t n = 0;
    std::unordered_map<std::string, std::vector<int>> a_sigs, b_sigs;
    for (size_t k = 0; k < b_.atoms.size(); ++k) {
      if (b_.atoms[k].match >= 0) continue;
      std::string s = Signature(b_, b_.atoms[k].instr);
      if (!s.empty()) b_sigs[s].push_back(static_cast<int>(k));
    }
    std::vector<std::string> a_sig(a_.atoms.size());
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match >= 0) continue;
      a_sig[k] = Signature(a_, a_.atoms[k].instr);
      if (!a_sig[k].empty()) a_sigs[a_sig[k]].push_back(static_cast<int>(k));
    }
    std::unordered_map<std::string, size_t> used;
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match >= 0) continue;
      const std::string& s = a_sig[k];
      if (s.empty()) continue;
      auto it = b_sigs.find(s);
      if (it == b_sigs.end()) continue;
      if (unique_only && (it->second.size() != 1 || a_sigs[s].size() != 1)) continue;
      size_t& u = used[s];
      while (u < it->second.size() && b_.atoms[it->second[u]].match >= 0) ++u;
      size_t v = u;  // the first that may pair with k (LeafHeld)
      while (v < it->second.size() &&
             (b_.atoms[it->second[v]].match >= 0 || LeafHeld(static_cast<int>(k), it->second[v])))
        ++v;
      if (v >= it->second.size()) continue;
      Pair(static_cast<int>(k), it->second[v], "structure");
      if (v == u) ++u;
      ++n;
    }
    return n;
  }

  // An unmatched op whose matched operand's counterpart has exactly one
  // unmatched user of the same opcode and dimensions (`relaxed`: element
  // count) — rewrites like divide → multiply change signatures but keep the
  // neighbourhood.
  int64_t ByNeighbour(bool relaxed) {
    int64_t n = 0;
    auto users_of = [](Side& s) {
      std::unordered_map<const Instruction*, std::vector<int>> u;
      for (size_t k = 0; k < s.atoms.size(); ++k)
        for (const Instruction* o : s.atoms[k].instr->operands()) u[s.Resolve(o)].push_back(static_cast<int>(k));
      return u;
    };
    auto ua = users_of(a_), ub = users_of(b_);
    auto like = [&](const Instruction* p, const Instruction* q) {
      return SameOp(p, q) && ShapeFit(p, q) >= (relaxed ? 1 : 2);
    };
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match < 0) continue;
      const std::vector<int>& ca = ua[a_.atoms[k].instr];
      const std::vector<int>& cb = ub[b_.atoms[a_.atoms[k].match].instr];
      for (int x : ca) {
        if (a_.atoms[x].match >= 0) continue;
        const Instruction* xi = a_.atoms[x].instr;
        int found = -1, count = 0, count_a = 0;
        for (int y : cb)
          if (b_.atoms[y].match < 0 && like(b_.atoms[y].instr, xi)) found = y, ++count;
        for (int x2 : ca)
          if (a_.atoms[x2].match < 0 && like(a_.atoms[x2].instr, xi)) ++count_a;
        if (count == 1 && count_a == 1) {
          Pair(x, found, "neighbour");
          ++n;
        }
      }
    }
    return n;
  }

  // The same operands, as far as they are known: operand k of each has the
  // same class (any order for commutative ops), an unmatched operand only
  // against an unmatched one (it cannot be the counterpart of a matched
  // op), and at least one operand known unless neither has any.
  bool SameOperands(const Instruction* x, const Instruction* y) const {
    if (x->operand_count() != y->operand_count()) return false;
    std::vector<std::string> cx, cy;
    bool known = x->operand_count() == 0;
    for (int k = 0; k < x->operand_count(); ++k) {
      cx.push_back(a_.ClassOf(x->operand(k)));
      cy.push_back(b_.ClassOf(y->operand(k)));
      known |= !cx.back().empty();
    }
    if (IsCommutative(x->opcode())) {
      std::sort(cx.begin(), cx.end());
      std::sort(cy.begin(), cy.end());
    }
    return known && cx == cy;
  }

  const std::string& Attrs(const Instruction* i) const {
    auto it = attrs_.find(i);
    if (it == attrs_.end()) it = attrs_.emplace(i, AttrKey(i)).first;
    return it->second;
  }

  Side& a_;
  Side& b_;
  std::map<std::string, int64_t>* by_;
  mutable std::unordered_map<const Instruction*, std::string> attrs_;
  bool any_type_ = false;  // Score: element types may differ (op_name only)
  std::set<std::string> a_names_, b_names_;
  bool a_renamed_ = false, b_renamed_ = false;
  int64_t next_ = 0;
  std::vector<char> a_leaf_, b_leaf_;  // RematLeaf, by atom
  bool leaves_by_name_ = false;        // Run's second pass (LeafHeld)
  int64_t changes_ = 0;                // matches made so far (Pair, Point)
  // LeafHeld's view of the matches, as of seen_changes_: leaves whose place
  // a copy took, kernels linked by a match, kernels with any match.
  mutable int64_t seen_changes_ = -1;
  mutable std::vector<char> a_placed_, b_placed_;
  mutable std::set<std::pair<const Instruction*, const Instruction*>> linked_;
  mutable std::unordered_set<const Instruction*> a_linked_, b_linked_;
};

}  // namespace

void MatchSides(Side& a, Side& b, std::map<std::string, int64_t>* matched_by) { Matcher(a, b, matched_by).Run(); }

}  // namespace hloscope::report::compare_detail
