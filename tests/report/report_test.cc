// The report folder: every section, SVG pictures, no external URLs, JSON
// schema fields, refusal without --force and atomic writes.
#include "core/report/report.h"
#include "core/report/xla_dump.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/codegen/sass.h"
#include "core/parser/parser.h"
#include "tests/report/xml_check.h"
#include "tests/support/plan_marks_module.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {
namespace fs = std::filesystem;

std::string ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

fs::path TempDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("hloscope_report_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  return d;
}

class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto m = ParseHloFile(testing::SamplesDir() + "/transformer_block.hlo");
    ASSERT_TRUE(m.ok()) << m.status().message();
    ReportOptions opts;
    opts.source = "samples/transformer_block.hlo";
    auto r = BuildReport(**m, opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    report_ = new Report(std::move(*r));
  }
  static void TearDownTestSuite() {
    delete report_;
    report_ = nullptr;
  }
  static Report* report_;
};
Report* ReportTest::report_ = nullptr;

TEST_F(ReportTest, HtmlHasEverySectionAndPictures) {
  ASSERT_NE(report_, nullptr);
  const std::string& h = report_->html;
  for (const char* id :
       {"summary", "steps", "traffic", "graph-before", "graph-after", "decisions", "timeline", "kernels", "files"})
    EXPECT_NE(h.find(std::string("<section id=\"") + id + "\">"), std::string::npos) << id;
  // The HBM traffic chart, two graphs and the timeline as inline SVG, with
  // bars, nodes, edges and buffers.
  size_t svgs = 0;
  for (size_t p = 0; (p = h.find("<svg ", p)) != std::string::npos; ++p) ++svgs;
  EXPECT_EQ(svgs, 4u);
  EXPECT_NE(h.find("class=\"node\""), std::string::npos);
  EXPECT_NE(h.find("marker-end=\"url(#hs-arrow)\""), std::string::npos);
  EXPECT_NE(h.find("class=\"lower-bound\""), std::string::npos);
  EXPECT_NE(h.find("<details>"), std::string::npos);  // folded no-op steps
  // Self-contained: no URL other than the SVG namespace, no external script/style/link.
  std::regex url("(https?:)?//[A-Za-z0-9.-]+");
  std::string stripped = std::regex_replace(h, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_FALSE(std::regex_search(stripped, std::regex("https?://"))) << "external URL in report.html";
  EXPECT_EQ(h.find("<script src"), std::string::npos);
  EXPECT_EQ(h.find("<link"), std::string::npos);
  std::string problem = CheckXml(h.substr(h.find("<html")));
  EXPECT_EQ(problem, "") << problem;
}

// HBM traffic per step: report.json's "traffic" (step 0 = the input, then
// every step) and the section's chart, one bar group per step.
TEST_F(ReportTest, TrafficPerStep) {
  ASSERT_NE(report_, nullptr);
  const auto& d = report_->data;
  ASSERT_TRUE(d.contains("traffic"));
  const auto& t = d["traffic"];
  ASSERT_EQ(t.size(), d["steps"].size() + 1);
  EXPECT_EQ(t[0]["step"], 0);
  EXPECT_EQ(t[0]["pass"], "input");
  EXPECT_EQ(t[0]["kernels"], d["initial"]["kernels"]);
  EXPECT_EQ(t[0]["bytes_read"].get<int64_t>() + t[0]["bytes_written"].get<int64_t>(), d["initial"]["hbm_bytes"]);
  EXPECT_EQ(t.back()["kernels"], d["final"]["kernels"]);
  EXPECT_EQ(t.back()["bytes_read"].get<int64_t>() + t.back()["bytes_written"].get<int64_t>(), d["final"]["hbm_bytes"]);
  for (size_t k = 1; k < t.size(); ++k) EXPECT_EQ(t[k]["step"], d["steps"][k - 1]["step"]);
  const std::string& h = report_->html;
  const size_t at = h.find("<section id=\"traffic\">");
  ASSERT_NE(at, std::string::npos);
  const std::string sec = h.substr(at, h.find("</section>", at) - at);
  size_t bars = 0;
  for (size_t p = 0; (p = sec.find("<g class=\"traffic-step\">", p)) != std::string::npos; ++p) ++bars;
  EXPECT_EQ(bars, t.size());
  EXPECT_NE(sec.find("<table>"), std::string::npos);
  EXPECT_NE(sec.find("priority_fusion"), std::string::npos);
  EXPECT_NE(h.find("<a href=\"#traffic\">"), std::string::npos);
}

TEST_F(ReportTest, JsonHasSchemaFields) {
  ASSERT_NE(report_, nullptr);
  const auto& d = report_->data;
  EXPECT_EQ(d["format"], kReportFormat);
  EXPECT_EQ(d["version"], kReportVersion);
  for (const char* k : {"module", "initial", "final", "steps", "decisions", "fusions", "graphs", "memory", "kernels", "files"})
    EXPECT_TRUE(d.contains(k)) << k;
  EXPECT_EQ(d["module"]["name"], "jit_transformer_block_fn");
  EXPECT_EQ(d["module"]["instructions"], 193);
  EXPECT_LT(d["final"]["kernels"].get<int64_t>(), d["initial"]["kernels"].get<int64_t>());
  EXPECT_GT(d["steps"].size(), 5u);
  EXPECT_GT(d["decisions"].size(), 0u);
  EXPECT_GT(d["memory"]["peak_bytes"].get<int64_t>(), 0);
  EXPECT_GE(d["memory"]["peak_bytes"].get<int64_t>(), d["memory"]["lower_bound_bytes"].get<int64_t>());
  EXPECT_GT(d["graphs"]["before"]["nodes"].get<int64_t>(), d["graphs"]["after"]["nodes"].get<int64_t>());
  // Steps are numbered 1, 2, 3... (step 0 is the input), as --step, explain and the GUI number them:
  // priority_fusion is step 52 of gpu on the transformer block, and decisions carry that number.
  for (size_t k = 0; k < d["steps"].size(); ++k) {
    EXPECT_EQ(d["steps"][k]["index"], k + 1);
    EXPECT_EQ(d["steps"][k]["step"], k + 1);
  }
  ASSERT_GT(d["steps"].size(), 52u);
  EXPECT_EQ(d["steps"][51]["pass"], "priority_fusion");
  bool priority_decision = false;
  for (const auto& x : d["decisions"])
    if (x["pass"] == "priority_fusion") {
      EXPECT_EQ(x["step"], 52) << x.dump();
      priority_decision = true;
    }
  EXPECT_TRUE(priority_decision);
  // Step deltas add up to the totals.
  int64_t di = 0;
  for (const auto& s : d["steps"]) di += s["d_instructions"].get<int64_t>();
  EXPECT_EQ(d["initial"]["instructions"].get<int64_t>() + di, d["steps"].back()["instructions"].get<int64_t>());
  // Kernels: generated for the transformer block, each with its PTX and LLVM IR files, plus the bundle.
  ASSERT_TRUE(d["kernels"]["generated"].get<bool>()) << d["kernels"]["note"];
  EXPECT_GT(d["kernels"]["list"].size(), 0u);
  size_t ptx = 0, manifest = 0;
  for (const ReportFile& f : report_->files) {
    ptx += f.name.rfind("kernels/", 0) == 0 && f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".ptx";
    manifest += f.name == "bundle/manifest.json";
  }
  EXPECT_GT(ptx, 0u);
  EXPECT_EQ(manifest, 1u);
  EXPECT_NE(report_->html.find("kernels/"), std::string::npos);
  // SASS: each generated kernel has its .sass file, ptxas's registers and
  // its occupancy on the report's device, shown in the kernels table; without
  // the tools, the report says which one is missing.
  const std::string missing_tools = codegen::MissingSassTools();
  if (missing_tools.empty()) {
    EXPECT_EQ(d["kernels"]["sass"], "made (ptxas -v, nvdisasm)");
    std::set<std::string> names;
    for (const ReportFile& f : report_->files) names.insert(f.name);
    const std::string dev = d["kernels"]["device"].get<std::string>();
    for (const auto& x : d["kernels"]["list"]) {
      if (x.contains("missing")) continue;
      ASSERT_TRUE(x.contains("resources")) << x.dump();
      EXPECT_GT(x["resources"]["registers"].get<int64_t>(), 0) << x.dump();
      ASSERT_TRUE(x["resources"]["occupancy"].contains(dev)) << x.dump();
      EXPECT_GT(x["resources"]["occupancy"][dev]["active_warps_per_sm"].get<int64_t>(), 0) << x.dump();
      bool sass = false;
      for (const auto& f : x["files"]) {
        const std::string n = f.get<std::string>();
        if (n.size() > 5 && n.substr(n.size() - 5) == ".sass") {
          sass = true;
          EXPECT_TRUE(names.count(n)) << n;
          EXPECT_NE(report_->html.find("href=\"" + n + "\""), std::string::npos) << n;
        }
      }
      EXPECT_TRUE(sass) << x.dump();
    }
    EXPECT_NE(report_->html.find("<th>registers</th>"), std::string::npos);
    EXPECT_NE(report_->html.find("occupancy on " + dev), std::string::npos);
  } else {
    EXPECT_EQ(d["kernels"]["sass"], "not made: " + missing_tools);
  }
  std::string text = report_->files[1].content;
  EXPECT_EQ(nlohmann::json::parse(text)["version"], kReportVersion);
}

TEST_F(ReportTest, WritesFolderAndRefusesWithoutForce) {
  ASSERT_NE(report_, nullptr);
  fs::path dir = TempDir("write");
  ASSERT_TRUE(WriteReportDir(dir.string(), report_->files, false).ok());
  for (const char* f : {"report.html", "report.json", "optimized.hlo"}) EXPECT_TRUE(fs::exists(dir / f)) << f;
  EXPECT_EQ(ReadAll(dir / "report.html"), report_->html);
  // The optimized module parses back.
  EXPECT_TRUE(ParseHloFile((dir / "optimized.hlo").string()).ok());
  // Existing folder: refused without force, nothing changed.
  std::ofstream(dir / "mine.txt") << "keep";
  Status s = WriteReportDir(dir.string(), {{"report.html", "other"}}, false);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--force"), std::string::npos);
  EXPECT_EQ(ReadAll(dir / "report.html"), report_->html);
  // With force: replaced as a whole.
  ASSERT_TRUE(WriteReportDir(dir.string(), {{"report.html", "other"}}, true).ok());
  EXPECT_EQ(ReadAll(dir / "report.html"), "other");
  EXPECT_FALSE(fs::exists(dir / "mine.txt"));
  // No temporary folders left next to it.
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("." + dir.filename().string() + "."), std::string::npos) << e.path();
  fs::remove_all(dir);
}

