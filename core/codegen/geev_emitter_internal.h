// The real nonsymmetric eigendecomposition kernel's matrices and steps
// (geev_emitter.cc: balancing, Hessenberg, Q and the kernel itself;
// geev_schur_emitter.cc: the Schur form; geev_vectors_emitter.cc: the
// eigenvectors of the Schur form, taken back through Q and the balancing, and
// their normalization).
#pragma once

#include <string>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/geev_ir.h"
#include "core/codegen/matrix_kernel.h"

namespace hloscope::codegen::geev {

// An n×n matrix kept in an output: its elements (real outputs) or one part
// of its complex elements, read in f64 and stored in the element type.
struct Mat {
  llvm::IRBuilderBase* b;
  ElementalEmitter* ee;
  const OutputMatrix* m;
  int arg;
  PrimitiveType t;  // the output's element type
  int part;         // -1: the element; 0 / 1: the real / imaginary part
  PrimitiveType Scalar() const {
    return part < 0 ? t : t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  }
  StatusOr<Value*> Get(Value* i, Value* j) const {
    Value* v = ee->Load(arg, m->At(i, j));
    if (part >= 0) v = b->CreateExtractValue(v, static_cast<unsigned>(part));
    return EmitConvert(*b, v, Scalar(), PrimitiveType::kF64);
  }
  Status Set(Value* i, Value* j, Value* x) const {
    ASSIGN_OR_RETURN(Value * s, EmitConvert(*b, x, PrimitiveType::kF64, Scalar()));
    if (part >= 0) s = b->CreateInsertValue(ee->Load(arg, m->At(i, j)), s, static_cast<unsigned>(part));
    ee->Store(arg, m->At(i, j), s);
    return Status::Ok();
  }
};

class GeevEmitter {
 public:
  GeevEmitter(const Ir& ir, int64_t n, const Mat& t, const Mat& z, const Mat& x, Vec& scale, Vec& tau, Vec& wr, Vec& wi)
      : ir_(ir), b_(ir.b), n_(n), T_(t), Z_(z), X_(x), scale_(scale), tau_(tau), wr_(wr), wi_(wi),
        ilo_(ir.b, ir.b.getInt64Ty(), "ilo"), ihi_(ir.b, ir.b.getInt64Ty(), "ihi"), info_(ir.b, ir.b.getInt64Ty(), "info") {}

  Var& info() { return info_; }

  Status Balance(bool scale);
  Status Hessenberg();
  Status FormQ();
  Status Schur();
  Status RightVectors();
  Status LeftVectors();
  Status BackTransform(const Mat& v, bool right);
  Status Unbalance(const Mat& v, bool right);
  Status Normalize(const Mat& v);

 private:
  const Ir& ir_;
  llvm::IRBuilderBase& b_;
  int64_t n_;
  Mat T_, Z_, X_;
  Vec &scale_, &tau_, &wr_, &wi_;
  Var ilo_, ihi_, info_;

  Value* I(int64_t v) const { return ir_.I(v); }
  Value* N() const { return I(n_); }
  Status Swap(const Mat& m, Value* i0, Value* j0, Value* i1, Value* j1) {
    ASSIGN_OR_RETURN(Value * x, m.Get(i0, j0));
    ASSIGN_OR_RETURN(Value * y, m.Get(i1, j1));
    RETURN_IF_ERROR(m.Set(i0, j0, y));
    return m.Set(i1, j1, x);
  }
  Status Standardize(Value* i);
  Status Solve2(bool trans, Value* wr, Value* wi, bool cplx, Value* j, Value* b1r, Value* b1i, Value* b2r, Value* b2i,
                Value* smin, Var& x1r, Var& x1i, Var& x2r, Var& x2i);
};

}  // namespace hloscope::codegen::geev
