#include "core/ir/primitive_type.h"

#include "core/ir/flat_name_map.h"

#include <unordered_map>

namespace hloscope {
namespace {
struct PtInfo {
  std::string_view name;
  int bits;
};
constexpr PtInfo kPt[] = {
    {"invalid", 0},
#define HLOSCOPE_PT_INFO(e, s, b) {s, b},
    HLOSCOPE_PRIMITIVE_TYPE_LIST(HLOSCOPE_PT_INFO)
#undef HLOSCOPE_PT_INFO
    {"tuple", 0},
};
}  // namespace

std::string_view PrimitiveTypeName(PrimitiveType t) { return kPt[static_cast<int>(t)].name; }

std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name) {
  static const auto* table = [] {
    auto* m = new FlatNameMap<PrimitiveType>(static_cast<size_t>(PrimitiveType::kTuple));
    for (int i = 1; i < static_cast<int>(PrimitiveType::kTuple); ++i)
      m->insert(kPt[i].name, static_cast<PrimitiveType>(i));
    return m;
  }();
  const PrimitiveType* t = table->find(name);
  if (!t) return std::nullopt;
  return *t;
}

int BitWidth(PrimitiveType t) { return kPt[static_cast<int>(t)].bits; }

int StorageBytes(PrimitiveType t) { return (BitWidth(t) + 7) / 8; }

bool IsSignedInt(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kS1: case PrimitiveType::kS2: case PrimitiveType::kS4:
    case PrimitiveType::kS8: case PrimitiveType::kS16: case PrimitiveType::kS32:
    case PrimitiveType::kS64:
      return true;
    default:
      return false;
  }
}

bool IsUnsignedInt(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kU1: case PrimitiveType::kU2: case PrimitiveType::kU4:
    case PrimitiveType::kU8: case PrimitiveType::kU16: case PrimitiveType::kU32:
    case PrimitiveType::kU64:
      return true;
    default:
      return false;
  }
}

bool IsF8OrSmaller(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF8E5M2: case PrimitiveType::kF8E4M3: case PrimitiveType::kF8E4M3FN:
    case PrimitiveType::kF8E4M3B11FNUZ: case PrimitiveType::kF8E5M2FNUZ:
    case PrimitiveType::kF8E4M3FNUZ: case PrimitiveType::kF8E3M4:
    case PrimitiveType::kF8E8M0FNU: case PrimitiveType::kF4E2M1FN:
      return true;
    default:
      return false;
  }
}

bool IsFloat(PrimitiveType t) {
  return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16 || t == PrimitiveType::kF32 ||
         t == PrimitiveType::kF64 || IsF8OrSmaller(t);
}

bool IsComplex(PrimitiveType t) { return t == PrimitiveType::kC64 || t == PrimitiveType::kC128; }

PrimitiveType ComplexComponentType(PrimitiveType t) {
  if (t == PrimitiveType::kC64) return PrimitiveType::kF32;
  if (t == PrimitiveType::kC128) return PrimitiveType::kF64;
  return t;
}

}  // namespace hloscope
