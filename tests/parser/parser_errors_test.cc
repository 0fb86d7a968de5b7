// Malformed input: every kind gives `FILE:LINE:COL: error: <message>`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/parser/parser.h"
#include "core/printer/printer.h"

namespace hloscope {
namespace {

std::string ErrorOf(const std::string& text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_FALSE(m.ok()) << "expected an error for:\n" << text;
  return m.ok() ? "" : m.status().message();
}

// A folder given as the input file is refused with a sentence, not an
// allocation of the size a folder's stream reports; a kernel bundle's folder
// names the runner.
TEST(ParserErrors, FolderIsRefusedNotRead) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hloscope-folder-input-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto m = ParseHloFile(dir.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), dir.string() + ": error: is a folder, not a file");
  std::ofstream(dir / "manifest.json") << "{}";
  m = ParseHloFile(dir.string());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("a kernel bundle: run it with hloscope-run"), std::string::npos)
      << m.status().message();
  fs::remove_all(dir);
}

// A file that cannot be opened says why: missing, or unreadable.
TEST(ParserErrors, UnopenableFileSaysWhy) {
  namespace fs = std::filesystem;
  const fs::path missing = fs::temp_directory_path() / ("hloscope-no-such-" + std::to_string(::getpid()) + ".hlo");
  fs::remove(missing);
  auto m = ParseHloFile(missing.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), missing.string() + ": error: cannot open file: no such file or directory");
  if (::geteuid() == 0) return;  // root reads any file
  std::ofstream(missing) << "HloModule m\n";
  fs::permissions(missing, fs::perms::none);
  m = ParseHloFile(missing.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), missing.string() + ": error: cannot open file: Permission denied");
  fs::remove(missing);
}

TEST(ParserErrors, EmptyFile) { EXPECT_EQ(ErrorOf(""), "t.hlo:1:1: error: the module has no computations"); }

TEST(ParserErrors, Truncated) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  p = f32[2"),
            "t.hlo:3:12: error: expected ',' or ']' in the dimensions, found end of file");
}

TEST(ParserErrors, UnclosedComputation) {
  EXPECT_EQ(ErrorOf("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n"),
            "t.hlo:4:1: error: unexpected end of file: computation 'e' is not closed with '}'");
}

TEST(ParserErrors, BinaryGarbage) {
  std::string msg = ErrorOf(std::string("\x00\xff\x13garbage{{", 11));
  EXPECT_EQ(msg.rfind("t.hlo:1:1: error: ", 0), 0u) << msg;
}

TEST(ParserErrors, UnknownOpcode) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = f32[] frobnicate()\n}\n"),
            "t.hlo:2:18: error: unknown opcode 'frobnicate'");
}

TEST(ParserErrors, WrongOperandCount) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = f32[] parameter(0)\n  ROOT a = f32[] add(p)\n}\n"),
            "t.hlo:3:22: error: 'add' takes 2 operand(s) but 'a' has 1");
}

TEST(ParserErrors, UndefinedOperand) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = f32[] parameter(0)\n  ROOT a = f32[] add(p, q)\n}\n"),
            "t.hlo:3:25: error: use of undefined value 'q' (operand of 'a')");
}

TEST(ParserErrors, DuplicateName) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = f32[] parameter(0)\n  p = f32[] parameter(1)\n  ROOT a = f32[] add(p, p)\n}\n"),
            "t.hlo:3:3: error: instruction 'p' is defined twice in computation 'e'");
}

TEST(ParserErrors, InvalidLayout) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = f32[2,3]{0,0} parameter(0)\n}\n"),
            "t.hlo:2:20: error: layout {0,0} is not a permutation of the 2 dimensions of f32[2,3]");
}

TEST(ParserErrors, OverflowingDimensions) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = f32[9223372036854775807,4] parameter(0)\n}\n"),
            "t.hlo:2:12: error: shape has more elements than a 64-bit count can hold");
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = f32[99999999999999999999] parameter(0)\n}\n"),
            "t.hlo:2:16: error: integer '99999999999999999999' is out of range for a 64-bit value");
}

TEST(ParserErrors, NegativeSize) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT p = f32[-2] parameter(0)\n}\n"),
            "t.hlo:2:16: error: dimension size -2 is negative");
}

TEST(ParserErrors, HugeConstantIsRefusedWithoutAllocating) {
  std::string msg = ErrorOf("ENTRY e {\n  ROOT c = f32[100000000000] constant({1, 2})\n}\n");
  EXPECT_NE(msg.find("has 100000000000 elements but the file has only"), std::string::npos) << msg;
}

