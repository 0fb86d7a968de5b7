// rng-get-and-update-state, as XLA's GPU backend emits it (llvm_util.cc
// RngGetAndUpdateState): the module's random-number state is an LLVM global
// i128 `hloscope_rng_state` in global memory, initialized to the seed of
// core/eval/rng_state.h; a one-thread kernel writes its value to the u64[2]
// output (low word first) and stores value + delta back.
//
// Every kernel that reads the state declares the same global. It has weak
// linkage, so that where several kernels are linked into one program (the
// CPU path's JIT) they share one state, as XLA's kernels of one LLVM module
// do; the CPU executor resets it to the seed before every run of the plan.
// On CUDA each kernel is loaded as its own module: kernels with different
// deltas then keep separate states, and the state carries over between runs
// of one loaded plan (as XLA's does between executions).
#include <charconv>

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/eval/rng_state.h"

namespace hloscope::codegen {

StatusOr<EmittedKernel> EmitRngGetAndUpdateStateKernel(llvm::Module& m, const KernelSpec& spec) {
  const Instruction& instr = *spec.instr;
  auto error = [&](const std::string& why) {
    return Status::Error("codegen: rng-get-and-update-state %" + instr.name() + ": " + why);
  };
  const RawAttr* d = instr.FindRaw("delta");
  uint64_t delta = 0;
  if (!d || std::from_chars(d->value.data(), d->value.data() + d->value.size(), delta).ec != std::errc())
    return error("needs delta=N, a non-negative integer");
  if (spec.args.size() != 1 || !spec.args[0].is_output || spec.args[0].shape.element_type() != PrimitiveType::kU64 ||
      spec.args[0].shape.num_elements() != 2)
    return error("expects one u64[2] output");

  EmittedKernel k;
  k.kind = "rng-get-and-update-state";  // one thread: grid and block of 1
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  MarkKernel(f, 1);
  llvm::Type* i128 = b.getInt128Ty();
  llvm::GlobalVariable* g = m.getNamedGlobal(kRngStateGlobal);
  if (!g) {
    const uint64_t seed[2] = {kRngStateSeedLo, kRngStateSeedHi};
    g = new llvm::GlobalVariable(m, i128, /*isConstant=*/false, llvm::GlobalValue::WeakAnyLinkage,
                                 llvm::ConstantInt::get(i128, llvm::APInt(128, seed)), kRngStateGlobal, nullptr,
                                 llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
    g->setAlignment(llvm::Align(16));
  }
  llvm::Value* state = b.CreateAddrSpaceCast(g, b.getPtrTy());
  llvm::Value* first = b.CreateAnd(b.CreateICmpEQ(ThreadId64(b), I64(b, 0)), b.CreateICmpEQ(BlockId64(b), I64(b, 0)));
  RETURN_IF_ERROR(IfThen(b, first, [&]() -> Status {
    llvm::Value* old = b.CreateAlignedLoad(i128, state, llvm::Align(16), "state");
    // u64[2] {lo, hi}: the i128's little-endian bytes; the slice is 8-aligned.
    b.CreateAlignedStore(old, f->getArg(0), llvm::Align(8));
    b.CreateAlignedStore(b.CreateAdd(old, llvm::ConstantInt::get(i128, delta)), state, llvm::Align(16));
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return k;
}

}  // namespace hloscope::codegen
