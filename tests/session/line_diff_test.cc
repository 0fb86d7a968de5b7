#include "core/session/line_diff.h"

#include <gtest/gtest.h>

namespace hloscope {
namespace {

std::string Apply(const std::vector<DiffLine>& d, bool new_side) {
  std::string out;
  for (const DiffLine& l : d) {
    if (l.kind == DiffLine::Kind::kSame || (l.kind == DiffLine::Kind::kAdded) == new_side) {
      out.append(l.text);
      out += '\n';
    }
  }
  return out;
}

int Edits(const std::vector<DiffLine>& d) {
  int n = 0;
  for (const DiffLine& l : d) n += l.kind != DiffLine::Kind::kSame;
  return n;
}

TEST(LineDiffTest, MinimalEditsAndReconstruction) {
  std::string a = "a\nb\nc\nd\ne\nf\n", b = "a\nx\nc\nd\nf\ng\n";
  auto d = DiffLines(a, b);
  EXPECT_EQ(Apply(d, false), a);
  EXPECT_EQ(Apply(d, true), b);
  EXPECT_EQ(Edits(d), 4);  // -b +x, -e, +g
}

TEST(LineDiffTest, EqualAndEmpty) {
  EXPECT_EQ(Edits(DiffLines("a\nb\n", "a\nb\n")), 0);
  EXPECT_EQ(UnifiedDiff(DiffLines("a\nb\n", "a\nb\n"), "x", "y"), "");
  EXPECT_EQ(Edits(DiffLines("", "a\nb\n")), 2);
  EXPECT_EQ(Edits(DiffLines("a\n", "")), 1);
}

TEST(LineDiffTest, FallbackBeyondMaxEditsStillCorrect) {
  std::string a, b;
  for (int i = 0; i < 50; ++i) a += "a" + std::to_string(i) + "\n", b += "b" + std::to_string(i) + "\n";
  auto d = DiffLines(a, b, 5);
  EXPECT_EQ(Apply(d, false), a);
  EXPECT_EQ(Apply(d, true), b);
}

TEST(LineDiffTest, UnifiedHunks) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 10 ? std::string("ten") : std::to_string(i)) + "\n";
  }
  std::string u = UnifiedDiff(DiffLines(a, b), "before", "after", 2);
  EXPECT_EQ(u, "--- before\n+++ after\n@@ -8,5 +8,5 @@\n 8\n 9\n-10\n+ten\n 11\n 12\n");
}

}  // namespace
}  // namespace hloscope