TEST(ParserErrors, DeepNesting) {
  std::string deep = "ENTRY e {\n  ROOT p = " + std::string(5000, '(') + "f32[]" + std::string(5000, ')') +
                     " parameter(0)\n}\n";
  EXPECT_NE(ErrorOf(deep).find("shape nesting is deeper than 64"), std::string::npos);
}

TEST(ParserErrors, WrongConstantCount) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT c = f32[3] constant({1, 2})\n}\n"),
            "t.hlo:2:33: error: expected 3 values in dimension 0 of f32[3], found 2");
}

TEST(ParserErrors, ConstantOutOfRange) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  ROOT c = s8[] constant(300)\n}\n"),
            "t.hlo:2:26: error: value 300 is out of range for s8");
}

TEST(ParserErrors, UnknownComputation) {
  EXPECT_EQ(ErrorOf("ENTRY e {\n  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                    "  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=%nope\n}\n"),
            "t.hlo:4:57: error: unknown computation 'nope'");
}

TEST(ParserErrors, TwoEntries) {
  EXPECT_NE(ErrorOf("ENTRY a {\n  ROOT p = f32[] parameter(0)\n}\nENTRY b {\n  ROOT p = f32[] parameter(0)\n}\n")
                .find("t.hlo:4:7: error: more than one ENTRY computation"),
            std::string::npos);
}

TEST(Parser, AcceptsXlaSyntaxVariants) {
  // No header, no ENTRY (the last computation is the entry), no % sigils,
  // typed operands, comments, tuple-index comments, splat constants.
  const char* text = R"hlo(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(f32[] a, f32[] %b)  // comment
}
main {
  p = (f32[4]{0}, /*index=1*/s32[]) parameter(0)
  x = f32[4]{0} get-tuple-element(p), index=0
  c = f32[4] constant(2)
  m = f32[4] multiply(x, c)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(m, z), dimensions={0}, to_apply=add
}
)hlo";
  auto m = ParseHloModule(text);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ((*m)->entry()->name(), "main");
  EXPECT_EQ((*m)->entry()->root()->name(), "r");
  std::string printed = PrintModule(**m);
  EXPECT_NE(printed.find("%c = f32[4] constant(2)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("to_apply=%add"), std::string::npos);
}

TEST(Parser, KeepsUnknownAttributesVerbatim) {
  const char* text =
      "HloModule m, is_scheduled=true\n\nENTRY e {\n  p = f32[8] parameter(0)\n"
      "  ROOT a = f32[8] all-reduce(p), channel_id=1, replica_groups=[2,4]<=[8], to_apply=%e, "
      "frontend_attributes={_xla_x=\"1\"}, backend_config={\"k\":[1,2]}\n}\n";
  auto m = ParseHloModule(text);
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::string printed = PrintModule(**m);
  EXPECT_NE(printed.find("replica_groups=[2,4]<=[8]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("frontend_attributes={_xla_x=\"1\"}"), std::string::npos) << printed;
  EXPECT_NE(printed.find("backend_config={\"k\":[1,2]}"), std::string::npos) << printed;
  EXPECT_TRUE((*m)->is_scheduled());
}

TEST(Parser, LiteralsRoundTrip) {
  const char* text = R"hlo(ENTRY e {
  a = f32[2,3] constant({{1, -2.5, inf}, {-inf, nan, 1e-45}})
  b = bf16[2] constant({0.1, 3.140625})
  c = pred[3] constant({true, false, 1})
  d = c64[1] constant({(1, -2)})
  e = s4[2] constant({-8, 7})
  f = f32[0,2] constant({})
  g = (f32[], s32[2]) constant((1, {2, 3}))
  h = f32[1000] constant({...})
  ROOT t = (f32[2,3], bf16[2], pred[3], c64[1], s4[2], f32[0,2], (f32[], s32[2]), f32[1000]) tuple(a, b, c, d, e, f, g, h)
})hlo";
  auto m = ParseHloModule(text);
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::string once = PrintModule(**m);
  EXPECT_NE(once.find("constant({{1, -2.5, inf}, {-inf, nan, 1e-45}})"), std::string::npos) << once;
  EXPECT_NE(once.find("bf16[2] constant({0.100097656, 3.140625})"), std::string::npos) << once;
  EXPECT_NE(once.find("constant({true, false, true})"), std::string::npos) << once;
  EXPECT_NE(once.find("constant({(1, -2)})"), std::string::npos) << once;
  EXPECT_NE(once.find("constant({-8, 7})"), std::string::npos) << once;
  EXPECT_NE(once.find("constant({...})"), std::string::npos) << once;
  auto again = ParseHloModule(once);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(once, PrintModule(**again));
}

}  // namespace
}  // namespace hloscope
