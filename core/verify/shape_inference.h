// Shape inference: the result shape of an instruction computed from its
// operands' shapes, its attributes and its called computations, following
// XLA's ShapeInference rules (xla/service/shape_inference.cc) and the extra
// constraints XLA's HloVerifier adds on top (no implicit broadcasts, exact
// broadcast dimensions). Inferred shapes carry no layout.
//
// An instruction whose shape was not written (the parser accepts
// `ROOT x = add(a, b)`) has an element type of kInvalid; InferShape then works
// from the operands alone. Where the result is not a function of the operands
// (convert's target type, iota, broadcast/reshape dimensions, the preferred
// element type of dot/convolution) the declared shape is used when present.
//
// Operands must already be resolved, and called computations must be
// attached and complete (their parameters and root set).
#pragma once

#include "core/ir/instruction.h"
#include "core/support/status.h"

namespace hloscope {

// The result shape of `instr`. Errors are plain sentences without location
// or instruction-name prefix, e.g. "operand 1 ('y') has shape f32[3] but
// f32[2] was expected (add needs operands of identical shape)". For opcodes
// without shape rules (custom-call, collectives, async ops, infeed, recv,
// bitcast, parameter, constant, ...) the error is
// "cannot infer the shape of <opcode>: ...".
StatusOr<Shape> InferShape(const Instruction& instr);

// True where InferShape has a rule for `instr` (false for the opcodes listed
// above and for forms we do not model, such as a sparse dot).
bool HasShapeInferenceRule(const Instruction& instr);

// Shape equality as XLA's verifier compares shapes when it is not
// layout-sensitive (ShapeUtil::Compatible): layouts and dynamic-ness are
// ignored, bounds are compared, an unbounded `?` dimension matches any size.
// With `ignore_fp_precision`, any two real floating types match
// (ShapeUtil::CompatibleIgnoringFpPrecision).
bool ShapesCompatible(const Shape& a, const Shape& b, bool ignore_fp_precision = false);

// Compares the declared shape of `instr` with InferShape's result the way
// XLA's ShapeVerifier::CheckShape does: exact element types for opcodes that
// only move data (tuple, get-tuple-element, call, while, conditional,
// dynamic-update-slice, ...), floating types interchangeable elsewhere when
// `allow_mixed_precision`. Instructions without a shape rule pass.
Status CheckShapeCompatible(const Instruction& instr, bool allow_mixed_precision = true);

}  // namespace hloscope
