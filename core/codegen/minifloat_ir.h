// The f8 and f4 floating types (f8e5m2, f8e4m3fn, …, f8e8m0fnu, f4e2m1fn)
// in kernels. They live in registers as their raw code: i8 for the f8
// types, i4 for f4e2m1fn (the register type of every 4-bit type, so that a
// bitcast-convert to u4/s4 is a no-op). Loads, stores, selects and data
// movement need nothing more. Arithmetic decodes to f32 (exact: every f8/f4
// value is an f32, f8e8m0fnu's 2^-127 as an f32 subnormal), computes there
// and encodes back, rounding to nearest even with the type's overflow rule,
// bit for bit as core/ir/float_types.cc (DoubleToMinifloat).
#pragma once

#include "core/ir/primitive_type.h"

namespace llvm {
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace hloscope::codegen {

// f8 types with a sign bit (all but f8e8m0fnu).
bool IsSignedMinifloat8(PrimitiveType t);
// Every type whose registers hold a code that DecodeMinifloat /
// EncodeMinifloat handle: the signed f8 types, f8e8m0fnu and f4e2m1fn.
bool IsMinifloat(PrimitiveType t);

// Code of type `t` (i8, or i4 for f4e2m1fn) → its value as f32.
llvm::Value* DecodeMinifloat(llvm::IRBuilderBase& b, llvm::Value* code, PrimitiveType t);

// A double → the code of type `t` nearest to it (ties to even), in the
// register type of `t`.
llvm::Value* EncodeMinifloat(llvm::IRBuilderBase& b, llvm::Value* x, PrimitiveType t);

}  // namespace hloscope::codegen
