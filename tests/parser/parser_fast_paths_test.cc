// The parser's fast paths (plain shapes `type[d,...]{m,...}` and plain
// operand lists `a, b)` scanned from the text, attribute values taken from
// the token already lexed) must give what the general paths give: the same
// shapes, layouts, operands and metadata, the same located errors, and the
// general path for every form they do not handle.
#include <gtest/gtest.h>

#include <string>

#include "core/parser/parser.h"
#include "core/printer/printer.h"

namespace hloscope {
namespace {

std::string Printed(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.status().message());
  return m.ok() ? PrintModule(**m) : "";
}

std::string ErrorOf(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_FALSE(m.ok()) << "expected an error for:\n" << text;
  return m.ok() ? "" : m.status().message();
}

TEST(ParserFastPaths, PlainShapesEqualSpacedShapes) {
  // Spaces send a shape down the general path; both must agree.
  const std::string plain =
      "HloModule m\nENTRY e {\n  x = f32[2,3]{1,0} parameter(0)\n  s = s32[] parameter(1)\n"
      "  t = (f32[2,3]{0,1}, s32[]) tuple(x, s)\n  ROOT n = f32[2,3]{1,0} negate(x)\n}\n";
  const std::string spaced =
      "HloModule m\nENTRY e {\n  x = f32[2, 3]{1, 0} parameter(0)\n  s = s32[ ] parameter(1)\n"
      "  t = (f32[2,3]{0, 1}, s32[]) tuple(x, s)\n  ROOT n = f32[2,3]{ 1,0 } negate(x)\n}\n";
  EXPECT_EQ(Printed(plain), Printed(spaced));
  EXPECT_NE(Printed(plain).find("(f32[2,3]{0,1}, s32[]) tuple"), std::string::npos);
}

TEST(ParserFastPaths, ShapesTheFastPathLeavesToTheGeneralOne) {
  // Layout suffixes, dynamic and unbounded dimensions, an empty layout on a
  // scalar, a token with an empty dimension list.
  std::string out = Printed(
      "HloModule m\nENTRY e {\n  x = f32[2,128]{1,0:T(2,128)} parameter(0)\n  d = f32[<=4,?] parameter(1)\n"
      "  s = f32[]{} parameter(2)\n  k = token[] after-all()\n  ROOT n = f32[2,128]{1,0} negate(x)\n}\n");
  EXPECT_NE(out.find("f32[2,128]{1,0:T(2,128)} parameter(0)"), std::string::npos) << out;
  EXPECT_NE(out.find("f32[<=4,?] parameter(1)"), std::string::npos) << out;
  EXPECT_NE(out.find("%k = token[] after-all()"), std::string::npos) << out;
}

TEST(ParserFastPaths, ShapeErrorsStayLocated) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[2,3]{0,0} parameter(0)\n}\n"),
            "t.hlo:3:20: error: layout {0,0} is not a permutation of the 2 dimensions of f32[2,3]");
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[2]{} parameter(0)\n}\n"),
            "t.hlo:3:18: error: layout {} is not a permutation of the 1 dimensions of f32[2]");
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[99999999999999999999] parameter(0)\n}\n"),
            "t.hlo:3:16: error: integer '99999999999999999999' is out of range for a 64-bit value");
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[4294967296,4294967296,4294967296] parameter(0)\n}\n"),
            "t.hlo:3:12: error: shape has more elements than a 64-bit count can hold");
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = token[2] parameter(0)\n}\n"),
            "t.hlo:3:12: error: token shapes have no dimensions");
}

TEST(ParserFastPaths, IntegerListsEqualSpacedLists) {
  const std::string plain =
      "HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  y = f32[3,4] parameter(1)\n"
      "  d = f32[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  ROOT t = f32[4,2] transpose(d), dimensions={1,0}\n}\n";
  const std::string spaced =
      "HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  y = f32[3,4] parameter(1)\n"
      "  d = f32[2,4] dot(x, y), lhs_contracting_dims={ 1 }, rhs_contracting_dims={0 }\n"
      "  ROOT t = f32[4,2] transpose(d), dimensions={1, 0}\n}\n";
  EXPECT_EQ(Printed(plain), Printed(spaced));
  EXPECT_NE(Printed(plain).find("dimensions={1,0}"), std::string::npos);
  // Forms the fast path leaves alone still parse (a sign) or fail where they did.
  EXPECT_NE(Printed("HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
                    "  ROOT t = f32[3,2] transpose(x), dimensions={+1,0}\n}\n")
                .find("dimensions={1,0}"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
                    "  ROOT t = f32[3,2] transpose(x), dimensions={1,}\n}\n"),
            "t.hlo:4:49: error: expected an integer, found '}'");
}

TEST(ParserFastPaths, MetadataValues) {
  // Strings (with commas and spaces inside), names, paths and integers;
  // fields separated by spaces or commas.
  std::string out = Printed(
      "HloModule m\nENTRY e {\n"
      "  x = f32[2] parameter(0), metadata={op_name=\"a, b }\" source_file=x/y.py source_line=7}\n"
      "  ROOT n = f32[2] negate(x), metadata={op_type=Neg, op_name=\"q\",source_line=12}\n}\n");
  EXPECT_NE(out.find("metadata={op_name=\"a, b }\" source_file=x/y.py source_line=7}"), std::string::npos)
      << out;
  EXPECT_NE(out.find("metadata={op_type=Neg op_name=\"q\" source_line=12}"), std::string::npos) << out;
}

