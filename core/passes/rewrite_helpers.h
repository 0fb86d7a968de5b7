// Helpers every rewriting pass shares: building new instructions (fresh ids,
// names from Module::UniqueName, layouts like their neighbours), replacing an
// instruction while keeping metadata and control dependencies, and reading
// constants (including broadcasts of scalar constants).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/passes/pass.h"

namespace hloscope {

// A shape of `type` and `dims`, with a default layout when `like` has one.
Shape ShapeLike(const Shape& like, PrimitiveType type, std::vector<int64_t> dims);

// Adds a new instruction before `before` (at the end when null), named
// `<opcode>.N`, with `operands`. The caller sets attributes.
Instruction* AddNew(Computation* comp, Instruction* before, Opcode op, Shape shape,
                    const std::vector<Instruction*>& operands);
Instruction* AddConstant(Computation* comp, Instruction* before, Literal literal);
// A scalar constant of `type` holding `value` (integers via SetInt, floats via SetDouble).
Instruction* AddScalarConstant(Computation* comp, Instruction* before, PrimitiveType type, double value);
// broadcast(scalar) to `shape` (dimensions={}).
Instruction* AddBroadcastScalar(Computation* comp, Instruction* before, Instruction* scalar, const Shape& shape);

// A new computation (lhs, rhs) -> lhs + rhs of scalars of `type`, placed
// before `before`: the reducer of the sums an expansion builds.
Computation* AddScalarAddComputation(Module& m, PrimitiveType type, Computation* before);
// The same for another binary op (lhs, rhs) -> op(lhs, rhs).
Computation* AddScalarComputation(Module& m, Opcode op, PrimitiveType type, Computation* before);

// Calls `rewrite(computation, instruction)` on every instruction of every
// computation (fused ones included) that `pick` accepts, all found before
// the first is rewritten; true when any rewrite changed the module. The
// expanders of ops no emitter takes (ragged and scaled dots, batch norm).
bool RewriteEach(Module& m, const std::function<bool(const Instruction&)>& pick,
                 const std::function<bool(Computation*, Instruction*)>& rewrite);

// Copies `from`'s metadata onto `to` when `to` has none.
void CopyMetadataIfMissing(const Instruction& from, Instruction& to);

// Replaces every use of `old` by `now` (operands and computation root),
// moves control dependencies, keeps metadata, logs the replacement and the
// named rule, and removes `old`. `old` must not have side effects.
void ReplaceInstruction(Instruction* old, Instruction* now, PassLog& log, std::string_view rule);

// The literal of a constant with known values, else null.
const Literal* KnownLiteral(const Instruction* instr);
// Element `i` of an array literal as a scalar literal. Never materializes
// a splat literal (reading a splat's values expands it, and it would then
// print every element).
Literal ScalarElement(const Literal& l, int64_t i);
// True when the array literal has at least one element and all its elements
// are bit-for-bit equal (splat literals without reading them).
bool AllElementsEqual(const Literal& l);
// "This operand is the scalar value v": when every element `instr` produces
// is the same known value, that value as a scalar literal. True for a scalar
// constant, a broadcast of one, an array constant whose elements are all
// equal (a splat), and any of these seen through broadcast, reshape, copy,
// transpose and same-type bitcast (which move elements but keep values).
// XLA's IsAll/IsAllFloat look through broadcasts the same way.
std::optional<Literal> SplatScalar(const Instruction* instr);

// Value classes of a scalar literal.
bool IsPositiveZero(const Literal& s);  // +0 (floats), 0 (integers), false
bool IsNegativeZero(const Literal& s);  // -0.0 (floats only)
bool IsZeroValue(const Literal& s);     // either zero; false for pred
bool IsOneValue(const Literal& s);       // 1 (numbers), true (pred)
bool IsMinusOneValue(const Literal& s);  // -1 for signed ints and floats
bool IsAllOnesValue(const Literal& s);   // every bit set: -1 / max unsigned / true

// Product of dims (static shapes).
int64_t ElementCount(const std::vector<int64_t>& dims);
// True for array shapes without dynamic dimensions.
bool IsStaticArray(const Shape& s);
// An elementwise op a rewrite may recompute on values of another shape (the
// reshape mover, the degenerate-dimension rewriter): not a copy or a
// bitcast-convert, a static array with operands, no side effect, no called
// computation, no control edge.
bool IsReshapeableElementwise(const Instruction& i);
// True when replacing a value of shape `a` by one of shape `b` is invisible:
// same element type, dims and dynamic dims, and same layout (or either has none).
bool ShapesInterchangeable(const Shape& a, const Shape& b);

}  // namespace hloscope
