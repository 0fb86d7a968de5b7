#include "core/codegen/matrix_kernel.h"

#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

#include <llvm/IR/Intrinsics.h>

namespace hloscope::codegen {

ThreadPerItemKernel::ThreadPerItemKernel(llvm::Module& m, const KernelSpec& spec, const std::string& kind,
                                         int64_t items)
    : b(m.getContext()),
      f(CreateKernelFunction(m, spec, b)),
      args(KernelArguments(f)),
      ee(b, spec, args),
      out(FirstOutputArg(spec)) {
  kernel.kind = kind;
  kernel.dims = LoopLaunchDims(items, spec.device);
  MarkKernel(f, kernel.dims.block[0]);
}

std::vector<int64_t> LeadingDims(int n) {
  std::vector<int64_t> dims;
  for (int d = 0; d < n; ++d) dims.push_back(d);
  return dims;
}

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

StatusOr<ComplexParts> ElementToParts(llvm::IRBuilderBase& b, PrimitiveType t, llvm::Value* v) {
  if (!IsComplex(t)) {
    ASSIGN_OR_RETURN(llvm::Value * re, EmitConvert(b, v, t, PrimitiveType::kF64));
    return ComplexParts{re, nullptr};
  }
  const PrimitiveType part = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  ComplexParts c{};
  ASSIGN_OR_RETURN(c.re, EmitConvert(b, b.CreateExtractValue(v, 0), part, PrimitiveType::kF64));
  ASSIGN_OR_RETURN(c.im, EmitConvert(b, b.CreateExtractValue(v, 1), part, PrimitiveType::kF64));
  return c;
}

StatusOr<llvm::Value*> PartsToElement(llvm::IRBuilderBase& b, PrimitiveType t, ComplexParts c) {
  if (!IsComplex(t)) return EmitConvert(b, c.re, PrimitiveType::kF64, t);
  const PrimitiveType part = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  ASSIGN_OR_RETURN(llvm::Value * re, EmitConvert(b, c.re, PrimitiveType::kF64, part));
  ASSIGN_OR_RETURN(llvm::Value * im, EmitConvert(b, c.im, PrimitiveType::kF64, part));
  llvm::Value* v = llvm::UndefValue::get(RegisterType(t, b.getContext()));
  v = b.CreateInsertValue(v, re, 0);
  return b.CreateInsertValue(v, im, 1);
}

StatusOr<ComplexParts> OutputMatrix::LoadParts(llvm::Value* i, llvm::Value* j) {
  return ElementToParts(b_, t_, ee_.Load(out_, At(i, j)));
}

Status OutputMatrix::StoreParts(llvm::Value* i, llvm::Value* j, ComplexParts v) {
  ASSIGN_OR_RETURN(llvm::Value * s, PartsToElement(b_, t_, v));
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

StatusOr<llvm::Value*> EmitColumnDot(llvm::IRBuilderBase& b, const KernelColumns& c, llvm::Value* i, llvm::Value* j) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Value* acc = EntryAlloca(b, f64, "dot");
  b.CreateStore(llvm::ConstantFP::get(f64, 0.0), acc);
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, c.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
    ASSIGN_OR_RETURN(llvm::Value * x, c.get(row, i));
    ASSIGN_OR_RETURN(llvm::Value * y, c.get(row, j));
    b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, acc), b.CreateFMul(x, y)), acc);
    return Status::Ok();
  }));
  return b.CreateLoad(f64, acc);
}

