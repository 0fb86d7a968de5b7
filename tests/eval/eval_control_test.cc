// Control flow, calls, fusion, tuples, EvaluateInstruction, and the errors
// for what the interpreter does not evaluate.
#include "core/ir/computation.h"
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

TEST(EvalControl, WhileCountsAndAccumulates) {
  const char* hlo = R"(HloModule t
cond {
  p = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(5)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  two = f32[] constant(2)
  y = f32[] multiply(x, two)
  ROOT t = (s32[], f32[]) tuple(j, y)
}
ENTRY e {
  z = s32[] constant(0)
  x = f32[] parameter(0)
  t = (s32[], f32[]) tuple(z, x)
  ROOT w = (s32[], f32[]) while(t), condition=cond, body=body
})";
  Literal r = MustRun(hlo, {Lit("f32[]", {3})});
  EXPECT_EQ(Ints(r.tuple_elements()[0]), (std::vector<int64_t>{5}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{96}));
}

TEST(EvalControl, WhileIterationLimit) {
  const char* hlo = R"(HloModule t
cond {
  p = s32[] parameter(0)
  ROOT c = pred[] constant(true)
}
body {
  ROOT p = s32[] parameter(0)
}
ENTRY e {
  z = s32[] constant(0)
  ROOT w = s32[] while(z), condition=cond, body=body
})";
  EvalOptions opts;
  opts.max_while_iterations = 100;
  auto r = RunHlo(hlo, {}, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("max_while_iterations"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("%w"), std::string::npos);
}

TEST(EvalControl, ConditionalPredAndIndex) {
  const char* hlo = R"(HloModule t
neg {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
dbl {
  p = f32[] parameter(0)
  ROOT d = f32[] add(p, p)
}
ENTRY e {
  b = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT c = f32[] conditional(b, x, x), branch_computations={neg, dbl}
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("s32[]", {0}), Lit("f32[]", {3})})), (std::vector<double>{-3}));
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("s32[]", {1}), Lit("f32[]", {3})})), (std::vector<double>{6}));
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("s32[]", {-4}), Lit("f32[]", {3})})), (std::vector<double>{6}));  // out of range: last
  const char* pred = R"(HloModule t
neg {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
id {
  ROOT p = f32[] parameter(0)
}
ENTRY e {
  b = pred[] parameter(0)
  x = f32[] parameter(1)
  ROOT c = f32[] conditional(b, x, x), true_computation=neg, false_computation=id
})";
  EXPECT_EQ(Vals(MustRun(pred, {Lit("pred[]", {1}), Lit("f32[]", {3})})), (std::vector<double>{-3}));
  EXPECT_EQ(Vals(MustRun(pred, {Lit("pred[]", {0}), Lit("f32[]", {3})})), (std::vector<double>{3}));
}

TEST(EvalControl, CallFusionMapTuple) {
  const char* hlo = R"(HloModule t
f {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT m = f32[2] multiply(a, b)
}
sq {
  x = f32[] parameter(0)
  ROOT y = f32[] multiply(x, x)
}
ENTRY e {
  a = f32[2] parameter(0)
  c = f32[2] call(a, a), to_apply=f
  u = f32[2] fusion(c, a), kind=kLoop, calls=f
  m = f32[2] map(u), dimensions={0}, to_apply=sq
  t = (f32[2], f32[2]) tuple(c, m)
  ROOT g = f32[2] get-tuple-element(t), index=1
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[2]", {2, 3})})), (std::vector<double>{64, 729}));
}

TEST(EvalControl, OptimizationBarrierPassesValues) {
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  t = (f32[2]) tuple(a)
  b = (f32[2]) opt-barrier(t)
  ROOT g = f32[2] get-tuple-element(b), index=0
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[2]", {1, 2})})), (std::vector<double>{1, 2}));
}

// A collective across several devices is refused before any work, wherever
// it stands (the codegen and run commands ask before drawing inputs), and
// the refusal names it at its line; one over this device alone is fine.
TEST(EvalControl, AModuleWithACollectiveAcrossDevicesIsRefusedUpFront) {
  const std::string add = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";
  auto late = ParseHloModule("HloModule t\n" + add + "ENTRY e {\n  a = f32[2] parameter(0)\n"
                             "  e1 = f32[2] exponential(a)\n"
                             "  ROOT c = f32[2] all-reduce(e1), replica_groups={{0,1}}, to_apply=add\n}", "late.hlo");
  ASSERT_TRUE(late.ok()) << late.status().message();
  Status s = ModuleEvaluable(**late);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("10:8: error: cannot evaluate %c (all-reduce)"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("several devices"), std::string::npos) << s.message();
  auto one = ParseHloModule("HloModule t\n" + add + "ENTRY e {\n  a = f32[2] parameter(0)\n"
                            "  ROOT c = f32[2] all-reduce(a), replica_groups={}, to_apply=add\n}", "one.hlo");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(ModuleEvaluable(**one).ok());
}

TEST(EvalControl, UnsupportedOpsSaySo) {
  auto r = RunHlo(R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  ROOT c = f32[2] custom-call(a), custom_call_target="my_kernel"
})", {Lit("f32[2]", {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("custom-call"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("my_kernel"), std::string::npos);
  EXPECT_NE(r.status().message().find("%c"), std::string::npos);
  EXPECT_NE(r.status().message().find("4:8: error: cannot evaluate %c"), std::string::npos) << r.status().message();

  // A collective over several devices has no value on one; over one
  // device (no groups in a module of one) it is its operand.
  const std::string add = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";
  auto one = RunHlo("HloModule t\n" + add + "ENTRY e {\n  a = f32[2] parameter(0)\n"
                    "  ROOT c = f32[2] all-reduce(a), replica_groups={}, to_apply=add\n}", {Lit("f32[2]", {1, 2})});
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->GetDouble(1), 2.0);
  auto ar = RunHlo("HloModule t\n" + add + "ENTRY e {\n  a = f32[2] parameter(0)\n"
                   "  ROOT c = f32[2] all-reduce(a), replica_groups={{0,1}}, to_apply=add\n}", {Lit("f32[2]", {1, 2})});
  ASSERT_FALSE(ar.ok());
  EXPECT_NE(ar.status().message().find("all-reduce"), std::string::npos) << ar.status().message();
  EXPECT_NE(ar.status().message().find("not supported"), std::string::npos);

  auto inf = RunHlo(R"(HloModule t
ENTRY e {
  tok = token[] after-all()
  ROOT i = ((f32[2]), token[]) infeed(tok)
})");
  ASSERT_FALSE(inf.ok());
  EXPECT_NE(inf.status().message().find("infeed"), std::string::npos) << inf.status().message();

  // rng itself is evaluated (eval_rng_state_test.cc); types XLA's rng
  // expansion does not take are refused.
  auto rng = RunHlo(R"(HloModule t
ENTRY e {
  a = s8[] constant(0)
  b = s8[] constant(1)
  ROOT r = s8[3] rng(a, b), distribution=rng_uniform
})");
  ASSERT_FALSE(rng.ok());
  EXPECT_NE(rng.status().message().find("rng"), std::string::npos) << rng.status().message();
}

