// associative-scan-rewriter: the scans JAX 0.12 writes for GPUs (cumsum,
// cumprod, cummax as one `scan` op) become reduce-windows, checked by the
// differential checker against the interpreter's scan; other scans stay.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const Instruction* OnlyReduceWindow(const Module& m) {
  const Instruction* found = nullptr;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->opcode() == Opcode::kReduceWindow) found = i.get();
  return found;
}

// jnp.cumsum(x, axis=0) as JAX lowers it for CUDA (unseen program cond_switch).
TEST(AssociativeScanRewriterTest, CumsumAsJaxLowersItForGpus) {
  PassRun r = RunPass("associative-scan-rewriter", R"(HloModule m
region {
  x = f32[12]{0} parameter(0)
  c = f32[12]{0} parameter(1)
  s = f32[12]{0} add(x, c)
  ROOT t = (f32[12]{0}, f32[12]{0}) tuple(s, s)
}
ENTRY e {
  a = f32[12,12]{1,0} parameter(0)
  z = f32[] constant(0)
  init = f32[12]{0} broadcast(z), dimensions={}
  scan = (f32[12,12]{1,0}, f32[12]{0}) scan(a, init), dimensions={0}, num_carries=1, is_associative=true, to_apply=region
  ROOT out = f32[12,12]{1,0} get-tuple-element(scan), index=0
})");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  EXPECT_TRUE(r.Applied("cumulative add scan → reduce-window")) << r.text();
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kScan), 0) << r.text();
  const Instruction* rw = OnlyReduceWindow(*r.module);
  ASSERT_NE(rw, nullptr) << r.text();
  ASSERT_TRUE(rw->attrs().window);
  EXPECT_EQ(rw->attrs().window->dims[0].size, 12);
  EXPECT_EQ(rw->attrs().window->dims[0].pad_lo, 11);
  EXPECT_EQ(rw->attrs().window->dims[1].size, 1);
  ASSERT_NE(rw->to_apply(), nullptr);
  EXPECT_EQ(rw->to_apply()->root()->opcode(), Opcode::kAdd);
}

// A reverse running maximum of integers, with its final carry used: the
// window is padded after, and the carry is the first element written.
TEST(AssociativeScanRewriterTest, ReverseCummaxKeepsItsFinalCarry) {
  PassRun r = RunPass("associative-scan-rewriter", R"(HloModule m
region {
  x = s32[5]{0} parameter(0)
  c = s32[5]{0} parameter(1)
  s = s32[5]{0} maximum(c, x)
  ROOT t = (s32[5]{0}, s32[5]{0}) tuple(s, s)
}
ENTRY e {
  a = s32[5,7]{1,0} parameter(0)
  lo = s32[] constant(-2147483648)
  init = s32[5]{0} broadcast(lo), dimensions={}
  scan = (s32[5,7]{1,0}, s32[5]{0}) scan(a, init), dimensions={1}, num_carries=1, is_reverse=true, is_associative=true, to_apply=region
  o = s32[5,7]{1,0} get-tuple-element(scan), index=0
  last = s32[5]{0} get-tuple-element(scan), index=1
  ROOT t = (s32[5,7]{1,0}, s32[5]{0}) tuple(o, last)
})");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kScan), 0) << r.text();
  const Instruction* rw = OnlyReduceWindow(*r.module);
  ASSERT_NE(rw, nullptr);
  EXPECT_EQ(rw->attrs().window->dims[1].pad_hi, 6);
  EXPECT_EQ(rw->attrs().window->dims[1].pad_lo, 0);
}

