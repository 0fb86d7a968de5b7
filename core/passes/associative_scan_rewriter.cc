// associative-scan-rewriter: XLA GPU's AssociativeScanRewriter, for the
// scans JAX writes. JAX's GPU lowering of cumsum, cumprod, cummax, cummin
// (and of the logical cumulative ops) is one `scan` op: an associative
// combiner over the slices of one input along the scan dimension, one carry
// started at the combiner's identity, the combined value both the output
// slice and the next carry. No kernel takes a scan, so it becomes what XLA's
// CPU lowering of the same ops writes: a reduce-window over the whole
// dimension, padded by its length less one before (after, for a reverse
// scan), reducing with the combiner on scalars; the final carry is the last
// element written (the first, reversed). XLA GPU then cuts the window into a
// tree of 16-element blocks (two levels for 64); ours keeps one window, each
// output element reading its prefix. Other scans (several inputs or carries,
// a combiner that is not one such op, an initial carry that is not its
// identity) stay as they are: the interpreter evaluates them, no kernel does.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"

namespace hloscope {
namespace {

// The smallest and largest values of a signed integer type.
int64_t MinIntOf(PrimitiveType t) {
  const int bits = BitWidth(t);
  return bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
}
int64_t MaxIntOf(PrimitiveType t) {
  const int bits = BitWidth(t);
  return bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
}

bool IsIdentityOf(Opcode op, const Literal& v, PrimitiveType t) {
  const bool fp = IsFloat(t);
  switch (op) {
    case Opcode::kAdd: return IsZeroValue(v);
    case Opcode::kMultiply: return IsOneValue(v);
    case Opcode::kOr: return IsZeroValue(v) || (t == PrimitiveType::kPred && !IsOneValue(v));
    case Opcode::kAnd: return IsAllOnesValue(v);
    case Opcode::kMaximum:
      if (fp) return std::isinf(v.GetDouble(0)) && v.GetDouble(0) < 0;
      if (t == PrimitiveType::kPred) return !IsOneValue(v);
      return IsUnsignedInt(t) ? v.GetInt(0) == 0 : v.GetInt(0) == MinIntOf(t);
    case Opcode::kMinimum:
      if (fp) return std::isinf(v.GetDouble(0)) && v.GetDouble(0) > 0;
      if (t == PrimitiveType::kPred) return IsOneValue(v);
      if (IsUnsignedInt(t)) return IsAllOnesValue(v);  // the largest unsigned value
      return v.GetInt(0) == MaxIntOf(t);
    default: return false;
  }
}

// The combiner's op when to_apply is (x, c) → (f(x, c), f(x, c)) or
// (f(c, x), …) for one commutative elementwise op f of its two parameters.
std::optional<Opcode> CumulativeOp(const Computation& c) {
  if (c.num_parameters() != 2 || !c.root() || c.root()->opcode() != Opcode::kTuple || c.root()->operand_count() != 2)
    return std::nullopt;
  const Instruction* y = c.root()->operand(0);
  if (c.root()->operand(1) != y || y->operand_count() != 2) return std::nullopt;
  switch (y->opcode()) {
    case Opcode::kAdd: case Opcode::kMultiply: case Opcode::kMaximum: case Opcode::kMinimum:
    case Opcode::kAnd: case Opcode::kOr:
      break;
    default:
      return std::nullopt;
  }
  const Instruction* a = y->operand(0);
  const Instruction* b = y->operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter || a == b) return std::nullopt;
  return y->opcode();
}

class AssociativeScanRewriter : public Pass {
 public:
  std::string_view name() const override { return "associative-scan-rewriter"; }
  std::string_view description() const override {
    return "A cumulative scan (JAX's GPU cumsum, cumprod, cummax: one input, one carry started at the combiner's "
           "identity) becomes a reduce-window over the scanned dimension, which kernels compute; XLA GPU's "
           "AssociativeScanRewriter.";
  }

