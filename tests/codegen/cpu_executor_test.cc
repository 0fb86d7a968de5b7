// CPU execution of GPU kernels: hand-written NVPTX-style kernels that use
// every GPU feature the emitters may use (sregs, barrier0, shfl.sync down /
// bfly / idx, addrspace(3) shared memory read directly and through a generic
// pointer, atomics, libdevice math, half/bfloat conversions), run through a
// ThunkPlan and checked against values computed here.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>
#include <llvm/ADT/APFloat.h>

#include "core/codegen/cpu_executor.h"
#include "core/parser/parser.h"

namespace hloscope::codegen {
namespace {

using runtime::KernelThunk;
using runtime::PlanAllocation;
using runtime::PlanValue;
using runtime::Slice;
using runtime::Thunk;
using runtime::ThunkPlan;

constexpr const char* kHeader = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
)";

// Sum of all inputs into out[0]: warp shuffles, then one partial per warp in
// shared memory (stored through addrspace(3), read through a generic
// pointer), a barrier, and an atomic add per block.
constexpr const char* kBlockSum = R"(
@partials = internal addrspace(3) global [32 x float] poison, align 16

define void @block_sum(ptr noalias %in, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %ntid
  %gid = add i32 %base, %tid
  %gid64 = zext i32 %gid to i64
  %p = getelementptr float, ptr %in, i64 %gid64
  %x = load float, ptr %p
  %s16 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 16, i32 31)
  %a16 = fadd float %x, %s16
  %s8 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %a16, i32 8, i32 31)
  %a8 = fadd float %a16, %s8
  %s4 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %a8, i32 4, i32 31)
  %a4 = fadd float %a8, %s4
  %s2 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %a4, i32 2, i32 31)
  %a2 = fadd float %a4, %s2
  %s1 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %a2, i32 1, i32 31)
  %a1 = fadd float %a2, %s1
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %is_lane0 = icmp eq i32 %lane, 0
  br i1 %is_lane0, label %store, label %sync
store:
  %sp = getelementptr [32 x float], ptr addrspace(3) @partials, i32 0, i32 %warp
  store float %a1, ptr addrspace(3) %sp
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %is_t0 = icmp eq i32 %tid, 0
  br i1 %is_t0, label %final, label %done
final:
  %nwarps = lshr i32 %ntid, 5
  %generic = addrspacecast ptr addrspace(3) @partials to ptr
  br label %loop
loop:
  %w = phi i32 [ 0, %final ], [ %w1, %loop ]
  %acc = phi float [ 0.0, %final ], [ %acc1, %loop ]
  %w64 = zext i32 %w to i64
  %gp = getelementptr float, ptr %generic, i64 %w64
  %v = load float, ptr %gp
  %acc1 = fadd float %acc, %v
  %w1 = add i32 %w, 1
  %more = icmp ult i32 %w1, %nwarps
  br i1 %more, label %loop, label %add
add:
  %old = atomicrmw fadd ptr %out, float %acc1 monotonic
  br label %done
done:
  ret void
}
)";

// out[i] = expf(in[i]) + rsqrtf(|in[i]| + 1): libdevice calls, no sync (the
// loop fast path); grid-stride over n = 1000 with 4 blocks of 64 threads.
constexpr const char* kExp = R"(
declare float @__nv_expf(float)
declare float @__nv_rsqrtf(float)
declare float @__nv_fabsf(float)
define void @exp_kernel(ptr noalias %in, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %ntid, %nct
  %b = mul i32 %bid, %ntid
  %start = add i32 %b, %tid
  br label %head
head:
  %i = phi i32 [ %start, %entry ], [ %next, %body ]
  %in_range = icmp ult i32 %i, 1000
  br i1 %in_range, label %body, label %exit
body:
  %i64 = zext i32 %i to i64
  %p = getelementptr float, ptr %in, i64 %i64
  %x = load float, ptr %p
  %e = call float @__nv_expf(float %x)
  %a = call float @__nv_fabsf(float %x)
  %a1 = fadd float %a, 1.0
  %r = call float @__nv_rsqrtf(float %a1)
  %y = fadd float %e, %r
  %q = getelementptr float, ptr %out, i64 %i64
  store float %y, ptr %q
  %next = add i32 %i, %stride
  br label %head
exit:
  ret void
}
)";

