// Element types: names as HLO text spells them, bit widths, classes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hloscope {

#define HLOSCOPE_PRIMITIVE_TYPE_LIST(V)  \
  V(kPred, "pred", 8)                    \
  V(kS1, "s1", 1)                        \
  V(kS2, "s2", 2)                        \
  V(kS4, "s4", 4)                        \
  V(kS8, "s8", 8)                        \
  V(kS16, "s16", 16)                     \
  V(kS32, "s32", 32)                     \
  V(kS64, "s64", 64)                     \
  V(kU1, "u1", 1)                        \
  V(kU2, "u2", 2)                        \
  V(kU4, "u4", 4)                        \
  V(kU8, "u8", 8)                        \
  V(kU16, "u16", 16)                     \
  V(kU32, "u32", 32)                     \
  V(kU64, "u64", 64)                     \
  V(kF16, "f16", 16)                     \
  V(kBF16, "bf16", 16)                   \
  V(kF32, "f32", 32)                     \
  V(kF64, "f64", 64)                     \
  V(kF8E5M2, "f8e5m2", 8)                \
  V(kF8E4M3, "f8e4m3", 8)                \
  V(kF8E4M3FN, "f8e4m3fn", 8)            \
  V(kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8)  \
  V(kF8E5M2FNUZ, "f8e5m2fnuz", 8)        \
  V(kF8E4M3FNUZ, "f8e4m3fnuz", 8)        \
  V(kF8E3M4, "f8e3m4", 8)                \
  V(kF8E8M0FNU, "f8e8m0fnu", 8)          \
  V(kF4E2M1FN, "f4e2m1fn", 4)            \
  V(kC64, "c64", 64)                     \
  V(kC128, "c128", 128)                  \
  V(kToken, "token", 0)                  \
  V(kOpaque, "opaque", 0)

enum class PrimitiveType : unsigned char {
  kInvalid,
#define HLOSCOPE_DECLARE_PT(e, s, b) e,
  HLOSCOPE_PRIMITIVE_TYPE_LIST(HLOSCOPE_DECLARE_PT)
#undef HLOSCOPE_DECLARE_PT
      kTuple,  // only used as the element type of tuple shapes
};

std::string_view PrimitiveTypeName(PrimitiveType t);
std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name);

int BitWidth(PrimitiveType t);
// Bytes one element takes in memory (sub-byte types are packed by XLA; we
// count ceil(bits/8) per element for storage but report packed sizes).
int StorageBytes(PrimitiveType t);

bool IsSignedInt(PrimitiveType t);
bool IsUnsignedInt(PrimitiveType t);
inline bool IsInteger(PrimitiveType t) { return IsSignedInt(t) || IsUnsignedInt(t); }
bool IsFloat(PrimitiveType t);  // every real floating type incl. f8/f4
bool IsF8OrSmaller(PrimitiveType t);
bool IsComplex(PrimitiveType t);
inline bool IsArrayType(PrimitiveType t) {
  return t != PrimitiveType::kToken && t != PrimitiveType::kOpaque &&
         t != PrimitiveType::kTuple && t != PrimitiveType::kInvalid;
}
// For c64 → f32, c128 → f64; otherwise the type itself.
PrimitiveType ComplexComponentType(PrimitiveType t);

}  // namespace hloscope
