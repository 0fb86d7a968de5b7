#include "core/ir/custom_calls.h"

namespace hloscope {

bool IsIdentityCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.operand_count() != 1) return false;
  const std::string& t = i.attrs().custom_call_target;
  if (t != "Sharding" && t != "SPMDFullToShardShape" && t != "SPMDShardToFullShape" && t != "Pin" && t != "Unpin" &&
      t != "MoveToHost" && t != "MoveToDevice" && t != "annotate_device_placement" && t != "xla.sdy.FuncResultSharding")
    return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || !out.IsArray()) return false;
  return in.BufferElement().Compatible(out.BufferElement());
}

Opcode MathCustomCallOpcode(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.operand_count() != 1 || !i.shape().IsArray() ||
      !i.operand(0)->shape().IsArray() || i.operand(0)->shape().element_type() != i.shape().element_type() ||
      !i.operand(0)->shape().SameDims(i.shape()))
    return Opcode::kParameter;
  const std::string& t = i.attrs().custom_call_target;
  if (t == "xla_builder.math.Asinh") return Opcode::kAsinh;
  if (t == "xla_builder.math.Acosh") return Opcode::kAcosh;
  if (t == "xla_builder.math.Asin") return Opcode::kAsin;
  if (t == "xla_builder.math.Acos") return Opcode::kAcos;
  if (t == "xla_builder.math.Cosh") return Opcode::kCosh;
  if (t == "xla_builder.math.Sinh") return Opcode::kSinh;
  if (t == "xla_builder.math.Atanh") return Opcode::kAtanh;
  if (t == "xla_builder.math.Atan") return Opcode::kAtan2;  // atan(x): see the header
  return Opcode::kParameter;
}

bool IsCreateBufferCustomCall(const Instruction& i) {
  return i.opcode() == Opcode::kCustomCall && i.operand_count() == 0 &&
         i.attrs().custom_call_target == "CreateBuffer" && i.shape().IsBuffer();
}

bool IsTopKCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.attrs().custom_call_target != "TopK" || i.operand_count() != 1) return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || in.rank() < 1 || !out.IsTuple() || out.tuple_size() != 2) return false;
  const Shape& values = out.tuple_shapes()[0];
  const Shape& indices = out.tuple_shapes()[1];
  if (!values.IsArray() || !indices.IsArray() || values.element_type() != in.element_type() ||
      indices.element_type() != PrimitiveType::kS32 || values.rank() != in.rank() || !values.SameDims(indices))
    return false;
  for (int d = 0; d + 1 < in.rank(); ++d)
    if (values.dim(d) != in.dim(d)) return false;
  return values.dim(in.rank() - 1) <= in.dim(in.rank() - 1);
}

bool IsExternalCustomCall(const Instruction& i) {
  return i.opcode() == Opcode::kCustomCall && !IsIdentityCustomCall(i) && MathCustomCallOpcode(i) == Opcode::kParameter &&
         !IsCreateBufferCustomCall(i) && !IsTopKCustomCall(i);
}

}  // namespace hloscope
