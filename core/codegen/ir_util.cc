// IR helpers: element types, and the GPU features kernels may use, each as
// the NVVM intrinsic (or addrspace(3) global / libdevice call) it lowers to.
#include "core/codegen/ir_util.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace hloscope::codegen {
namespace {

llvm::Module* ModuleOf(llvm::IRBuilderBase& b) { return b.GetInsertBlock()->getModule(); }

llvm::Value* ReadSreg(llvm::IRBuilderBase& b, const llvm::Intrinsic::ID ids[3], Dim d) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(ModuleOf(b), ids[static_cast<int>(d)]);
  return b.CreateCall(f, {});
}

enum class ShuffleKind { kDown, kXor, kIdx };

// One 32-bit shuffle (i32 or f32).
llvm::Value* Shuffle32(llvm::IRBuilderBase& b, ShuffleKind kind, llvm::Value* v, llvm::Value* lane) {
  bool is_float = v->getType()->isFloatTy();
  llvm::Intrinsic::ID id;
  switch (kind) {
    case ShuffleKind::kDown:
      id = is_float ? llvm::Intrinsic::nvvm_shfl_sync_down_f32 : llvm::Intrinsic::nvvm_shfl_sync_down_i32;
      break;
    case ShuffleKind::kXor:
      id = is_float ? llvm::Intrinsic::nvvm_shfl_sync_bfly_f32 : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
      break;
    case ShuffleKind::kIdx:
      id = is_float ? llvm::Intrinsic::nvvm_shfl_sync_idx_f32 : llvm::Intrinsic::nvvm_shfl_sync_idx_i32;
      break;
  }
  llvm::Function* f = llvm::Intrinsic::getDeclaration(ModuleOf(b), id);
  // c = 0x1f: clamp to the full 32-lane warp.
  return b.CreateCall(f, {b.getInt32(0xffffffffu), v, lane, b.getInt32(0x1f)});
}

// Any value of at most 64 bits: split into 32-bit pieces, shuffle each.
llvm::Value* ShuffleAny(llvm::IRBuilderBase& b, ShuffleKind kind, llvm::Value* v, llvm::Value* lane) {
  llvm::Type* t = v->getType();
  if (t->isFloatTy() || t->isIntegerTy(32)) return Shuffle32(b, kind, v, lane);
  unsigned bits = t->getPrimitiveSizeInBits().getFixedValue();
  llvm::Type* as_int = b.getIntNTy(bits);
  llvm::Value* iv = t->isIntegerTy() ? v : b.CreateBitCast(v, as_int);
  llvm::Value* out;
  if (bits < 32) {
    out = b.CreateTrunc(Shuffle32(b, kind, b.CreateZExt(iv, b.getInt32Ty()), lane), as_int);
  } else {  // 64 bits: two halves
    llvm::Value* lo = b.CreateTrunc(iv, b.getInt32Ty());
    llvm::Value* hi = b.CreateTrunc(b.CreateLShr(iv, 32), b.getInt32Ty());
    lo = Shuffle32(b, kind, lo, lane);
    hi = Shuffle32(b, kind, hi, lane);
    out = b.CreateOr(b.CreateZExt(lo, as_int), b.CreateShl(b.CreateZExt(hi, as_int), 32));
  }
  return t->isIntegerTy() ? out : b.CreateBitCast(out, t);
}

void AddAnnotation(llvm::Function* f, const char* key, int64_t value) {
  llvm::Module* m = f->getParent();
  llvm::LLVMContext& ctx = m->getContext();
  llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(f), llvm::MDString::get(ctx, key),
                          llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
  m->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, md));
}

}  // namespace

