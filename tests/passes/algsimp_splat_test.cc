// algsimp identities with a constant operand, each on the three forms of
// "every element is v" that XLA's IsAll accepts — a scalar constant, a
// broadcast of a scalar constant, an array constant whose elements are all
// equal (a splat) — and a no-change case for each form (the constant is a
// different value, or an array that is not a splat). No form may leave an
// array constant with equal elements behind: results that are "all v" are
// broadcast(scalar constant), as in XLA.
#include <sstream>

#include "core/passes/rewrite_helpers.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

enum class Expect {
  kX,        // the root is the non-constant operand, parameter p
  kValue,    // every element of the root is `value` (a scalar or a broadcast)
  kNegate,   // negate(p)
  kOpOfX,    // `op`(p, ...)
};

struct Identity {
  const char* rule;
  const char* type;      // element type of p and the constant
  const char* op;        // the binary op
  const char* v;         // the identity's constant
  const char* w;         // a value for which the rule must not apply
  bool constant_left;    // op(c, p) instead of op(p, c)
  Expect expect;
  const char* value = "";   // kValue: the root's value, as the constant prints it
  const char* result = "";  // kOpOfX: the root's opcode
  // pred has two values and each is some identity's constant: only the
  // mixed array is a no-change case.
  bool only_mixed_no_change = false;
};

enum class Form { kScalar, kBroadcast, kSplat };

const char* FormName(Form f) {
  switch (f) {
    case Form::kScalar: return "scalar";
    case Form::kBroadcast: return "broadcast";
    case Form::kSplat: return "splat";
  }
  return "";
}

// op(p, c) where c is `v` in form `f`; `array_of` replaces the splat
// `{v, v, v, v}` by an arbitrary array literal (for the no-change case).
std::string Build(const Identity& id, Form f, const std::string& v, const std::string& array_of = "") {
  const std::string t = id.type;
  const std::string shape = f == Form::kScalar ? t + "[]" : t + "[4]";
  std::ostringstream s;
  s << "  p = " << shape << " parameter(0)\n";
  switch (f) {
    case Form::kScalar:
      s << "  c = " << shape << " constant(" << v << ")\n";
      break;
    case Form::kBroadcast:
      s << "  s = " << t << "[] constant(" << v << ")\n";
      s << "  c = " << shape << " broadcast(s), dimensions={}\n";
      break;
    case Form::kSplat:
      s << "  c = " << shape << " constant("
        << (array_of.empty() ? "{" + v + ", " + v + ", " + v + ", " + v + "}" : array_of) << ")\n";
      break;
  }
  s << "  ROOT r = " << shape << " " << id.op << (id.constant_left ? "(c, p)" : "(p, c)");
  return Module1(s.str());
}

// No array constant with more than one element and all elements equal.
void ExpectNoSplatConstants(const Module& m) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      const Literal* l = KnownLiteral(i.get());
      if (l && l->num_elements() > 1) {
        EXPECT_FALSE(AllElementsEqual(*l)) << "splat constant left: " << PrintInstruction(*i);
      }
    }
}

void CheckIdentity(const Identity& id, Form f) {
  SCOPED_TRACE(std::string(id.rule) + " on the " + FormName(f) + " form");
  PassRun r = RunPass("algsimp", Build(id, f, id.v));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.Applied(id.rule)) << ::testing::PrintToString(r.rules);
  const Instruction* root = r.root();
  switch (id.expect) {
    case Expect::kX:
      EXPECT_EQ(root->name(), "p") << r.text();
      break;
    case Expect::kValue: {
      std::optional<Literal> value = SplatScalar(root);
      ASSERT_TRUE(value) << r.text();
      EXPECT_EQ(value->ToString(), id.value) << r.text();
      EXPECT_TRUE(root->opcode() == Opcode::kBroadcast || root->shape().rank() == 0) << r.text();
      break;
    }
    case Expect::kNegate:
      EXPECT_EQ(root->opcode(), Opcode::kNegate) << r.text();
      EXPECT_EQ(root->operand(0)->name(), "p") << r.text();
      break;
    case Expect::kOpOfX:
      EXPECT_EQ(OpcodeName(root->opcode()), std::string(id.result)) << r.text();
      EXPECT_EQ(root->operand(0)->name(), "p") << r.text();
      break;
  }
  ExpectNoSplatConstants(*r.module);
}

