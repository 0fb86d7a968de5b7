// Cost model numbers computed by hand (see docs/cost-model.md).
#include <gtest/gtest.h>

#include "core/cost/cost_model.h"
#include "core/parser/parser.h"

namespace hloscope {
namespace {

DeviceSpec TestDevice() {
  DeviceSpec d;
  d.id = "test";
  d.hbm_bandwidth_gbs = 1000;  // 1e12 B/s → 1 MB takes 1 us
  d.fp32_tflops = 10;          // 1e13 FLOP/s
  d.tf32_tflops = 100;
  d.bf16_tflops = 200;
  d.f16_tflops = 200;
  d.launch_overhead_us = 2;
  return d;
}

std::unique_ptr<Module> Parse(const char* t) {
  auto m = ParseHloModule(t);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return std::move(*m);
}

const Instruction* Find(const Module& m, const std::string& name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  return nullptr;
}

TEST(CostModel, DevicePresetsLoad) {
  for (const auto& id : DevicePresetIds()) {
    auto d = LoadDevice(id);
    ASSERT_TRUE(d.ok()) << d.status().message();
    EXPECT_GT(d->hbm_bandwidth_gbs, 0);
    EXPECT_FALSE(d->sources.empty()) << id << " must cite its sources";
  }
  EXPECT_EQ(DevicePresetIds().size(), 5u);
  auto h200 = LoadDevice("h200");
  ASSERT_TRUE(h200.ok());
  EXPECT_EQ(h200->hbm_bandwidth_gbs, 4800);
  EXPECT_FALSE(LoadDevice("nope").ok());
}

TEST(CostModel, ElementwiseIsMemoryBound) {
  auto m = Parse(R"hlo(ENTRY e {
  a = f32[262144] parameter(0)
  b = f32[262144] parameter(1)
  ROOT c = f32[262144] add(a, b)
})hlo");
  Cost c = KernelCost(*Find(*m, "c"), TestDevice());
  // reads 2 × 1 MiB, writes 1 MiB; 262144 flops.
  EXPECT_EQ(c.bytes_read, 2 * 1048576);
  EXPECT_EQ(c.bytes_written, 1048576);
  EXPECT_DOUBLE_EQ(c.flops, 262144);
  EXPECT_NEAR(c.memory_us, 3 * 1048576 / 1e12 * 1e6, 1e-9);  // 3.145728 us
  EXPECT_NEAR(c.compute_us, 262144 / 1e13 * 1e6, 1e-9);
  // XLA's CombineComputeAndMemoryAccessTime: all of the longer, 5% of the shorter.
  EXPECT_NEAR(c.time_us, c.memory_us + 0.05 * c.compute_us + 2, 1e-9);
}

TEST(CostModel, DotIsComputeBoundOnTensorCores) {
  auto m = Parse(R"hlo(ENTRY e {
  a = bf16[1024,1024] parameter(0)
  b = bf16[1024,1024] parameter(1)
  ROOT c = bf16[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})hlo");
  Cost c = KernelCost(*Find(*m, "c"), TestDevice());
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 1024 * 1024 * 1024);
  EXPECT_NEAR(c.compute_us, 2.0 * 1024 * 1024 * 1024 / 200e12 * 1e6, 1e-9);  // 10.737 us
  EXPECT_EQ(c.bytes(), 3 * 1024 * 1024 * 2);
  EXPECT_NEAR(c.time_us, c.compute_us + 0.05 * c.memory_us + 2, 1e-9);
}

TEST(CostModel, GroupReadsSharedOperandOnceAndBroadcastAtItsOwnSize) {
  auto m = Parse(R"hlo(ENTRY e {
  x = f32[1024] parameter(0)
  s = f32[] parameter(1)
  b = f32[1024] broadcast(s), dimensions={}
  m = f32[1024] multiply(x, b)
  ROOT a = f32[1024] add(m, x)
})hlo");
  std::vector<const Instruction*> group = {Find(*m, "b"), Find(*m, "m"), Find(*m, "a")};
  Cost c = GroupCost(group, TestDevice());
  EXPECT_EQ(c.bytes_read, 4096 + 4);  // x once, s at its own size
  EXPECT_EQ(c.bytes_written, 4096);   // only the root escapes
  EXPECT_EQ(c.kernels, 1);
}