TEST(EvalControl, ElidedConstantIsAnError) {
  auto r = RunHlo("HloModule t\nENTRY e {\n  ROOT c = f32[3] constant({...})\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("elided"), std::string::npos) << r.status().message();
}

TEST(EvalControl, ArgumentChecks) {
  auto r = RunHlo("HloModule t\nENTRY e {\n  ROOT a = f32[2] parameter(0)\n}\n", {Lit("f32[3]", {1, 2, 3})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("argument 0"), std::string::npos) << r.status().message();
  auto n = RunHlo("HloModule t\nENTRY e {\n  ROOT a = f32[2] parameter(0)\n}\n", {});
  ASSERT_FALSE(n.ok());
}

TEST(EvalControl, EvaluateInstructionForConstantFolding) {
  auto m = ParseHloModule(R"(HloModule t
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=add
})");
  ASSERT_TRUE(m.ok());
  const Instruction* root = (*m)->entry()->root();
  Literal a = Lit("f32[3]", {1, 2, 3});
  Literal z = Lit("f32[]", {10});
  auto r = EvaluateInstruction(*root, {&a, &z});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Vals(*r), (std::vector<double>{16}));
}

TEST(EvalControl, RootMayBeAParameterOrTuple) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[1] parameter(0)
  b = s32[] parameter(1)
  tb = (s32[]) tuple(b)
  ROOT t = (f32[1], (s32[])) tuple(a, tb)
})", {Lit("f32[1]", {1}), Lit("s32[]", {2})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(Ints(r.tuple_elements()[1].tuple_elements()[0]), (std::vector<int64_t>{2}));
}

// scan, XLA's op (JAX 0.12 writes it for cumsum on GPUs), with a combiner
// that is not associative, so the order shows: c' = 2c + x, output c'.
// [1, 2, 3] from 0: 1, 4, 11, carry 11; reversed: 3, 8, 17 at positions
// 2, 1, 0, carry 17. Rows scan independently along dimension 1.
TEST(EvalControl, ScanCarriesInOrderAndInReverse) {
  auto hlo = [](bool reverse) {
    return std::string(R"(HloModule t
step {
  x = f32[2]{0} parameter(0)
  c = f32[2]{0} parameter(1)
  two = f32[] constant(2)
  twos = f32[2]{0} broadcast(two), dimensions={}
  d = f32[2]{0} multiply(c, twos)
  n = f32[2]{0} add(d, x)
  ROOT t = (f32[2]{0}, f32[2]{0}) tuple(n, n)
}
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  z = f32[] constant(0)
  init = f32[2]{0} broadcast(z), dimensions={}
  ROOT s = (f32[2,3]{1,0}, f32[2]{0}) scan(a, init), dimensions={1}, num_carries=1)") +
           (reverse ? ", is_reverse=true" : "") + R"(, to_apply=step
})";
  };
  Literal f = MustRun(hlo(false), {Lit("f32[2,3]", {1, 2, 3, 0, 1, 0})});
  ASSERT_TRUE(f.IsTuple());
  EXPECT_EQ(Vals(f.tuple_elements()[0]), (std::vector<double>{1, 4, 11, 0, 1, 2}));
  EXPECT_EQ(Vals(f.tuple_elements()[1]), (std::vector<double>{11, 2}));
  Literal r = MustRun(hlo(true), {Lit("f32[2,3]", {1, 2, 3, 0, 1, 0})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{17, 8, 3, 2, 1, 0}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{17, 2}));
}

}  // namespace
}  // namespace hloscope::testing
