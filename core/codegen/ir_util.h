// IR-building helpers every kernel emitter uses. The GPU-specific ones are the
// complete list of GPU features kernels may use (see kernel_emitter.h); the
// CPU execution (cpu_*.cc) provides exactly these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/primitive_type.h"
#include "core/ir/shape.h"

namespace llvm {
class Value;
class Type;
class LLVMContext;
class Module;
class GlobalVariable;
class Function;
class IRBuilderBase;
}  // namespace llvm

namespace hloscope::codegen {

// Element types in memory, one element each: pred → i8 (i1 in values);
// f16 → half; bf16 → bfloat; f8 → i8 (the code); s2/s4/u2/u4/f4e2m1fn → i8
// (unpacked: constants and tiles; kernel buffers pack them); c64/c128 →
// {float,float}/{double,double}; null for s1/u1, tuples and tokens.
llvm::Type* LlvmStorageType(PrimitiveType t, llvm::LLVMContext& ctx);

// --- GPU features (the only ones) -------------------------------------------
enum class Dim { kX = 0, kY = 1, kZ = 2 };
llvm::Value* ThreadIdx(llvm::IRBuilderBase& b, Dim d);   // tid.*
llvm::Value* BlockIdx(llvm::IRBuilderBase& b, Dim d);    // ctaid.*
llvm::Value* BlockDim(llvm::IRBuilderBase& b, Dim d);    // ntid.*
llvm::Value* GridDim(llvm::IRBuilderBase& b, Dim d);     // nctaid.*
void SyncThreads(llvm::IRBuilderBase& b);                 // barrier0
// Full-warp shuffles (mask 0xffffffff) of an i32 or f32 value; other types of
// ≤64 bits are split/bitcast by the helper.
llvm::Value* ShuffleDown(llvm::IRBuilderBase& b, llvm::Value* v, int delta);
llvm::Value* ShuffleXor(llvm::IRBuilderBase& b, llvm::Value* v, int lane_mask);
llvm::Value* ShuffleIdx(llvm::IRBuilderBase& b, llvm::Value* v, llvm::Value* lane);
// Tensor cores: one warp-wide mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}
// (sm_80+), D = A·B + C for A 16×16, B 16×8, C and D 16×8 in f32. Each lane
// passes its fragments in the PTX ISA's layout ("Matrix fragments for
// mma.m16n8k16"): `a` 4 × i32 and `bf` 2 × i32, each holding two 16-bit
// elements (the lower-numbered one in the low half), `c` 4 × float; returns
// its 4 floats of D. Every lane of the warp must execute it.
std::vector<llvm::Value*> MmaM16N8K16(llvm::IRBuilderBase& b, bool bf16, const std::vector<llvm::Value*>& a,
                                      const std::vector<llvm::Value*>& bf, const std::vector<llvm::Value*>& c);
// ldmatrix.sync.aligned.m8n8.x4.shared.b16 (sm_75+), the fragment loads of
// the tensor cores: `row` is this lane's generic pointer into shared memory
// to one 16-byte row, 16-byte aligned; lanes 8j … 8j+7 give the 8 rows of
// matrix j. Returns the lane's 4 i32 words: word j holds row lane/4 of matrix
// j, elements 2·(lane%4) and the next, the lower-numbered one in the low half
// (the mma fragment layout). Every lane of the warp must execute it. With
// `trans` (ldmatrix...trans) each matrix arrives transposed: word j holds
// column lane/4 of matrix j at rows 2·(lane%4) and the next.
std::vector<llvm::Value*> LdMatrixX4(llvm::IRBuilderBase& b, llvm::Value* row, bool trans = false);
// cp.async.cg.shared.global 16 bytes (sm_80 and newer): an asynchronous copy
// from global to shared memory, bypassing the registers and L1; visible
// after CpAsyncWait and a barrier. `to` and `from` are generic pointers.
void CpAsync16(llvm::IRBuilderBase& b, llvm::Value* to, llvm::Value* from);
// The same copying only the first `src_bytes` (an i32, 0 or 16 here) of the
// 16 and filling the rest with zeros (the src-size form): tiles that run
// past a matrix's edge are staged as zeros without a branch.
void CpAsync16ZeroFill(llvm::IRBuilderBase& b, llvm::Value* to, llvm::Value* from, llvm::Value* src_bytes);
// Closes this thread's current group of copies (cp.async.commit_group).
void CpAsyncCommit(llvm::IRBuilderBase& b);
// Waits until at most `pending` of this thread's groups are still in
// flight (cp.async.wait_group).
void CpAsyncWait(llvm::IRBuilderBase& b, int pending);
// --- sm_90a only: warpgroup MMA (wgmma), as inline PTX (LLVM 19 has no
// intrinsics for it). The CPU execution recognises exactly these strings
// (cpu_retarget.cc) and provides them (cpu_wgmma.cc).
//
// The shared-memory matrix descriptor of a wgmma operand in the 128-byte
// swizzle mode: `start` is a generic pointer into shared memory (the
// operand's first byte, its 1024-byte atom aligned as the mode requires),
// `lbo` and `sbo` the leading and stride byte offsets (multiples of 16):
// bits 0-13 start address >> 4, 16-29 lbo >> 4, 32-45 sbo >> 4, 62-63 = 1.
llvm::Value* WgmmaDescriptor128B(llvm::IRBuilderBase& b, llvm::Value* start, int64_t lbo, int64_t sbo);
// wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{bf16,f16}.{bf16,f16} with both
// operands in shared memory (descriptors `da`, `db`), D += A·B (scale-d 1,
// no negation); `trans_a`/`trans_b`: the operand is M-/N-major (else
// K-major). `acc` is this thread's n/2 floats of D in the ISA's layout (row
// 16·(warp % 4) + lane/4 + 8·((q % 4) / 2), column 8·(q / 4) + 2·(lane % 4)
// + q % 2 for acc[q]); returns them after the op. Every thread of the
// warpgroup (4 consecutive warps) must execute it; the values are only
// valid after WgmmaWait.
std::vector<llvm::Value*> WgmmaM64K16(llvm::IRBuilderBase& b, bool bf16, int64_t n, llvm::Value* da, llvm::Value* db,
                                      bool trans_a, bool trans_b, const std::vector<llvm::Value*>& acc);
void WgmmaFence(llvm::IRBuilderBase& b);           // wgmma.fence.sync.aligned
void WgmmaCommit(llvm::IRBuilderBase& b);          // wgmma.commit_group.sync.aligned
void WgmmaWait(llvm::IRBuilderBase& b, int pending);  // wgmma.wait_group.sync.aligned N
// fence.proxy.async.shared::cta: this thread's earlier writes to shared
// memory (stores, landed cp.async copies) become visible to wgmma's reads.
void FenceProxyAsyncShared(llvm::IRBuilderBase& b);
// The kernel's dynamic shared memory (sized at launch, LaunchDims::
// shared_bytes): an extern addrspace(3) byte array aligned to 1024, which
// records `bytes` for the CPU execution (metadata kDynamicSharedMetadata);
// returns it as a generic pointer. One per kernel.
llvm::Value* DynamicSharedArray(llvm::IRBuilderBase& b, int64_t bytes, const std::string& name);
inline constexpr const char* kDynamicSharedMetadata = "hloscope.dynamic_shared_bytes";
// The kernel function's arguments, in order (what ElementalEmitter takes).
std::vector<llvm::Value*> KernelArguments(llvm::Function* f);
// A static shared-memory array of `count` elements of `elem` in addrspace(3);
// returns it cast to a generic pointer.
llvm::Value* SharedArray(llvm::IRBuilderBase& b, llvm::Type* elem, int64_t count,
                         const std::string& name);
// Calls a libdevice math function (`__nv_expf`…), declaring it if needed.
llvm::Value* CallLibdevice(llvm::IRBuilderBase& b, const std::string& name,
                           const std::vector<llvm::Value*>& args, llvm::Type* result);

// Marks `f` as a kernel (nvvm.annotations "kernel", maxntidx = block size).
void MarkKernel(llvm::Function* f, int64_t threads_per_block);

}  // namespace hloscope::codegen
