// Helpers shared by the shape-inference files. Not part of the public API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/computation.h"
#include "core/ir/instruction.h"
#include "core/support/status.h"
#include "core/verify/shape_inference.h"

namespace hloscope::infer {

// --- Text for messages -------------------------------------------------------

// `f32[2,<=3]` (no layout).
std::string Str(const Shape& s);
// `{1, 2}`.
std::string IntList(const std::vector<int64_t>& v);
// `operand 1 ('y')`.
std::string Operand(const Instruction& instr, int i);
// The opcode's text name.
std::string Op(const Instruction& instr);
Status Fail(std::string message);

// --- Types and dimensions ----------------------------------------------------

// True when the instruction's shape was written (the parser leaves the element
// type kInvalid for instructions written without a shape).
inline bool HasDeclaredShape(const Instruction& instr) {
  return instr.shape().element_type() != PrimitiveType::kInvalid;
}
inline bool IsUnboundedDim(int64_t d) { return d == Shape::kUnboundedDim; }
inline bool IsUnbounded(const Shape& s, int i) { return s.IsDynamicDim(i) && IsUnboundedDim(s.dim(i)); }
inline bool IsBoundedDynamic(const Shape& s, int i) { return s.IsDynamicDim(i) && !IsUnboundedDim(s.dim(i)); }
// Equal, or one of them unbounded (`?`).
inline bool DimsCompatible(int64_t a, int64_t b) { return a == b || IsUnboundedDim(a) || IsUnboundedDim(b); }
// Same element type, or both real floating types.
inline bool SameTypeIgnoringFp(PrimitiveType a, PrimitiveType b) {
  return a == b || (IsFloat(a) && IsFloat(b));
}
// XLA's primitive_util::HigherPrecisionType: complex over real, then range,
// then precision, then width, then signed over unsigned.
PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b);
// Same rank and compatible dimensions; element types ignored.
bool SameDimsCompatible(const Shape& a, const Shape& b);
// Array shape with the given dynamic flags (empty = all static).
Shape MakeArray(PrimitiveType t, std::vector<int64_t> dims, const std::vector<bool>& dynamic = {});
// `s` with another element type and no layout.
Shape WithType(const Shape& s, PrimitiveType t);
// `s` without layouts (recursively).
Shape NoLayout(const Shape& s);
// Product of dims (bounds); nullopt with an unbounded dimension or on overflow.
std::optional<int64_t> ElementCount(const Shape& s);
bool IsPermutation(const std::vector<int64_t>& v, int64_t n);
bool AllUnique(const std::vector<int64_t>& v);
bool Contains(const std::vector<int64_t>& v, int64_t x);

// --- Operand checks -----------------------------------------------------------

Status ExpectOperandCount(const Instruction& instr, int n);
Status ExpectArrayOperand(const Instruction& instr, int i, std::string_view role = "");

// --- Attributes kept verbatim --------------------------------------------------

// Integer list of a raw attribute such as lhs_ragged_dims={1,2}.
std::optional<std::vector<int64_t>> RawInts(const Instruction& instr, std::string_view name);
std::optional<int64_t> RawInt(const Instruction& instr, std::string_view name);
// The raw value, or "" when absent.
std::string RawValue(const Instruction& instr, std::string_view name);

// --- Called computations -------------------------------------------------------

struct ProgramShape {
  const Computation* comp = nullptr;
  std::vector<const Shape*> params;
  const Shape* result = nullptr;
};
// Parameters (by number) and root shape of the computation called through
// `attr`. Errors when it is missing or malformed.
StatusOr<ProgramShape> CalledProgram(const Instruction& instr, std::string_view attr);
StatusOr<ProgramShape> ProgramOf(const Instruction& instr, const Computation* c, std::string_view role);
// Branch computations of a conditional (branch_computations= or
// true_computation=/false_computation=).
std::vector<const Computation*> BranchComputations(const Instruction& instr);

// XLA's VerifyReducerShape: `reducer` takes 2n scalars (accumulators then
// inputs) and returns a scalar (n == 1) or an n-tuple of scalars matching the
// init values and the input element types up to floating precision.
Status VerifyReducer(const ProgramShape& reducer, const std::vector<const Shape*>& init_values,
                     const std::vector<PrimitiveType>& input_types, std::string_view what);

// Output shape of a window over `base` (reduce-window, select-and-scatter,
// convolution spatial dimensions).
StatusOr<Shape> WindowOutputShape(const Shape& base, const Window& window, PrimitiveType type);

// --- Per-family inference (one file each) --------------------------------------

StatusOr<Shape> InferElementwise(const Instruction& instr);   // shape_inference_elementwise.cc
StatusOr<Shape> InferDataMovement(const Instruction& instr);  // shape_inference_movement.cc
StatusOr<Shape> InferContraction(const Instruction& instr);   // shape_inference_contraction.cc
StatusOr<Shape> InferGather(const Instruction& instr);        // shape_inference_indexing.cc
StatusOr<Shape> InferScatter(const Instruction& instr);       // shape_inference_indexing.cc
StatusOr<Shape> InferReduction(const Instruction& instr);     // shape_inference_reduction.cc
StatusOr<Shape> InferControlFlow(const Instruction& instr);   // shape_inference_control.cc

}  // namespace hloscope::infer