// cumprod over the last dimension of a 3-D array, the carry read too.
TEST(AssociativeScanRewriterTest, CumprodWithItsCarry) {
  PassRun r = RunPass("associative-scan-rewriter", R"(HloModule m
region {
  x = f32[2,3]{1,0} parameter(0)
  c = f32[2,3]{1,0} parameter(1)
  s = f32[2,3]{1,0} multiply(x, c)
  ROOT t = (f32[2,3]{1,0}, f32[2,3]{1,0}) tuple(s, s)
}
ENTRY e {
  a = f32[2,3,6]{2,1,0} parameter(0)
  one = f32[] constant(1)
  init = f32[2,3]{1,0} broadcast(one), dimensions={}
  ROOT scan = (f32[2,3,6]{2,1,0}, f32[2,3]{1,0}) scan(a, init), dimensions={2}, num_carries=1, is_associative=true, to_apply=region
})");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kScan), 0) << r.text();
}

// No change: a carry that does not start at the combiner's identity, a
// scan not marked associative, and a combiner that is no running op.
TEST(AssociativeScanRewriterTest, OtherScansStay) {
  auto scan_with = [](const std::string& op, const std::string& init, const std::string& flags) {
    return R"(HloModule m
region {
  x = f32[4]{0} parameter(0)
  c = f32[4]{0} parameter(1)
  s = f32[4]{0} )" + op + R"((x, c)
  ROOT t = (f32[4]{0}, f32[4]{0}) tuple(s, s)
}
ENTRY e {
  a = f32[4,9]{1,0} parameter(0)
  k = f32[] constant()" + init + R"()
  init = f32[4]{0} broadcast(k), dimensions={}
  ROOT scan = (f32[4,9]{1,0}, f32[4]{0}) scan(a, init), dimensions={1}, num_carries=1)" + flags + R"(, to_apply=region
})";
  };
  struct Case {
    std::string hlo, why;
  };
  for (const Case& c : {Case{scan_with("add", "1", ", is_associative=true"), "the initial carry is not the combiner's identity"},
                        Case{scan_with("add", "0", ""), "not marked associative"},
                        Case{scan_with("subtract", "0", ", is_associative=true"),
                             "the combiner is not one add, multiply, maximum, minimum, and or or of its two values"}}) {
    PassRun r = RunPass("associative-scan-rewriter", c.hlo);
    ASSERT_TRUE(r.module);
    EXPECT_FALSE(r.changed) << c.why;
    EXPECT_EQ(CountOpcode(*r.module, Opcode::kScan), 1);
    ASSERT_FALSE(r.steps.empty());
    bool counted = false;
    for (const auto& [what, n] : r.steps.back()->stats) counted |= what == "scan left alone: " + c.why && n == 1;
    EXPECT_TRUE(counted) << c.why;
  }
}

// The identity of a running minimum of unsigned integers is their largest
// value (all ones), not the signed maximum: a u32 scan started at 2^31 - 1
// is no cummin and stays; one started at 2^32 - 1 is rewritten.
TEST(AssociativeScanRewriterTest, UnsignedMinimumTakesOnlyAllOnes) {
  auto scan_from = [](const std::string& init) {
    return R"(HloModule m
region {
  x = u32[3]{0} parameter(0)
  c = u32[3]{0} parameter(1)
  s = u32[3]{0} minimum(x, c)
  ROOT t = (u32[3]{0}, u32[3]{0}) tuple(s, s)
}
ENTRY e {
  a = u32[3,5]{1,0} parameter(0)
  k = u32[] constant()" + init + R"()
  init = u32[3]{0} broadcast(k), dimensions={}
  ROOT scan = (u32[3,5]{1,0}, u32[3]{0}) scan(a, init), dimensions={1}, num_carries=1, is_associative=true, to_apply=region
})";
  };
  PassRun kept = RunPass("associative-scan-rewriter", scan_from("2147483647"));
  ASSERT_TRUE(kept.module);
  EXPECT_FALSE(kept.changed) << kept.text();
  PassRun rewritten = RunPass("associative-scan-rewriter", scan_from("4294967295"));
  ASSERT_TRUE(rewritten.module);
  EXPECT_TRUE(rewritten.changed);
  EXPECT_TRUE(rewritten.evaluable);
  EXPECT_EQ(CountOpcode(*rewritten.module, Opcode::kScan), 0) << rewritten.text();
}

}  // namespace
}  // namespace hloscope::testing
