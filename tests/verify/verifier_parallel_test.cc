// The verifier's per-instruction checks run on several threads for large
// modules; the messages and their order must be those of one thread, for
// every mix of errors and every error limit.
#include <filesystem>
#include <set>

#include "tests/support/test_paths.h"
#include "tests/verify/verify_test_util.h"

namespace hloscope {
namespace {

using testing::FindInstr;
using testing::ParseOrDie;
using testing::Verify;

VerifyOptions Threads(int n, int max_errors = 20) {
  VerifyOptions o;
  o.threads = n;
  o.parallel_min_instructions = 0;
  o.max_errors = max_errors;
  return o;
}

// `n` independent negates of one parameter; the ones in `bad_shape` declare a
// wrong shape, the ones in `bad_form` call a computation they cannot take.
std::string Module(int n, const std::set<int>& bad_shape, const std::set<int>& bad_form) {
  std::string s =
      "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, "
      "b)\n}\n\n"
      "ENTRY e {\n  p = f32[8] parameter(0)\n";
  for (int i = 0; i < n; ++i) {
    s += "  v" + std::to_string(i) + " = f32[" + (bad_shape.count(i) ? "3" : "8") + "] negate(p)";
    if (bad_form.count(i)) s += ", to_apply=add";
    s += "\n";
  }
  s += "  ROOT r = f32[8] copy(p)\n}\n";
  return s;
}

TEST(VerifierParallel, MessagesAreThoseOfOneThread) {
  const int n = 5000;
  struct Case {
    const char* what;
    std::set<int> shape, form;
  };
  std::set<int> many;
  for (int i = 7; i < n; i += 151) many.insert(i);  // 33, spread over every run
  const Case cases[] = {
      {"no errors", {}, {}},
      {"one late shape error", {4990}, {}},
      {"shape errors everywhere", many, {}},
      {"form error after shape errors", many, {4000}},
      {"form errors everywhere", {}, many},
      {"both everywhere", many, {3, 1500, 1501, 4999}},
      {"errors at run edges", {1023, 1024, 2047, 2048}, {3071, 3072}},
  };
  for (const Case& c : cases) {
    auto m = ParseOrDie(Module(n, c.shape, c.form));
    ASSERT_TRUE(m);
    for (int limit : {1, 3, 20, 100}) {
      const std::string serial = Verify(*m, Threads(1, limit));
      if (c.shape.empty() && c.form.empty())
        EXPECT_EQ(serial, "OK");
      else
        EXPECT_NE(serial, "OK") << c.what;
      for (int threads : {2, 3, 4})
        EXPECT_EQ(Verify(*m, Threads(threads, limit)), serial)
            << c.what << ", limit " << limit << ", " << threads << " threads";
    }
  }
}

// A chain v0 = negate(p), v(i) = negate(v(i-1)) with a fusion and a reduce.
std::string Chain(int n) {
  std::string s =
      "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n"
      "fused {\n  fp = f32[8] parameter(0)\n  ROOT fn = f32[8] negate(fp)\n}\n\n"
      "ENTRY e {\n  p = f32[8] parameter(0)\n  z = f32[] constant(0)\n  v0 = f32[8] negate(p)\n";
  for (int i = 1; i < n; ++i)
    s += "  v" + std::to_string(i) + " = f32[8] negate(v" + std::to_string(i - 1) + ")\n";
  s += "  f = f32[8] fusion(v" + std::to_string(n - 1) + "), kind=kLoop, calls=fused\n";
  s += "  ROOT r = f32[] reduce(f, z), dimensions={0}, to_apply=add\n}\n";
  return s;
}

// The structural checks run on threads too; whatever they find wrong, the
// message is the serial walk's.
TEST(VerifierParallel, StructureErrorsAreThoseOfOneThread) {
  const int n = 5000;
  struct Case {
    const char* what;
    bool ok;
    void (*corrupt)(hloscope::Module&);
  };
  const Case cases[] = {
      {"intact", true, [](hloscope::Module&) {}},
      {"duplicate name", false, [](hloscope::Module& m) { FindInstr(m, "v4000")->set_name("v10"); }},
      {"duplicate name at a run edge", false, [](hloscope::Module& m) { FindInstr(m, "v1024")->set_name("v1023"); }},
      {"ids out of order, no cycle", true,
       [](hloscope::Module& m) { FindInstr(m, "v100")->ReplaceOperand(0, FindInstr(m, "p")); }},
      {"cycle", false, [](hloscope::Module& m) { FindInstr(m, "v100")->ReplaceOperand(0, FindInstr(m, "v4000")); }},
      {"parameter number", false, [](hloscope::Module& m) { FindInstr(m, "p")->set_parameter_number(1); }},
      {"wrong parent", false,
       [](hloscope::Module& m) { FindInstr(m, "v2000")->set_parent(FindInstr(m, "fn")->parent()); }},
      {"unused fused instruction", false,
       [](hloscope::Module& m) { FindInstr(m, "fn")->parent()->set_root(FindInstr(m, "fp")); }},
      {"missing operand", false, [](hloscope::Module& m) { FindInstr(m, "v3000")->AppendOperandPlaceholder(); }},
      // One user entry for an operand used twice: the structure holds (the
      // arity check then fails).
      {"repeated operand", false, [](hloscope::Module& m) { FindInstr(m, "v3000")->AppendOperand(FindInstr(m, "v2999")); }},
  };
  for (const Case& c : cases) {
    auto m = ParseOrDie(Chain(n));
    ASSERT_TRUE(m);
    c.corrupt(*m);
    const std::string serial = Verify(*m, Threads(1));
    if (c.ok)
      EXPECT_EQ(serial, "OK") << c.what;
    else
      EXPECT_NE(serial, "OK") << c.what;
    for (int threads : {2, 3}) EXPECT_EQ(Verify(*m, Threads(threads)), serial) << c.what << ", " << threads;
  }
}

TEST(VerifierParallel, SmallModulesAndTheDefaultsAgree) {
  auto m = ParseOrDie(Module(20000, {19999}, {}));
  ASSERT_TRUE(m);
  const std::string serial = Verify(*m, Threads(1));
  EXPECT_NE(serial.find("v19999: has shape f32[3]"), std::string::npos) << serial;
  EXPECT_EQ(Verify(*m), serial);  // defaults: threads for a module this large when the machine has them
  EXPECT_EQ(Verify(*m, Threads(2)), serial);
}

TEST(VerifierParallel, CorpusAndSamplesAgree) {
  const std::vector<std::string> files = testing::SampleAndCorpusHloFiles();
  int failing = 0;
  for (const auto& f : files) {
    auto m = ParseHloFile(f);
    if (!m.ok()) continue;
    const std::string serial = Verify(**m, Threads(1));
    failing += serial != "OK";
    EXPECT_EQ(Verify(**m, Threads(3)), serial) << f;
  }
  if (!testing::SharedDir().empty()) EXPECT_GT(failing, 0);  // some corpus modules do not verify
}

}  // namespace
}  // namespace hloscope
