// The IR building blocks of the nonsymmetric eigendecomposition kernels
// (geev_emitter.cc for real matrices, geev_complex_emitter.cc for complex
// ones): f64 arithmetic written as the interpreter computes it, structured
// control flow, and scalars and vectors in the thread's own memory.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "core/codegen/ir_loops.h"
#include "core/ir/custom_calls.h"
#include "core/support/status.h"

namespace hloscope::codegen::geev {

using llvm::Value;
using Fn = std::function<Status()>;

struct Ir {
  llvm::IRBuilderBase& b;
  bool f32;
  GeevConstants p;
  llvm::Type* f64() const { return b.getDoubleTy(); }
  Value* F(double v) const { return llvm::ConstantFP::get(b.getDoubleTy(), v); }
  Value* I(int64_t v) const { return I64(b, v); }
  Value* Abs(Value* v) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
  Value* Sqrt(Value* v) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); }
  Value* Copysign(Value* m, Value* s) const { return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, m, s); }
  Value* Signbit(Value* v) const { return b.CreateICmpSLT(b.CreateBitCast(v, b.getInt64Ty()), I(0)); }
  // std::max / std::min of two values.
  Value* Max(Value* x, Value* y) const { return b.CreateSelect(b.CreateFCmpOLT(x, y), y, x); }
  Value* Min(Value* x, Value* y) const { return b.CreateSelect(b.CreateFCmpOLT(y, x), y, x); }
  Value* R(Value* v) const { return f32 ? b.CreateFPExt(b.CreateFPTrunc(v, b.getFloatTy()), f64()) : v; }
  Value* Add(Value* x, Value* y) const { return b.CreateFAdd(x, y); }
  Value* Sub(Value* x, Value* y) const { return b.CreateFSub(x, y); }
  Value* Mul(Value* x, Value* y) const { return b.CreateFMul(x, y); }
  Value* Div(Value* x, Value* y) const { return b.CreateFDiv(x, y); }
  Value* Neg(Value* x) const { return b.CreateFNeg(x); }
  Value* Lt(Value* x, Value* y) const { return b.CreateFCmpOLT(x, y); }
  Value* Le(Value* x, Value* y) const { return b.CreateFCmpOLE(x, y); }
  Value* Ge(Value* x, Value* y) const { return b.CreateFCmpOGE(x, y); }
  Value* Gt(Value* x, Value* y) const { return b.CreateFCmpOGT(x, y); }
  Value* Eq(Value* x, Value* y) const { return b.CreateFCmpOEQ(x, y); }
  Value* Ne(Value* x, Value* y) const { return b.CreateFCmpUNE(x, y); }
  Value* Not(Value* c) const { return b.CreateNot(c); }
  Value* And(Value* x, Value* y) const { return b.CreateAnd(x, y); }
  Value* Or(Value* x, Value* y) const { return b.CreateOr(x, y); }
  Value* Sel(Value* c, Value* x, Value* y) const { return b.CreateSelect(c, x, y); }

  Status If(Value* c, const Fn& then) const { return IfThen(b, c, then); }
  Status IfElse(Value* c, const Fn& then, const Fn& otherwise) const {
    RETURN_IF_ERROR(IfThen(b, c, then));
    return IfThen(b, b.CreateNot(c), otherwise);
  }
  // while (cond()) body();
  Status While(const std::function<Value*()>& cond, const Fn& body) const {
    llvm::Function* f = b.GetInsertBlock()->getParent();
    llvm::LLVMContext& ctx = f->getContext();
    auto* head = llvm::BasicBlock::Create(ctx, "while.head", f);
    auto* bodyb = llvm::BasicBlock::Create(ctx, "while.body", f);
    auto* exit = llvm::BasicBlock::Create(ctx, "while.exit", f);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    b.CreateCondBr(cond(), bodyb, exit);
    b.SetInsertPoint(bodyb);
    RETURN_IF_ERROR(body());
    b.CreateBr(head);
    b.SetInsertPoint(exit);
    return Status::Ok();
  }
  // for (i = from; i < to; ++i) and for (i = from; i >= to; --i), bounds as values.
  Status Up(Value* from, Value* to, const std::function<Status(Value*)>& body) const {
    return ForLoop(b, from, to, I(1), body);
  }
  Status Down(Value* from, Value* to, const std::function<Status(Value*)>& body) const {
    return ForLoop(b, I(0), b.CreateAdd(b.CreateSub(from, to), I(1)), I(1),
                   [&](Value* s) { return body(b.CreateSub(from, s)); });
  }
};

