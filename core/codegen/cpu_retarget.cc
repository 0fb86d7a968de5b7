#include "core/codegen/cpu_retarget.h"

#include <cctype>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "core/codegen/cpu_runtime.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen::cpu {
namespace {

// Index into ThreadState (as i32 words) for an sreg intrinsic, or -1.
int SregIndex(llvm::Intrinsic::ID id) {
  using namespace llvm::Intrinsic;
  switch (id) {
    case nvvm_read_ptx_sreg_tid_x: return 0;
    case nvvm_read_ptx_sreg_tid_y: return 1;
    case nvvm_read_ptx_sreg_tid_z: return 2;
    case nvvm_read_ptx_sreg_ctaid_x: return 3;
    case nvvm_read_ptx_sreg_ctaid_y: return 4;
    case nvvm_read_ptx_sreg_ctaid_z: return 5;
    case nvvm_read_ptx_sreg_ntid_x: return 6;
    case nvvm_read_ptx_sreg_ntid_y: return 7;
    case nvvm_read_ptx_sreg_ntid_z: return 8;
    case nvvm_read_ptx_sreg_nctaid_x: return 9;
    case nvvm_read_ptx_sreg_nctaid_y: return 10;
    case nvvm_read_ptx_sreg_nctaid_z: return 11;
    default: return -1;
  }
}

// Shuffle mode and whether the value is f32, or mode -1.
std::pair<int, bool> ShuffleOf(llvm::Intrinsic::ID id) {
  using namespace llvm::Intrinsic;
  switch (id) {
    case nvvm_shfl_sync_down_i32: return {kShflDown, false};
    case nvvm_shfl_sync_down_f32: return {kShflDown, true};
    case nvvm_shfl_sync_bfly_i32: return {kShflBfly, false};
    case nvvm_shfl_sync_bfly_f32: return {kShflBfly, true};
    case nvvm_shfl_sync_idx_i32: return {kShflIdx, false};
    case nvvm_shfl_sync_idx_f32: return {kShflIdx, true};
    case nvvm_shfl_sync_up_i32: return {kShflUp, false};
    case nvvm_shfl_sync_up_f32: return {kShflUp, true};
    default: return {-1, false};
  }
}

// The size an extern shared array records (DynamicSharedArray), or 0.
uint64_t DynamicSharedBytes(const llvm::GlobalVariable& g) {
  if (g.getAddressSpace() != 3 || g.hasInitializer()) return 0;
  llvm::MDNode* md = g.getMetadata(kDynamicSharedMetadata);
  if (!md || md->getNumOperands() != 1) return 0;
  auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0));
  return c ? c->getZExtValue() : 0;
}

// wgmma.mma_async's shape and operand flags from ir_util.cc's inline PTX
// ("...m64n<N>k16.f32.<bf16|f16>.<...> {...}, $a, $b, p, 1, 1, <ta>, <tb>;"),
// or false.
bool ParseWgmma(const std::string& text, int32_t* n, int32_t* flags) {
  const size_t at = text.find("wgmma.mma_async.sync.aligned.m64n");
  if (at == std::string::npos) return false;
  size_t p = at + std::string("wgmma.mma_async.sync.aligned.m64n").size();
  *n = 0;
  while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) *n = *n * 10 + (text[p++] - '0');
  if (text.compare(p, 9, "k16.f32.b") == 0) *flags = 0;
  else if (text.compare(p, 9, "k16.f32.f") == 0) *flags = kWgmmaF16;
  else return false;
  const size_t tail = text.find("p, 1, 1, ", p);
  if (tail == std::string::npos || tail + 13 > text.size()) return false;
  const char ta = text[tail + 9], tb = text[tail + 12];
  if ((ta != '0' && ta != '1') || (tb != '0' && tb != '1')) return false;
  if (ta == '1') *flags |= kWgmmaTransA;
  if (tb == '1') *flags |= kWgmmaTransB;
  return true;
}