  StatusOr<bool> Run(Module& m) override {
    return RewriteEach(
        m, [](const Instruction& i) { return i.opcode() == Opcode::kScan; },
        [&](Computation* comp, Instruction* scan) { return Rewrite(m, comp, scan); });
  }

 private:
  bool Refuse(const std::string& why) {
    mutable_log().Count("scan left alone: " + why);
    return false;
  }

  bool Rewrite(Module& m, Computation* comp, Instruction* scan) {
    const RawAttr* assoc = scan->FindRaw("is_associative");
    if (!assoc || assoc->value != "true") return Refuse("not marked associative");
    const RawAttr* carries = scan->FindRaw("num_carries");
    if (!carries || carries->value != "1" || scan->operand_count() != 2) return Refuse("not one input and one carry");
    if (scan->dimensions().size() != 1) return Refuse("not one scan dimension");
    const Shape& s = scan->shape();
    if (!s.IsTuple() || s.tuple_size() != 2) return Refuse("not one output and one carry");
    Instruction* input = scan->operand(0);
    Instruction* init = scan->operand(1);
    const Shape& in = input->shape();
    const Shape& out = s.tuple_shapes()[0];
    const int d = static_cast<int>(scan->dimensions()[0]);
    if (!IsStaticArray(in) || d < 0 || d >= in.rank() || out.dims() != in.dims() ||
        out.element_type() != in.element_type())
      return Refuse("the output is not shaped as the input");
    const Computation* fn = scan->to_apply();
    std::optional<Opcode> op = fn ? CumulativeOp(*fn) : std::nullopt;
    if (!op) return Refuse("the combiner is not one add, multiply, maximum, minimum, and or or of its two values");
    const PrimitiveType t = in.element_type();
    std::optional<Literal> v = SplatScalar(init);
    if (!v || !IsIdentityOf(*op, *v, t)) return Refuse("the initial carry is not the combiner's identity");
    const RawAttr* rev = scan->FindRaw("is_reverse");
    const bool reverse = rev && rev->value == "true";

    const int64_t n = in.dim(d);
    Window w;
    w.dims.resize(static_cast<size_t>(in.rank()));
    w.dims[static_cast<size_t>(d)].size = n;
    (reverse ? w.dims[static_cast<size_t>(d)].pad_hi : w.dims[static_cast<size_t>(d)].pad_lo) = n - 1;
    Instruction* identity = AddConstant(comp, scan, *v);
    Instruction* rw = AddNew(comp, scan, Opcode::kReduceWindow, out, {input, identity});
    rw->attrs().window = std::make_unique<Window>(w);
    rw->attrs().mark(Attr::kWindow);
    rw->SetCalled("to_apply", AddScalarComputation(m, *op, t, comp));
    CopyMetadataIfMissing(*scan, *rw);
    // The final carry: the element the last step wrote.
    Instruction* carry = rw;
    if (n > 0) {
      std::vector<SliceDim> sl;
      std::vector<int64_t> one = in.dims();
      for (int k = 0; k < in.rank(); ++k) sl.push_back({0, in.dim(k), 1});
      const int64_t last = reverse ? 0 : n - 1;
      sl[static_cast<size_t>(d)] = {last, last + 1, 1};
      one[static_cast<size_t>(d)] = 1;
      Instruction* slice = AddNew(comp, scan, Opcode::kSlice, ShapeLike(in, t, one), {rw});
      slice->attrs().slice = std::move(sl);
      slice->attrs().mark(Attr::kSlice);
      carry = AddNew(comp, scan, Opcode::kReshape, s.tuple_shapes()[1], {slice});
    } else {
      carry = init;
    }
    Instruction* tuple = AddNew(comp, scan, Opcode::kTuple, s, {rw, carry});
    ReplaceInstruction(scan, tuple, mutable_log(),
                       std::string("cumulative ") + std::string(OpcodeName(*op)) + " scan → reduce-window");
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeAssociativeScanRewriterPass() { return std::make_unique<AssociativeScanRewriter>(); }

}  // namespace hloscope
