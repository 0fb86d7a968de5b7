#include "core/codegen/matrix_kernel.h"

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {

OutputMatrix::OutputMatrix(llvm::IRBuilderBase& b, ElementalEmitter& ee, int out, PrimitiveType t, const Shape& shape,
                           llvm::Value* batch)
    : b_(b), ee_(ee), out_(out), t_(t), base_(static_cast<size_t>(shape.rank())) {
  std::vector<int64_t> batch_dims;
  for (int d = 0; d + 2 < shape.rank(); ++d) batch_dims.push_back(d);
  DelinearizeInto(b, batch, shape, batch_dims, base_);
}

std::vector<llvm::Value*> OutputMatrix::At(llvm::Value* i, llvm::Value* j) const {
  std::vector<llvm::Value*> idx = base_;
  idx[idx.size() - 2] = i;
  idx[idx.size() - 1] = j;
  return idx;
}

std::vector<llvm::Value*> OutputMatrix::VectorAt(llvm::Value* i) const {
  std::vector<llvm::Value*> idx(base_.begin(), base_.end() - 2);
  idx.push_back(i);
  return idx;
}

StatusOr<llvm::Value*> OutputMatrix::Load(llvm::Value* i, llvm::Value* j) {
  return EmitConvert(b_, ee_.Load(out_, At(i, j)), t_, PrimitiveType::kF64);
}

Status OutputMatrix::Store(llvm::Value* i, llvm::Value* j, llvm::Value* v) {
  ASSIGN_OR_RETURN(llvm::Value * s, EmitConvert(b_, v, PrimitiveType::kF64, t_));
  ee_.Store(out_, At(i, j), s);
  return Status::Ok();
}

Status OutputMatrix::CopyOperand(const Instruction* instr, int k, int64_t rows, int64_t cols) {
  return ForLoop(b_, I64(b_, 0), I64(b_, rows), I64(b_, 1), [&](llvm::Value* i) -> Status {
    return ForLoop(b_, I64(b_, 0), I64(b_, cols), I64(b_, 1), [&](llvm::Value* j) -> Status {
      ee_.ClearCache();
      ASSIGN_OR_RETURN(llvm::Value * v, EmitOperand(ee_, instr, k, At(i, j)));
      ee_.ClearCache();
      ee_.Store(out_, At(i, j), v);
      return Status::Ok();
    });
  });
}

}  // namespace hloscope::codegen
