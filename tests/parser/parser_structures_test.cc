// The data structures behind the fast parse path: the flat name map, operand
// resolution (forward references, inline operands, repeated operands),
// users kept once per user, lazily created attributes and rare parts, and
// the lexer's fast integer path next to the tokens it must not swallow.
#include <gtest/gtest.h>

#include <string>

#include "core/ir/flat_name_map.h"
#include "core/parser/lexer.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope {
namespace {

TEST(FlatNameMap, InsertFindAndGrow) {
  FlatNameMap<int> m;
  EXPECT_EQ(m.find("a"), nullptr);
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("name." + std::to_string(i));
  for (int i = 0; i < 5000; ++i) {
    auto [v, inserted] = m.insert(keys[i], i);
    ASSERT_TRUE(inserted);
    ASSERT_EQ(*v, i);
  }
  EXPECT_EQ(m.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const int* v = m.find(keys[i]);
    ASSERT_NE(v, nullptr) << keys[i];
    EXPECT_EQ(*v, i);
  }
  auto [first, inserted] = m.insert("name.17", 99);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(*first, 17);
  EXPECT_EQ(m.find("name.5000"), nullptr);
  EXPECT_EQ(m.find(""), nullptr);
  EXPECT_EQ(m.find("name.1"), m.find(std::string("name.") + "1"));
}

TEST(FlatNameMap, KeysDifferingOnlyPastEightBytes) {
  FlatNameMap<int> m(4);
  m.insert("fusion.computation.1", 1);
  m.insert("fusion.computation.2", 2);
  m.insert("fusion.computation.1x", 3);
  EXPECT_EQ(*m.find("fusion.computation.1"), 1);
  EXPECT_EQ(*m.find("fusion.computation.2"), 2);
  EXPECT_EQ(*m.find("fusion.computation.1x"), 3);
  EXPECT_EQ(m.find("fusion.computation.3"), nullptr);
}

std::unique_ptr<Module> Parse(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

const Instruction* Find(const Computation& c, std::string_view name) {
  for (const auto& i : c.instructions())
    if (i->name() == name) return i.get();
  return nullptr;
}

TEST(ParserStructures, ForwardReferencesResolveInOperandOrder) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  ROOT s = f32[] subtract(b, a)
  a = f32[] parameter(0)
  b = f32[] parameter(1)
})");
  ASSERT_TRUE(m);
  const Instruction* s = m->entry()->root();
  ASSERT_EQ(s->operand_count(), 2);
  EXPECT_EQ(s->operand(0)->name(), "b");
  EXPECT_EQ(s->operand(1)->name(), "a");
  // Out-of-order definitions are a valid module (the verifier's DFS path).
  EXPECT_TRUE(VerifyModule(*m).ok());
}

TEST(ParserStructures, RepeatedOperandIsOneUser) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] multiply(x, x)
  ROOT z = f32[4] add(y, x)
})");
  ASSERT_TRUE(m);
  const Instruction* x = Find(*m->entry(), "x");
  const Instruction* y = Find(*m->entry(), "y");
  ASSERT_EQ(x->user_count(), 2);
  EXPECT_EQ(x->users()[0]->name(), "y");
  EXPECT_EQ(x->users()[1]->name(), "z");
  EXPECT_EQ(y->operand(0), x);
  EXPECT_EQ(y->operand(1), x);
}

TEST(ParserStructures, ReplaceOperandKeepsUsersInSync) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  w = f32[4] parameter(1)
  ROOT y = f32[4] multiply(x, x)
})");
  ASSERT_TRUE(m);
  Computation* c = m->entry();
  Instruction* x = nullptr;
  Instruction* w = nullptr;
  for (const auto& i : c->instructions()) {
    if (i->name() == "x") x = i.get();
    if (i->name() == "w") w = i.get();
  }
  Instruction* y = c->root();
  y->ReplaceOperand(0, w);  // x is still operand 1: stays a user once
  EXPECT_EQ(x->user_count(), 1);
  EXPECT_EQ(w->user_count(), 1);
  y->ReplaceOperand(1, w);  // now w twice, x gone
  EXPECT_EQ(x->user_count(), 0);
  EXPECT_EQ(w->user_count(), 1);
  y->AppendOperand(w);  // already a user: not listed twice
  EXPECT_EQ(w->user_count(), 1);
}

