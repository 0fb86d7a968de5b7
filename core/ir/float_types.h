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

// f8/f4 types: the code in the low bits of a byte.
uint8_t DoubleToMinifloat(PrimitiveType t, double v);
double MinifloatToDouble(PrimitiveType t, uint8_t code);

// Any floating type stored as its raw bits (f16/bf16: 16 bits, f8: 8 bits).
double NarrowFloatToDouble(PrimitiveType t, uint64_t bits);
uint64_t DoubleToNarrowFloat(PrimitiveType t, double v);

}  // namespace hloscope
