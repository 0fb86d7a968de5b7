// The report teaches (issue 30, item 2): a "What the passes do" section with
// the paragraph of every pass that ran (each step's pass links to it), and
// under each fusion decision's reason the arithmetic behind its cost numbers
// (report.json: "passes", decisions' "arithmetic"). A small module keeps it
// quick; report_test.cc covers the rest of the report.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/parser/parser.h"
#include "core/passes/pass_explanations.h"
#include "core/report/report.h"

namespace hloscope::report {
namespace {

constexpr const char* kModule = R"hlo(
HloModule teach

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  p = f32[256,512] parameter(0)
  q = f32[256,512] parameter(1)
  x = f32[256,512] multiply(p, q)
  y = f32[256,512] exponential(x)
  z = f32[] constant(0)
  ROOT r = f32[256] reduce(y, z), dimensions={1}, to_apply=add
}
)hlo";

TEST(ReportExplanations, PassesSectionAndDecisionArithmetic) {
  auto m = ParseHloModule(kModule, "teach.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ReportOptions opts;
  opts.source = "teach.hlo";
  opts.sass = false;
  auto r = BuildReport(**m, opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& d = r->data;
  const std::string& h = r->html;

  // Every pass that ran, once, with its paragraph; the HTML has an anchor
  // for each, and the steps table links to it.
  ASSERT_TRUE(d.contains("passes"));
  std::set<std::string> ran, listed;
  for (const auto& s : d["steps"]) ran.insert(s["pass"].get<std::string>());
  for (const auto& p : d["passes"]) {
    const std::string name = p["name"].get<std::string>();
    EXPECT_TRUE(listed.insert(name).second) << name;
    EXPECT_EQ(p["explanation"].get<std::string>(), std::string(PassExplanation(name)));
    EXPECT_FALSE(p["description"].get<std::string>().empty()) << name;
    EXPECT_NE(h.find("<dt id=\"pass-" + name + "\">"), std::string::npos) << name;
    EXPECT_NE(h.find("<a href=\"#pass-" + name + "\">"), std::string::npos) << name;
  }
  EXPECT_EQ(ran, listed);
  EXPECT_NE(h.find("<section id=\"passes\">"), std::string::npos);
  EXPECT_NE(h.find("<a href=\"#passes\">"), std::string::npos);
  EXPECT_NE(h.find("HBM is the warehouse"), std::string::npos);

  // Each costed decision carries its arithmetic, shown under the reason.
  ASSERT_GT(d["decisions"].size(), 0u);
  int with = 0;
  for (const auto& x : d["decisions"]) {
    ASSERT_TRUE(x.contains("arithmetic"));
    const std::string a = x["arithmetic"].get<std::string>();
    if (a.empty()) continue;
    ++with;
    EXPECT_NE(a.find("at 4.8 TB/s"), std::string::npos) << a;  // h200, the default device
    EXPECT_NE(h.find("<div class=\"muted\">" + a.substr(0, 40)), std::string::npos) << a;
  }
  EXPECT_GT(with, 0);
}

}  // namespace
}  // namespace hloscope::report
