// rng_expander (see rng_expander.h). The interpreter evaluates an unexpanded
// `rng` with the same arithmetic (core/eval/eval_rng_state.cc); the tests
// check that both give the same bits.
#include "core/passes/rng_expander.h"

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/eval/rng_state.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

// Adds instructions before the rng, with layouts like the rng's.
class Builder {
 public:
  explicit Builder(Instruction* rng) : comp_(rng->parent()), before_(rng), like_(rng->shape()) {}

  Instruction* Add(Opcode op, PrimitiveType t, std::vector<int64_t> dims, const std::vector<Instruction*>& ops) {
    return AddNew(comp_, before_, op, ShapeLike(like_, t, std::move(dims)), ops);
  }
  Instruction* Unary(Opcode op, Instruction* x) { return Add(op, Type(x), x->shape().dims(), {x}); }
  Instruction* Binary(Opcode op, Instruction* x, Instruction* y) { return Add(op, Type(x), x->shape().dims(), {x, y}); }
  Instruction* Convert(Instruction* x, PrimitiveType t, Opcode op = Opcode::kConvert) {
    if (Type(x) == t) return x;
    return Add(op, t, x->shape().dims(), {x});
  }
  // A scalar constant (floats through double, integers through int64).
  Instruction* Scalar(PrimitiveType t, double v) { return AddScalarConstant(comp_, before_, t, v); }
  Instruction* Broadcast(Instruction* scalar, const std::vector<int64_t>& dims) {
    if (dims.empty()) return scalar;
    return AddBroadcastScalar(comp_, before_, scalar, ShapeLike(like_, Type(scalar), dims));
  }
  Instruction* Splat(PrimitiveType t, double v, const std::vector<int64_t>& dims) {
    return Broadcast(Scalar(t, v), dims);
  }
  Instruction* Slice(Instruction* x, int dim, int64_t start, int64_t limit) {
    std::vector<SliceDim> s;
    std::vector<int64_t> dims = x->shape().dims();
    for (size_t d = 0; d < dims.size(); ++d) s.push_back({0, dims[d], 1});
    s[dim] = {start, limit, 1};
    dims[dim] = limit - start;
    Instruction* slice = Add(Opcode::kSlice, Type(x), dims, {x});
    slice->attrs().slice = std::move(s);
    slice->attrs().mark(Attr::kSlice);
    return slice;
  }
  Instruction* Concat(const std::vector<Instruction*>& xs, int dim) {
    std::vector<int64_t> dims = xs[0]->shape().dims();
    dims[dim] = 0;
    for (Instruction* x : xs) dims[dim] += x->shape().dim(dim);
    Instruction* c = Add(Opcode::kConcatenate, Type(xs[0]), dims, xs);
    c->set_dimensions({dim});
    return c;
  }
  Instruction* Reshape(Instruction* x, std::vector<int64_t> dims) {
    return Add(Opcode::kReshape, Type(x), std::move(dims), {x});
  }

  // (key, state) → rng-bit-generator(rng_philox) → bits of `type` and `dims`.
  Instruction* PhiloxBits(PrimitiveType type, const std::vector<int64_t>& dims, int64_t delta) {
    Literal key(Shape(PrimitiveType::kU64, {1}));
    key.Set<uint64_t>(0, kRngExpanderKey);
    Instruction* k = AddConstant(comp_, before_, std::move(key));
    *k->mutable_shape() = ShapeLike(like_, PrimitiveType::kU64, {1});
    Instruction* state = Add(Opcode::kRngGetAndUpdateState, PrimitiveType::kU64, {2}, {});
    state->SetRaw("delta", std::to_string(delta));
    state_ = state;
    Instruction* state3 = Concat({k, state}, 0);
    Shape out = Shape::Tuple({state3->shape(), ShapeLike(like_, type, dims)});
    Instruction* rbg = AddNew(comp_, before_, Opcode::kRngBitGenerator, out, {state3});
    rbg->SetRaw("algorithm", "rng_philox");
    Instruction* bits = Add(Opcode::kGetTupleElement, type, dims, {rbg});
    bits->attrs().index = 1;
    bits->attrs().mark(Attr::kIndex);
    return bits;
  }

  static PrimitiveType Type(const Instruction* x) { return x->shape().element_type(); }
  // The rng-get-and-update-state PhiloxBits added.
  Instruction* state() const { return state_; }