// A mutable scalar (f64 or i64) in the thread's memory.
struct Var {
  llvm::IRBuilderBase* b;
  llvm::Type* t;
  Value* slot;
  Var(llvm::IRBuilderBase& bb, llvm::Type* ty, const std::string& name) : b(&bb), t(ty), slot(EntryAlloca(bb, ty, name)) {}
  Value* Get() const { return b->CreateLoad(t, slot); }
  void Set(Value* v) const { b->CreateStore(v, slot); }
};

// A vector of n f64 values in the thread's memory.
struct Vec {
  llvm::IRBuilderBase* b;
  llvm::ArrayType* t;
  Value* arr;
  Vec(llvm::IRBuilderBase& bb, int64_t n, const std::string& name)
      : b(&bb), t(llvm::ArrayType::get(bb.getDoubleTy(), static_cast<uint64_t>(std::max<int64_t>(n, 1)))),
        arr(EntryAlloca(bb, t, name)) {}
  Value* At(Value* i) const { return b->CreateInBoundsGEP(t, arr, {b->getInt64(0), i}); }
  Value* Get(Value* i) const { return b->CreateLoad(b->getDoubleTy(), At(i)); }
  void Set(Value* i, Value* v) const { b->CreateStore(v, At(i)); }
};

// LAPACK gebal's scaling of row and column i once their sums are known
// (both geev kernels): c and r, the squared 2-norms of column and row i
// within the unisolated block (their roots taken here), ca and ra their
// largest magnitudes (the column down to ihi, the row from ilo); `scale` holds
// D. Finds the power of 2 f that brings c and r closest and, unless that
// gains under 5% of c + r or D(i)·f would leave the safe range, records
// D(i)·f, sets `noconv` and calls apply(f, 1/f), which scales row i by 1/f
// and column i by f. g, f and steps are the kernel's scratch scalars.
inline Status BalanceRowAndColumn(const Ir& ir, const Var& c, const Var& r, const Var& ca, const Var& ra, const Var& g,
                                  const Var& f, const Var& steps, const Vec& scale, Value* i, const Var& noconv,
                                  const std::function<Status(Value* f, Value* inv)>& apply) {
  llvm::IRBuilderBase& b = ir.b;
  c.Set(ir.Sqrt(c.Get()));
  r.Set(ir.Sqrt(r.Get()));
  Value* sum = ir.Add(ir.Add(ir.Add(c.Get(), ca.Get()), r.Get()), ra.Get());
  Value* ok = ir.And(ir.And(ir.Ne(c.Get(), ir.F(0)), ir.Ne(r.Get(), ir.F(0))), b.CreateFCmpORD(sum, sum));
  return ir.If(ok, [&]() -> Status {
    g.Set(ir.Div(r.Get(), ir.F(2)));
    f.Set(ir.F(1));
    Value* s = ir.Add(c.Get(), r.Get());
    steps.Set(ir.I(0));
    RETURN_IF_ERROR(ir.While(
        [&] {
          Value* more = ir.And(b.CreateICmpSLT(steps.Get(), ir.I(kGeevScaleSteps)), ir.Lt(c.Get(), g.Get()));
          more = ir.And(more, ir.Lt(ir.Max(ir.Max(f.Get(), c.Get()), ca.Get()), ir.F(ir.p.sfmax2)));
          return ir.And(more, ir.Gt(ir.Min(ir.Min(r.Get(), g.Get()), ra.Get()), ir.F(ir.p.sfmin2)));
        },
        [&]() -> Status {
          steps.Set(b.CreateAdd(steps.Get(), ir.I(1)));
          f.Set(ir.Mul(f.Get(), ir.F(2))), c.Set(ir.Mul(c.Get(), ir.F(2))), ca.Set(ir.Mul(ca.Get(), ir.F(2)));
          r.Set(ir.Div(r.Get(), ir.F(2))), g.Set(ir.Div(g.Get(), ir.F(2))), ra.Set(ir.Div(ra.Get(), ir.F(2)));
          return Status::Ok();
        }));
    g.Set(ir.Div(c.Get(), ir.F(2)));
    steps.Set(ir.I(0));
    RETURN_IF_ERROR(ir.While(
        [&] {
          Value* more = ir.And(b.CreateICmpSLT(steps.Get(), ir.I(kGeevScaleSteps)), ir.Ge(g.Get(), r.Get()));
          more = ir.And(more, ir.Lt(ir.Max(r.Get(), ra.Get()), ir.F(ir.p.sfmax2)));
          return ir.And(more, ir.Gt(ir.Min(ir.Min(ir.Min(f.Get(), c.Get()), g.Get()), ca.Get()), ir.F(ir.p.sfmin2)));
        },
        [&]() -> Status {
          steps.Set(b.CreateAdd(steps.Get(), ir.I(1)));
          f.Set(ir.Div(f.Get(), ir.F(2))), c.Set(ir.Div(c.Get(), ir.F(2))), g.Set(ir.Div(g.Get(), ir.F(2)));
          ca.Set(ir.Div(ca.Get(), ir.F(2))), r.Set(ir.Mul(r.Get(), ir.F(2))), ra.Set(ir.Mul(ra.Get(), ir.F(2)));
          return Status::Ok();
        }));
    Value* sc = scale.Get(i);
    Value* fv = f.Get();
    Value* skip = ir.Ge(ir.Add(c.Get(), r.Get()), ir.Mul(ir.F(0.95), s));
    skip = ir.Or(skip, ir.And(ir.And(ir.Lt(fv, ir.F(1)), ir.Lt(sc, ir.F(1))), ir.Le(ir.Mul(fv, sc), ir.F(ir.p.sfmin1))));
    skip = ir.Or(skip, ir.And(ir.And(ir.Gt(fv, ir.F(1)), ir.Gt(sc, ir.F(1))), ir.Ge(sc, ir.Div(ir.F(ir.p.sfmax1), fv))));
    return ir.If(ir.Not(skip), [&]() -> Status {
      scale.Set(i, ir.Mul(sc, fv));
      noconv.Set(b.getTrue());
      return apply(fv, ir.Div(ir.F(1), fv));
    });
  });
}

// Smith's division (a + ib) / (c + id), as the interpreter's SmithDivide.
inline std::pair<Value*, Value*> Smith(const Ir& ir, Value* a, Value* b, Value* c, Value* d) {
  Value* big = ir.Ge(ir.Abs(c), ir.Abs(d));
  Value* r1 = ir.Div(d, c);
  Value* den1 = ir.Add(c, ir.Mul(d, r1));
  Value* re1 = ir.Div(ir.Add(a, ir.Mul(b, r1)), den1);
  Value* im1 = ir.Div(ir.Sub(b, ir.Mul(a, r1)), den1);
  Value* r2 = ir.Div(c, d);
  Value* den2 = ir.Add(ir.Mul(c, r2), d);
  Value* re2 = ir.Div(ir.Add(ir.Mul(a, r2), b), den2);
  Value* im2 = ir.Div(ir.Sub(ir.Mul(b, r2), a), den2);
  return {ir.Sel(big, re1, re2), ir.Sel(big, im1, im2)};
}

}  // namespace hloscope::codegen::geev