TEST(CostModel, SliceReadsOnlyWhatItSelects) {
  auto m = Parse(R"hlo(ENTRY e {
  x = f32[1000] parameter(0)
  s = f32[10] slice(x), slice={[0:10]}
  ROOT n = f32[10] negate(s)
})hlo");
  Cost c = GroupCost({Find(*m, "s"), Find(*m, "n")}, TestDevice());
  EXPECT_EQ(c.bytes_read, 40);
  EXPECT_EQ(c.bytes_written, 40);
}

TEST(CostModel, FusionKernelAndModuleTotals) {
  auto m = Parse(R"hlo(
fused {
  p0 = f32[256] parameter(0)
  p1 = f32[256] parameter(1)
  e = f32[256] exponential(p0)
  ROOT m = f32[256] multiply(e, p1)
}
ENTRY main {
  a = f32[256] parameter(0)
  b = f32[256] parameter(1)
  f = f32[256] fusion(a, b), kind=kLoop, calls=fused
  ROOT t = (f32[256]) tuple(f)
})hlo");
  Cost c = KernelCost(*Find(*m, "f"), TestDevice());
  EXPECT_EQ(c.bytes_read, 2048);
  EXPECT_EQ(c.bytes_written, 1024);
  EXPECT_DOUBLE_EQ(c.flops, 256 * 16 + 256);
  ModuleCost mc = EstimateModule(*m, TestDevice());
  EXPECT_EQ(mc.kernels, 1);  // parameters and the tuple launch nothing
  EXPECT_EQ(mc.hbm_bytes, 3072);
}

// XLA's estimate (AdjustBandwidth): a block reads at most 32 bytes per clock,
// so a kernel of few blocks cannot draw the device's bandwidth; writes are
// not limited. One block (128 elements, 128 threads) at 1 GHz: 32 GB/s.
TEST(CostModel, AKernelOfFewBlocksReadsAt32BytesPerClockEach) {
  DeviceSpec d = TestDevice();
  d.clock_ghz = 1;
  d.sm_count = 100;
  auto small = Parse(R"(
HloModule m
ENTRY e {
  a = f32[128] parameter(0)
  b = f32[128] parameter(1)
  ROOT c = f32[128] add(a, b)
})");
  Cost c = KernelCost(*Find(*small, "c"), d);
  EXPECT_EQ(c.blocks, 1);
  EXPECT_NEAR(c.memory_us, 1024 / 32e9 * 1e6 + 512 / 1e12 * 1e6, 1e-12);
  // 8,192 blocks draw more than the device gives: its bandwidth, as before.
  auto big = Parse(R"(
HloModule m
ENTRY e {
  a = f32[1048576] parameter(0)
  b = f32[1048576] parameter(1)
  ROOT c = f32[1048576] add(a, b)
})");
  Cost cb = KernelCost(*Find(*big, "c"), d);
  EXPECT_EQ(cb.blocks, 8192);
  EXPECT_NEAR(cb.memory_us, 3 * 4194304 / 1e12 * 1e6, 1e-9);
}