llvm::Type* LlvmStorageType(PrimitiveType t, llvm::LLVMContext& ctx) {
  switch (t) {
    case PrimitiveType::kPred:
    case PrimitiveType::kS8:
    case PrimitiveType::kU8:
    case PrimitiveType::kF8E5M2:  // f8: the raw byte (minifloat_ir.h)
    case PrimitiveType::kF8E4M3:
    case PrimitiveType::kF8E4M3FN:
    case PrimitiveType::kF8E4M3B11FNUZ:
    case PrimitiveType::kF8E5M2FNUZ:
    case PrimitiveType::kF8E4M3FNUZ:
    case PrimitiveType::kF8E3M4:
    case PrimitiveType::kF8E8M0FNU:
    case PrimitiveType::kS2:  // sub-byte: one unpacked element (constants, tiles);
    case PrimitiveType::kS4:  // buffers pack them (ElementalEmitter::Load/Store)
    case PrimitiveType::kU2:
    case PrimitiveType::kU4:
    case PrimitiveType::kF4E2M1FN: return llvm::Type::getInt8Ty(ctx);
    case PrimitiveType::kS16:
    case PrimitiveType::kU16: return llvm::Type::getInt16Ty(ctx);
    case PrimitiveType::kS32:
    case PrimitiveType::kU32: return llvm::Type::getInt32Ty(ctx);
    case PrimitiveType::kS64:
    case PrimitiveType::kU64: return llvm::Type::getInt64Ty(ctx);
    case PrimitiveType::kF16: return llvm::Type::getHalfTy(ctx);
    case PrimitiveType::kBF16: return llvm::Type::getBFloatTy(ctx);
    case PrimitiveType::kF32: return llvm::Type::getFloatTy(ctx);
    case PrimitiveType::kF64: return llvm::Type::getDoubleTy(ctx);
    case PrimitiveType::kC64: {
      llvm::Type* f = llvm::Type::getFloatTy(ctx);
      return llvm::StructType::get(ctx, {f, f});
    }
    case PrimitiveType::kC128: {
      llvm::Type* d = llvm::Type::getDoubleTy(ctx);
      return llvm::StructType::get(ctx, {d, d});
    }
    default: return nullptr;  // s1/u1, tuple, token: callers name the type
  }
}

llvm::Value* ThreadIdx(llvm::IRBuilderBase& b, Dim d) {
  static const llvm::Intrinsic::ID ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
  return ReadSreg(b, ids, d);
}

llvm::Value* BlockIdx(llvm::IRBuilderBase& b, Dim d) {
  static const llvm::Intrinsic::ID ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
  return ReadSreg(b, ids, d);
}

llvm::Value* BlockDim(llvm::IRBuilderBase& b, Dim d) {
  static const llvm::Intrinsic::ID ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z};
  return ReadSreg(b, ids, d);
}

llvm::Value* GridDim(llvm::IRBuilderBase& b, Dim d) {
  static const llvm::Intrinsic::ID ids[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                             llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  return ReadSreg(b, ids, d);
}

void SyncThreads(llvm::IRBuilderBase& b) {
  b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), llvm::Intrinsic::nvvm_barrier0), {});
}

llvm::Value* ShuffleDown(llvm::IRBuilderBase& b, llvm::Value* v, int delta) {
  return ShuffleAny(b, ShuffleKind::kDown, v, b.getInt32(delta));
}

llvm::Value* ShuffleXor(llvm::IRBuilderBase& b, llvm::Value* v, int lane_mask) {
  return ShuffleAny(b, ShuffleKind::kXor, v, b.getInt32(lane_mask));
}

llvm::Value* ShuffleIdx(llvm::IRBuilderBase& b, llvm::Value* v, llvm::Value* lane) {
  return ShuffleAny(b, ShuffleKind::kIdx, v, b.CreateIntCast(lane, b.getInt32Ty(), false));
}

std::vector<llvm::Value*> MmaM16N8K16(llvm::IRBuilderBase& b, bool bf16, const std::vector<llvm::Value*>& a,
                                      const std::vector<llvm::Value*>& bf, const std::vector<llvm::Value*>& c) {
  const llvm::Intrinsic::ID id =
      bf16 ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16 : llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32;
  // bf16 fragments are i32; f16 ones <2 x half>.
  llvm::Type* frag = bf16 ? b.getInt32Ty() : static_cast<llvm::Type*>(llvm::FixedVectorType::get(b.getHalfTy(), 2));
  std::vector<llvm::Value*> args;
  for (llvm::Value* v : a) args.push_back(b.CreateBitCast(v, frag));
  for (llvm::Value* v : bf) args.push_back(b.CreateBitCast(v, frag));
  for (llvm::Value* v : c) args.push_back(v);
  llvm::Value* d = b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), id), args);
  std::vector<llvm::Value*> out;
  for (unsigned i = 0; i < 4; ++i) out.push_back(b.CreateExtractValue(d, i));
  return out;
}

