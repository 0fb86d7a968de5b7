// Convolution: direct, one thread per output element (threads follow the
// result's physical order so stores coalesce). Each thread walks the window
// (one loop per spatial dim, kernel position ascending, as the interpreter
// does) and, where the window lands on a real input element (not padding, not
// an lhs-dilation hole), the input features of its group. All dimension
// numbers, strides, padding, lhs/rhs dilation, window reversal,
// feature_group_count and batch_group_count, with the interpreter's numerics
// (operands → result type → compute type; one rounding at the end).
//
// XLA GPU's cuDNN convolution (`__cudnn$convForward`, a library call in XLA's
// thunk sequence) is implemented here too, as the convolution it stands for:
// we call no cuDNN. Its result is the first element of its (result, scratch)
// tuple; the scratch buffer is not written.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
constexpr int64_t kBlock = 256;

}  // namespace

StatusOr<EmittedKernel> EmitConvolutionKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* conv = roots[0];
  if (roots.size() != 1 || (conv->opcode() != Opcode::kConvolution && !IsCudnnConvCustomCall(*conv)))
    return Status::Error(spec.instr->name() + ": the convolution emitter needs a convolution at the kernel root");
  if (conv->operand_count() != 2) return Status::Error(conv->name() + ": convolution takes two operands");
  const Shape& ls = conv->operand(0)->shape();
  const Shape& rs = conv->operand(1)->shape();
  const Shape& os = ConvolutionResultShape(*conv);
  int rank = ls.rank();
  ConvDnums def;
  const ConvDnums* dn = conv->attrs().conv.get();
  if (!dn) {
    if (rank != 2) return Status::Error(conv->name() + ": convolution needs dim_labels");
    dn = &def;
  }
  int ns = static_cast<int>(dn->input_spatial.size());
  Window dw;
  const Window* w = conv->attrs().window.get();
  if (!w) {
    dw.dims.assign(ns, WindowDim{});
    for (int s = 0; s < ns && s < static_cast<int>(dn->kernel_spatial.size()); ++s)
      dw.dims[s].size = rs.dim(static_cast<int>(dn->kernel_spatial[s]));
    w = &dw;
  }
  int64_t fgc = conv->attrs().feature_group_count, bgc = conv->attrs().batch_group_count;
  if (!os.IsArray() || rank != ns + 2 || rs.rank() != rank || os.rank() != rank ||
      static_cast<int>(w->dims.size()) != ns || static_cast<int>(dn->kernel_spatial.size()) != ns ||
      static_cast<int>(dn->output_spatial.size()) != ns)
    return Status::Error(conv->name() + ": ranks of operands, result, window and dim_labels do not agree");
  auto D = [](const Shape& s, int64_t d) { return s.dim(static_cast<int>(d)); };
  int64_t in_feat = D(ls, dn->input_feature), batch = D(ls, dn->input_batch);
  int64_t out_feat = D(rs, dn->kernel_output_feature);
  if (fgc < 1 || bgc < 1 || in_feat % fgc != 0 || out_feat % fgc != 0 || batch % bgc != 0 || out_feat % bgc != 0)
    return Status::Error(conv->name() + ": feature_group_count / batch_group_count do not divide the dimensions");
  if (D(rs, dn->kernel_input_feature) * fgc != in_feat)
    return Status::Error(conv->name() + ": kernel input features times feature_group_count must equal the input features");
  for (const WindowDim& d : w->dims)
    if (d.stride <= 0 || d.base_dilation <= 0 || d.window_dilation <= 0)
      return Status::Error(conv->name() + ": invalid window");
  PrimitiveType rt = os.element_type(), lt = ls.element_type(), rtt = rs.element_type();
  for (PrimitiveType t : {rt, lt, rtt}) RETURN_IF_ERROR(CheckSupportedType(t, conv->name()));
  if (IsComplex(rt)) return Status::Error(conv->name() + ": complex convolution is not supported by the GPU emitter");
  PrimitiveType ct = rt == PrimitiveType::kF64 ? rt : IsFloat(rt) ? PrimitiveType::kF32 : PrimitiveType::kS64;
  int64_t ifg = in_feat / fgc, ofg = out_feat / fgc, bgs = batch / bgc;
  int64_t depth_mult = bgc > 1 ? out_feat / bgc : 1;

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  llvm::Type* cty = RegisterType(ct, m.getContext());
  bool fp = cty->isFloatingPointTy();
  int64_t total = os.num_elements();

  Value* g = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, kBlock)), ThreadId64(b));
  RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(g, I64(b, total)), [&]() -> Status {
    std::vector<Value*> oi(rank);
    DelinearizeInto(b, g, os, MajorToMinor(os), oi);
    Value* of = oi[dn->output_feature];
    Value* ob = oi[dn->output_batch];
    Value* fgi = b.CreateUDiv(of, I64(b, ofg));
    Value* bgi = b.CreateUDiv(of, I64(b, depth_mult));
    Value* lb = b.CreateAdd(ob, b.CreateURem(b.CreateMul(bgi, I64(b, bgs)), I64(b, batch)));
    Value* acc = EntryAlloca(b, cty, "acc");
    b.CreateStore(llvm::Constant::getNullValue(cty), acc);
    std::vector<Value*> lidx(rank), ridx(rank);
    lidx[dn->input_batch] = lb;
    ridx[dn->kernel_output_feature] = of;
    // One loop per spatial dim; `inside` accumulates the in-range test.
    std::function<Status(int, Value*)> walk = [&](int s, Value* inside) -> Status {
      if (s == ns) {
        return IfThen(b, inside, [&]() -> Status {
          return ForLoop(b, I64(b, 0), I64(b, ifg), I64(b, 1), [&](Value* z) -> Status {
            ee.ClearCache();
            std::vector<Value*> li = lidx, ri = ridx;
            li[dn->input_feature] = b.CreateAdd(b.CreateMul(fgi, I64(b, ifg)), z);
            ri[dn->kernel_input_feature] = z;
            ASSIGN_OR_RETURN(Value * x, EmitOperand(ee, conv, 0, li));
            ASSIGN_OR_RETURN(Value * y, EmitOperand(ee, conv, 1, ri));
            ASSIGN_OR_RETURN(x, ToComputeType(b, x, lt, rt, ct));
            ASSIGN_OR_RETURN(y, ToComputeType(b, y, rtt, rt, ct));
            Value* sum = b.CreateLoad(cty, acc);
            b.CreateStore(fp ? b.CreateFAdd(sum, b.CreateFMul(x, y)) : b.CreateAdd(sum, b.CreateMul(x, y)), acc);
            ee.ClearCache();
            return Status::Ok();
          });
        });
      }
      const WindowDim& wd = w->dims[s];
      int64_t ksz = D(rs, dn->kernel_spatial[s]);
      return ForLoop(b, I64(b, 0), I64(b, ksz), I64(b, 1), [&](Value* ki) -> Status {
        Value* pos = b.CreateAdd(b.CreateSub(b.CreateMul(oi[dn->output_spatial[s]], I64(b, wd.stride)), I64(b, wd.pad_lo)),
                                 b.CreateMul(ki, I64(b, wd.window_dilation)));
        Value* ok = inside;
        if (wd.base_dilation > 1) {
          ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateSRem(pos, I64(b, wd.base_dilation)), I64(b, 0)));
          pos = b.CreateSDiv(pos, I64(b, wd.base_dilation));
        }
        ok = b.CreateAnd(ok, b.CreateICmpSGE(pos, I64(b, 0)));
        ok = b.CreateAnd(ok, b.CreateICmpSLT(pos, I64(b, D(ls, dn->input_spatial[s]))));
        lidx[dn->input_spatial[s]] = pos;
        ridx[dn->kernel_spatial[s]] = wd.reversal ? b.CreateSub(I64(b, ksz - 1), ki) : ki;
        return walk(s + 1, ok);
      });
    };
    RETURN_IF_ERROR(walk(0, b.getTrue()));
    ASSIGN_OR_RETURN(Value * v, EmitConvert(b, b.CreateLoad(cty, acc), ct, rt));
    ee.Store(FirstOutputArg(spec), oi, v);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  MarkKernel(f, kBlock);
  EmittedKernel k;
  k.kind = IsCudnnConvCustomCall(*conv) ? "library-convolution" : "convolution";
  k.dims.block[0] = kBlock;
  k.dims.grid[0] = BlocksFor(total, kBlock);
  return k;
}

}  // namespace hloscope::codegen
