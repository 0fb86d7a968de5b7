// The 8-bit floating types (f8e5m2, f8e4m3fn, …) in kernels. They live in
// registers as their raw byte (i8): loads, stores, selects and data movement
// need nothing more. Arithmetic decodes to f32 (exact: every f8 value is an
// f32), computes there and encodes back, rounding to nearest even with the
// type's overflow rule, bit for bit as core/ir/float_types.cc
// (DoubleToMinifloat) and ml_dtypes.
#pragma once

#include "core/ir/primitive_type.h"

namespace llvm {
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace hloscope::codegen {

// f8 types with a sign bit (all but f8e8m0fnu).
bool IsSignedMinifloat8(PrimitiveType t);

// i8 code of type `t` → its value as f32.
llvm::Value* DecodeMinifloat(llvm::IRBuilderBase& b, llvm::Value* code, PrimitiveType t);

// A double → the i8 code of type `t` nearest to it (ties to even).
llvm::Value* EncodeMinifloat(llvm::IRBuilderBase& b, llvm::Value* x, PrimitiveType t);

}  // namespace hloscope::codegen