// The rule does not apply: the constant is `w` (scalar and broadcast
// forms) or the array {v, w, v, v} (elements not all equal).
void CheckNoChangeForms(const Identity& id) {
  SCOPED_TRACE(id.rule);
  if (!id.only_mixed_no_change) {
    CheckNoChange(Build(id, Form::kScalar, id.w));
    CheckNoChange(Build(id, Form::kBroadcast, id.w));
  }
  const std::string v = id.v, w = id.w;
  CheckNoChange(Build(id, Form::kSplat, v, "{" + v + ", " + w + ", " + v + ", " + v + "}"));
}

const Identity kIdentities[] = {
    {"x + 0 → x", "s32", "add", "0", "1", false, Expect::kX},
    {"0 + x → x", "s32", "add", "0", "1", true, Expect::kX},
    // Floats: a zero of either sign, as XLA's A + 0 → A and A - 0 → A (the
    // sign of a zero result aside: -0 + +0 is +0).
    {"x + 0 → x", "f32", "add", "-0", "1", false, Expect::kX},
    {"0 + x → x", "f32", "add", "-0", "1", true, Expect::kX},
    {"x + 0 → x", "f32", "add", "0", "1", false, Expect::kX},
    {"0 + x → x", "f32", "add", "0", "1", true, Expect::kX},
    {"x - 0 → x", "f32", "subtract", "0", "1", false, Expect::kX},
    {"x - 0 → x", "f32", "subtract", "-0", "1", false, Expect::kX},
    {"x - 0 → x", "s32", "subtract", "0", "1", false, Expect::kX},
    {"0 - x → negate(x)", "s32", "subtract", "0", "1", true, Expect::kNegate},
    {"x * 1 → x", "f32", "multiply", "1", "2", false, Expect::kX},
    {"1 * x → x", "f32", "multiply", "1", "2", true, Expect::kX},
    {"x * 1 → x", "s32", "multiply", "1", "2", false, Expect::kX},
    // x * 0 only for integers (floats: NaN * 0 and inf * 0 are NaN, as XLA).
    {"x * 0 → 0 (integers)", "s32", "multiply", "0", "2", false, Expect::kValue, "0"},
    {"0 * x → 0 (integers)", "s32", "multiply", "0", "2", true, Expect::kValue, "0"},
    {"x * -1 → negate(x)", "f32", "multiply", "-1", "2", false, Expect::kNegate},
    {"-1 * x → negate(x)", "s32", "multiply", "-1", "2", true, Expect::kNegate},
    {"x / 1 → x", "f32", "divide", "1", "3", false, Expect::kX},
    {"x / 1 → x", "s32", "divide", "1", "3", false, Expect::kX},
    {"x / 2^k → x * 2^-k", "f32", "divide", "4", "3", false, Expect::kOpOfX, "", "multiply"},
    {"x / 2^k → x >> k (unsigned)", "u32", "divide", "8", "3", false, Expect::kOpOfX, "", "shift-right-logical"},
    {"max(x, lowest) → x (integers)", "s32", "maximum", "-2147483648", "0", false, Expect::kX},
    {"max(lowest, x) → x (integers)", "s32", "maximum", "-2147483648", "0", true, Expect::kX},
    {"max(x, lowest) → x (integers)", "u8", "maximum", "0", "1", false, Expect::kX},
    {"min(x, highest) → x (integers)", "u8", "minimum", "255", "254", false, Expect::kX},
    {"min(highest, x) → x (integers)", "s32", "minimum", "2147483647", "0", true, Expect::kX},
    // Floats: exact, as max/min propagate NaN; the largest finite value is the no-change case.
    {"max(x, -inf) → x (floats)", "f32", "maximum", "-inf", "-3.40282347e+38", false, Expect::kX},
    {"max(-inf, x) → x (floats)", "bf16", "maximum", "-inf", "0", true, Expect::kX},
    {"min(x, +inf) → x (floats)", "f32", "minimum", "inf", "3.40282347e+38", false, Expect::kX},
    {"min(+inf, x) → x (floats)", "f16", "minimum", "inf", "1", true, Expect::kX},
    {"and(x, all ones) → x", "s32", "and", "-1", "2", false, Expect::kX},
    {"and(all ones, x) → x", "s32", "and", "-1", "2", true, Expect::kX},
    {"and(x, all ones) → x", "pred", "and", "true", "false", false, Expect::kX, "", "", true},
    {"and(x, 0) → 0", "s32", "and", "0", "2", false, Expect::kValue, "0"},
    {"and(x, 0) → 0", "pred", "and", "false", "true", true, Expect::kValue, "false", "", true},
    {"or(x, 0) → x", "s32", "or", "0", "2", false, Expect::kX},
    {"or(0, x) → x", "s32", "or", "0", "2", true, Expect::kX},
    {"or(x, 0) → x", "pred", "or", "false", "true", false, Expect::kX, "", "", true},
    {"or(x, all ones) → all ones", "s32", "or", "-1", "2", false, Expect::kValue, "-1"},
    {"or(all ones, x) → all ones", "pred", "or", "true", "false", true, Expect::kValue, "true", "", true},
    {"xor(x, 0) → x", "s32", "xor", "0", "2", false, Expect::kX},
    {"xor(0, x) → x", "s32", "xor", "0", "2", true, Expect::kX},
    {"pow(x, 1) → x", "f32", "power", "1", "3", false, Expect::kX},
};