// out[2*t] = in[t ^ 1] (bfly), out[2*t+1] = in[warp base + 3] (idx), one
// block of 64 threads; then half and bfloat round trips of in[t] into
// out[128 + 2*t], out[129 + 2*t].
constexpr const char* kLanes = R"(
define void @lanes(ptr noalias %in, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr i32, ptr %in, i64 %t64
  %x = load i32, ptr %p
  %b = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 1, i32 31)
  %d = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 3, i32 31)
  %o0 = mul i64 %t64, 2
  %o1 = add i64 %o0, 1
  %q0 = getelementptr i32, ptr %out, i64 %o0
  %q1 = getelementptr i32, ptr %out, i64 %o1
  store i32 %b, ptr %q0
  store i32 %d, ptr %q1
  %f = sitofp i32 %x to float
  %f3 = fdiv float %f, 3.0
  %h = fptrunc float %f3 to half
  %hf = fpext half %h to float
  %bf = fptrunc float %f3 to bfloat
  %bff = fpext bfloat %bf to float
  %hi = bitcast float %hf to i32
  %bi = bitcast float %bff to i32
  %o2 = add i64 %o0, 128
  %o3 = add i64 %o0, 129
  %q2 = getelementptr i32, ptr %out, i64 %o2
  %q3 = getelementptr i32, ptr %out, i64 %o3
  store i32 %hi, ptr %q2
  store i32 %bi, ptr %q3
  ret void
}
)";

// Lane 0 waits at a barrier while the rest of its warp waits in a shuffle:
// a deadlock the emulation must report, not hang on.
constexpr const char* kDeadlock = R"(
define void @deadlock(ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %bar, label %shf
bar:
  call void @llvm.nvvm.barrier0()
  ret void
shf:
  %v = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %tid, i32 0, i32 31)
  store i32 %v, ptr %out
  ret void
}
)";

// counter[0] += 1 (body); pred = counter[0] < limit[0] (condition).
constexpr const char* kLoop = R"(
define void @inc(ptr noalias %c) {
  %v = load i32, ptr %c
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %c
  ret void
}
define void @cond(ptr noalias %c, ptr noalias %lim, ptr noalias %pred) {
  %v = load i32, ptr %c
  %l = load i32, ptr %lim
  %lt = icmp slt i32 %v, %l
  %b = zext i1 %lt to i8
  store i8 %b, ptr %pred
  ret void
}
)";

KernelThunk Kernel(const std::string& name, std::vector<Slice> args, std::vector<bool> written, uint32_t grid,
                   uint32_t block) {
  KernelThunk k;
  k.name = name;
  k.kind = "test";
  k.instruction = name;
  k.args = std::move(args);
  k.arg_written = std::move(written);
  k.dims.grid[0] = grid;
  k.dims.block[0] = block;
  return k;
}

PlanAllocation Alloc(int index, const std::string& kind, int64_t size, int64_t param = -1) {
  PlanAllocation a;
  a.index = index;
  a.kind = kind;
  a.size = size;
  a.parameter_number = param;
  return a;
}

PlanValue Value(const std::string& shape, int alloc, int64_t size, int64_t param = -1) {
  PlanValue v;
  v.shape = shape;
  v.parameter_number = param;
  v.slice = Slice{alloc, 0, size};
  return v;
}

Literal F32(std::vector<float> v) {
  Literal l(Shape(PrimitiveType::kF32, {static_cast<int64_t>(v.size())}));
  std::memcpy(l.raw(), v.data(), v.size() * 4);
  return l;
}

TEST(CpuExecutor, BlockReductionWithShufflesSharedMemoryBarrierAndAtomics) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "parameter", 512 * 4, 0), Alloc(1, "output", 4)};
  plan.parameters = {Value("f32[512]{0}", 0, 2048, 0)};
  plan.outputs = {Value("f32[]", 1, 4)};
  runtime::MemsetThunk zero;
  zero.dst = Slice{1, 0, 4};
  plan.thunks.push_back(Thunk{zero});
  plan.thunks.push_back(Thunk{Kernel("block_sum", {{0, 0, 2048}, {1, 0, 4}}, {false, true}, 4, 128)});
  std::vector<float> in(512);
  double want = 0;
  for (int i = 0; i < 512; ++i) want += (in[i] = static_cast<float>(i % 97) - 40.0f);
  auto r = RunOnCpu(plan, {{"block_sum", std::string(kHeader) + kBlockSum}}, {F32(in)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->outputs.size(), 1u);
  EXPECT_EQ(r->outputs[0].Get<float>(0), static_cast<float>(want));
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_EQ(r->kernels[0].kernel->name, "block_sum");
  EXPECT_EQ(r->kernels[0].us.size(), 1u);
}

// cp.async (sm_80) as the PTX ISA allows it to behave: each thread's 16
// bytes land in shared memory only when it waits for their group. Each of
// 32 threads marks its shared slot, copies its row of the input into it,
// reads the slot before the wait (the mark: nothing has landed) and, after
// the wait and a barrier, its neighbour's slot (the neighbour's row). A
// kernel that read before waiting would read stale values here, as it may
// on a GPU.
constexpr const char* kCpAsync = R"(
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
@slots = internal addrspace(3) global [32 x <4 x i32>] poison, align 16

