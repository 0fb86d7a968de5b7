// The small runtime that stands in for the GPU when the kernels run on the
// CPU (cpu_executor.h). cpu_retarget.cc rewrites each GPU feature of a kernel
// into a use of what is declared here:
//   sreg reads (tid/ctaid/ntid/nctaid .x/.y/.z) → loads from kStateSymbol
//   llvm.nvvm.barrier0                           → call kBarrierSymbol()
//   llvm.nvvm.shfl.sync.{down,bfly,idx}.{i32,f32} → call kShuffleSymbol(mode, mask, value, b, c)
//   llvm.nvvm.mma.m16n8k16.row.col.{bf16,f32.f32} → call kMmaSymbol(kind, frag): frag holds the
//                                                lane's a0-a3, b0-b1 and c0-c3 as 10 words, and
//                                                receives d0-d3 in words 6-9 (cpu_mma.cc)
//   llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16  → call kLdmatrixSymbol(row, out): the lane's row
//                                                address and its 4 result words; .x4.trans.b16 →
//                                                kLdmatrixTransSymbol (x1 and x2, which no emitter
//                                                uses, stay unimplemented)
//   llvm.nvvm.cp.async.cg.shared.global.16     → call kCpAsyncSymbol(dst, src): the 16 bytes are
//   (.16.s, the src-size form: kCpAsyncZeroFillSymbol(dst, src, n), n bytes then zeros)
//   llvm.nvvm.cp.async.commit.group / wait.group   read at issue and land in shared memory only
//                                                when the thread waits for their group
//                                                (kCpAsyncWaitSymbol(n)), as the PTX ISA allows:
//                                                a kernel that reads them before its wait and
//                                                barrier reads stale values here too
//   wgmma.mma_async (inline PTX, ir_util.h)    → call kWgmmaSymbol(flags, n, desc_a, desc_b, acc, window,
//                                                window_bytes): computed when issued from shared memory
//                                                (cpu_wgmma.cc); wgmma.commit_group / wait_group →
//                                                kWgmmaCommitSymbol / kWgmmaWaitSymbol(n), where the
//                                                operands a retiring group read are checked unchanged;
//                                                wgmma.fence and fence.proxy.async are no-ops here
//   __nv_* math                                 → host functions (cpu_libdevice.cc)
// Emulated threads: a kernel without barriers, shuffles, mma or ldmatrix runs
// its threads as a plain loop; one with them runs each block's threads as
// coroutines, so a barrier waits for the whole block and a shuffle, an mma or
// an ldmatrix for the whole warp.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::codegen::cpu {

// The emulated special registers: tid[3], ctaid[3], ntid[3], nctaid[3].
struct ThreadState {
  uint32_t tid[3], ctaid[3], ntid[3], nctaid[3];
};
inline constexpr const char* kStateSymbol = "__hloscope_cpu_state";
inline constexpr const char* kBarrierSymbol = "__hloscope_cpu_barrier";
inline constexpr const char* kShuffleSymbol = "__hloscope_cpu_shfl";
enum ShuffleMode : int32_t { kShflDown = 0, kShflBfly = 1, kShflIdx = 2, kShflUp = 3 };
inline constexpr const char* kMmaSymbol = "__hloscope_cpu_mma";
enum MmaKind : int32_t { kMmaBf16 = 0, kMmaF16 = 1 };
inline constexpr int kMmaFragWords = 10;
inline constexpr const char* kLdmatrixSymbol = "__hloscope_cpu_ldmatrix";
inline constexpr const char* kLdmatrixTransSymbol = "__hloscope_cpu_ldmatrix_trans";
inline constexpr const char* kCpAsyncSymbol = "__hloscope_cpu_cp_async";
inline constexpr const char* kCpAsyncZeroFillSymbol = "__hloscope_cpu_cp_async_zfill";
inline constexpr const char* kCpAsyncCommitSymbol = "__hloscope_cpu_cp_async_commit";
inline constexpr const char* kCpAsyncWaitSymbol = "__hloscope_cpu_cp_async_wait";

inline constexpr const char* kWgmmaSymbol = "__hloscope_cpu_wgmma";
inline constexpr const char* kWgmmaCommitSymbol = "__hloscope_cpu_wgmma_commit";
inline constexpr const char* kWgmmaWaitSymbol = "__hloscope_cpu_wgmma_wait";
enum WgmmaFlags : int32_t { kWgmmaF16 = 1, kWgmmaTransA = 2, kWgmmaTransB = 4 };

