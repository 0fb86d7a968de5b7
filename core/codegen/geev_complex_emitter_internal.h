// The complex nonsymmetric eigendecomposition kernel's arithmetic, matrices
// and steps (geev_complex_emitter.cc: balancing, Hessenberg, Q, the
// eigenvectors and the kernel itself; geev_complex_schur_emitter.cc: the
// Schur form).
#pragma once

#include <functional>
#include <string>

#include <llvm/IR/IRBuilder.h>

#include "core/codegen/complex_math_ir.h"
#include "core/codegen/geev_ir.h"
#include "core/codegen/matrix_kernel.h"

namespace hloscope::codegen::zgeev {

using llvm::Value;
using geev::Ir;
using geev::Var;
using geev::Vec;

using Cx = ComplexParts;

// Complex f64 arithmetic as the interpreter writes it out.
struct Cplx {
  const Ir& ir;
  Cx Make(Value* re, Value* im) const { return {re, im}; }
  Cx Re(Value* re) const { return {re, ir.F(0)}; }
  Cx Add(Cx x, Cx y) const { return {ir.Add(x.re, y.re), ir.Add(x.im, y.im)}; }
  Cx Sub(Cx x, Cx y) const { return {ir.Sub(x.re, y.re), ir.Sub(x.im, y.im)}; }
  Cx Mul(Cx x, Cx y) const {
    return {ir.Sub(ir.Mul(x.re, y.re), ir.Mul(x.im, y.im)), ir.Add(ir.Mul(x.re, y.im), ir.Mul(x.im, y.re))};
  }
  Cx Div(Cx x, Cx y) const {
    auto [re, im] = geev::Smith(ir, x.re, x.im, y.re, y.im);
    return {re, im};
  }
  Cx Scale(Value* s, Cx x) const { return {ir.Mul(s, x.re), ir.Mul(s, x.im)}; }
  Cx Conj(Cx x) const { return {x.re, ir.Neg(x.im)}; }
  Cx Neg(Cx x) const { return {ir.Neg(x.re), ir.Neg(x.im)}; }
  Value* Cabs1(Cx x) const { return ir.Add(ir.Abs(x.re), ir.Abs(x.im)); }
  Value* Norm2(Cx x) const { return ir.Add(ir.Mul(x.re, x.re), ir.Mul(x.im, x.im)); }
  Value* Abs(Cx x) const { return ir.Sqrt(Norm2(x)); }
  Value* IsZero(Cx x) const { return ir.And(ir.Eq(x.re, ir.F(0)), ir.Eq(x.im, ir.F(0))); }
  Cx Sel(Value* c, Cx x, Cx y) const { return {ir.Sel(c, x.re, y.re), ir.Sel(c, x.im, y.im)}; }
  Cx R(Cx x) const { return {ir.R(x.re), ir.R(x.im)}; }
  // The principal square root (the interpreter's Sqrt).
  Cx Sqrt(Cx z) const {
    Value* zero = IsZero(z);
    Value* s = ir.Sqrt(ir.Mul(ir.Add(Abs(z), ir.Abs(z.re)), ir.F(0.5)));
    Value* two_s = ir.Mul(ir.F(2), s);
    Value* pos = ir.Ge(z.re, ir.F(0));
    Cx a{s, ir.Div(z.im, two_s)};
    Cx b{ir.Div(ir.Abs(z.im), two_s), ir.Copysign(s, z.im)};
    return Sel(zero, Cx{ir.F(0), z.im}, Sel(pos, a, b));
  }
};

// A mutable complex scalar.
struct CVar {
  Var re, im;
  CVar(llvm::IRBuilderBase& b, const std::string& name) : re(b, b.getDoubleTy(), name + "_re"), im(b, b.getDoubleTy(), name + "_im") {}
  Cx Get() const { return {re.Get(), im.Get()}; }
  void Set(Cx v) const { re.Set(v.re), im.Set(v.im); }
};

// A complex n-vector in the thread's memory.
struct CVec {
  Vec re, im;
  CVec(llvm::IRBuilderBase& b, int64_t n, const std::string& name) : re(b, n, name + "_re"), im(b, n, name + "_im") {}
  Cx Get(Value* i) const { return {re.Get(i), im.Get(i)}; }
  void Set(Value* i, Cx v) const { re.Set(i, v.re), im.Set(i, v.im); }
};

// An n×n complex matrix kept in an output.
struct CMat {
  OutputMatrix* m;
  StatusOr<Cx> Get(Value* i, Value* j) const { return m->LoadParts(i, j); }
  Status Set(Value* i, Value* j, Cx v) const { return m->StoreParts(i, j, v); }
};

class ZGeevEmitter {
 public:
  ZGeevEmitter(const Ir& ir, int64_t n, CMat t, CMat z, Vec& scale, CVec& tau, CVec& w, CVec& x, CVec& diag)
      : ir_(ir), c_{ir}, b_(ir.b), n_(n), T_(t), Z_(z), scale_(scale), tau_(tau), w_(w), x_(x), diag_(diag),
        ilo_(ir.b, ir.b.getInt64Ty(), "ilo"), ihi_(ir.b, ir.b.getInt64Ty(), "ihi"), info_(ir.b, ir.b.getInt64Ty(), "info") {}
  Var& info() { return info_; }
  Status Balance();
  Status Hessenberg();
  Status FormQ();
  Status Schur();
  Status Vectors(bool right);
  Status Finish(bool right);

 private:
  const Ir& ir_;
  Cplx c_;
  llvm::IRBuilderBase& b_;
  int64_t n_;
  CMat T_, Z_;
  Vec& scale_;
  CVec &tau_, &w_, &x_, &diag_;
  Var ilo_, ihi_, info_;
  Value* I(int64_t v) const { return ir_.I(v); }
  Value* N() const { return I(n_); }
  Status Swap(const CMat& m, Value* i0, Value* j0, Value* i1, Value* j1) {
    ASSIGN_OR_RETURN(Cx x, m.Get(i0, j0));
    ASSIGN_OR_RETURN(Cx y, m.Get(i1, j1));
    RETURN_IF_ERROR(m.Set(i0, j0, y));
    return m.Set(i1, j1, x);
  }
  // m(i, j) ← R(f(m(i, j))).
  Status Update(const CMat& m, Value* i, Value* j, const std::function<Cx(Cx)>& f) {
    ASSIGN_OR_RETURN(Cx v, m.Get(i, j));
    return m.Set(i, j, c_.R(f(v)));
  }
  Status ScaleRow(Value* i, Value* from, Cx s) {
    return ir_.Up(from, N(), [&](Value* c) { return Update(T_, i, c, [&](Cx v) { return c_.Mul(s, v); }); });
  }
  Status ScaleCol(Value* j, Value* r0, Value* r1, Cx s) {
    return ir_.Up(r0, b_.CreateAdd(r1, I(1)), [&](Value* r) { return Update(T_, r, j, [&](Cx v) { return c_.Mul(s, v); }); });
  }
  Status ScaleZ(Value* j, Cx s) {
    return ir_.Up(I(0), N(), [&](Value* r) { return Update(Z_, r, j, [&](Cx v) { return c_.Mul(s, v); }); });
  }
};

}  // namespace hloscope::codegen::zgeev
