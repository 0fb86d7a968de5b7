// The matchable ops of one module for compare (Side, core/report/compare_match.h):
// collecting them, the value each op carries and the class it is known by;
// and how two ops compare: the same operation, how well their shapes agree,
// the attributes and signature that say what an op computes. The matching
// passes that use these are in compare_match.cc and compare_match_copies.cc.
#include "core/report/compare_match.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

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

}  // namespace

std::string ShapeKey(const Instruction* i) { return ConvolutionResultShape(*i).ToString(false); }

bool SameOp(const Instruction* x, const Instruction* y) {
  if (x->opcode() == y->opcode())
    return x->opcode() != Opcode::kCustomCall || IsCudnnConvCustomCall(*x) == IsCudnnConvCustomCall(*y);
  auto conv = [](const Instruction* i) { return i->opcode() == Opcode::kConvolution || IsCudnnConvCustomCall(*i); };
  if (conv(x) && conv(y)) return true;
  return ReciprocalPair(x, y);
}

int ShapeFit(const Instruction* x, const Instruction* y, bool any_type) {
  const Shape& s = ConvolutionResultShape(*x);
  const Shape& t = ConvolutionResultShape(*y);
  if (!s.IsArray() || !t.IsArray()) return ShapeKey(x) == ShapeKey(y) ? 2 : 0;
  if (s.element_type() != t.element_type()) return any_type && s.num_elements() == t.num_elements() ? 1 : 0;
  if (s.SameDims(t)) return 2;
  return s.num_elements() == t.num_elements() ? 1 : 0;
}

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

std::string Signature(const Side& s, const Instruction* i, bool leaf_values) {
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

bool RematLeaf(const Side& s, const Instruction* i) {
  if (i->opcode() == Opcode::kIota) return true;
  if (i->opcode() != Opcode::kBroadcast || i->operand_count() != 1) return false;
  const Shape& o = i->operand(0)->shape();
  return (o.IsArray() && o.rank() == 0) || s.Resolve(i->operand(0))->opcode() == Opcode::kConstant;
}

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

}  // namespace hloscope::report::compare_detail
