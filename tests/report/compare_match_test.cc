// How compare matches ops across two modules (core/report/compare_match.h),
// on inline modules: each way of matching (op_name, name, shape and
// operands, users, fused contents, copies of an op), XLA's rewrites it sees
// through (reciprocal multiplies, cuDNN calls, async-wrapped fusions), the
// kernels found alike or different, and a case where nothing may match.
// The committed XLA GPU and XLA CPU references of every sample:
// compare_match_samples_test.cc.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/report/compare.h"

namespace hloscope::report {
namespace {

std::unique_ptr<Module> Parse(std::string_view text) {
  auto m = ParseHloModule(text);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

// b's counterpart of a's op `a_name` and how it was matched ("" if none).
std::pair<std::string, std::string> MatchOf(const CompareResult& r, const std::string& a_name) {
  for (size_t k = 0; k < r.matches.size(); ++k)
    if (r.matches[k].first == a_name) return {r.matches[k].second, r.match_how[k]};
  return {"", ""};
}

TEST(CompareMatch, NamesDifferButOpNameAgrees) {
  // XLA GPU renames ops and flattens batch dimensions; op_name keeps the
  // name of the input instruction each came from.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  x = f32[2,8,32] parameter(0)
  y = f32[2,8,32] parameter(1)
  mul.33 = f32[2,8,32] multiply(x, y)
  ROOT add.36 = f32[2,8,32] add(mul.33, x)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  p0 = f32[2,8,32] parameter(0)
  p1 = f32[2,8,32] parameter(1)
  b0 = f32[16,32] bitcast(p0)
  b1 = f32[16,32] bitcast(p1)
  mul.4 = f32[16,32] multiply(b0, b1), metadata={op_name="mul.33" scheduling_name="mul.4"}
  add.5 = f32[16,32] add(mul.4, b0), metadata={op_name="add.36" scheduling_name="add.5"}
  ROOT r = f32[2,8,32] bitcast(add.5)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "mul.33"), std::make_pair(std::string("mul.4"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "add.36"), std::make_pair(std::string("add.5"), std::string("op_name")));
  EXPECT_EQ(r.matched_by["op_name"], 2);
  EXPECT_EQ(r.b.matched, r.b.ops);
  auto j = nlohmann::json::parse(CompareToJson(r));
  EXPECT_EQ(j["matched_by"]["op_name"], 2);
  ASSERT_EQ(j["match_how"].size(), j["matches"].size());
  EXPECT_EQ(j["match_how"][0], "op_name");
  EXPECT_TRUE(j["unmatched_b"].empty());
}

TEST(CompareMatch, OpNameBeatsACoincidentName) {
  // B's add.1 came from A's add.7 (its op_name says so), not from A's add.1.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  add.1 = f32[4] add(p0, p1)
  add.7 = f32[4] add(p1, p1)
  n.1 = f32[4] negate(add.1)
  n.7 = f32[4] negate(add.7)
  ROOT t = (f32[4], f32[4]) tuple(n.1, n.7)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  add.1 = f32[4] add(p1, p1), metadata={op_name="add.7"}
  add.2 = f32[4] add(p0, p1), metadata={op_name="add.1"}
  negate.1 = f32[4] negate(add.2)
  negate.2 = f32[4] negate(add.1)
  ROOT t = (f32[4], f32[4]) tuple(negate.1, negate.2)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "add.1"), std::make_pair(std::string("add.2"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "add.7"), std::make_pair(std::string("add.1"), std::string("op_name")));
  EXPECT_EQ(r.matched_by.count("name"), 0u);
}

TEST(CompareMatch, SharedOpNameTiesBrokenByShape) {
  // JAX gives every op of one source line the same op_name: element count,
  // then exact dimensions, then operands tell them apart. (Broadcasts of a
  // vector: those of a scalar or a constant are matched through their users,
  // RematerializedLeafMatchedThroughItsUser.)
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  s = f32[8] parameter(0)
  x = f32[8] broadcast(s), dimensions={0}, metadata={op_name="jit(f)/broadcast_in_dim"}
  y = f32[4,8] broadcast(s), dimensions={1}, metadata={op_name="jit(f)/broadcast_in_dim"}
  z = f32[8,4] broadcast(s), dimensions={0}, metadata={op_name="jit(f)/broadcast_in_dim"}
  nx = f32[8] negate(x)
  ny = f32[4,8] negate(y)
  nz = f32[8,4] negate(z)
  ROOT t = (f32[8], f32[4,8], f32[8,4]) tuple(nx, ny, nz)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  s = f32[8] parameter(0)
  broadcast.2 = f32[8,4] broadcast(s), dimensions={0}, metadata={op_name="jit(f)/broadcast_in_dim"}
  broadcast.1 = f32[4,8] broadcast(s), dimensions={1}, metadata={op_name="jit(f)/broadcast_in_dim"}
  broadcast.0 = f32[8] broadcast(s), dimensions={0}, metadata={op_name="jit(f)/broadcast_in_dim"}
  negate.0 = f32[8] negate(broadcast.0)
  negate.1 = f32[4,8] negate(broadcast.1)
  negate.2 = f32[8,4] negate(broadcast.2)
  ROOT t = (f32[8], f32[4,8], f32[8,4]) tuple(negate.0, negate.1, negate.2)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "x"), std::make_pair(std::string("broadcast.0"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "y"), std::make_pair(std::string("broadcast.1"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "z"), std::make_pair(std::string("broadcast.2"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "ny"), std::make_pair(std::string("negate.1"), std::string("output")));
  EXPECT_TRUE(r.unmatched_b.empty());
}

TEST(CompareMatch, FusedContentsMatchedInsideLinkedFusions) {
  // B's fusion shares one known op with ours (its root, by op_name); its
  // other fused ops carry no metadata and another shape, and are matched by
  // opcode, element count and operands inside the linked fusions.
  auto a = Parse(R"hlo(
HloModule m
fa {
  p = f32[2,8] parameter(0)
  e = f32[2,8] exponential(p)
  n = f32[2,8] negate(p)
  ROOT m = f32[2,8] multiply(e, n)
}
ENTRY e {
  x = f32[2,8] parameter(0)
  ROOT f = f32[2,8] fusion(x), kind=kLoop, calls=fa
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fb {
  q = f32[16] parameter(0)
  exponential.3 = f32[16] exponential(q)
  negate.9 = f32[16] negate(q)
  ROOT multiply.1 = f32[16] multiply(negate.9, exponential.3), metadata={op_name="m"}
}
ENTRY e {
  x = f32[2,8] parameter(0)
  xb = f32[16] bitcast(x)
  fusion.7 = f32[16] fusion(xb), kind=kLoop, calls=fb
  ROOT r = f32[2,8] bitcast(fusion.7)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "m"), std::make_pair(std::string("multiply.1"), std::string("op_name")));
  EXPECT_EQ(MatchOf(r, "e"), std::make_pair(std::string("exponential.3"), std::string("fused_contents")));
  EXPECT_EQ(MatchOf(r, "n"), std::make_pair(std::string("negate.9"), std::string("fused_contents")));
  EXPECT_EQ(r.same_groups, 1);
}

TEST(CompareMatch, RematerializedLeafMatchedThroughItsUser) {
  // Fusion copies broadcasts of constants into every consumer, so their
  // names say nothing: B's broadcast.12 (1/32, under multiply.7) shares its
  // name with A's broadcast of 1e-5 in another kernel. Each is matched
  // through its user instead, and both of B's fusions are reproduced.
  auto a = Parse(R"hlo(
HloModule m
fa {
  p = f32[8] parameter(0)
  c = f32[] constant(0.03125)
  broadcast.1 = f32[8] broadcast(c), dimensions={}
  ROOT multiply.1 = f32[8] multiply(p, broadcast.1)
}
fb {
  p = f32[8] parameter(0)
  c = f32[] constant(1e-05)
  broadcast.12 = f32[8] broadcast(c), dimensions={}
  ROOT add.2 = f32[8] add(p, broadcast.12)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  fusion.30 = f32[8] fusion(x), kind=kLoop, calls=fa
  fusion.2 = f32[8] fusion(y), kind=kLoop, calls=fb
  ROOT t = (f32[8], f32[8]) tuple(fusion.30, fusion.2)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fused_multiply {
  param_0 = f32[8] parameter(0)
  constant_4 = f32[] constant(0.03125)
  broadcast.12 = f32[8] broadcast(constant_4), dimensions={}, metadata={scheduling_name="broadcast.12"}
  ROOT multiply.7 = f32[8] multiply(broadcast.12, param_0), metadata={op_name="multiply.1"}
}
fused_add {
  param_0 = f32[8] parameter(0)
  constant_11 = f32[] constant(1e-05)
  broadcast.3 = f32[8] broadcast(constant_11), dimensions={}, metadata={scheduling_name="broadcast.3"}
  ROOT add.5 = f32[8] add(param_0, broadcast.3), metadata={op_name="add.2"}
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  loop_multiply_fusion = f32[8] fusion(x), kind=kLoop, calls=fused_multiply
  loop_add_fusion = f32[8] fusion(y), kind=kLoop, calls=fused_add
  ROOT t = (f32[8], f32[8]) tuple(loop_multiply_fusion, loop_add_fusion)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "broadcast.1"), std::make_pair(std::string("broadcast.12"), std::string("user")));
  EXPECT_EQ(MatchOf(r, "broadcast.12"), std::make_pair(std::string("broadcast.3"), std::string("user")));
  EXPECT_EQ(r.matched_by.count("name"), 0u);
  EXPECT_EQ(r.matched_by["user"], 2);
  EXPECT_EQ(r.b.matched, r.b.ops);
  EXPECT_EQ(r.same_groups, 2);
  EXPECT_TRUE(r.fused_only_in_b.empty());
  EXPECT_TRUE(r.fused_only_in_a.empty());
}

// XLA-like: s copied into two loop fusions, the copies named apart and
// keeping op_name "s".
const char* kXlaCopiesOfS = R"hlo(
HloModule m
fused_sub {
  param_0 = f32[8] parameter(0)
  s.7.clone = f32[8] multiply(param_0, param_0), metadata={op_name="s"}
  ROOT sub.1 = f32[8] subtract(s.7.clone, param_0), metadata={op_name="q"}
}
fused_add {
  param_0 = f32[8] parameter(0)
  param_1 = f32[8] parameter(1)
  s.7 = f32[8] multiply(param_0, param_0), metadata={op_name="s"}
  ROOT add.1 = f32[8] add(s.7, param_1), metadata={op_name="r"}
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  loop_subtract_fusion = f32[8] fusion(x), kind=kLoop, calls=fused_sub
  loop_add_fusion = f32[8] fusion(x, y), kind=kLoop, calls=fused_add
  ROOT t = (f32[8], f32[8]) tuple(loop_add_fusion, loop_subtract_fusion)
})hlo";

TEST(CompareMatch, CopiesOfAnOpCountAsThatOpInEachKernel) {
  // Both sides copy s into two kernels; XLA names its copies apart (op_name
  // keeps the original), ours keep the name. However the matcher pairs the
  // copies, each fusion of B computes exactly the ops of one kernel of A.
  auto a = Parse(R"hlo(
HloModule m
fa {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  s = f32[8] multiply(p0, p0)
  ROOT r = f32[8] add(s, p1)
}
fb {
  p0 = f32[8] parameter(0)
  s = f32[8] multiply(p0, p0)
  ROOT q = f32[8] subtract(s, p0)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  fusion.1 = f32[8] fusion(x, y), kind=kLoop, calls=fa
  fusion.2 = f32[8] fusion(x), kind=kLoop, calls=fb
  ROOT t = (f32[8], f32[8]) tuple(fusion.1, fusion.2)
})hlo");
  auto b = Parse(kXlaCopiesOfS);
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.same_groups, 2) << CompareToText(r);
  EXPECT_TRUE(r.fused_only_in_b.empty()) << CompareToText(r);
  EXPECT_TRUE(r.fused_only_in_a.empty()) << CompareToText(r);
}

TEST(CompareMatch, CopiesDoNotHideAnOpAKernelLacks) {
  // No change: B's loop_add_fusion computes s and r, A computes r without s
  // (s stays its own kernel): not alike, even though A copies s elsewhere.
  auto a = Parse(R"hlo(
HloModule m
fa {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  ROOT r = f32[8] add(p0, p1)
}
fb {
  p0 = f32[8] parameter(0)
  s = f32[8] multiply(p0, p0)
  ROOT q = f32[8] subtract(s, p0)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  s = f32[8] multiply(x, x)
  fusion.1 = f32[8] fusion(s, y), kind=kLoop, calls=fa
  fusion.2 = f32[8] fusion(x), kind=kLoop, calls=fb
  ROOT t = (f32[8], f32[8]) tuple(fusion.1, fusion.2)
})hlo");
  auto b = Parse(kXlaCopiesOfS);
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.same_groups, 1) << CompareToText(r);
  ASSERT_EQ(r.fused_only_in_b.size(), 1u) << CompareToText(r);
  EXPECT_EQ(r.fused_only_in_b[0].fusion, "loop_add_fusion");
}

TEST(CompareMatch, AnOpNameManyOpsShareLinksNothing) {
  // B's one kernel computes what A splits into two; its three adds share
  // JAX's path op_name "jit(f)/add", which is no op of A and which three ops
  // of one kernel carry: it must not make them one op (and B's kernel alike
  // either of A's).
  auto a = Parse(R"hlo(
HloModule m
fa {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  r1 = f32[8] add(x, y)
  ROOT r2 = f32[8] add(r1, x)
}
fb {
  x = f32[8] parameter(0)
  ROOT r3 = f32[8] add(x, x)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  fusion.1 = f32[8] fusion(x, y), kind=kLoop, calls=fa
  fusion.2 = f32[8] fusion(fusion.1), kind=kLoop, calls=fb
  ROOT t = (f32[8], f32[8]) tuple(fusion.1, fusion.2)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fused {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  r1.1 = f32[8] add(x, y), metadata={op_name="jit(f)/add"}
  r2.1 = f32[8] add(r1.1, x), metadata={op_name="jit(f)/add"}
  r3.1 = f32[8] add(r2.1, r2.1), metadata={op_name="jit(f)/add"}
  ROOT t = (f32[8], f32[8]) tuple(r2.1, r3.1)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  ROOT loop_add_fusion = (f32[8], f32[8]) fusion(x, y), kind=kLoop, calls=fused
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.same_groups, 0) << CompareToText(r);
}

TEST(CompareMatch, RematerializedLeafWithoutMisleadingNameUnchanged) {
  // No change: the same module on both sides. The leaves (a broadcast of a
  // constant, an iota) pair as their names would have, through their users;
  // the broadcast of a vector is no leaf and still pairs by name.
  const char* text = R"hlo(
HloModule m
f {
  p = f32[4,8] parameter(0)
  v = f32[8] parameter(1)
  c = f32[] constant(2)
  two = f32[4,8] broadcast(c), dimensions={}
  iota.1 = f32[4,8] iota(), iota_dimension=1
  rows = f32[4,8] broadcast(v), dimensions={1}
  m = f32[4,8] multiply(p, two)
  s = f32[4,8] add(m, iota.1)
  ROOT d = f32[4,8] subtract(s, rows)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  y = f32[8] parameter(1)
  ROOT fusion = f32[4,8] fusion(x, y), kind=kLoop, calls=f
})hlo";
  auto a = Parse(text);
  auto b = Parse(text);
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  for (const char* n : {"two", "iota.1", "rows", "m", "s", "d"}) EXPECT_EQ(MatchOf(r, n).first, n);
  EXPECT_EQ(MatchOf(r, "two").second, "user");
  EXPECT_EQ(MatchOf(r, "iota.1").second, "user");
  EXPECT_EQ(MatchOf(r, "rows").second, "name");
  EXPECT_EQ(r.b.matched, r.b.ops);
  EXPECT_EQ(r.same_groups, 1);
}

TEST(CompareMatch, DivisionMatchesTheMultiplicationByItsReciprocal) {
  // XLA's algsimp writes x / 768 as x * (1/768) and keeps op_name "div.2";
  // ours keeps the division. A division by 3 is no match for x * (1/768),
  // whatever its op_name says.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  c = f32[] constant(768)
  cb = f32[8] broadcast(c), dimensions={}
  div.2 = f32[8] divide(p, cb)
  k = f32[] constant(3)
  kb = f32[8] broadcast(k), dimensions={}
  div.3 = f32[8] divide(p, kb)
  add.1 = f32[8] add(div.3, p)
  add.0 = f32[8] add(div.2, p)
  ROOT t = (f32[8], f32[8]) tuple(add.0, add.1)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  p = f32[8] parameter(0)
  c = f32[] constant(0.00130208337)
  cb = f32[8] broadcast(c), dimensions={}
  multiply.13 = f32[8] multiply(p, cb), metadata={op_name="div.2"}
  k = f32[] constant(0.00130208337)
  kb = f32[8] broadcast(k), dimensions={}
  multiply.14 = f32[8] multiply(p, kb), metadata={op_name="div.3"}
  add.1 = f32[8] add(multiply.14, p)
  add.0 = f32[8] add(multiply.13, p)
  ROOT t = (f32[8], f32[8]) tuple(add.0, add.1)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "div.2").first, "multiply.13");
  EXPECT_NE(MatchOf(r, "div.3").first, "multiply.14");
}