Status EmitJacobiSweeps(llvm::IRBuilderBase& b, const KernelColumns& l, int64_t q, const KernelColumns* r, double tol) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i1 = b.getInt1Ty();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto fabs = [&](llvm::Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto sqrt = [&](llvm::Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  llvm::Value* done = EntryAlloca(b, i1, "done");
  llvm::Value* rotated = EntryAlloca(b, i1, "rotated");
  llvm::Value* alpha = EntryAlloca(b, f64, "alpha");
  llvm::Value* beta = EntryAlloca(b, f64, "beta");
  llvm::Value* gamma = EntryAlloca(b, f64, "gamma");
  b.CreateStore(b.getFalse(), done);
  return ForLoop(b, I64(b, 0), I64(b, kEighSweeps), I64(b, 1), [&](llvm::Value*) -> Status {
    return IfThen(b, b.CreateNot(b.CreateLoad(i1, done)), [&]() -> Status {
      b.CreateStore(b.getFalse(), rotated);
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, q - 1), I64(b, 1), [&](llvm::Value* i) -> Status {
        return ForLoop(b, b.CreateAdd(i, I64(b, 1)), I64(b, q), I64(b, 1), [&](llvm::Value* j) -> Status {
          // ‖g_i‖², ‖g_j‖² and g_i·g_j in one pass over the rows.
          b.CreateStore(c64(0), alpha);
          b.CreateStore(c64(0), beta);
          b.CreateStore(c64(0), gamma);
          RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, l.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
            ASSIGN_OR_RETURN(llvm::Value * gi, l.get(row, i));
            ASSIGN_OR_RETURN(llvm::Value * gj, l.get(row, j));
            b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, alpha), b.CreateFMul(gi, gi)), alpha);
            b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, beta), b.CreateFMul(gj, gj)), beta);
            b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, gamma), b.CreateFMul(gi, gj)), gamma);
            return Status::Ok();
          }));
          llvm::Value* av = b.CreateLoad(f64, alpha);
          llvm::Value* bv = b.CreateLoad(f64, beta);
          llvm::Value* gv = b.CreateLoad(f64, gamma);
          llvm::Value* apart = b.CreateFCmpOGT(fabs(gv), b.CreateFMul(c64(tol), sqrt(b.CreateFMul(av, bv))));
          return IfThen(b, apart, [&]() -> Status {
            b.CreateStore(b.getTrue(), rotated);
            llvm::Value* zeta = b.CreateFDiv(b.CreateFSub(bv, av), b.CreateFMul(c64(2), gv));
            llvm::Value* sign = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, c64(1), zeta);
            llvm::Value* tan =
                b.CreateFDiv(sign, b.CreateFAdd(fabs(zeta), sqrt(b.CreateFAdd(c64(1), b.CreateFMul(zeta, zeta)))));
            llvm::Value* cos = b.CreateFDiv(c64(1), sqrt(b.CreateFAdd(c64(1), b.CreateFMul(tan, tan))));
            llvm::Value* sin = b.CreateFMul(cos, tan);
            auto rotate = [&](const KernelColumns& c) {
              return ForLoop(b, I64(b, 0), I64(b, c.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
                ASSIGN_OR_RETURN(llvm::Value * gi, c.get(row, i));
                ASSIGN_OR_RETURN(llvm::Value * gj, c.get(row, j));
                RETURN_IF_ERROR(c.set(row, i, b.CreateFSub(b.CreateFMul(cos, gi), b.CreateFMul(sin, gj))));
                return c.set(row, j, b.CreateFAdd(b.CreateFMul(sin, gi), b.CreateFMul(cos, gj)));
              });
            };
            RETURN_IF_ERROR(rotate(l));
            return r ? rotate(*r) : Status::Ok();
          });
        });
      }));
      b.CreateStore(b.CreateNot(b.CreateLoad(i1, rotated)), done);
      return Status::Ok();
    });
  });
}

KernelColumns ComplexKernelColumns::Part(bool imag) const {
  auto get_c = get;
  auto set_c = set;
  return KernelColumns{rows,
                       [get_c, imag](llvm::Value* row, llvm::Value* col) -> StatusOr<llvm::Value*> {
                         ASSIGN_OR_RETURN(ComplexParts x, get_c(row, col));
                         return imag ? x.im : x.re;
                       },
                       [get_c, set_c, imag](llvm::Value* row, llvm::Value* col, llvm::Value* v) -> Status {
                         ASSIGN_OR_RETURN(ComplexParts x, get_c(row, col));
                         return set_c(row, col, imag ? ComplexParts{x.re, v} : ComplexParts{v, x.im});
                       }};
}