// XLA's utilization: a broadcast reads each element of its operand once per
// element it fills, a scalar constant inside a fusion once per use, an
// operand used twice for one output once. The re-reads cost time, not HBM
// traffic, and in a kernel of one block as much as first reads.
TEST(CostModel, ABroadcastReReadsItsOperandOncePerElementItFills) {
  DeviceSpec d = TestDevice();
  d.clock_ghz = 1;
  d.sm_count = 100;
  auto m = Parse(R"(
HloModule m
fused {
  p0 = f32[16,8] parameter(0)
  p1 = f32[8] parameter(1)
  b = f32[16,8] broadcast(p1), dimensions={1}
  c = f32[] constant(2)
  bc = f32[16,8] broadcast(c), dimensions={}
  m = f32[16,8] multiply(p0, p0)
  a = f32[16,8] add(m, b)
  ROOT r = f32[16,8] multiply(a, bc)
}
ENTRY e {
  x = f32[16,8] parameter(0)
  y = f32[8] parameter(1)
  ROOT f = f32[16,8] fusion(x, y), kind=kLoop, calls=fused
})");
  const Instruction* f = Find(*m, "f");
  std::vector<InputRead> reads = KernelReads(*f);
  ASSERT_EQ(reads.size(), 3u);
  EXPECT_EQ(reads[0].net, 512);  // x, used twice for one output: read once
  EXPECT_EQ(reads[0].total, 512);
  EXPECT_EQ(reads[1].net, 32);  // y, broadcast over 16 rows
  EXPECT_EQ(reads[1].total, 512);
  EXPECT_TRUE(reads[2].constant);  // the scalar, once per element
  EXPECT_EQ(reads[2].total, 512);
  Cost c = KernelCost(*f, d);
  EXPECT_EQ(c.bytes_read, 544);               // HBM traffic: first reads only
  EXPECT_EQ(c.bytes_reread_l1, 480 + 512);    // the broadcasts' fan-out
  EXPECT_EQ(c.blocks, 1);
  EXPECT_NEAR(c.memory_us, (544 + 992) / 32e9 * 1e6 + 512 / 1e12 * 1e6, 1e-12);
}

// A reduction is launched over what it reads, as XLA's row-reduction
// emitter lays it out (RowReductionFusion): 16 elements per thread, up to
// 1,024 threads per row, several rows per block while that stays within 256
// threads; rows of a power of two that fit a warp go several to a warp
// (MultiRowReductionFusion).
TEST(CostModel, AReductionIsLaunchedOverWhatItReads) {
  auto m = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4096,4096] parameter(0)
  v = f32[4096] parameter(1)
  w = f32[1000,96] parameter(2)
  y = f32[16,8] parameter(3)
  z = f32[] constant(0)
  r = f32[4096] reduce(x, z), dimensions={1}, to_apply=add
  full = f32[] reduce(v, z), dimensions={0}, to_apply=add
  short = f32[1000] reduce(w, z), dimensions={1}, to_apply=add
  tiny = f32[16] reduce(y, z), dimensions={1}, to_apply=add
  ROOT t = (f32[4096], f32[], f32[1000], f32[16]) tuple(r, full, short, tiny)
})");
  // Rows of 4,096: 256 threads of 16 elements each, one row per block.
  const Instruction* r = Find(*m, "r");
  EXPECT_EQ(KernelBlocks(r->shape()), 32);
  EXPECT_EQ(KernelLaunchBlocks(*r), 4096);
  EXPECT_EQ(KernelLaunchThreads(*r), 256);
  // One row of 4,096 (a full reduction): one block, however much it reads.
  EXPECT_EQ(KernelLaunchBlocks(*Find(*m, "full")), 1);
  EXPECT_EQ(KernelLaunchThreads(*Find(*m, "full")), 256);
  // Rows of 96: 32 threads each (16 elements per thread, a warp at least),
  // 8 rows per block: 125 blocks.
  EXPECT_EQ(KernelLaunchBlocks(*Find(*m, "short")), 125);
  EXPECT_EQ(KernelLaunchThreads(*Find(*m, "short")), 256);
  // Rows of 8 f32 fit a warp: 8 threads per row, all 16 rows in one block.
  EXPECT_EQ(KernelLaunchBlocks(*Find(*m, "tiny")), 1);
  EXPECT_EQ(KernelLaunchThreads(*Find(*m, "tiny")), 128);
}