// Moves every global of a non-generic address space to address space 0.
// Shared-memory arrays become external (so that an opaque barrier call may
// be assumed to change them) with a name unique to the kernel.
void MoveGlobalsToGeneric(llvm::Module& m, const std::string& kernel) {
  std::vector<llvm::GlobalVariable*> moved;
  for (llvm::GlobalVariable& g : m.globals())
    if (g.getAddressSpace() != 0) moved.push_back(&g);
  for (llvm::GlobalVariable* g : moved) {
    bool shared = g->getAddressSpace() == 3;
    llvm::Type* vt = g->getValueType();
    // The kernel's dynamic shared memory (ir_util.h, DynamicSharedArray):
    // sized here from the bytes it records.
    if (uint64_t bytes = DynamicSharedBytes(*g))
      vt = llvm::ArrayType::get(llvm::Type::getInt8Ty(m.getContext()), bytes);
    llvm::Constant* init = g->hasInitializer() ? g->getInitializer() : nullptr;
    if (shared || !init || llvm::isa<llvm::UndefValue>(init)) init = llvm::Constant::getNullValue(vt);
    auto* ng = new llvm::GlobalVariable(m, vt, g->isConstant() && !shared,
                                        shared ? llvm::GlobalValue::ExternalLinkage : g->getLinkage(), init,
                                        shared ? kernel + "." + g->getName().str() : g->getName().str() + ".host",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, 0);
    ng->setAlignment(g->getAlign().value_or(llvm::Align(16)));
    std::vector<llvm::User*> users(g->user_begin(), g->user_end());
    for (llvm::User* u : users) {
      auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(u);
      if (ce && ce->getOpcode() == llvm::Instruction::AddrSpaceCast && ce->getType()->getPointerAddressSpace() == 0)
        ce->replaceAllUsesWith(ng);
    }
    if (!g->use_empty()) g->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(ng, g->getType()));
    g->eraseFromParent();
  }
}

}  // namespace