std::vector<llvm::Value*> LdMatrixX4(llvm::IRBuilderBase& b, llvm::Value* row, bool trans) {
  const llvm::Intrinsic::ID id = trans ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16
                                       : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16;
  // Overloaded on its pointer: shared (addrspace 3) selects the .shared form.
  llvm::Type* shared_ptr = llvm::PointerType::get(b.getContext(), 3);
  llvm::Value* shared = b.CreateAddrSpaceCast(row, shared_ptr);
  llvm::Value* r = b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), id, {shared_ptr}), {shared});
  std::vector<llvm::Value*> out;
  for (unsigned j = 0; j < 4; ++j) out.push_back(b.CreateExtractValue(r, j));
  return out;
}

void CpAsync16(llvm::IRBuilderBase& b, llvm::Value* to, llvm::Value* from) {
  llvm::Value* shared = b.CreateAddrSpaceCast(to, llvm::PointerType::get(b.getContext(), 3));
  llvm::Value* global = b.CreateAddrSpaceCast(from, llvm::PointerType::get(b.getContext(), 1));
  b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16),
               {shared, global});
}

void CpAsync16ZeroFill(llvm::IRBuilderBase& b, llvm::Value* to, llvm::Value* from, llvm::Value* src_bytes) {
  llvm::Value* shared = b.CreateAddrSpaceCast(to, llvm::PointerType::get(b.getContext(), 3));
  llvm::Value* global = b.CreateAddrSpaceCast(from, llvm::PointerType::get(b.getContext(), 1));
  b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16_s),
               {shared, global, src_bytes});
}

void CpAsyncCommit(llvm::IRBuilderBase& b) {
  b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), llvm::Intrinsic::nvvm_cp_async_commit_group), {});
}

void CpAsyncWait(llvm::IRBuilderBase& b, int pending) {
  b.CreateCall(llvm::Intrinsic::getDeclaration(ModuleOf(b), llvm::Intrinsic::nvvm_cp_async_wait_group),
               {b.getInt32(pending)});
}

llvm::Value* WgmmaDescriptor128B(llvm::IRBuilderBase& b, llvm::Value* start, int64_t lbo, int64_t sbo) {
  llvm::Value* shared = b.CreateAddrSpaceCast(start, llvm::PointerType::get(b.getContext(), 3));
  llvm::Value* addr = b.CreateZExt(b.CreatePtrToInt(shared, b.getInt32Ty()), b.getInt64Ty());
  llvm::Value* field = b.CreateLShr(b.CreateAnd(addr, b.getInt64(0x3FFFF)), b.getInt64(4));
  const uint64_t fixed = (uint64_t((lbo >> 4) & 0x3FFF) << 16) | (uint64_t((sbo >> 4) & 0x3FFF) << 32) | (uint64_t{1} << 62);
  return b.CreateOr(field, b.getInt64(fixed));
}