TEST(ParserFastPaths, MetadataScannedFromTheTextEqualsTheTokenPath) {
  // The first spelling is scanned from the text; a space before '=' (or an
  // escape, a line break in a string, a value with a sign or a dot) sends
  // the same fields down the token path.
  auto module = [](const std::string& md) {
    return "HloModule m\nENTRY e {\n  ROOT x = f32[2] parameter(0), metadata={" + md + "}\n}\n";
  };
  const std::string plain = Printed(module(
      "op_name=\"jit(f)/mul\" source_file=\"m.py\",source_line=12 stack_frame_id=3 scheduling_name=fusion_3"));
  EXPECT_NE(plain.find("metadata={op_name=\"jit(f)/mul\" source_file=\"m.py\" source_line=12 stack_frame_id=3 "
                       "scheduling_name=fusion_3}"),
            std::string::npos)
      << plain;
  EXPECT_EQ(plain, Printed(module("op_name =\"jit(f)/mul\" source_file=\"m.py\" , source_line=12 stack_frame_id= 3 "
                                  "scheduling_name=fusion_3")));
  EXPECT_EQ(Printed(module("")), Printed(module("  ")));
  for (const std::string md : {"op_name=\"a\\\"b\" source_line=1", "op_name=\"two\nlines\" source_line=1",
                               "source_line=-4 op_name=\"q\"", "source_file=x.py source_line=2"}) {
    const std::string out = Printed(module(md));
    EXPECT_NE(out.find(md.substr(0, md.find(' '))), std::string::npos) << out;
  }
}

TEST(ParserFastPaths, SignaturesScannedFromTheTextEqualTheTokenPath) {
  // A computation's `(a: f32[2], ...) -> shape` is checked from the text
  // when written plainly; spaces, tuples and errors take the token path.
  auto module = [](const std::string& sig) {
    return "HloModule m\nadd " + sig + " {\n  a = f32[2]{0} parameter(0)\n  b = f32[2]{0} parameter(1)\n"
           "  ROOT s = f32[2]{0} add(a, b)\n}\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n";
  };
  const std::string plain = Printed(module("(a: f32[2]{0}, %b: f32[2]) -> f32[2]{0}"));
  EXPECT_EQ(plain, Printed(module("( a : f32[2]{0} , b: f32[2] )  ->  f32[2]{0}")));
  EXPECT_EQ(plain, Printed(module("(a: f32[2]{0}, b: f32[2]) -> (f32[2]{0})")));
  EXPECT_EQ(plain, Printed(module("")));
  EXPECT_EQ(ErrorOf(module("(a: f32[2]{0,0}, b: f32[2]) -> f32[2]")),
            "t.hlo:2:15: error: layout {0,0} is not a permutation of the 1 dimensions of f32[2]");
  EXPECT_EQ(ErrorOf(module("(a: f32[2], b f32[2]) -> f32[2]")), "t.hlo:2:19: error: expected ':', found 'f32'");
}

TEST(ParserFastPaths, MetadataErrorsStayLocated) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[2] parameter(0), metadata={op_name=\"open}\n}\n"),
            "t.hlo:3:51: error: unbalanced brackets or unterminated string in attribute value");
  // A field name past what Metadata stores: the fast path falls back and the
  // token path reports it at the name.
  const std::string long_name(70000, 'n');
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT x = f32[2] parameter(0), metadata={" + long_name + "=1}\n}\n"),
            "t.hlo:3:43: error: metadata field name is too long");
}

TEST(ParserFastPaths, OperandListsInEverySpellingAgree) {
  // `a, b)` on one line is scanned from the text; spaces, line breaks,
  // comments and typed operands take the token path. All give one module.
  auto module = [](const std::string& operands) {
    return "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n  ROOT s = f32[2] add(" +
           operands + ")\n}\n";
  };
  const std::string expected = Printed(module("a, b"));
  for (const char* spelling : {"a,b", "%a, %b", "a ,b", " a, b ", "a,\n    b", "a, /* b */ b", "f32[2] a, f32[2]{0} b",
                               "a,\tb", "%a , b"})
    EXPECT_EQ(Printed(module(spelling)), expected) << spelling;
}

TEST(ParserFastPaths, OperandErrorsStayLocated) {
  auto error = [](const std::string& root) {
    return ErrorOf("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT s = f32[2] " + root + "\n}\n");
  };
  EXPECT_EQ(error("add(a,  nosuch)"), "t.hlo:4:27: error: use of undefined value 'nosuch' (operand of 's')");
  EXPECT_EQ(error("add(%a, %nosuch )"), "t.hlo:4:27: error: use of undefined value 'nosuch' (operand of 's')");
  EXPECT_EQ(error("negate(a, a)"), "t.hlo:4:29: error: 'negate' takes 1 operand(s) but 's' has 2");
  EXPECT_EQ(error("negate()"), "t.hlo:5:1: error: 'negate' takes 1 operand(s) but 's' has 0");
  EXPECT_EQ(error("add(a a)"), "t.hlo:4:25: error: expected ',' or ')' in the operand list, found 'a'");
  EXPECT_EQ(error("add(a, )"), "t.hlo:4:26: error: expected an operand name, found ')'");
  EXPECT_EQ(error("add(a, %)"), "t.hlo:4:26: error: expected an operand name, found invalid character '%'");
  EXPECT_EQ(error("add(a, a->b)"), "t.hlo:4:27: error: expected ',' or ')' in the operand list, found '->'");
  EXPECT_EQ(error("add(a, 1a)"), "t.hlo:4:26: error: expected an operand name, found '1'");
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT s = f32[2] add(a, a"),
            "t.hlo:4:27: error: expected ',' or ')' in the operand list, found end of file");
}

}  // namespace
}  // namespace hloscope