StatusOr<ComplexParts> EmitComplexColumnDot(llvm::IRBuilderBase& b, const ComplexKernelColumns& c, llvm::Value* i,
                                            llvm::Value* j) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Value* re = EntryAlloca(b, f64, "cdot_re");
  llvm::Value* im = EntryAlloca(b, f64, "cdot_im");
  b.CreateStore(llvm::ConstantFP::get(f64, 0.0), re);
  b.CreateStore(llvm::ConstantFP::get(f64, 0.0), im);
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, c.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
    ASSIGN_OR_RETURN(ComplexParts x, c.get(row, i));
    ASSIGN_OR_RETURN(ComplexParts y, c.get(row, j));
    b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, re), b.CreateFAdd(b.CreateFMul(x.re, y.re), b.CreateFMul(x.im, y.im))), re);
    b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, im), b.CreateFSub(b.CreateFMul(x.re, y.im), b.CreateFMul(x.im, y.re))), im);
    return Status::Ok();
  }));
  return ComplexParts{b.CreateLoad(f64, re), b.CreateLoad(f64, im)};
}

Status EmitComplexJacobiSweeps(llvm::IRBuilderBase& b, const ComplexKernelColumns& l, int64_t q,
                               const ComplexKernelColumns* r, double tol) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i1 = b.getInt1Ty();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto fabs = [&](llvm::Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto sqrt = [&](llvm::Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  auto abs2 = [&](ComplexParts x) { return b.CreateFAdd(b.CreateFMul(x.re, x.re), b.CreateFMul(x.im, x.im)); };
  llvm::Value* done = EntryAlloca(b, i1, "done");
  llvm::Value* rotated = EntryAlloca(b, i1, "rotated");
  llvm::Value* alpha = EntryAlloca(b, f64, "alpha");
  llvm::Value* beta = EntryAlloca(b, f64, "beta");
  llvm::Value* gre = EntryAlloca(b, f64, "gamma_re");
  llvm::Value* gim = EntryAlloca(b, f64, "gamma_im");
  auto add_to = [&](llvm::Value* slot, llvm::Value* v) { b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, slot), v), slot); };
  b.CreateStore(b.getFalse(), done);
  return ForLoop(b, I64(b, 0), I64(b, kEighSweeps), I64(b, 1), [&](llvm::Value*) -> Status {
    return IfThen(b, b.CreateNot(b.CreateLoad(i1, done)), [&]() -> Status {
      b.CreateStore(b.getFalse(), rotated);
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, q - 1), I64(b, 1), [&](llvm::Value* i) -> Status {
        return ForLoop(b, b.CreateAdd(i, I64(b, 1)), I64(b, q), I64(b, 1), [&](llvm::Value* j) -> Status {
          for (llvm::Value* slot : {alpha, beta, gre, gim}) b.CreateStore(c64(0), slot);
          RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, l.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
            ASSIGN_OR_RETURN(ComplexParts x, l.get(row, i));
            ASSIGN_OR_RETURN(ComplexParts y, l.get(row, j));
            add_to(alpha, abs2(x));
            add_to(beta, abs2(y));
            add_to(gre, b.CreateFAdd(b.CreateFMul(x.re, y.re), b.CreateFMul(x.im, y.im)));
            add_to(gim, b.CreateFSub(b.CreateFMul(x.re, y.im), b.CreateFMul(x.im, y.re)));
            return Status::Ok();
          }));
          llvm::Value* av = b.CreateLoad(f64, alpha);
          llvm::Value* bv = b.CreateLoad(f64, beta);
          llvm::Value* gr = b.CreateLoad(f64, gre);
          llvm::Value* gi = b.CreateLoad(f64, gim);
          llvm::Value* gv = sqrt(b.CreateFAdd(b.CreateFMul(gr, gr), b.CreateFMul(gi, gi)));
          llvm::Value* apart = b.CreateFCmpOGT(gv, b.CreateFMul(c64(tol), sqrt(b.CreateFMul(av, bv))));
          return IfThen(b, apart, [&]() -> Status {
            b.CreateStore(b.getTrue(), rotated);
            llvm::Value* er = b.CreateFDiv(gr, gv);
            llvm::Value* ei = b.CreateFDiv(gi, gv);
            llvm::Value* zeta = b.CreateFDiv(b.CreateFSub(bv, av), b.CreateFMul(c64(2), gv));
            llvm::Value* sign = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, c64(1), zeta);
            llvm::Value* tan =
                b.CreateFDiv(sign, b.CreateFAdd(fabs(zeta), sqrt(b.CreateFAdd(c64(1), b.CreateFMul(zeta, zeta)))));
            llvm::Value* cos = b.CreateFDiv(c64(1), sqrt(b.CreateFAdd(c64(1), b.CreateFMul(tan, tan))));
            llvm::Value* sin = b.CreateFMul(cos, tan);
            auto rotate = [&](const ComplexKernelColumns& c) {
              return ForLoop(b, I64(b, 0), I64(b, c.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
                ASSIGN_OR_RETURN(ComplexParts x, c.get(row, i));
                ASSIGN_OR_RETURN(ComplexParts y, c.get(row, j));
                llvm::Value* hr = b.CreateFAdd(b.CreateFMul(er, y.re), b.CreateFMul(ei, y.im));
                llvm::Value* hi = b.CreateFSub(b.CreateFMul(er, y.im), b.CreateFMul(ei, y.re));
                RETURN_IF_ERROR(c.set(row, i, {b.CreateFSub(b.CreateFMul(cos, x.re), b.CreateFMul(sin, hr)),
                                               b.CreateFSub(b.CreateFMul(cos, x.im), b.CreateFMul(sin, hi))}));
                return c.set(row, j, {b.CreateFAdd(b.CreateFMul(sin, x.re), b.CreateFMul(cos, hr)),
                                      b.CreateFAdd(b.CreateFMul(sin, x.im), b.CreateFMul(cos, hi))});
              });
            };
            RETURN_IF_ERROR(rotate(l));
            return r ? rotate(*r) : Status::Ok();
          });
        });
      }));
      b.CreateStore(b.CreateNot(b.CreateLoad(i1, rotated)), done);
      return Status::Ok();
    });
  });
}

