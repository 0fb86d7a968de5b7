// Complex elementary functions in kernels: the value {re, im} of c64/c128
// ops written as real LLVM IR (libdevice calls for the real functions),
// with the principal branches and the signed-zero conventions of C99 Annex G,
// which the interpreter's std::complex (glibc) follows. The formulas avoid
// cancellation near zero and spurious overflow for large |z| (scaled exp for
// e^x cos y, Hull-Fairgrieve-Tang regions for asin/acos, Kahan's tanh);
// infinite and NaN operands are not treated specially beyond that.
#pragma once

#include "core/ir/opcode.h"

namespace llvm {
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace hloscope::codegen {

// A complex value as two registers of its component type (float or double).
struct ComplexParts {
  llvm::Value* re;
  llvm::Value* im;
};

// `op` of z for the unary ops the interpreter defines on complex values:
// exponential, exponential-minus-one, log, log-plus-one, sqrt, rsqrt, cbrt,
// sine, cosine, tan, tanh, sinh, cosh, asin, acos, asinh, acosh, atanh,
// sign. Returns false (and leaves `out`) for any other op.
bool EmitComplexUnary(llvm::IRBuilderBase& b, Opcode op, ComplexParts z, ComplexParts* out);

// atan(z) = -i atanh(iz) (`xla_builder.math.Atan`; no HLO opcode).
ComplexParts EmitComplexAtan(llvm::IRBuilderBase& b, ComplexParts z);

// a / w by Smith's algorithm (scaled by the larger part of w); a / 0 is
// ∞·a with the sign of re(w), as C's complex division.
ComplexParts EmitComplexDivide(llvm::IRBuilderBase& b, ComplexParts a, ComplexParts w);

// a^w = exp(w log a), with XLA's pow(1, w) = pow(a, 0) = 1 and pow(0, w) = 0
// for re(w) > 0.
ComplexParts EmitComplexPower(llvm::IRBuilderBase& b, ComplexParts a, ComplexParts w);

}  // namespace hloscope::codegen
