// Syntax of today's XLA: `%x#N` operands (element N of a tuple-shaped
// instruction, with no get-tuple-element line) and buffer shapes `b(...)`.
// Examples follow XLA's own: the after_optimizations of XLA GPU (FACTS.md),
// hlo_parser_test.cc (ParseBuffer*) and copy_insertion_test.cc (NonCopyable*).
#include <gtest/gtest.h>

#include <cstring>

#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope {
namespace {

std::unique_ptr<Module> ParseOk(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.status().message());
  return m.ok() ? std::move(*m) : nullptr;
}

std::string ErrorOf(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_FALSE(m.ok()) << "expected an error for:\n" << text;
  return m.ok() ? "" : m.status().message();
}

// print(parse(text)) is a fixed point of print → parse → print.
std::string RoundTrip(const Module& m) {
  std::string once = PrintModule(m);
  auto again = ParseHloModule(once, "printed.hlo");
  EXPECT_TRUE(again.ok()) << (again.ok() ? "" : again.status().message()) << "\n" << once;
  if (!again.ok()) return once;
  EXPECT_EQ(PrintModule(**again), once);
  return once;
}

const Instruction* Find(const Module& m, const std::string& name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  return nullptr;
}

// A multi-output loop fusion whose two results are read as %f#0 and %f#1,
// as XLA GPU's after_optimizations writes them; the second use of %f#1
// shares the first one's element.
constexpr char kImplicitElements[] = R"(HloModule m

%fused (p0: f32[4], p1: f32[4]) -> (f32[4], f32[4]) {
  %p0 = f32[4]{0} parameter(0)
  %p1 = f32[4]{0} parameter(1)
  %add = f32[4]{0} add(%p0, %p1)
  %mul = f32[4]{0} multiply(%p0, %p1)
  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%add, %mul)
}

ENTRY %e (a: f32[4], b: f32[4]) -> (f32[4], f32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %f = (f32[4]{0}, f32[4]{0}) fusion(%a, %b), kind=kLoop, calls=%fused
  %s = f32[4]{0} subtract(%f#0, %f#1)
  %n = f32[4]{0} negate(%f#1)
  ROOT %r = (f32[4]{0}, f32[4]{0}) tuple(%s, %n)
}
)";

// The same program with explicit get-tuple-element lines.
constexpr char kExplicitElements[] = R"(HloModule m

%fused (p0: f32[4], p1: f32[4]) -> (f32[4], f32[4]) {
  %p0 = f32[4]{0} parameter(0)
  %p1 = f32[4]{0} parameter(1)
  %add = f32[4]{0} add(%p0, %p1)
  %mul = f32[4]{0} multiply(%p0, %p1)
  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%add, %mul)
}

ENTRY %e (a: f32[4], b: f32[4]) -> (f32[4], f32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %f = (f32[4]{0}, f32[4]{0}) fusion(%a, %b), kind=kLoop, calls=%fused
  %g0 = f32[4]{0} get-tuple-element(%f), index=0
  %g1 = f32[4]{0} get-tuple-element(%f), index=1
  %s = f32[4]{0} subtract(%g0, %g1)
  %n = f32[4]{0} negate(%g1)
  ROOT %r = (f32[4]{0}, f32[4]{0}) tuple(%s, %n)
}
)";

TEST(ImplicitTupleElements, ReadAsGetTupleElementsSharedPerElement) {
  auto m = ParseOk(kImplicitElements);
  ASSERT_TRUE(m);
  ASSERT_TRUE(VerifyModule(*m).ok()) << VerifyModule(*m).message();
  const Instruction* s = Find(*m, "s");
  const Instruction* n = Find(*m, "n");
  const Instruction* f = Find(*m, "f");
  ASSERT_TRUE(s && n && f);
  const Instruction* e0 = s->operand(0);
  const Instruction* e1 = s->operand(1);
  EXPECT_EQ(e0->opcode(), Opcode::kGetTupleElement);
  EXPECT_TRUE(e0->implicit_tuple_element());
  EXPECT_EQ(e0->tuple_index(), 0);
  EXPECT_EQ(e1->tuple_index(), 1);
  EXPECT_EQ(e0->operand(0), f);
  EXPECT_EQ(e0->shape().ToString(), "f32[4]{0}");
  EXPECT_EQ(n->operand(0), e1) << "one implicit element per (instruction, index)";
  EXPECT_EQ(e0->name(), "f#0");
  EXPECT_EQ(f->user_count(), 2);
  EXPECT_EQ(e0->loc().line, 15);
}