Status EmitSortColumnsByValue(llvm::IRBuilderBase& b, const KernelColumns& values, bool descending,
                              const std::vector<const KernelColumns*>& with) {
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* best = EntryAlloca(b, f64, "best");
  llvm::Value* best_at = EntryAlloca(b, i64, "best_at");
  llvm::Value* zero = I64(b, 0);
  const int64_t n = values.rows;
  return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](llvm::Value* i) -> Status {
    ASSIGN_OR_RETURN(llvm::Value * vi, values.get(i, zero));
    b.CreateStore(vi, best);
    b.CreateStore(i, best_at);
    RETURN_IF_ERROR(ForLoop(b, b.CreateAdd(i, I64(b, 1)), I64(b, n), I64(b, 1), [&](llvm::Value* j) -> Status {
      ASSIGN_OR_RETURN(llvm::Value * vj, values.get(j, zero));
      llvm::Value* b_now = b.CreateLoad(f64, best);
      llvm::Value* first = descending ? b.CreateFCmpOGT(vj, b_now) : b.CreateFCmpOLT(vj, b_now);
      b.CreateStore(b.CreateSelect(first, vj, b_now), best);
      b.CreateStore(b.CreateSelect(first, j, b.CreateLoad(i64, best_at)), best_at);
      return Status::Ok();
    }));
    llvm::Value* m = b.CreateLoad(i64, best_at);
    return IfThen(b, b.CreateICmpNE(m, i), [&]() -> Status {
      // Stored values through f64 and back: exact.
      auto swap = [&](const KernelColumns& c, llvm::Value* ci, llvm::Value* cm) {
        return ForLoop(b, I64(b, 0), I64(b, c.rows), I64(b, 1), [&](llvm::Value* row) -> Status {
          ASSIGN_OR_RETURN(llvm::Value * x, c.get(row, ci));
          ASSIGN_OR_RETURN(llvm::Value * y, c.get(row, cm));
          RETURN_IF_ERROR(c.set(row, ci, y));
          return c.set(row, cm, x);
        });
      };
      ASSIGN_OR_RETURN(llvm::Value * x, values.get(i, zero));
      ASSIGN_OR_RETURN(llvm::Value * y, values.get(m, zero));
      RETURN_IF_ERROR(values.set(i, zero, y));
      RETURN_IF_ERROR(values.set(m, zero, x));
      for (const KernelColumns* c : with) RETURN_IF_ERROR(swap(*c, i, m));
      return Status::Ok();
    });
  });
}

}  // namespace hloscope::codegen