 private:
  Instruction* state_ = nullptr;
  Computation* comp_;
  Instruction* before_;
  Shape like_;
};

PrimitiveType UnsignedOfWidth(int bits) { return bits == 64 ? PrimitiveType::kU64 : PrimitiveType::kU32; }

// Uniform floats in [0, 1) from bits (XLA: ConvertRandomBitsToUniformFloatingPoint).
Instruction* UnitFloats(Builder& b, Instruction* bits, PrimitiveType t) {
  const int width = BitWidth(t);
  const int mantissa = width == 64 ? 52 : 23;
  const std::vector<int64_t>& dims = bits->shape().dims();
  Instruction* top = b.Binary(Opcode::kShiftRightLogical, bits, b.Splat(Builder::Type(bits), width - mantissa, dims));
  Instruction* v = b.Convert(top, t);
  return b.Binary(Opcode::kMultiply, v, b.Splat(t, std::ldexp(1.0, -mantissa), dims));
}

Instruction* UniformFloat(Builder& b, Instruction* lo, Instruction* hi, PrimitiveType t,
                          const std::vector<int64_t>& dims, int64_t delta) {
  Instruction* bits = b.PhiloxBits(UnsignedOfWidth(BitWidth(t)), dims, delta);
  Instruction* unit = UnitFloats(b, bits, t);
  Instruction* range = b.Binary(Opcode::kSubtract, hi, lo);
  Instruction* scaled = b.Binary(Opcode::kMultiply, unit, b.Broadcast(range, dims));
  return b.Binary(Opcode::kAdd, scaled, b.Broadcast(lo, dims));
}

Instruction* UniformInt(Builder& b, Instruction* lo, Instruction* hi, PrimitiveType t,
                        const std::vector<int64_t>& dims, int64_t delta) {
  const PrimitiveType u = UnsignedOfWidth(BitWidth(t));
  Instruction* bits = b.PhiloxBits(u, dims, delta);
  Instruction* range = b.Binary(Opcode::kSubtract, b.Convert(hi, u, Opcode::kBitcastConvert),
                                b.Convert(lo, u, Opcode::kBitcastConvert));
  Instruction* dist = b.Binary(Opcode::kRemainder, bits, b.Broadcast(range, dims));
  Instruction* half = b.Binary(Opcode::kShiftRightLogical, dist, b.Splat(u, 1, dims));
  Instruction* rest = b.Binary(Opcode::kSubtract, dist, half);
  Instruction* sum = b.Binary(Opcode::kAdd, b.Broadcast(lo, dims), b.Convert(half, t, Opcode::kBitcastConvert));
  return b.Binary(Opcode::kAdd, sum, b.Convert(rest, t, Opcode::kBitcastConvert));
}

Instruction* Normal(Builder& b, Instruction* mean, Instruction* sigma, PrimitiveType t,
                    const std::vector<int64_t>& dims, int64_t delta) {
  // XLA's SplitShapeIntoHalves: the uniform values are drawn over `pairs`,
  // the shape with its split dimension s halved (rounded up) and a new
  // dimension of 2 after it; element (…, k, j, …) is the j-th of pair k.
  const int rank = static_cast<int>(dims.size());
  int split = -1;
  for (int i = 0; i < rank && split < 0; ++i)
    if (dims[i] % 2 == 0) split = i;
  if (split < 0)
    for (int i = 0; i < rank; ++i)
      if (split < 0 || dims[i] > dims[split]) split = i;
  std::vector<int64_t> pairs;
  for (int i = 0; i < rank; ++i) {
    pairs.push_back(i == split ? (dims[i] + 1) / 2 : dims[i]);
    if (i == split) pairs.push_back(2);
  }
  if (rank == 0) pairs = {2};
  const int pair_dim = rank == 0 ? 0 : split + 1;

  Instruction* unit = UnitFloats(b, b.PhiloxBits(UnsignedOfWidth(BitWidth(t)), pairs, delta), t);
  Instruction* x0 = b.Slice(unit, pair_dim, 0, 1);
  Instruction* x1 = b.Slice(unit, pair_dim, 1, 2);
  const std::vector<int64_t>& half = x0->shape().dims();
  // Box–Muller with XLA's constants (floats, then widened): u1 kept above
  // 1e-7 so that log() stays finite.
  Instruction* u1 = b.Binary(Opcode::kMaximum, x0, b.Splat(t, static_cast<double>(1.0e-7f), half));
  Instruction* v1 = b.Binary(Opcode::kMultiply, b.Splat(t, 2.0 * std::numbers::pi, half), x1);
  Instruction* u2 =
      b.Unary(Opcode::kSqrt, b.Binary(Opcode::kMultiply, b.Splat(t, -2.0, half), b.Unary(Opcode::kLog, u1)));
  Instruction* z0 = b.Binary(Opcode::kMultiply, b.Unary(Opcode::kSin, v1), u2);
  Instruction* z;
  if (rank == 0) {
    z = b.Reshape(z0, {});
  } else {
    Instruction* z1 = b.Binary(Opcode::kMultiply, b.Unary(Opcode::kCos, v1), u2);
    std::vector<int64_t> even = dims;
    even[split] = pairs[split] * 2;
    z = b.Reshape(b.Concat({z0, z1}, pair_dim), even);
    if (even[split] != dims[split]) z = b.Slice(z, split, 0, dims[split]);
  }
  Instruction* scaled = b.Binary(Opcode::kMultiply, b.Broadcast(sigma, dims), z);
  return b.Binary(Opcode::kAdd, b.Broadcast(mean, dims), scaled);
}