TEST(ReportWrite, FailingWriteLeavesNothingBehind) {
  fs::path dir = TempDir("fail");
  // A file name that escapes the folder is rejected after some files were written.
  Status s = WriteReportDir(dir.string(), {{"a.txt", "a"}, {"../escape.txt", "x"}}, false);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_FALSE(fs::exists(dir.parent_path() / "escape.txt"));
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("." + dir.filename().string() + "."), std::string::npos) << e.path();
}

TEST(ReportBuild, UnknownPipelineIsAnError) {
  auto m = ParseHloFile(testing::SamplesDir() + "/softmax.hlo");
  ASSERT_TRUE(m.ok());
  ReportOptions opts;
  opts.pipeline = "no-such-pipeline";
  auto r = BuildReport(**m, opts);
  EXPECT_FALSE(r.ok());
}

// With XLA's optimized module and its buffer assignment (from the committed
// --xla_dump_to folder of the softmax sample): a compare section with both
// sides' totals and an XLA timeline next to ours.
TEST(ReportBuild, ComparesWithXlaAndDrawsItsTimeline) {
  const std::string dump = std::string(HLOSCOPE_SOURCE_DIR) + "/tests/report/data/xla_dump_softmax";
  auto mods = ListXlaDump(dump);
  ASSERT_TRUE(mods.ok()) << mods.status().message();
  auto picked = PickXlaDumpModule(*mods, "jit_softmax");
  ASSERT_TRUE(picked.ok()) << picked.status().message();
  ASSERT_NE(picked->after(), nullptr);
  ASSERT_FALSE(picked->buffer_assignment.empty());
  auto xla = ParseHloFile(picked->after()->path);
  ASSERT_TRUE(xla.ok()) << xla.status().message();
  auto xba = ReadXlaBufferAssignment(picked->buffer_assignment);
  ASSERT_TRUE(xba.ok()) << xba.status().message();
  auto m = ParseHloFile(testing::SamplesDir() + "/softmax.hlo");
  ASSERT_TRUE(m.ok());
  ReportOptions opts;
  opts.compare_with = xla->get();
  opts.compare_label = "XLA after_optimizations";
  opts.xla_buffers = &*xba;
  opts.xla_buffers_label = "XLA buffer assignment";
  auto r = BuildReport(**m, opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& d = r->data;
  ASSERT_TRUE(d.contains("compare"));
  EXPECT_EQ(d["compare"]["b"]["label"], "XLA after_optimizations");
  EXPECT_EQ(d["compare"]["a"]["kernels"], d["final"]["kernels"]);
  EXPECT_GT(d["compare"]["b"]["kernels"].get<int64_t>(), 0);
  EXPECT_GT(d["compare"]["a"]["matched"].get<int64_t>(), 0);
  ASSERT_TRUE(d.contains("xla_memory"));
  EXPECT_EQ(d["xla_memory"]["peak_bytes"].get<int64_t>(), xba->peak_bytes);
  EXPECT_GT(d["xla_memory"]["buffers"].get<int64_t>(), 0);
  for (const char* id : {"<section id=\"compare\">", "<section id=\"xla-timeline\">", "href=\"#compare\"",
                         "XLA after_optimizations", "XLA&#39;s buffer timeline"})
    EXPECT_NE(r->html.find(id), std::string::npos) << id;
  // Three inline timelines/graphs plus XLA's: at least 4 <svg elements.
  size_t svgs = 0;
  for (size_t at = r->html.find("<svg"); at != std::string::npos; at = r->html.find("<svg", at + 1)) ++svgs;
  EXPECT_GE(svgs, 4u);
}

// --run cpu: the kernels run on the CPU executor, every kernel gets a
// measured time, and the outputs match the interpreter. --run cuda without a
// driver is noted, not fatal.
TEST(ReportBuild, RunFillsMeasuredTimes) {
  for (const char* device : {"cpu", "cuda"}) {
    auto m = ParseHloFile(testing::SamplesDir() + "/softmax.hlo");
    ASSERT_TRUE(m.ok());
    ReportOptions opts;
    opts.run = device;
    auto r = BuildReport(**m, opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const auto& k = r->data["kernels"];
    ASSERT_TRUE(k.contains("run")) << device;
    if (k["run"].contains("error")) {
      EXPECT_EQ(std::string(device), "cuda") << k["run"].dump();
      EXPECT_NE(r->html.find("failed"), std::string::npos);
      continue;
    }
    EXPECT_TRUE(k["run"]["matches_interpreter"].get<bool>()) << k["run"].dump();
    ASSERT_FALSE(k["list"].empty());
    for (const auto& x : k["list"]) EXPECT_TRUE(x["measured_us"].is_number()) << x.dump();
    EXPECT_NE(r->html.find("match the interpreter"), std::string::npos);
  }
}

}  // namespace
}  // namespace hloscope::report

