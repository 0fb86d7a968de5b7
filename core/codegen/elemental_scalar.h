// Scalar arithmetic for the elemental emitter: one HLO elementwise op on
// register values, with exactly the semantics core/eval implements (see
// docs/eval-tolerances.md): integer x/0 = -1 (signed) or all ones, INT_MIN/-1
// = INT_MIN, x%0 = x, shifts past the width give 0 (or the sign), max/min
// propagate NaN, pow(x,0) = pow(1,y) = 1, float→int saturates with NaN → 0,
// f16/bf16 compute in f32 and round to nearest even after every op.
//
// Register types: pred → i1, integers → iN (s4/u4 → i4, s2/u2 → i2,
// sign- or zero-extended only when widened), f16 → half, bf16 → bfloat,
// f32 → float, f64 → double, f8 → i8 and f4e2m1fn → i4, their raw code
// (minifloat_ir.h: computed in f32, rounded once), complex → {re, im}.
// s1/u1 are rejected with an error naming the op and the type.
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
// The types narrower than a byte that kernels handle: s2, s4, u2, u4,
// f4e2m1fn. Kernel buffers hold them packed (ElementalEmitter::Load/Store).
bool IsSubByte(PrimitiveType t);
// Null status when `t` has a register type; otherwise an error naming `what`.
Status CheckSupportedType(PrimitiveType t, const std::string& what);

// Applies the elementwise op `instr` (its opcode and attributes: direction,
// compare_type, exponent/mantissa bits; its result element type) to operand
// values of element types `types`.
StatusOr<llvm::Value*> EmitElementwiseOp(llvm::IRBuilderBase& b, const Instruction& instr,
                                         const std::vector<llvm::Value*>& operands,
                                         const std::vector<PrimitiveType>& types);

// atan(v) for `xla_builder.math.Atan`, which has no HLO opcode: float types
// as the unary float ops (f16/bf16/f8 computed in f32), complex ones as
// -i atanh(iv) (complex_math_ir.h).
StatusOr<llvm::Value*> EmitAtan(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType t);

// Converts a value of type `from` to `to` as the interpreter's convert does.
StatusOr<llvm::Value*> EmitConvert(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType from, PrimitiveType to);

// An integer index value (any integer type, signed per `t`) as i64; unsigned
// values above INT64_MAX become INT64_MAX (the interpreter's rule).
llvm::Value* IndexToI64(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType t);

}  // namespace hloscope::codegen