TEST(ParserStructures, InlineOperandsAndControlPredecessors) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] negate(a)
  ROOT r = f32[] add(f32[] multiply(a, a), b), control-predecessors={b}
})");
  ASSERT_TRUE(m);
  const Instruction* r = m->entry()->root();
  ASSERT_EQ(r->operand_count(), 2);
  EXPECT_EQ(r->operand(0)->opcode(), Opcode::kMultiply);
  EXPECT_EQ(r->operand(0)->operand(0)->name(), "a");
  EXPECT_EQ(r->operand(1)->name(), "b");
  ASSERT_EQ(r->control_predecessors().size(), 1u);
  EXPECT_EQ(r->control_predecessors()[0]->name(), "b");
  EXPECT_EQ(r->operand(1)->control_successors().size(), 1u);
  EXPECT_TRUE(VerifyModule(*m).ok());
}

TEST(ParserStructures, AttributesAreCreatedOnlyWhenSet) {
  auto m = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  ROOT t = f32[3,2]{1,0} transpose(a), dimensions={1,0}
})");
  ASSERT_TRUE(m);
  const Instruction* a = Find(*m->entry(), "a");
  const Instruction* t = m->entry()->root();
  EXPECT_EQ(a->attrs().present, 0u);
  EXPECT_TRUE(a->dimensions().empty());
  EXPECT_TRUE(a->called_refs().empty());
  EXPECT_TRUE(a->control_predecessors().empty());
  EXPECT_TRUE(t->attrs().has(Attr::kDimensions));
  EXPECT_EQ(t->dimensions(), (std::vector<int64_t>{1, 0}));
  // Setting through the mutable accessor creates the attributes.
  Instruction* ma = m->entry()->parameter(0);
  ma->set_dimensions({0});
  EXPECT_EQ(a->dimensions(), (std::vector<int64_t>{0}));
  EXPECT_TRUE(ma->attrs() == a->attrs());
}

TEST(ParserStructures, DuplicateNameAndUndefinedOperandAreLocated) {
  auto dup = ParseHloModule("ENTRY e {\n  a = f32[] parameter(0)\n  a = f32[] parameter(1)\n  ROOT r = f32[] add(a, a)\n}\n",
                            "t.hlo");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "t.hlo:3:3: error: instruction 'a' is defined twice in computation 'e'");
  auto undef = ParseHloModule("ENTRY e {\n  a = f32[] parameter(0)\n  ROOT r = f32[] add(a, %zz)\n}\n", "t.hlo");
  ASSERT_FALSE(undef.ok());
  EXPECT_EQ(undef.status().message(), "t.hlo:3:25: error: use of undefined value 'zz' (operand of 'r')");
}

// The lexer's integer fast path must leave dim labels, pads, DxD windows and
// floats to their own rules.
TEST(LexerFastPath, IntegersNextToOtherNumericTokens) {
  struct Case {
    const char* text;
    Tok kind;
    const char* token;
  } cases[] = {
      {"12,", Tok::kInt, "12"},         {"-7}", Tok::kInt, "-7"},          {"42", Tok::kInt, "42"},
      {"01_io->bf", Tok::kDimLabels, "01_io->bf"}, {"0_1x2_3 ", Tok::kPad, "0_1x2_3"}, {"3x3}", Tok::kDxD, "3x3"},
      {"1.5,", Tok::kFloat, "1.5"},     {"2e-3)", Tok::kFloat, "2e-3"},    {"b01f_01io->b01f", Tok::kDimLabels, "b01f_01io->b01f"},
      {"f32[", Tok::kName, "f32"},     {"+5,", Tok::kInt, "+5"},
  };
  for (const Case& c : cases) {
    Lexer lex(c.text);
    Token t = lex.Next();
    EXPECT_EQ(t.kind, c.kind) << c.text;
    EXPECT_EQ(t.text, c.token) << c.text;
  }
}

TEST(LexerFastPath, LinesAndColumnsAcrossTokens) {
  Lexer lex("a = f32[2]\n  b\n\"s\ntr\" c");
  int lines[] = {1, 1, 1, 1, 1, 1, 2, 3, 4};
  int cols[] = {1, 3, 5, 8, 9, 10, 3, 1, 5};
  for (int k = 0; k < 9; ++k) {
    Token t = lex.Next();
    EXPECT_EQ(t.line, lines[k]) << k << " " << t.text;
    EXPECT_EQ(t.col, cols[k]) << k << " " << t.text;
  }
  EXPECT_EQ(lex.Next().kind, Tok::kEof);
}

}  // namespace
}  // namespace hloscope