class RngExpanderPass : public Pass {
 public:
  std::string_view name() const override { return "rng_expander"; }
  std::string_view description() const override {
    return "Rewrites stateful rng(a, b) into the module's random state, Philox bits from rng-bit-generator, "
           "and elementwise ops that turn the bits into uniform or normal values.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> rngs;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kRng) rngs.push_back(i.get());
      for (Instruction* rng : rngs) changed |= Expand(rng);
    }
    return changed;
  }

 private:
  bool Expand(Instruction* rng) {
    const Shape& s = rng->shape();
    const RawAttr* dist = rng->FindRaw("distribution");
    const std::string d = dist ? dist->value : "";
    const PrimitiveType r = s.element_type();
    const bool normal = d == "rng_normal";
    if (!s.IsArray() || rng->operand_count() < 2 || (!normal && d != "rng_uniform")) {
      mutable_log().Count("rng left alone: not a 2-parameter uniform/normal rng");
      return false;
    }
    // The type the values are computed in: f16/bf16 in f32, as XLA does.
    PrimitiveType t = r;
    if (r == PrimitiveType::kF16 || r == PrimitiveType::kBF16) t = PrimitiveType::kF32;
    const bool is_float = t == PrimitiveType::kF32 || t == PrimitiveType::kF64;
    const bool is_int = IsInteger(t) && (BitWidth(t) == 32 || BitWidth(t) == 64);
    if (!(is_float || (is_int && !normal))) {
      mutable_log().Count("rng left alone: element type XLA does not expand");
      return false;
    }
    // XLA's GetNumberOf32bitUnits: the state advances by the 32-bit values drawn.
    const int64_t delta = ElementCount(s.dims()) * (BitWidth(t) / 32);
    Builder b(rng);
    Instruction* a = b.Convert(rng->operand(0), t);
    Instruction* c = b.Convert(rng->operand(1), t);
    Instruction* v = normal ? Normal(b, a, c, t, s.dims(), delta)
                     : is_float ? UniformFloat(b, a, c, t, s.dims(), delta)
                                : UniformInt(b, a, c, t, s.dims(), delta);
    v = b.Convert(v, r);
    *v->mutable_shape() = s;
    std::string rule = normal ? "rng_normal → state + Philox bits + Box–Muller"
                       : is_float ? "rng_uniform (float) → state + Philox bits + scale"
                                  : "rng_uniform (int) → state + Philox bits + remainder";
    // What had to run before the rng now runs before its state is read;
    // what had to run after it, after the value (ReplaceInstruction).
    for (Instruction* p : std::vector<Instruction*>(rng->control_predecessors()))
      p->AddControlDependencyTo(b.state());
    ReplaceInstruction(rng, v, mutable_log(), rule);  // also removes the rng
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeRngExpanderPass() { return std::make_unique<RngExpanderPass>(); }

}  // namespace hloscope
