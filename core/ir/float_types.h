// Conversions between float/double and the narrow floating types (f16,
// bf16, the f8/f4 families), rounding to nearest even as XLA does.
#pragma once

#include <cstdint>

#include "core/ir/primitive_type.h"

namespace hloscope {

uint16_t FloatToBF16(float f);
float BF16ToFloat(uint16_t h);
uint16_t FloatToF16(float f);
float F16ToFloat(uint16_t h);

// The encoding of an f8/f4 type: exponent and mantissa widths, bias, and
// where its NaN and infinities are.
struct MinifloatFormat {
  int exp_bits, man_bits, bias;
  bool has_inf, has_sign;
  // kIeee: exponent all ones is inf (mantissa 0) or NaN; kAllOnes: only the
  // all-ones magnitude is NaN (…fn); kNegZero: the code of -0 is the NaN
  // (…fnuz); kNone: no NaN (overflow saturates); kAllOnesNoSign: e8m0.
  enum NanKind { kIeee, kAllOnes, kNegZero, kNone, kAllOnesNoSign } nan;
  int bits() const { return (has_sign ? 1 : 0) + exp_bits + man_bits; }
};
MinifloatFormat MinifloatFormatOf(PrimitiveType t);
// The largest finite value of an f8/f4 type.
double MinifloatMax(PrimitiveType t);

// f8/f4 types: the code in the low bits of a byte. Rounds to nearest even;
// past the largest finite value: inf where the type has one, else NaN (or
// the largest value for types without NaN), as ml_dtypes does.
uint8_t DoubleToMinifloat(PrimitiveType t, double v);
double MinifloatToDouble(PrimitiveType t, uint8_t code);

// Any floating type stored as its raw bits (f16/bf16: 16 bits, f8: 8 bits).
double NarrowFloatToDouble(PrimitiveType t, uint64_t bits);
uint64_t DoubleToNarrowFloat(PrimitiveType t, double v);

}  // namespace hloscope