class AlgsimpSplat : public ::testing::TestWithParam<Identity> {};

TEST_P(AlgsimpSplat, ScalarForm) { CheckIdentity(GetParam(), Form::kScalar); }
TEST_P(AlgsimpSplat, BroadcastForm) { CheckIdentity(GetParam(), Form::kBroadcast); }
TEST_P(AlgsimpSplat, SplatForm) { CheckIdentity(GetParam(), Form::kSplat); }
TEST_P(AlgsimpSplat, NoChange) { CheckNoChangeForms(GetParam()); }

std::string CaseName(const ::testing::TestParamInfo<Identity>& info) {
  return "case" + std::to_string(info.index) + "_" + info.param.op + "_" + info.param.type;
}

INSTANTIATE_TEST_SUITE_P(Identities, AlgsimpSplat, ::testing::ValuesIn(kIdentities), CaseName);

// select with a constant predicate, in each form.
std::string SelectModule(Form f, const std::string& pred) {
  std::ostringstream s;
  const std::string shape = f == Form::kScalar ? "f32[]" : "f32[4]";
  const std::string pshape = f == Form::kScalar ? "pred[]" : "pred[4]";
  s << "  a = " << shape << " parameter(0)\n  b = " << shape << " parameter(1)\n";
  switch (f) {
    case Form::kScalar: s << "  c = pred[] constant(" << pred << ")\n"; break;
    case Form::kBroadcast:
      s << "  s = pred[] constant(" << pred << ")\n  c = pred[4] broadcast(s), dimensions={}\n";
      break;
    case Form::kSplat: s << "  c = pred[4] constant(" << pred << ")\n"; break;
  }
  s << "  ROOT r = " << shape << " select(c, a, b)";
  return Module1(s.str());
}

TEST(AlgsimpSplatSelect, ConstantPredicateInEveryForm) {
  for (Form f : {Form::kScalar, Form::kBroadcast, Form::kSplat}) {
    SCOPED_TRACE(FormName(f));
    const std::string t = f == Form::kSplat ? "{true, true, true, true}" : "true";
    const std::string n = f == Form::kSplat ? "{false, false, false, false}" : "false";
    PassRun r = RunPass("algsimp", SelectModule(f, t));
    EXPECT_TRUE(r.Applied("select(true, a, b) → a"));
    EXPECT_EQ(r.root()->name(), "a");
    PassRun s = RunPass("algsimp", SelectModule(f, n));
    EXPECT_TRUE(s.Applied("select(false, a, b) → b"));
    EXPECT_EQ(s.root()->name(), "b");
  }
}

TEST(AlgsimpSplatSelect, MixedPredicateNoChange) {
  CheckNoChange(SelectModule(Form::kSplat, "{true, false, true, true}"));
}

// XLA's HandleConstant: an array constant with equal elements becomes a
// broadcast of a scalar constant; a broadcast of a scalar constant stays.
TEST(AlgsimpSplatConstant, EqualElementsBecomeABroadcast) {
  for (const char* c : {"f32[2,3] constant({{1.5, 1.5, 1.5}, {1.5, 1.5, 1.5}})", "f32[2,3] constant(1.5)"}) {
    SCOPED_TRACE(c);
    PassRun r = RunPass("algsimp", Module1(std::string("  ROOT c = ") + c));
    EXPECT_TRUE(r.Applied("constant with equal elements → broadcast(scalar)"));
    ASSERT_EQ(r.root()->opcode(), Opcode::kBroadcast);
    EXPECT_EQ(r.root()->operand(0)->shape().rank(), 0);
    EXPECT_EQ(r.root()->operand(0)->literal()->ToString(), "1.5");
  }
}