TEST(ImplicitTupleElements, PrintBackAsWrittenAndRoundTrip) {
  auto m = ParseOk(kImplicitElements);
  ASSERT_TRUE(m);
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("subtract(%f#0, %f#1)"), std::string::npos) << text;
  EXPECT_NE(text.find("negate(%f#1)"), std::string::npos) << text;
  EXPECT_EQ(text.find("get-tuple-element"), std::string::npos) << "no line of their own:\n" << text;
  // Explicit get-tuple-element lines stay explicit.
  auto x = ParseOk(kExplicitElements);
  ASSERT_TRUE(x);
  std::string xt = RoundTrip(*x);
  EXPECT_NE(xt.find("%g0 = f32[4]{0} get-tuple-element(%f), index=0"), std::string::npos) << xt;
}

TEST(ImplicitTupleElements, OperandShapesArePrintedForTheElement) {
  auto m = ParseOk(kImplicitElements);
  ASSERT_TRUE(m);
  PrintOptions o;
  o.print_operand_shapes = true;
  std::string text = PrintModule(*m, o);
  EXPECT_NE(text.find("subtract(f32[4]{0} %f#0, f32[4]{0} %f#1)"), std::string::npos) << text;
  auto again = ParseHloModule(text, "typed.hlo");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(PrintModule(**again), PrintModule(*m));
}

TEST(ImplicitTupleElements, EvaluateLikeExplicitGetTupleElements) {
  auto a = ParseOk(kImplicitElements);
  auto b = ParseOk(kExplicitElements);
  ASSERT_TRUE(a && b);
  auto inputs = MakeRandomInputs(*a->entry(), 7);
  auto ra = EvaluateModule(*a, inputs);
  auto rb = EvaluateModule(*b, inputs);
  ASSERT_TRUE(ra.ok()) << ra.status().message();
  ASSERT_TRUE(rb.ok()) << rb.status().message();
  ASSERT_EQ(ra->tuple_elements().size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const Literal& x = ra->tuple_elements()[k];
    const Literal& y = rb->tuple_elements()[k];
    ASSERT_EQ(x.raw_size(), y.raw_size());
    EXPECT_EQ(0, std::memcmp(x.raw(), y.raw(), x.raw_size())) << "element " << k;
  }
}

TEST(ImplicitTupleElements, ForwardReferenceAndRootTuple) {
  // Used before the tuple-shaped instruction is defined, and straight in
  // the root tuple (both occur in XLA's scheduled output).
  auto m = ParseOk(R"(HloModule m
ENTRY e {
  p = (f32[2], s32[]) parameter(0)
  n = f32[2] negate(w#0)
  w = (f32[2], s32[]) tuple(p#0, p#1)
  ROOT r = (f32[2], s32[]) tuple(n, w#1)
}
)");
  ASSERT_TRUE(m);
  EXPECT_TRUE(VerifyModule(*m).ok()) << VerifyModule(*m).message();
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("negate(%w#0)"), std::string::npos) << text;
  EXPECT_NE(text.find("tuple(%p#0, %p#1)"), std::string::npos) << text;
  EXPECT_NE(text.find("tuple(%n, %w#1)"), std::string::npos) << text;
}

TEST(ImplicitTupleElements, NestedElements) {
  // XLA's parser reads `%t#1#0` as element 0 of element 1 of t.
  auto m = ParseOk(R"(HloModule m
ENTRY e {
  p = (f32[2], (s32[], f32[3])) parameter(0)
  ROOT n = f32[3] negate(p#1#1)
}
)");
  ASSERT_TRUE(m);
  const Instruction* inner = m->entry()->root()->operand(0);
  EXPECT_EQ(inner->tuple_index(), 1);
  EXPECT_EQ(inner->operand(0)->tuple_index(), 1);
  EXPECT_EQ(inner->operand(0)->operand(0)->name(), "p");
  EXPECT_TRUE(VerifyModule(*m).ok()) << VerifyModule(*m).message();
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("negate(%p#1#1)"), std::string::npos) << text;
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = (f32[2], (s32[])) parameter(0)\n  ROOT n = s32[] negate(p#1#4)\n}\n"),
            "t.hlo:3:25: error: operand '%p#1#4' names tuple element 4, but 'p#1' has 1 element(s)");
}

TEST(ImplicitTupleElements, RootElementGetsALineOfItsOwn) {
  // A pass may make an implicit element the root; it then needs a line,
  // under a name the text can spell, and the result still round-trips.
  auto m = ParseOk(R"(HloModule m
ENTRY e {
  p = (f32[2], s32[]) parameter(0)
  ROOT r = f32[2] negate(p#0)
}
)");
  ASSERT_TRUE(m);
  Computation* e = m->entry();
  Instruction* elem = e->root()->operand(0);
  e->set_root(elem);
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("ROOT %p.element0 = f32[2] get-tuple-element(%p), index=0"), std::string::npos) << text;
}

TEST(ImplicitTupleElements, LocatedErrors) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p#0)\n}\n"),
            "t.hlo:3:26: error: operand '%p#0' names a tuple element, but 'p' has shape f32[2], which is not a "
            "tuple");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = (f32[2]) parameter(0)\n  ROOT n = f32[2] negate(p#3)\n}\n"),
            "t.hlo:3:26: error: operand '%p#3' names tuple element 3, but 'p' has 1 element(s)");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = (f32[2]) parameter(0)\n  ROOT n = f32[2] negate(%p#)\n}\n"),
            "t.hlo:3:28: error: expected a tuple element number after '#' in operand 'p'");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = (f32[2]) parameter(0)\n  ROOT n = f32[2] negate(p#99999999999999999999)\n}\n"),
            "t.hlo:3:27: error: tuple element number after '#' is out of range");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = (f32[2]) parameter(0)\n  ROOT n = f32[2] negate(q#0)\n}\n"),
            "t.hlo:3:26: error: use of undefined value 'q' (operand of 'n')");
}