TEST(CompareMatch, Bf16DivisionMatchesItsRoundedReciprocal) {
  // In bf16 XLA's 1/768 rounds to 0.00130462646 (c · d = 1.0019): still the
  // same division, matched within bf16's rounding.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  p = bf16[8] parameter(0)
  c = bf16[] constant(768)
  cb = bf16[8] broadcast(c), dimensions={}
  div.2 = bf16[8] divide(p, cb)
  ROOT add.0 = bf16[8] add(div.2, p)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  p = bf16[8] parameter(0)
  c = bf16[] constant(0.00130462646)
  cb = bf16[8] broadcast(c), dimensions={}
  multiply.13 = bf16[8] multiply(p, cb), metadata={op_name="div.2"}
  ROOT add.0 = bf16[8] add(multiply.13, p)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "div.2").first, "multiply.13");
}

TEST(CompareMatch, AnOpNameNamingAnotherOpOutweighsTheSameOwnName) {
  // XLA GPU renamed our rsqrt.5 to rsqrt.10 (op_name keeps "rsqrt.5");
  // our passes named an unrelated op rsqrt.10. The names agree by
  // coincidence: B's rsqrt.10 is A's rsqrt.5 (copied into two fusions on
  // our side, so op_name alone cannot pick one).
  auto a = Parse(R"hlo(
HloModule m
f1 {
  p = f32[8] parameter(0)
  rsqrt.5 = f32[8] rsqrt(p)
  ROOT m1 = f32[8] multiply(rsqrt.5, p)
}
f2 {
  p = f32[8] parameter(0)
  rsqrt.5 = f32[8] rsqrt(p)
  ROOT m2 = f32[8] add(rsqrt.5, p)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  a1 = f32[8] fusion(x), kind=kLoop, calls=f1
  a2 = f32[8] fusion(x), kind=kLoop, calls=f2
  rsqrt.10 = f32[8] rsqrt(y)
  ROOT t = (f32[8], f32[8], f32[8]) tuple(a1, a2, rsqrt.10)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
g1 {
  p = f32[8] parameter(0)
  rsqrt.10 = f32[8] rsqrt(p), metadata={op_name="rsqrt.5"}
  ROOT m1 = f32[8] multiply(rsqrt.10, p), metadata={op_name="m1"}
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  b1 = f32[8] fusion(x), kind=kLoop, calls=g1
  s = f32[8] sqrt(y), metadata={op_name="s"}
  ROOT t = (f32[8], f32[8]) tuple(b1, s)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_NE(MatchOf(r, "rsqrt.10").first, "rsqrt.10") << MatchOf(r, "rsqrt.10").second;
  bool copy_matched = false;
  for (size_t k = 0; k < r.matches.size(); ++k)
    copy_matched |= r.matches[k].first == "rsqrt.5" && r.matches[k].second == "rsqrt.10";
  EXPECT_TRUE(copy_matched);
}

TEST(CompareMatch, ConvolutionMatchesXlaGpusCudnnCall) {
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  x = f32[1,6,6,2] parameter(0)
  w = f32[3,3,2,4] parameter(1)
  ROOT conv.1 = f32[1,4,4,4] convolution(x, w), window={size=3x3}, dim_labels=b01f_01io->b01f
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  x = f32[1,6,6,2] parameter(0)
  w = f32[3,3,2,4] parameter(1)
  t = f32[4,3,3,2] transpose(w), dimensions={3,0,1,2}
  cudnn-conv.3 = (f32[1,4,4,4], u8[0]) custom-call(x, t), window={size=3x3}, dim_labels=b01f_o01i->b01f, custom_call_target="__cudnn$convForward", metadata={op_name="conv.1"}
  ROOT g = f32[1,4,4,4] get-tuple-element(cudnn-conv.3), index=0
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "conv.1").first, "cudnn-conv.3");
}

TEST(CompareMatch, AsyncWrappedFusionIsTheKernelItWraps) {
  // XLA GPU runs scan_rnn's dynamic slices asynchronously: async-start
  // wraps a computation holding the dynamic-slice fusion, async-done gives
  // its value. The wrapped fusion is matched as our fusion, its value flows
  // on through the async-done.
  auto a = Parse(R"hlo(
HloModule m
fds {
  p0 = f32[6,4] parameter(0)
  p1 = s32[] parameter(1)
  z = s32[] constant(0)
  ROOT dynamic_slice.2 = f32[1,4] dynamic-slice(p0, p1, z), dynamic_slice_sizes={1,4}
}
ENTRY e {
  x = f32[6,4] parameter(0)
  i = s32[] parameter(1)
  fusion.5 = f32[1,4] fusion(x, i), kind=kLoop, calls=fds
  tanh.1 = f32[1,4] tanh(fusion.5)
  ROOT n = f32[1,4] negate(tanh.1)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fds {
  p0 = f32[6,4] parameter(0)
  p1 = s32[] parameter(1)
  z = s32[] constant(0)
  ROOT dynamic_slice.0.2 = f32[1,4] dynamic-slice(p0, p1, z), dynamic_slice_sizes={1,4}, metadata={op_name="dynamic_slice.2"}
}
wrapped {
  q0 = f32[6,4] parameter(0)
  q1 = s32[] parameter(1)
  ROOT loop_dynamic_slice_fusion = f32[1,4] fusion(q0, q1), kind=kLoop, calls=fds
}
ENTRY e {
  x = f32[6,4] parameter(0)
  i = s32[] parameter(1)
  fusion-start = ((f32[6,4], s32[]), f32[1,4], u32[]) async-start(x, i), calls=wrapped
  fusion-done = f32[1,4] async-done(fusion-start)
  tanh.0 = f32[1,4] tanh(fusion-done), metadata={op_name="tanh.1"}
  ROOT n = f32[1,4] negate(tanh.0)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "dynamic_slice.2").first, "dynamic_slice.0.2");
  EXPECT_EQ(MatchOf(r, "tanh.1").first, "tanh.0");
  EXPECT_EQ(r.b.matched, r.b.ops);
  EXPECT_EQ(r.same_groups, 1);
  for (const std::string& u : r.unmatched_b) EXPECT_NE(u.rfind("fusion-", 0), 0u) << u;
}

TEST(CompareMatch, UnrelatedModulesMatchNothing) {
  // Other shapes, other ops; B's op_name and scheduling_name name A's
  // instructions, but those compute something else.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  add.1 = f32[4] add(p, p)
  ROOT sub.2 = f32[4] subtract(add.1, p)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  p = f32[6] parameter(0)
  add.1 = f32[6] add(p, p), metadata={op_name="sub.2"}
  ROOT log.3 = f32[6] log(add.1), metadata={scheduling_name="add.1"}
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.a.matched, 0);
  EXPECT_EQ(r.b.matched, 0);
  EXPECT_TRUE(r.matched_by.empty());
  EXPECT_TRUE(r.matches.empty());
  EXPECT_EQ(r.unmatched_a, (std::vector<std::string>{"add.1", "sub.2"}));
  EXPECT_EQ(r.unmatched_b, (std::vector<std::string>{"add.1", "log.3"}));
}

TEST(CompareMatch, AnOpNameNamingAnotherOpOutweighsASharedName) {
  // XLA GPU's multiply.51 was made from div.230 (op_name), which our
  // algsimp rewrote into multiply.40; our own multiply.51 is another op.
  // The shared name is a coincidence of numbering: each pairs with the op
  // it computes.
  auto a = Parse(R"hlo(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  c = f32[] constant(0.125)
  b = f32[8] broadcast(c), dimensions={}
  multiply.40 = f32[8] multiply(x, b)
  multiply.51 = f32[8] multiply(y, y)
  ROOT t = (f32[8], f32[8]) tuple(multiply.40, multiply.51)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  c = f32[] constant(0.125)
  b = f32[8] broadcast(c), dimensions={}
  multiply.51 = f32[8] multiply(x, b), metadata={op_name="div.230"}
  multiply.7 = f32[8] multiply(y, y), metadata={op_name="multiply.51"}
  ROOT t = (f32[8], f32[8]) tuple(multiply.51, multiply.7)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(MatchOf(r, "multiply.51").first, "multiply.7") << CompareToText(r);
  EXPECT_EQ(MatchOf(r, "multiply.40").first, "multiply.51") << CompareToText(r);
}

TEST(CompareMatch, BroadcastsAreKnownByWhatTheyBroadcast) {
  // XLA GPU made its broadcasts without an op_name, and broadcast.9 there
  // broadcasts v where our broadcast.9 broadcasts w: each kernel still
  // computes the same ops on both sides, a broadcast being known by what it
  // broadcasts (an entry parameter here) and how.
  auto a = Parse(R"hlo(
HloModule m
fm {
  p0 = f32[2,8] parameter(0)
  p1 = f32[8] parameter(1)
  bv = f32[2,8] broadcast(p1), dimensions={1}
  ROOT m = f32[2,8] multiply(p0, bv)
}
fn {
  p0 = f32[2,8] parameter(0)
  p1 = f32[8] parameter(1)
  broadcast.9 = f32[2,8] broadcast(p1), dimensions={1}
  ROOT n = f32[2,8] add(p0, broadcast.9)
}
ENTRY e {
  x = f32[2,8] parameter(0)
  v = f32[8] parameter(1)
  w = f32[8] parameter(2)
  fusion.1 = f32[2,8] fusion(x, v), kind=kLoop, calls=fm
  fusion.2 = f32[2,8] fusion(x, w), kind=kLoop, calls=fn
  ROOT t = (f32[2,8], f32[2,8]) tuple(fusion.1, fusion.2)
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fused_multiply {
  param_0 = f32[2,8] parameter(0)
  param_1 = f32[8] parameter(1)
  broadcast.9 = f32[2,8] broadcast(param_1), dimensions={1}
  ROOT m.1 = f32[2,8] multiply(param_0, broadcast.9), metadata={op_name="m"}
}
fused_add {
  param_0 = f32[2,8] parameter(0)
  param_1 = f32[8] parameter(1)
  broadcast.3 = f32[2,8] broadcast(param_1), dimensions={1}
  ROOT n.1 = f32[2,8] add(param_0, broadcast.3), metadata={op_name="n"}
}
ENTRY e {
  x = f32[2,8] parameter(0)
  v = f32[8] parameter(1)
  w = f32[8] parameter(2)
  loop_multiply_fusion = f32[2,8] fusion(x, v), kind=kLoop, calls=fused_multiply
  loop_add_fusion = f32[2,8] fusion(x, w), kind=kLoop, calls=fused_add
  ROOT t = (f32[2,8], f32[2,8]) tuple(loop_multiply_fusion, loop_add_fusion)
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.same_groups, 2) << CompareToText(r);
  ASSERT_EQ(r.same_fusions.size(), 2u);
  EXPECT_EQ(r.same_fusions[0], std::make_pair(std::string("loop_add_fusion"), std::string("fusion.2")));
  EXPECT_EQ(r.same_fusions[1], std::make_pair(std::string("loop_multiply_fusion"), std::string("fusion.1")));
  EXPECT_TRUE(r.differing_b.empty()) << CompareToText(r);
}

TEST(CompareMatch, AFusionComputedDifferentlyIsListedWithItsNearestKernel) {
  // No change: B's fusion computes s and r, A computes r alone; differing_b
  // names A's kernel and the op only B's fusion computes.
  auto a = Parse(R"hlo(
HloModule m
fa {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  ROOT r = f32[8] add(p0, p1)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  s = f32[8] multiply(x, x)
  ROOT fusion.1 = f32[8] fusion(s, y), kind=kLoop, calls=fa
})hlo");
  auto b = Parse(R"hlo(
HloModule m
fused_add {
  param_0 = f32[8] parameter(0)
  param_1 = f32[8] parameter(1)
  s.1 = f32[8] multiply(param_0, param_0), metadata={op_name="s"}
  ROOT r.1 = f32[8] add(s.1, param_1), metadata={op_name="r"}
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  ROOT loop_add_fusion = f32[8] fusion(x, y), kind=kLoop, calls=fused_add
})hlo");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.same_groups, 0) << CompareToText(r);
  ASSERT_EQ(r.differing_b.size(), 1u) << CompareToText(r);
  EXPECT_EQ(r.differing_b[0].fusion, "loop_add_fusion");
  EXPECT_EQ(r.differing_b[0].nearest, "fusion.1");
  EXPECT_EQ(r.differing_b[0].only_in_b, std::vector<std::string>{"s.1"});
  EXPECT_TRUE(r.differing_b[0].only_in_a.empty());
  EXPECT_NE(CompareToText(r).find("  loop_add_fusion ~ fusion.1; only B's: {s.1}\n"), std::string::npos)
      << CompareToText(r);
}

}  // namespace
}  // namespace hloscope::report
