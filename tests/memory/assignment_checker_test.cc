// The independent clobber checker (core/memory/assignment_checker.h): it
// catches an overwrite the assignment's own bookkeeping does not know about,
// and finds none on the samples and on every corpus module, after `simplify`
// and after `gpu`. The donated-parameter module is the shape of the bug real
// training steps had: a parameter read, updated in place, and read again.
#include <gtest/gtest.h>

#include <fstream>

#include "core/memory/assignment_checker.h"
#include "core/memory/buffer_assignment.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/pipeline.h"
#include "core/verify/verifier.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

std::string Donated() { return testing::SourceDir() + "/tests/memory/data/donated_train_step.hlo"; }

std::string Describe(const ClobberReport& r) {
  std::string s = std::to_string(r.clobbered_values) + " of " + std::to_string(r.values) + " values clobbered";
  for (const Clobber& c : r.clobbers) s += "\n  " + c.ToString();
  return s;
}

TEST(AssignmentChecker, FindsAnOverwriteTheAliasSetsDoNotKnow) {
  auto m = ParseHloFile(Donated());
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto ba = AssignBuffers(**m);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  EXPECT_EQ(FindClobbers(**m, **ba).clobbered_values, 0);
  // Put `m1` (written at its position) on the bytes of parameter `w`, which
  // is read after it, leaving aliases and reasons as they were.
  BufferAssignment bad = **ba;
  const AssignedBuffer* w = nullptr;
  AssignedBuffer* m1 = nullptr;
  for (auto& b : bad.buffers) {
    if (b.instruction == "w") w = &b;
    if (b.instruction == "m1") m1 = &b;
  }
  ASSERT_TRUE(w && m1);
  m1->allocation = w->allocation;
  m1->offset = w->offset;
  ClobberReport r = FindClobbers(**m, bad);
  ASSERT_EQ(r.clobbered_values, 1) << Describe(r);
  EXPECT_EQ(r.clobbers[0].victim, "w");
  EXPECT_EQ(r.clobbers[0].writer, "m1");
  EXPECT_LT(r.clobbers[0].victim_defined, r.clobbers[0].written_at);
  EXPECT_LT(r.clobbers[0].written_at, r.clobbers[0].victim_last_read);
}

TEST(AssignmentChecker, DonatedParameterIsNotOverwrittenWhileStillRead) {
  auto m = ParseHloFile(Donated());
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto ba = AssignBuffers(**m);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  ClobberReport r = FindClobbers(**m, **ba);
  EXPECT_EQ(r.clobbered_values, 0) << Describe(r);
  // The alias it could not honour is said, with why.
  bool said = false;
  for (const auto& b : (*ba)->buffers)
    said |= b.instruction == "upd" && b.share_reason.find("not taken") != std::string::npos;
  EXPECT_TRUE(said);
}

ClobberReport After(const std::string& path, const std::string& pipeline, std::string* error) {
  auto m = ParseHloFile(path);
  if (!m.ok() || !VerifyModule(**m).ok()) {
    *error = "skip";
    return {};
  }
  auto p = PassRegistry::Global().BuildPipeline(pipeline);
  auto ran = (*p)->Run(**m);
  if (!ran.ok()) {
    *error = ran.status().message();
    return {};
  }
  auto ba = AssignBuffers(**m);
  if (!ba.ok()) {
    *error = ba.status().message();
    return {};
  }
  return FindClobbers(**m, **ba);
}

TEST(AssignmentChecker, NoClobbersOnSamplesOrCorpusAfterSimplifyAndGpu) {
  std::vector<std::string> files = testing::SampleAndCorpusHloFiles();
  int checked = 0;
  int64_t values = 0;
  for (const std::string& f : files) {
    for (const char* pipeline : {"simplify", "gpu"}) {
      std::string error;
      ClobberReport r = After(f, pipeline, &error);
      if (error == "skip") continue;  // does not verify (known corpus modules)
      EXPECT_EQ(error, "") << f << " (" << pipeline << ")";
      EXPECT_EQ(r.clobbered_values, 0) << f << " (" << pipeline << "): " << Describe(r);
      values += r.values;
      ++checked;
    }
  }
  std::printf("%d module/pipeline pairs checked, %lld values, no clobbers\n", checked, static_cast<long long>(values));
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace hloscope