StatusOr<RetargetInfo> RetargetForHost(llvm::Module& m, const std::string& kernel, const std::string& triple,
                                       const llvm::DataLayout& dl) {
  llvm::Function* fn = m.getFunction(kernel);
  if (!fn || fn->isDeclaration()) return Error("kernel '" + kernel + "': the module does not define it");
  llvm::LLVMContext& ctx = m.getContext();
  RetargetInfo info;

  if (auto* md = m.getNamedMetadata("nvvm.annotations")) m.eraseNamedMetadata(md);
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  auto* state_ty = llvm::ArrayType::get(i32, 12);
  auto* state = new llvm::GlobalVariable(m, state_ty, false, llvm::GlobalValue::ExternalLinkage, nullptr, kStateSymbol);
  llvm::FunctionCallee barrier = m.getOrInsertFunction(kBarrierSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false));
  llvm::FunctionCallee shuffle =
      m.getOrInsertFunction(kShuffleSymbol, llvm::FunctionType::get(i32, {i32, i32, i32, i32, i32}, false));
  llvm::FunctionCallee mma = m.getOrInsertFunction(
      kMmaSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32, llvm::PointerType::get(ctx, 0)}, false));
  llvm::FunctionCallee ldmatrix = m.getOrInsertFunction(
      kLdmatrixSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                               {llvm::PointerType::get(ctx, 0), llvm::PointerType::get(ctx, 0)},
                                               false));

  llvm::FunctionCallee ldmatrix_trans = m.getOrInsertFunction(
      kLdmatrixTransSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                                    {llvm::PointerType::get(ctx, 0), llvm::PointerType::get(ctx, 0)},
                                                    false));
  llvm::FunctionCallee cp_async = m.getOrInsertFunction(
      kCpAsyncSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                              {llvm::PointerType::get(ctx, 0), llvm::PointerType::get(ctx, 0)}, false));
  llvm::FunctionCallee cp_async_zfill = m.getOrInsertFunction(
      kCpAsyncZeroFillSymbol,
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {llvm::PointerType::get(ctx, 0), llvm::PointerType::get(ctx, 0), i32},
                              false));
  llvm::FunctionCallee cp_async_commit =
      m.getOrInsertFunction(kCpAsyncCommitSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false));
  llvm::FunctionCallee cp_async_wait =
      m.getOrInsertFunction(kCpAsyncWaitSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32}, false));

  std::vector<llvm::CallInst*> calls, asm_calls;
  for (llvm::Function& f : m) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.setCallingConv(llvm::CallingConv::C);
    for (unsigned a = 0; a < f.arg_size(); ++a) f.removeParamAttr(a, llvm::Attribute::NoAlias);
    if (f.isDeclaration()) {
      std::string name = f.getName().str();
      if (name.rfind("__nv_", 0) == 0 && !HasLibdeviceFunction(name) && !f.use_empty())
        return Error("kernel '" + kernel + "': libdevice function '" + name + "' has no CPU implementation");
      continue;
    }
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& inst : bb) {
        inst.setMetadata(llvm::LLVMContext::MD_noalias, nullptr);
        inst.setMetadata(llvm::LLVMContext::MD_alias_scope, nullptr);
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
          call->setCallingConv(llvm::CallingConv::C);
          if (call->getCalledFunction() && call->getCalledFunction()->isIntrinsic()) calls.push_back(call);
          if (call->isInlineAsm()) asm_calls.push_back(call);
        }
      }
  }
  for (llvm::CallInst* call : calls) {
    llvm::Function* callee = call->getCalledFunction();
    llvm::Intrinsic::ID id = callee->getIntrinsicID();
    llvm::IRBuilder<> b(call);
    llvm::Value* repl = nullptr;
    if (int idx = SregIndex(id); idx >= 0) {
      repl = b.CreateLoad(i32, b.CreateConstInBoundsGEP2_32(state_ty, state, 0, idx), "sreg");
    } else if (id == llvm::Intrinsic::nvvm_barrier0) {
      b.CreateCall(barrier, {});
      info.needs_sync = true;
    } else if (auto [mode, is_f32] = ShuffleOf(id); mode >= 0) {
      llvm::Value* v = call->getArgOperand(1);
      if (is_f32) v = b.CreateBitCast(v, i32);
      llvm::Value* r = b.CreateCall(shuffle, {b.getInt32(mode), call->getArgOperand(0), v, call->getArgOperand(2),
                                              call->getArgOperand(3)});
      repl = is_f32 ? b.CreateBitCast(r, b.getFloatTy()) : r;
      info.needs_sync = true;
    } else if (id == llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16 ||
               id == llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32) {
      // The lane's fragments as 10 words in an entry-block slot; d comes
      // back in words 6-9.
      llvm::Function* fnc = call->getFunction();
      llvm::IRBuilder<> eb(&fnc->getEntryBlock(), fnc->getEntryBlock().begin());
      auto* words_ty = llvm::ArrayType::get(i32, kMmaFragWords);
      llvm::Value* words = eb.CreateAlloca(words_ty, nullptr, "mma_fragments");
      for (unsigned q = 0; q < kMmaFragWords; ++q)
        b.CreateStore(b.CreateBitCast(call->getArgOperand(q), i32), b.CreateConstInBoundsGEP2_32(words_ty, words, 0, q));
      const int kind = id == llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16 ? kMmaBf16 : kMmaF16;
      b.CreateCall(mma, {b.getInt32(kind), words});
      llvm::Value* d = llvm::PoisonValue::get(call->getType());
      for (unsigned q = 0; q < 4; ++q)
        d = b.CreateInsertValue(
            d, b.CreateLoad(b.getFloatTy(), b.CreateConstInBoundsGEP2_32(words_ty, words, 0, 6 + q)), q);
      repl = d;
      info.needs_sync = true;
    } else if (id == llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16 ||
               id == llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16) {
      // The lane's row address (shared memory is host memory here) and its
      // result words in an entry-block slot.
      llvm::Function* fnc = call->getFunction();
      llvm::IRBuilder<> eb(&fnc->getEntryBlock(), fnc->getEntryBlock().begin());
      auto* words_ty = llvm::ArrayType::get(i32, 4);
      llvm::Value* words = eb.CreateAlloca(words_ty, nullptr, "ldmatrix_words");
      llvm::Value* row = b.CreateAddrSpaceCast(call->getArgOperand(0), llvm::PointerType::get(ctx, 0));
      b.CreateCall(id == llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16 ? ldmatrix : ldmatrix_trans, {row, words});
      llvm::Value* d = llvm::PoisonValue::get(call->getType());
      for (unsigned q = 0; q < 4; ++q)
        d = b.CreateInsertValue(d, b.CreateLoad(i32, b.CreateConstInBoundsGEP2_32(words_ty, words, 0, q)), q);
      repl = d;
      info.needs_sync = true;
    } else if (id == llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16) {
      // Shared and global memory are host memory here; the copy lands when
      // the thread waits for its group (cpu_threads.cc).
      llvm::Value* to = b.CreateAddrSpaceCast(call->getArgOperand(0), llvm::PointerType::get(ctx, 0));
      llvm::Value* from = b.CreateAddrSpaceCast(call->getArgOperand(1), llvm::PointerType::get(ctx, 0));
      b.CreateCall(cp_async, {to, from});
    } else if (id == llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16_s) {
      llvm::Value* to = b.CreateAddrSpaceCast(call->getArgOperand(0), llvm::PointerType::get(ctx, 0));
      llvm::Value* from = b.CreateAddrSpaceCast(call->getArgOperand(1), llvm::PointerType::get(ctx, 0));
      b.CreateCall(cp_async_zfill, {to, from, call->getArgOperand(2)});
    } else if (id == llvm::Intrinsic::nvvm_cp_async_commit_group) {
      b.CreateCall(cp_async_commit, {});
    } else if (id == llvm::Intrinsic::nvvm_cp_async_wait_group || id == llvm::Intrinsic::nvvm_cp_async_wait_all) {
      b.CreateCall(cp_async_wait, {id == llvm::Intrinsic::nvvm_cp_async_wait_all ? b.getInt32(0) : call->getArgOperand(0)});
    } else if (callee->getName().starts_with("llvm.nvvm.")) {
      return Error("kernel '" + kernel + "': GPU intrinsic '" + callee->getName().str() +
                   "' has no CPU implementation (the kernel contract allows sreg reads, barrier0, shfl.sync, mma.sync m16n8k16, "
                   "ldmatrix m8n8.x4 .b16 and .trans.b16, cp.async 16-byte copies (also zero-filling) and their groups)");
    } else {
      continue;
    }
    if (repl) call->replaceAllUsesWith(repl);
    call->eraseFromParent();
  }
  // Inline PTX: only the wgmma forms ir_util.cc writes.
  if (!asm_calls.empty()) {
    llvm::GlobalVariable* window = nullptr;
    for (llvm::GlobalVariable& g : m.globals())
      if (DynamicSharedBytes(g)) window = &g;
    llvm::Type* ptr0 = llvm::PointerType::get(ctx, 0);
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
    llvm::FunctionCallee wgmma = m.getOrInsertFunction(
        kWgmmaSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32, i32, i64, i64, ptr0, ptr0, i64}, false));
    llvm::FunctionCallee commit =
        m.getOrInsertFunction(kWgmmaCommitSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false));
    llvm::FunctionCallee wait =
        m.getOrInsertFunction(kWgmmaWaitSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32}, false));
    for (llvm::CallInst* call : asm_calls) {
      const std::string text = llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString();
      llvm::IRBuilder<> b(call);
      llvm::Value* repl = nullptr;
      int32_t n = 0, flags = 0;
      if (text == "wgmma.fence.sync.aligned;" || text == "fence.proxy.async.shared::cta;") {
        // Ordering only: the emulation computes each wgmma when it is issued.
      } else if (text == "wgmma.commit_group.sync.aligned;") {
        b.CreateCall(commit, {});
      } else if (text.rfind("wgmma.wait_group.sync.aligned ", 0) == 0) {
        b.CreateCall(wait, {b.getInt32(std::stoi(text.substr(30)))});
      } else if (ParseWgmma(text, &n, &flags)) {
        if (!window)
          return Error("kernel '" + kernel + "': a wgmma without the kernel's dynamic shared array (DynamicSharedArray)");
        const unsigned regs = static_cast<unsigned>(n / 2);
        if (call->arg_size() != regs + 2)
          return Error("kernel '" + kernel + "': a wgmma m64n" + std::to_string(n) + "k16 with " +
                       std::to_string(call->arg_size()) + " operands");
        llvm::Function* fnc = call->getFunction();
        llvm::IRBuilder<> eb(&fnc->getEntryBlock(), fnc->getEntryBlock().begin());
        auto* acc_ty = llvm::ArrayType::get(b.getFloatTy(), regs);
        llvm::Value* acc = eb.CreateAlloca(acc_ty, nullptr, "wgmma_acc");
        for (unsigned q = 0; q < regs; ++q)
          b.CreateStore(call->getArgOperand(q), b.CreateConstInBoundsGEP2_32(acc_ty, acc, 0, q));
        b.CreateCall(wgmma, {b.getInt32(flags), b.getInt32(n), call->getArgOperand(regs), call->getArgOperand(regs + 1),
                             acc, llvm::ConstantExpr::getAddrSpaceCast(window, ptr0),
                             b.getInt64(DynamicSharedBytes(*window))});
        llvm::Value* d = llvm::PoisonValue::get(call->getType());
        for (unsigned q = 0; q < regs; ++q)
          d = b.CreateInsertValue(d, b.CreateLoad(b.getFloatTy(), b.CreateConstInBoundsGEP2_32(acc_ty, acc, 0, q)), q);
        repl = d;
        info.needs_sync = true;
      } else {
        return Error("kernel '" + kernel + "': inline PTX '" + text.substr(0, 60) +
                     "' has no CPU implementation (the kernel contract allows wgmma.mma_async m64nNk16 with both "
                     "operands in shared memory, wgmma.fence/commit_group/wait_group and fence.proxy.async)");
      }
      if (repl) call->replaceAllUsesWith(repl);
      call->eraseFromParent();
    }
  }
  MoveGlobalsToGeneric(m, kernel);
  m.setTargetTriple(triple);
  m.setDataLayout(dl);

  // void <kernel>__hs_entry(ptr args) { kernel(args[0], args[1], ...); }
  info.entry = kernel + "__hs_entry";
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  auto* entry = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
                                       llvm::GlobalValue::ExternalLinkage, info.entry, m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  std::vector<llvm::Value*> args;
  for (unsigned i = 0; i < fn->arg_size(); ++i) {
    llvm::Type* at = fn->getArg(i)->getType();
    if (!at->isPointerTy()) return Error("kernel '" + kernel + "': argument " + std::to_string(i) + " is not a pointer");
    llvm::Value* p = b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_32(ptr, entry->getArg(0), i));
    if (at->getPointerAddressSpace() != 0) p = b.CreateAddrSpaceCast(p, at);
    args.push_back(p);
  }
  b.CreateCall(fn, args);
  b.CreateRetVoid();
  fn->setLinkage(llvm::GlobalValue::InternalLinkage);
  return info;
}

}  // namespace hloscope::codegen::cpu