// XLA GPU launches a loop kernel with one thread per output element up to
// 128 per block, and a reduction with one per kept element (times the row
// when the minor dimension is reduced); its compute time counts only those
// lanes, at a whole number of flops per nanosecond. Its own numbers for
// samples/resnet_block.hlo on h100_sxm (tools/xla_gpu_reference.py with
// --vlog gpu_performance_model=10): an f32[8] add runs 8 threads, 56 flops,
// 1.75 ns of compute (absl's quarter nanoseconds); the column sum of
// f32[32,8] to f32[8] (reduce_sum.42.0) runs 8 threads, (256 - 8) x 7 = 1,736 flops in 56 ns,
// and reads its init value once per output (32 bytes in all, 4 from HBM).
TEST(CostModel, SmallKernelsComputeOnTheLanesXlaLaunches) {
  auto m = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[8] parameter(0)
  q = f32[8] parameter(1)
  small = f32[8] add(p, q)
  x = f32[32,8] parameter(2)
  z = f32[] constant(0)
  col = f32[8] reduce(x, z), dimensions={0}, to_apply=add
  y = f32[16,8] parameter(3)
  row = f32[16] reduce(y, z), dimensions={1}, to_apply=add
  big = f32[4096] parameter(4)
  ROOT t = (f32[8], f32[8], f32[16], f32[4096]) tuple(small, col, row, big)
})");
  auto h100 = LoadDevice("h100_sxm");
  ASSERT_TRUE(h100.ok());
  const Instruction* small = Find(*m, "small");
  const Instruction* col = Find(*m, "col");
  const Instruction* row = Find(*m, "row");
  EXPECT_EQ(KernelLaunchThreads(*small), 8);
  EXPECT_EQ(KernelLaunchThreads(*col), 8);
  EXPECT_EQ(KernelLaunchThreads(*row), 128);  // 16 rows of 8
  EXPECT_EQ(KernelLaunchThreads(*Find(*m, "t")), 128);
  const Cost a = KernelCost(*small, *h100);
  EXPECT_DOUBLE_EQ(a.cycles, 56);
  EXPECT_NEAR(a.compute_us * 1e3, 56.0 / 31, 1e-9);  // 8 lanes x 2 x 1.98 GHz = 31.68 -> 31
  const Cost c = KernelCost(*col, *h100);
  EXPECT_DOUBLE_EQ(c.cycles, 1736);
  EXPECT_NEAR(c.compute_us * 1e3, 56.0, 1e-9);
  EXPECT_EQ(c.bytes_read, 1024 + 4);
  EXPECT_EQ(c.bytes_reread_l1, 28);
  // That column sum is small enough for the loop emitter (XLA: a reduction
  // is not faster than elemental): a loop over its 8 outputs, which gives
  // the same 8 threads. The rows of 8 are a real reduction launch.
  EXPECT_TRUE(ReductionPrefersElemental(*col));
  EXPECT_FALSE(LaunchesAsReduction(*col));
  EXPECT_TRUE(LaunchesAsReduction(*row));
}

// XLA's column reduction launches 32 x 32 threads per block, each block 64
// columns down every row: resnet_block_large's batch-norm sums over
// [64,98,128] to [64,128] run 128 blocks, over [64,128] to [128] 2 blocks
// (so their reads are capped at 2 x 32 B per clock); and an unfused x·x
// reads x once per operand (XLA: 2 x 3.2 MB, 1,916 ns).
TEST(CostModel, ColumnReductionsAndSquaresAreLaunchedAsXlaDoes) {
  auto m = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[64,98,128] parameter(0)
  z = f32[] constant(0)
  part = f32[64,128] reduce(x, z), dimensions={1}, to_apply=add
  whole = f32[128] reduce(part, z), dimensions={0}, to_apply=add
  sq = f32[64,98,128] multiply(x, x)
  ROOT t = (f32[128], f32[64,98,128]) tuple(whole, sq)
})");
  auto h100 = LoadDevice("h100_sxm");
  ASSERT_TRUE(h100.ok());
  const Instruction* part = Find(*m, "part");
  const Instruction* whole = Find(*m, "whole");
  EXPECT_EQ(KernelLaunchBlocks(*part), 128);
  EXPECT_EQ(KernelLaunchThreads(*part), 1024);
  EXPECT_EQ(KernelLaunchBlocks(*whole), 2);
  EXPECT_EQ(KernelLaunchThreads(*whole), 1024);
  const Cost w = KernelCost(*whole, *h100);
  // 32 kB read by 2 blocks at 32 B per clock each: 258.6 ns (XLA: 262.5
  // with its init value's reads).
  EXPECT_NEAR(w.memory_us * 1e3, 32768 / (2 * 1.98 * 32), 5);
  const Cost sq = KernelCost(*Find(*m, "sq"), *h100);
  EXPECT_EQ(sq.bytes_read, 64 * 98 * 128 * 4);
  EXPECT_EQ(sq.bytes_reread_hbm, 64 * 98 * 128 * 4);
}

}  // namespace
}  // namespace hloscope
