// Scalar arithmetic for the elemental emitter: one HLO elementwise op on
// register values, with exactly the semantics core/eval implements (see
// docs/eval-tolerances.md): integer x/0 = -1 (signed) or all ones, INT_MIN/-1
// = INT_MIN, x%0 = x, shifts past the width give 0 (or the sign), max/min
// propagate NaN, pow(x,0) = pow(1,y) = 1, float→int saturates with NaN → 0,
// f16/bf16 compute in f32 and round to nearest even after every op.
//
// Register types: pred → i1, integers → iN, f16 → half, bf16 → bfloat,
// f32 → float, f64 → double, f8 (signed kinds) → i8, their raw byte
// (minifloat_ir.h: computed in f32, rounded once). Complex, sub-byte,
// f8e8m0fnu and f4 types are rejected with an error naming the op and the type.
#pragma once

#include <vector>

#include "core/ir/instruction.h"
#include "core/support/status.h"

namespace llvm {
class IRBuilderBase;
class Type;
class Value;
class LLVMContext;
}  // namespace llvm

namespace hloscope::codegen {

// The register type of an element type, or null when unsupported.
llvm::Type* RegisterType(PrimitiveType t, llvm::LLVMContext& ctx);
// Null status when `t` has a register type; otherwise an error naming `what`.
Status CheckSupportedType(PrimitiveType t, const std::string& what);

// Applies the elementwise op `instr` (its opcode and attributes: direction,
// compare_type, exponent/mantissa bits; its result element type) to operand
// values of element types `types`.
StatusOr<llvm::Value*> EmitElementwiseOp(llvm::IRBuilderBase& b, const Instruction& instr,
                                         const std::vector<llvm::Value*>& operands,
                                         const std::vector<PrimitiveType>& types);

// Converts a value of type `from` to `to` as the interpreter's convert does.
StatusOr<llvm::Value*> EmitConvert(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType from, PrimitiveType to);

// An integer index value (any integer type, signed per `t`) as i64; unsigned
// values above INT64_MAX become INT64_MAX (the interpreter's rule).
llvm::Value* IndexToI64(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType t);

}  // namespace hloscope::codegen