namespace hloscope::report {
namespace {

// Never all or nothing, in the report: a kernel no emitter implements
// (a collective inside a fusion, as XLA GPU's Triton collectives) is listed as missing with its reason, a custom-call into an
// external target ("foo") as a thunk that is not a kernel of ours, and the
// section's summary line counts both; every other kernel is generated.
TEST(ReportBuild, KernelsSectionListsMissingKernelsAndExternalCalls) {
  const char* kHlo = testing::kPlanMarksHlo;
  auto m = ParseHloModule(kHlo, "plan_marks.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto r = BuildReport(**m, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& k = r->data["kernels"];
  ASSERT_TRUE(k["generated"].get<bool>()) << k.dump();
  const int64_t generated = k["counts"]["generated"].get<int64_t>();
  EXPECT_GE(generated, 1);
  EXPECT_EQ(k["counts"]["missing"], 1);
  EXPECT_EQ(k["counts"]["custom_calls"], 1);
  EXPECT_EQ(k["counts"]["collectives"], 0);
  const std::string summary = std::to_string(generated) + (generated == 1 ? " kernel" : " kernels") +
                              " generated, 1 missing, 1 custom-call thunk";
  EXPECT_EQ(k["summary"], summary);
  // The missing kernel: in the list, no files, with its reason.
  int missing = 0;
  for (const auto& x : k["list"]) {
    if (!x.contains("missing")) {
      EXPECT_FALSE(x["files"].empty()) << x.dump();
      continue;
    }
    ++missing;
    EXPECT_EQ(x["instruction"], "collective");
    EXPECT_TRUE(x["files"].empty());
    EXPECT_NE(x["missing"].get<std::string>().find("no kernel emitter for fusion %collective"), std::string::npos) << x.dump();
  }
  EXPECT_EQ(missing, 1);
  ASSERT_EQ(k["thunks"].size(), 1u) << k["thunks"].dump();
  EXPECT_EQ(k["thunks"][0]["thunk"], "custom-call");
  EXPECT_EQ(k["thunks"][0]["instruction"], "ext");
  EXPECT_EQ(k["thunks"][0]["target"], "foo");
  // The page: the summary line, the missing row with its reason, the thunks table.
  const std::string& h = r->html;
  EXPECT_NE(h.find(summary + " for sm_90"), std::string::npos);
  EXPECT_NE(h.find("<td class=\"missing\">missing</td>"), std::string::npos);
  EXPECT_NE(h.find("no kernel emitter for fusion %collective: all-reduce %ar inside the fusion"), std::string::npos);
  EXPECT_NE(h.find("Not kernels of ours (1)"), std::string::npos);
  EXPECT_NE(h.find("custom-call into external target &quot;foo&quot;"), std::string::npos);
  EXPECT_EQ(CheckXml(h), "") << "the page is not well-formed";
}

}  // namespace
}  // namespace hloscope::report