define void @copy(ptr noalias %in, ptr noalias %before, ptr noalias %after) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %slot = getelementptr [32 x <4 x i32>], ptr addrspace(3) @slots, i64 0, i64 %t
  store <4 x i32> <i32 -1, i32 -1, i32 -1, i32 -1>, ptr addrspace(3) %slot, align 16
  %src = getelementptr <4 x i32>, ptr %in, i64 %t
  %gsrc = addrspacecast ptr %src to ptr addrspace(1)
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %slot, ptr addrspace(1) %gsrc)
  call void @llvm.nvvm.cp.async.commit.group()
  %early = load i32, ptr addrspace(3) %slot, align 16
  %pb = getelementptr i32, ptr %before, i64 %t
  store i32 %early, ptr %pb
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier0()
  %n = add i32 %tid, 1
  %n32 = and i32 %n, 31
  %nn = zext i32 %n32 to i64
  %nslot = getelementptr [32 x <4 x i32>], ptr addrspace(3) @slots, i64 0, i64 %nn
  %late = load i32, ptr addrspace(3) %nslot, align 16
  %pa = getelementptr i32, ptr %after, i64 %t
  store i32 %late, ptr %pa
  ret void
})";

TEST(CpuExecutor, CpAsyncCopiesLandAtTheWait) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "parameter", 32 * 16, 0), Alloc(1, "output", 32 * 4), Alloc(2, "output", 32 * 4)};
  plan.parameters = {Value("f32[128]{0}", 0, 32 * 16, 0)};
  plan.outputs = {Value("s32[32]{0}", 1, 32 * 4), Value("s32[32]{0}", 2, 32 * 4)};
  plan.thunks.push_back(Thunk{Kernel("copy", {{0, 0, 32 * 16}, {1, 0, 32 * 4}, {2, 0, 32 * 4}}, {false, true, true}, 1, 32)});
  std::vector<float> in(128);
  for (int i = 0; i < 128; ++i) in[i] = static_cast<float>(i);
  auto r = RunOnCpu(plan, {{"copy", std::string(kHeader) + kCpAsync}}, {F32(in)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->outputs.size(), 2u);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(r->outputs[0].Get<int32_t>(t), -1) << t;  // not landed before the wait
    float want = in[static_cast<size_t>(((t + 1) % 32) * 4)];
    int32_t bits;
    std::memcpy(&bits, &want, 4);
    EXPECT_EQ(r->outputs[1].Get<int32_t>(t), bits) << t;  // the neighbour's row after it
  }
}

TEST(CpuExecutor, LibdeviceMathOnTheLoopPath) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "parameter", 4000, 0), Alloc(1, "output", 4000)};
  plan.parameters = {Value("f32[1000]", 0, 4000, 0)};
  plan.outputs = {Value("f32[1000]", 1, 4000)};
  plan.thunks.push_back(Thunk{Kernel("exp_kernel", {{0, 0, 4000}, {1, 0, 4000}}, {false, true}, 4, 64)});
  std::vector<float> in(1000);
  for (int i = 0; i < 1000; ++i) in[i] = (i - 500) / 100.0f;
  auto r = RunOnCpu(plan, {{"exp_kernel", std::string(kHeader) + kExp}}, {F32(in)}, CpuRunOptions{.repeat = 2, .limits = {}});
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int i = 0; i < 1000; ++i) {
    float want = std::exp(in[i]) + 1.0f / std::sqrt(std::fabs(in[i]) + 1.0f);
    ASSERT_NEAR(r->outputs[0].Get<float>(i), want, 1e-5f * std::fabs(want)) << i;
  }
  EXPECT_EQ(r->kernels[0].us.size(), 2u);  // one per repeat
}

// Reference conversions through LLVM's APFloat (IEEE half, round to nearest
// even), independent of the kernels' code and of the host compiler's
// _Float16 support (clang 14 has none on x86, the sanitizer build's).
uint16_t HalfBits(float f) {
  llvm::APFloat h(f);
  bool lost = false;
  h.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(h.bitcastToAPInt().getZExtValue());
}