TEST(ImplicitTupleElements, LargeModuleParsesInParallelChunksTheSame) {
  // Enough lines for the parallel parse to cut the entry into chunks; the
  // chunks that meet `#N` hand them back to the serial parse.
  std::string text = "HloModule big\nENTRY e {\n  p = (f32[8], f32[8]) parameter(0)\n";
  std::string prev = "p#0";
  for (int i = 0; i < 30000; ++i) {
    std::string name = "t" + std::to_string(i);
    text += "  " + name + " = (f32[8], f32[8]) tuple(" + prev + ", p#1)\n";
    prev = name + "#" + std::to_string(i % 2);
  }
  text += "  ROOT r = f32[8] negate(" + prev + ")\n}\n";
  ParseOptions serial;
  serial.threads = 1;
  auto a = ParseHloModule(text, "big.hlo", serial);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ParseOptions parallel;
  parallel.threads = 4;
  auto b = ParseHloModule(text, "big.hlo", parallel);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(PrintModule(**a), PrintModule(**b));
  EXPECT_TRUE(VerifyModule(**b).ok()) << VerifyModule(**b).message();
}

// --- buffer shapes ----------------------------------------------------------

TEST(BufferShapes, ParseAndPrintAsXlaDoes) {
  auto m = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[8,16]{1,0} parameter(0)
  b = b(f32[8,16]{1,0}) custom-call(p), custom_call_target="Pin", output_to_operand_aliasing={{}: (0, {})}
  ROOT u = f32[8,16]{1,0} custom-call(b), custom_call_target="Unpin", output_to_operand_aliasing={{}: (0, {})}
}
)");
  ASSERT_TRUE(m);
  const Instruction* b = Find(*m, "b");
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->shape().IsBuffer());
  EXPECT_TRUE(b->shape().IsArray());
  EXPECT_EQ(b->shape().element_type(), PrimitiveType::kF32);
  EXPECT_EQ(b->shape().dims(), (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(b->shape().ToString(), "b(f32[8,16]{1,0})");
  EXPECT_EQ(b->shape().ToString(false), "b(f32[8,16])");
  EXPECT_FALSE(b->shape() == Find(*m, "p")->shape());
  EXPECT_TRUE(b->shape().BufferElement() == Find(*m, "p")->shape());
  EXPECT_TRUE(VerifyModule(*m).ok()) << VerifyModule(*m).message();
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("%b = b(f32[8,16]{1,0}) custom-call(%p)"), std::string::npos) << text;
}