// One thread's share of wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}
// with both operands in shared memory (cpu_wgmma.cc). `window` is the
// kernel's shared memory (`window_bytes` long, 1024-byte aligned); a
// descriptor's start address (bits 0-13, × 16) is taken modulo 2^18 as the
// hardware's shared window, and the 128-byte swizzle (the only mode the
// emitters use) XORs address bits 4-6 with bits 7-9. Layouts (2-byte
// elements; i is m for A and n for B, k in 0…15):
//   K-major (not transposed): (i / 8)·SBO + (i % 8)·128 + 2k
//   M/N-major (transposed):   (i / 64)·LBO + (k / 8)·SBO + (k % 8)·128 + 2(i % 64)
// `thread` is the thread's index in its warpgroup (0…127): acc[q] is D at
// row 16·(thread / 32) + (thread % 32) / 4 + 8·((q % 4) / 2), column
// 8·(q / 4) + 2·(thread % 4) + q % 2; each adds its 16 products (exact in
// f32) in ascending k, one f32 rounding per add, as the interpreter's sum.
// Returns false with `error` set for a descriptor outside this contract;
// `reads` receives a digest of every operand element read and the byte
// ranges of the window they lie in (the in-flight checks of cpu_threads.cc).
struct WgmmaReads {
  uint64_t hash = 0;
  uint64_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0;  // [lo, hi) offsets into the window
};
bool WgmmaM64K16Thread(int32_t flags, int32_t n, uint64_t da, uint64_t db, const uint8_t* window,
                       uint64_t window_bytes, int thread, float* acc, WgmmaReads* reads, std::string* error);
// The reads alone (what WgmmaM64K16Thread gives in `reads`).
bool WgmmaOperandReads(int32_t flags, int32_t n, uint64_t da, uint64_t db, const uint8_t* window,
                       uint64_t window_bytes, WgmmaReads* reads, std::string* error);

// One warp's mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32
// with the PTX ISA's fragment layouts: `frags[lane]` is that lane's 10 words
// (a0-a3, b0-b1, c0-c3); d0-d3 replace c0-c3. Products are exact in f32 and
// each output adds them to c in ascending k, one f32 rounding per add.
void WarpMmaM16N8K16(MmaKind kind, uint32_t* const frags[32]);
// One warp's ldmatrix.sync.aligned.m8n8.x4.b16 (no .trans) with the
// PTX ISA's layout: lanes 8j … 8j+7 give the addresses of the 8 rows (16
// bytes each) of matrix j; lane l receives in out[l][j] the 32-bit word of
// row l / 4 of matrix j at byte 4·(l % 4) (elements 2·(l % 4) and the next,
// the lower-numbered one in the low half). `rows[l]` is lane l's address.
void WarpLdmatrixX4(const uint8_t* const rows[32], uint32_t* const out[32]);
// The same with .trans: each matrix is delivered transposed, lane l
// receiving in out[l][j] column l / 4 of matrix j at rows 2·(l % 4) (low
// half) and the next (high half). On a [k][n] tile this is the B fragment
// of mma.m16n8k16 (b0: k = 2·(l % 4) and the next, n = l / 4).
void WarpLdmatrixX4Trans(const uint8_t* const rows[32], uint32_t* const out[32]);
// The f32 value of IEEE half bits (cpu_libdevice.cc).
float HalfBitsToFloat(uint16_t h);

// The entry every kernel gets (made by cpu_retarget.cc): arguments as an
// array of pointers.
using KernelEntry = void (*)(void* const* args);

// Host symbols the JIT'd kernels may call: the state, barrier and shuffle,
// the libdevice functions this runtime provides, and half/bfloat
// conversion helpers.
std::vector<std::pair<std::string, void*>> RuntimeSymbols();
// Is `name` (a `__nv_*` function) provided?
bool HasLibdeviceFunction(const std::string& name);

// Runs every thread of every block of a launch. `needs_sync`: the kernel uses
// barriers or shuffles (coroutines), else a plain loop. Errors: a deadlock
// (threads of a block waiting at different barriers/shuffles forever).
Status RunGrid(KernelEntry entry, void* const* args, const runtime::LaunchDims& dims, bool needs_sync,
               const std::string& kernel_name);

}  // namespace hloscope::codegen::cpu