float HalfValue(uint16_t bits) {
  llvm::APFloat h(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool lost = false;
  h.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return h.convertToFloat();
}

TEST(CpuExecutor, ButterflyAndIndexShufflesAndHalfBfloatConversions) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "parameter", 64 * 4, 0), Alloc(1, "output", 256 * 4)};
  plan.parameters = {Value("s32[64]", 0, 256, 0)};
  plan.outputs = {Value("s32[256]", 1, 1024)};
  plan.thunks.push_back(Thunk{Kernel("lanes", {{0, 0, 256}, {1, 0, 1024}}, {false, true}, 1, 64)});
  Literal in(Shape(PrimitiveType::kS32, {64}));
  for (int i = 0; i < 64; ++i) in.Set<int32_t>(i, i * 7 - 100);
  auto r = RunOnCpu(plan, {{"lanes", std::string(kHeader) + kLanes}}, {in});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Literal& out = r->outputs[0];
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out.Get<int32_t>(2 * t), in.Get<int32_t>(t ^ 1)) << t;
    EXPECT_EQ(out.Get<int32_t>(2 * t + 1), in.Get<int32_t>((t & ~31) + 3)) << t;
    float f = static_cast<float>(in.Get<int32_t>(t)) / 3.0f;
    const uint16_t hb = HalfBits(f);
    float bf_want;
    uint32_t fb;
    std::memcpy(&fb, &f, 4);
    fb = (fb + 0x7fff + ((fb >> 16) & 1)) & 0xffff0000u;
    std::memcpy(&bf_want, &fb, 4);
    int32_t hv = out.Get<int32_t>(128 + 2 * t), bv = out.Get<int32_t>(129 + 2 * t);
    float hf, bff;
    std::memcpy(&hf, &hv, 4);
    std::memcpy(&bff, &bv, 4);
    EXPECT_EQ(hf, HalfValue(hb)) << t;
    EXPECT_EQ(bff, bf_want) << t;
  }
}

TEST(CpuExecutor, WhileLoopDrivenFromTheHost) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "parameter", 4, 0), Alloc(1, "output", 4), Alloc(2, "temp", 1)};
  plan.parameters = {Value("s32[]", 0, 4, 0)};
  plan.outputs = {Value("s32[]", 1, 4)};
  runtime::WhileThunk w;
  w.instruction = "while";
  w.condition.push_back(Thunk{Kernel("cond", {{1, 0, 4}, {0, 0, 4}, {2, 0, 1}}, {false, false, true}, 1, 1)});
  w.pred = Slice{2, 0, 1};
  w.body.push_back(Thunk{Kernel("inc", {{1, 0, 4}}, {true}, 1, 1)});
  plan.thunks.push_back(Thunk{std::move(w)});
  Literal lim(Shape(PrimitiveType::kS32, {}));
  lim.Set<int32_t>(0, 7);
  auto r = RunOnCpu(plan, {{"cond", std::string(kHeader) + kLoop}, {"inc", std::string(kHeader) + kLoop}}, {lim});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0].Get<int32_t>(0), 7);
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_EQ(r->kernels[0].us.size(), 8u);  // cond: 7 true + 1 false
  EXPECT_EQ(r->kernels[1].us.size(), 7u);
}

TEST(CpuExecutor, DeadlockIsReportedNotHung) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "output", 4)};
  plan.outputs = {Value("s32[]", 0, 4)};
  plan.thunks.push_back(Thunk{Kernel("deadlock", {{0, 0, 4}}, {true}, 1, 32)});
  auto r = RunOnCpu(plan, {{"deadlock", std::string(kHeader) + kDeadlock}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("kernel 'deadlock': emulated threads of block (0,0,0) deadlocked: 1 at a barrier, 31 at a shuffle"),
            std::string::npos)
      << r.status().message();
}

TEST(CpuExecutor, UnsupportedGpuFeaturesAreNamed) {
  ThunkPlan plan;
  plan.allocations = {Alloc(0, "output", 4)};
  plan.outputs = {Value("f32[]", 0, 4)};
  plan.thunks.push_back(Thunk{Kernel("k", {{0, 0, 4}}, {true}, 1, 1)});
  const char* vote = R"(
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
define void @k(ptr %o) {
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  store i32 %l, ptr %o
  ret void
})";
  auto r = RunOnCpu(plan, {{"k", vote}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("GPU intrinsic 'llvm.nvvm.read.ptx.sreg.laneid' has no CPU implementation"),
            std::string::npos)
      << r.status().message();
  const char* nv = R"(
declare float @__nv_frobnicatef(float)
define void @k(ptr %o) {
  %v = call float @__nv_frobnicatef(float 1.0)
  store float %v, ptr %o
  ret void
})";
  r = RunOnCpu(plan, {{"k", nv}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("libdevice function '__nv_frobnicatef' has no CPU implementation"),
            std::string::npos);
  r = RunOnCpu(plan, {{"k", "define void @k(ptr %o) {\n  ret i32 0\n}\n"}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("kernel 'k': 2:"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace hloscope::codegen