TEST(AlgsimpSplatConstant, NoChange) {
  CheckNoChange(Module1("  ROOT c = f32[2,3] constant({{1.5, 1.5, 1.5}, {1.5, 2, 1.5}})"));
  CheckNoChange(Module1("  c = f32[] constant(1.5)\n  ROOT b = f32[2,3] broadcast(c), dimensions={}"));
  CheckNoChange(Module1("  ROOT c = f32[1] constant({1.5})"));
}

// Rewrites whose result is "all v" build broadcast(scalar constant), never a
// splat array constant (they used to for up to 2^16 elements).
TEST(AlgsimpSplatConstant, ZeroResultsAreBroadcasts) {
  PassRun r = RunPass("algsimp", Module1("  p = s32[2,17,64] parameter(0)\n  ROOT r = s32[2,17,64] subtract(p, p)"));
  EXPECT_TRUE(r.Applied("x - x → 0 (integers)"));
  EXPECT_EQ(r.root()->opcode(), Opcode::kBroadcast);
  ExpectNoSplatConstants(*r.module);
  PassRun i = RunPass("algsimp", Module1("  ROOT i = s32[1,4] iota(), iota_dimension=0"));
  EXPECT_EQ(i.root()->opcode(), Opcode::kBroadcast);
  ExpectNoSplatConstants(*i.module);
}

// Rewrites that look for a scalar broadcast see a splat constant too (it is
// a broadcast by the time its users are visited).
TEST(AlgsimpSplatConstant, ShapeAndReduceRewritesSeeSplats) {
  PassRun r = RunPass("algsimp", Module1(R"(
  c = f32[4,8] constant(2)
  ROOT s = f32[2,8] slice(c), slice={[0:2], [0:8]})"));
  EXPECT_TRUE(r.Applied("slice(broadcast(scalar)) → broadcast(scalar)"));
  EXPECT_EQ(r.root()->opcode(), Opcode::kBroadcast);
  PassRun m = RunPass("algsimp", Module1(R"(
  c = f32[8] constant({3, 3, 3, 3, 3, 3, 3, 3})
  init = f32[] constant(-inf)
  ROOT r = f32[] reduce(c, init), dimensions={0}, to_apply=max)",
                                         "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                                         "  ROOT m = f32[] maximum(a, b)\n}\n"));
  EXPECT_TRUE(m.Applied("reduce(broadcast(scalar)) → op(init, scalar) (idempotent op)"));
  PassRun e = RunPass("algsimp", Module1("  c = f32[4] constant(2)\n  ROOT e = f32[4] exponential(c)"));
  EXPECT_TRUE(e.Applied("op(broadcast(scalar)) → broadcast(op(scalar))"));
  EXPECT_EQ(e.root()->opcode(), Opcode::kBroadcast);
}

// The simplify pipeline (algsimp + constant_folding + ...) keeps broadcasts
// of constants: convert/negate of a broadcast constant is computed on the
// scalar, and nothing is spelled out as an array.
TEST(AlgsimpSplatPipeline, BroadcastsOfConstantsStayBroadcasts) {
  PassRun r = RunPass("simplify", Module1(R"(
  p = f32[2,17,64] parameter(0)
  c = f32[] constant(0.5)
  b = f32[2,17,64] broadcast(c), dimensions={}
  h = f16[] constant(3)
  hb = f16[2,17,64] broadcast(h), dimensions={}
  hc = f32[2,17,64] convert(hb)
  n = f32[2,17,64] negate(hc)
  z = f32[2,17,64] constant(0)
  m = f32[2,17,64] multiply(p, b)
  a = f32[2,17,64] add(m, n)
  ROOT r = f32[2,17,64] maximum(a, z))"));
  ASSERT_TRUE(r.module);
  ExpectNoSplatConstants(*r.module);
  for (const auto& i : r.module->entry()->instructions())
    if (i->opcode() == Opcode::kConstant) EXPECT_EQ(i->shape().rank(), 0) << PrintInstruction(*i);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kConvert), 0) << r.text();
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kNegate), 0) << r.text();
}

}  // namespace
}  // namespace hloscope::testing