TEST(BufferShapes, ScalarTupleAndSignature) {
  auto m = ParseOk(R"(HloModule m
%body (param: (b(f32[16]), f32[16])) -> (b(f32[16]), f32[16]) {
  %param = (b(f32[16]), f32[16]) parameter(0)
  %pw0 = b(f32[16]) get-tuple-element(%param), index=0
  %call0 = b(f32[16]) custom-call(%pw0), custom_call_target="update0", output_to_operand_aliasing={{}: (0, {})}
  %pw1 = f32[16] get-tuple-element(%param), index=1
  %dw = f32[16] add(%pw1, %pw1)
  ROOT %tuple = (b(f32[16]), f32[16]) tuple(%call0, %dw)
}
%cond (pc: (b(f32[16]), f32[16])) -> pred[] {
  %pc = (b(f32[16]), f32[16]) parameter(0)
  ROOT %t = pred[] constant(true)
}
ENTRY %main (p0: f32[16], s: s32[]) -> f32[16] {
  %p0 = f32[16] parameter(0)
  %s = s32[] parameter(1)
  %bs = b(s32[]) custom-call(%s), custom_call_target="Pin", output_to_operand_aliasing={{}: (0, {})}
  %pin = b(f32[16]) custom-call(%p0), custom_call_target="Pin", output_to_operand_aliasing={{}:(0, {})}
  %init = (b(f32[16]), f32[16]) tuple(%pin, %p0)
  %while = (b(f32[16]), f32[16]) while(%init), condition=%cond, body=%body
  %nc = b(f32[16]) get-tuple-element(%while), index=0
  ROOT %d = f32[16] custom-call(%nc), custom_call_target="Unpin", output_to_operand_aliasing={{}:(0, {})}
}
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(Find(*m, "bs")->shape().ToString(), "b(s32[])");
  EXPECT_TRUE(VerifyModule(*m).ok()) << VerifyModule(*m).message();
  std::string text = RoundTrip(*m);
  EXPECT_NE(text.find("%body (param: (b(f32[16]), f32[16])) -> (b(f32[16]), f32[16]) {"), std::string::npos) << text;
}

TEST(BufferShapes, LocatedErrorsAsXlaParserTests) {
  // hlo_parser_test.cc: ParseBufferEmptyElement, ParseBufferMoreThanOneElement.
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = b() parameter(0)\n}\n"),
            "t.hlo:2:14: error: expected an array shape in the buffer shape 'b(...)'");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = b(s32[], f32[]) parameter(0)\n}\n"),
            "t.hlo:2:19: error: expected ')' at the end of the buffer shape, found ','");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = b((f32[2])) parameter(0)\n}\n"),
            "t.hlo:2:14: error: a buffer shape holds one array shape, not (f32[2])");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = b(b(f32[2])) parameter(0)\n}\n"),
            "t.hlo:2:14: error: a buffer shape holds one array shape, not b(f32[2])");
}

std::string VerifyError(const std::string& text) {
  auto m = ParseOk(text);
  if (!m) return "";
  Status s = VerifyModule(*m);
  EXPECT_FALSE(s.ok()) << text;
  return s.ok() ? "" : s.message();
}

TEST(BufferShapes, VerifierRules) {
  // Buffers only where XLA allows them.
  EXPECT_NE(VerifyError("ENTRY e {\n  p = f32[4] parameter(0)\n"
                        "  b = b(f32[4]) custom-call(p), custom_call_target=\"Pin\", "
                        "output_to_operand_aliasing={{}: (0, {})}\n"
                        "  ROOT n = b(f32[4]) negate(b)\n}\n")
                .find(":4:8: error: n: negate cannot produce a buffer shape"),
            std::string::npos);
  EXPECT_NE(VerifyError("ENTRY e {\n  ROOT p = b(f32[4]) parameter(0)\n}\n")
                .find("an entry computation parameter cannot be a buffer"),
            std::string::npos);
  EXPECT_NE(VerifyError("ENTRY e {\n  p = f32[4] parameter(0)\n"
                        "  ROOT b = f32[4] custom-call(p), custom_call_target=\"Pin\", "
                        "output_to_operand_aliasing={{}: (0, {})}\n}\n")
                .find("custom-call to Pin must have one buffer result"),
            std::string::npos);
  EXPECT_NE(VerifyError("ENTRY e {\n  ROOT b = b(f32[4]) custom-call(), custom_call_target=\"update\"\n}\n")
                .find("buffer result at {} is not aliased to an operand"),
            std::string::npos);
  // Two writers of one buffer (hlo_verifier.cc's example).
  EXPECT_NE(VerifyError("ENTRY e {\n  p = f32[4] parameter(0)\n"
                        "  b0 = b(f32[4]) custom-call(p), custom_call_target=\"Pin\", "
                        "output_to_operand_aliasing={{}: (0, {})}\n"
                        "  w1 = b(f32[4]) custom-call(b0), custom_call_target=\"writer_1\", "
                        "output_to_operand_aliasing={{}: (0, {})}\n"
                        "  w2 = b(f32[4]) custom-call(b0), custom_call_target=\"writer_2\", "
                        "output_to_operand_aliasing={{}: (0, {})}\n"
                        "  ROOT t = (b(f32[4]), b(f32[4])) tuple(w1, w2)\n}\n")
                .find("more than one writer"),
            std::string::npos);
}

TEST(BufferShapes, PinAndUnpinEvaluateAsIdentity) {
  auto m = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[3] parameter(0)
  b = b(f32[3]) custom-call(p), custom_call_target="Pin", output_to_operand_aliasing={{}: (0, {})}
  ROOT u = f32[3] custom-call(b), custom_call_target="Unpin", output_to_operand_aliasing={{}: (0, {})}
}
)");
  ASSERT_TRUE(m);
  auto inputs = MakeRandomInputs(*m->entry(), 3);
  auto r = EvaluateModule(*m, inputs);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->raw_size(), inputs[0].raw_size());
  EXPECT_EQ(0, std::memcmp(r->raw(), inputs[0].raw(), r->raw_size()));
}

}  // namespace
}  // namespace hloscope
