// The emitter dispatch: which kernel emitter implements an instruction of the
// optimized entry computation (a fusion by its hero, an unfused instruction by
// its opcode). Ops no emitter handles are named in the error.
#include "core/codegen/emitters.h"
#include "core/ir/computation.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {

namespace {

Status NoEmitter(const Instruction& instr, const std::string& why) {
  return Status::Error("codegen: no kernel emitter for " + std::string(OpcodeName(instr.opcode())) + " %" +
                       instr.name() + ": " + why);
}

bool Contains(const Computation& c, Opcode op) {
  for (const auto& i : c.instructions())
    if (i->opcode() == op) return true;
  return false;
}

// A transpose that moves data in memory (not a relabelling of dims).
bool IsPhysicalTranspose(const Instruction& t) {
  if (t.opcode() != Opcode::kTranspose || t.shape().rank() < 2) return false;
  const auto& perm = t.dimensions();
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return t.shape().num_elements() >= 1024;
  return false;
}

bool IsLoopOp(Opcode op) {
  if (IsElementwise(op)) return true;
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kDynamicSlice: case Opcode::kConcatenate: case Opcode::kPad:
    case Opcode::kIota: case Opcode::kReverse: case Opcode::kGather: case Opcode::kReducePrecision:
    case Opcode::kMap: case Opcode::kCopy: case Opcode::kConstant: case Opcode::kReduceWindow:
      return true;
    default:
      return false;
  }
}

StatusOr<KernelEmitterFn> ByOpcode(const Instruction& hero, const Instruction& instr) {
  switch (hero.opcode()) {
    case Opcode::kReduce: return &EmitReductionKernel;
    case Opcode::kDot: return &EmitDotKernel;
    case Opcode::kConvolution: return &EmitConvolutionKernel;
    case Opcode::kSort: return &EmitSortKernel;
    case Opcode::kTopK: return &EmitTopKKernel;
    case Opcode::kCholesky: return &EmitCholeskyKernel;
    case Opcode::kFft: return &EmitFftKernel;
    case Opcode::kTriangularSolve: return &EmitTriangularSolveKernel;
    case Opcode::kSelectAndScatter: return &EmitSelectAndScatterKernel;
    case Opcode::kScatter: return &EmitScatterKernel;
    case Opcode::kDynamicUpdateSlice:
      return &EmitDynamicUpdateSliceKernel;
    case Opcode::kRngBitGenerator: return &EmitRngBitGeneratorKernel;
    case Opcode::kRngGetAndUpdateState: return &EmitRngGetAndUpdateStateKernel;
    default: break;
  }
  if (IsTopKCustomCall(hero)) return &EmitTopKKernel;
  if (std::optional<LinalgCall> call = LinalgCustomCall(hero)) {  // JAX's potrf / trsm / getrf / geqrf / orgqr / syevd / gesvd / sytrd / gehrd / gtsv library calls
    switch (call->kind) {
      case LinalgCall::Kind::kPotrf: return &EmitCholeskyKernel;
      case LinalgCall::Kind::kTrsm: return &EmitTriangularSolveKernel;
      case LinalgCall::Kind::kGetrf: return &EmitLuKernel;
      case LinalgCall::Kind::kGeqrf: case LinalgCall::Kind::kOrgqr: return &EmitQrKernel;
      case LinalgCall::Kind::kSyevd: return &EmitEighKernel;
      case LinalgCall::Kind::kGesvd: return &EmitSvdKernel;
      case LinalgCall::Kind::kSytrd: case LinalgCall::Kind::kGehrd: case LinalgCall::Kind::kGtsv:
        return &EmitCondensedFormKernel;
      case LinalgCall::Kind::kGeev: case LinalgCall::Kind::kGees: return &EmitGeevKernel;
    }
  }
  if (IsLuPivotsToPermutationCall(hero)) return &EmitLuPivotsToPermutationKernel;
  if (IsCudnnConvCustomCall(hero)) return &EmitConvolutionKernel;  // cuDNN's library call, as our kernel
  if (IsPhysicalTranspose(hero)) return &EmitTransposeKernel;
  if (IsLoopOp(hero.opcode()) || MathCustomCallOpcode(hero) != Opcode::kParameter) return &EmitLoopKernel;
  return NoEmitter(hero, "no kernel emitter implements this op");
}

}  // namespace

StatusOr<KernelEmitterFn> SelectEmitter(const Instruction& instr) {
  if (instr.opcode() != Opcode::kFusion) return ByOpcode(instr, instr);
  const Computation* c = instr.fused_computation();
  if (!c || !c->root()) return NoEmitter(instr, "fusion without a fused computation");
  // XLA GPU's __triton_collective fusions: a kernel that itself exchanges
  // data with other devices.
  for (const auto& i : c->instructions())
    if (IsCollective(i->opcode()))
      return NoEmitter(instr, std::string(OpcodeName(i->opcode())) + " %" + i->name() +
                                  " inside the fusion: a kernel that exchanges data between devices itself (XLA "
                                  "GPU's Triton collective fusions), which no emitter of ours writes");
  // A scatter at the root decides the kernel even when its updates are
  // computed by a small reduction fused in (`gpu` recomputes reductions too
  // short for the reduction emitter in their consumers, as XLA GPU does).
  if (c->root()->opcode() == Opcode::kScatter) return ByOpcode(*c->root(), instr);
  // Reductions read back by elementwise ops of a larger shape (softmax,
  // layer norm): a warp or block per row, each reduction computed once.
  if (Contains(*c, Opcode::kReduce) && CheckNormalization(instr).ok()) return &EmitNormalizationKernel;
  // The hero: the op that decides the kernel's shape.
  for (Opcode op : {Opcode::kReduce, Opcode::kDot, Opcode::kConvolution, Opcode::kSort, Opcode::kScatter})
    if (Contains(*c, op)) {
      for (const auto& i : c->instructions())
        if (i->opcode() == op) return ByOpcode(*i, instr);
    }
  std::vector<const Instruction*> roots;
  if (c->root()->opcode() == Opcode::kTuple) roots.assign(c->root()->operands().begin(), c->root()->operands().end());
  else roots = {c->root()};
  // One dynamic-update-slice at the root: the in-place emitter writes only
  // the window. Elsewhere (several outputs, under other ops) the loop
  // emitter computes it elementally.
  if (roots.size() == 1 && roots[0]->opcode() == Opcode::kDynamicUpdateSlice) return ByOpcode(*roots[0], instr);
  // Ops with an emitter of their own, with elementwise producers fused in.
  for (Opcode op : {Opcode::kTopK, Opcode::kSelectAndScatter, Opcode::kCholesky, Opcode::kFft, Opcode::kTriangularSolve})
    if (roots.size() == 1 && roots[0]->opcode() == op) return ByOpcode(*roots[0], instr);
  if (roots.size() == 1 && (LinalgCustomCall(*roots[0]) || IsLuPivotsToPermutationCall(*roots[0])))
    return ByOpcode(*roots[0], instr);
  if (roots.size() == 1 && IsPhysicalTranspose(*roots[0])) return &EmitTransposeKernel;
  return &EmitLoopKernel;
}

}  // namespace hloscope::codegen