std::vector<llvm::Value*> WgmmaM64K16(llvm::IRBuilderBase& b, bool bf16, int64_t n, llvm::Value* da, llvm::Value* db,
                                      bool trans_a, bool trans_b, const std::vector<llvm::Value*>& acc) {
  const int64_t regs = n / 2;
  // Operands: $0 … $(regs-1) the accumulators out, $regs … tied in, then
  // the two descriptors.
  std::string text = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." +
                     std::string(bf16 ? "bf16.bf16" : "f16.f16") + " {";
  std::string constraints;
  for (int64_t q = 0; q < regs; ++q) {
    text += (q ? ", $" : "$") + std::to_string(q);
    constraints += (q ? ",=f" : "=f");
  }
  for (int64_t q = 0; q < regs; ++q) constraints += "," + std::to_string(q);
  constraints += ",l,l";
  text += "}, $" + std::to_string(2 * regs) + ", $" + std::to_string(2 * regs + 1) + ", p, 1, 1, " +
          std::to_string(trans_a ? 1 : 0) + ", " + std::to_string(trans_b ? 1 : 0) + ";";
  const std::string full = "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" + text + "\n}";
  std::vector<llvm::Type*> outs(static_cast<size_t>(regs), b.getFloatTy());
  std::vector<llvm::Type*> ins(outs);
  ins.push_back(b.getInt64Ty());
  ins.push_back(b.getInt64Ty());
  auto* fty = llvm::FunctionType::get(llvm::StructType::get(b.getContext(), outs), ins, false);
  llvm::InlineAsm* ia = llvm::InlineAsm::get(fty, full, constraints, /*hasSideEffects=*/true);
  std::vector<llvm::Value*> args(acc);
  args.push_back(da);
  args.push_back(db);
  llvm::Value* r = b.CreateCall(ia, args);
  std::vector<llvm::Value*> out;
  for (unsigned q = 0; q < regs; ++q) out.push_back(b.CreateExtractValue(r, q));
  return out;
}

namespace {
void PlainAsm(llvm::IRBuilderBase& b, const std::string& text) {
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), false);
  b.CreateCall(llvm::InlineAsm::get(fty, text, "~{memory}", /*hasSideEffects=*/true), {});
}
}  // namespace

void WgmmaFence(llvm::IRBuilderBase& b) { PlainAsm(b, "wgmma.fence.sync.aligned;"); }
void WgmmaCommit(llvm::IRBuilderBase& b) { PlainAsm(b, "wgmma.commit_group.sync.aligned;"); }
void WgmmaWait(llvm::IRBuilderBase& b, int pending) {
  PlainAsm(b, "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";");
}
void FenceProxyAsyncShared(llvm::IRBuilderBase& b) { PlainAsm(b, "fence.proxy.async.shared::cta;"); }

llvm::Value* DynamicSharedArray(llvm::IRBuilderBase& b, int64_t bytes, const std::string& name) {
  llvm::Module* m = ModuleOf(b);
  auto* type = llvm::ArrayType::get(b.getInt8Ty(), 0);
  auto* g = new llvm::GlobalVariable(*m, type, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage, nullptr, name,
                                     nullptr, llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  g->setAlignment(llvm::Align(1024));
  g->setMetadata(kDynamicSharedMetadata,
                 llvm::MDNode::get(m->getContext(), {llvm::ConstantAsMetadata::get(b.getInt64(bytes))}));
  return b.CreateAddrSpaceCast(g, b.getPtrTy());
}

std::vector<llvm::Value*> KernelArguments(llvm::Function* f) {
  std::vector<llvm::Value*> args;
  for (llvm::Argument& a : f->args()) args.push_back(&a);
  return args;
}

llvm::Value* SharedArray(llvm::IRBuilderBase& b, llvm::Type* elem, int64_t count, const std::string& name) {
  llvm::Module* m = ModuleOf(b);
  auto* type = llvm::ArrayType::get(elem, static_cast<uint64_t>(count));
  auto* g = new llvm::GlobalVariable(*m, type, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
                                     llvm::PoisonValue::get(type), name, nullptr,
                                     llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  g->setAlignment(llvm::Align(16));
  return b.CreateAddrSpaceCast(g, b.getPtrTy());
}

llvm::Value* CallLibdevice(llvm::IRBuilderBase& b, const std::string& name, const std::vector<llvm::Value*>& args,
                           llvm::Type* result) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : args) types.push_back(a->getType());
  llvm::Module* m = ModuleOf(b);
  llvm::FunctionCallee callee = m->getOrInsertFunction(name, llvm::FunctionType::get(result, types, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->setDoesNotAccessMemory();
    f->setWillReturn();
  }
  auto* call = b.CreateCall(callee, args);
  call->setDoesNotAccessMemory();
  return call;
}

void MarkKernel(llvm::Function* f, int64_t threads_per_block) {
  AddAnnotation(f, "kernel", 1);
  AddAnnotation(f, "maxntidx", threads_per_block);
}

}  // namespace hloscope::codegen
