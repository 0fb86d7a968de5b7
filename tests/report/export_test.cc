// Picture exports (graph SVG/DOT/PNG, timeline SVG/PNG), the PNG encoder,
// compare on samples against XLA's CPU module, and XLA dump reading.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/cost/device.h"
#include "core/layout/graph_layout.h"
#include "core/layout/palette.h"
#include "core/memory/buffer_assignment.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/report/compare.h"
#include "core/report/graph_svg.h"
#include "core/report/png.h"
#include "core/report/timeline.h"
#include "core/report/xla_dump.h"
#include "tests/report/xml_check.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {
namespace fs = std::filesystem;

std::unique_ptr<Module> Load(const std::string& stem, const std::string& pipeline = "") {
  auto m = ParseHloFile(testing::SamplesDir() + "/" + stem);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok()) return nullptr;
  if (!pipeline.empty()) {
    auto p = PassRegistry::Global().BuildPipeline(pipeline);
    EXPECT_TRUE(p.ok());
    EXPECT_TRUE((*p)->Run(**m).ok());
  }
  return std::move(*m);
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = 0; (p = s.find(what, p)) != std::string::npos; p += what.size()) ++n;
  return n;
}

TEST(GraphExport, SvgIsWellFormedWithNodesEdgesAndClusters) {
  auto m = Load("softmax.hlo", "gpu");
  ASSERT_TRUE(m);
  auto snap = ModuleSnapshot::Capture(*m);
  layout::GraphOptions go;
  go.expand_fusions = true;
  auto laid = LayOutSnapshot(*snap, go);
  ASSERT_TRUE(laid.ok()) << laid.status().message();
  std::string svg = RenderGraphSvg(*laid, {"softmax after gpu", true, 0});
  EXPECT_EQ(CheckXml(svg), "");
  EXPECT_EQ(Count(svg, "class=\"node\""), laid->graph.nodes.size());
  EXPECT_EQ(Count(svg, "marker-end="), laid->graph.edges.size());
  EXPECT_GT(laid->graph.clusters.size(), 0u);
  EXPECT_NE(svg.find(std::string(layout::kFusionClusterBorder)), std::string::npos);
  EXPECT_NE(svg.find("exp.1"), std::string::npos);
}

TEST(GraphExport, DotRendersWithGraphvizDot) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no dot binary";
  auto m = Load("transformer_block.hlo", "gpu");
  ASSERT_TRUE(m);
  auto snap = ModuleSnapshot::Capture(*m);
  auto parsed = ParseHloModule(snap->text);
  ASSERT_TRUE(parsed.ok());
  auto g = layout::BuildGraph(**parsed, *snap, {});
  ASSERT_TRUE(g.ok()) << g.status().message();
  fs::path dot = fs::temp_directory_path() / ("hs_export_" + std::to_string(::getpid()) + ".dot");
  fs::path svg = dot;
  svg.replace_extension(".svg");
  std::ofstream(dot) << layout::ToDot(*g);
  std::string cmd = "dot -Tsvg " + dot.string() + " -o " + svg.string() + " 2>/dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_GT(fs::file_size(svg), 1000u);
  fs::remove(dot);
  fs::remove(svg);
}

TEST(GraphExport, PngThroughGraphviz) {
  auto png = RenderDotPng("digraph g { a -> b; }");
  if (!png.ok()) GTEST_SKIP() << png.status().message();
  ASSERT_GT(png->size(), 8u);
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_FALSE(RenderDotPng("digraph { this is not dot").ok());
}

TEST(Timeline, SvgAndPng) {
  auto m = Load("transformer_block.hlo", "gpu");
  ASSERT_TRUE(m);
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok());
  std::string svg = RenderTimelineSvg(**ba);
  EXPECT_EQ(CheckXml(svg), "");
  EXPECT_EQ(Count(svg, "<rect"), (*ba)->buffers.size() + 2 /*background, plot*/ + 4 /*legend*/);
  EXPECT_NE(svg.find("class=\"lower-bound\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"peak\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"live-curve\""), std::string::npos);
  std::string png = RenderTimelinePng(**ba, {"", 640, 320, true});
  ASSERT_GT(png.size(), 50u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  if (std::system("command -v python3 >/dev/null 2>&1") == 0) {
    fs::path f = fs::temp_directory_path() / ("hs_timeline_" + std::to_string(::getpid()) + ".png");
    std::ofstream(f, std::ios::binary) << png;
    // zlib (Python's) decodes our deflate stream to exactly height × (1 + 3 × width) bytes.
    std::string cmd = "python3 -c \"import zlib,struct,sys; d=open('" + f.string() +
                      "','rb').read(); n=struct.unpack('>I',d[33:37])[0]; r=zlib.decompress(d[41:41+n]); "
                      "sys.exit(0 if len(r)==320*(1+3*640) else 1)\"";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    fs::remove(f);
  }
}

TEST(Png, ZlibStreamRoundTripsKnownValues) {
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(Adler32("Wikipedia"), 0x11E60398u);
  Raster r(3, 2);
  r.Set(1, 1, ParseColor("#ff0000"));
  EXPECT_EQ(r.Get(1, 1).r, 255);
  EXPECT_EQ(r.Get(1, 1).g, 0);
  EXPECT_EQ(r.Get(0, 0).g, 255);
  EXPECT_EQ(ParseColor("bogus").r, 255);
}

TEST(Compare, TransformerBlockAgainstXlaCpu) {
  auto ours = Load("transformer_block.hlo", "gpu");
  auto xla = Load("transformer_block.xla_cpu_optimized.hlo");
  ASSERT_TRUE(ours && xla);
  CompareResult r = CompareModules(*ours, *xla, CurrentDevice());
  EXPECT_GT(r.a.kernels, 0);
  EXPECT_GT(r.b.kernels, 0);
  EXPECT_GT(r.a.hbm_bytes, 0);
  EXPECT_GT(r.b.hbm_bytes, 0);
  EXPECT_GT(r.a.fusions, 0);
  EXPECT_GT(r.b.fusions, 0);
  EXPECT_GT(r.a.matched, r.a.ops / 3) << CompareToText(r);
  EXPECT_FALSE(r.fused_only_in_a.empty() && r.fused_only_in_b.empty()) << CompareToText(r);
  std::string text = CompareToText(r);
  EXPECT_NE(text.find("fused together in B, not in A"), std::string::npos);
  auto j = nlohmann::json::parse(CompareToJson(r));
  EXPECT_EQ(j["format"], "hloscope-compare-v1");
  EXPECT_EQ(j["a"]["kernels"], r.a.kernels);
}

TEST(Compare, SoftmaxAgainstXlaCpu) {
  auto ours = Load("softmax.hlo", "gpu");
  auto xla = Load("softmax.xla_cpu_optimized.hlo");
  ASSERT_TRUE(ours && xla);
  CompareResult r = CompareModules(*ours, *xla, CurrentDevice());
  EXPECT_GT(r.a.matched, 0);
  EXPECT_EQ(r.a.matched, r.b.matched);
  EXPECT_EQ(r.b.fusions, 4);
  EXPECT_FALSE(r.fused_only_in_a.empty() && r.fused_only_in_b.empty()) << CompareToText(r);
}

TEST(Compare, ModuleAgainstItselfMatchesEverythingWithNoDifferences) {
  auto a = Load("attention.hlo", "gpu");
  auto b = Load("attention.hlo", "gpu");
  ASSERT_TRUE(a && b);
  CompareResult r = CompareModules(*a, *b, CurrentDevice());
  EXPECT_EQ(r.a.matched, r.a.ops);
  EXPECT_TRUE(r.fused_only_in_a.empty());
  EXPECT_TRUE(r.fused_only_in_b.empty());
  EXPECT_EQ(r.a.kernels, r.b.kernels);
}

const std::string kDump = std::string(HLOSCOPE_SOURCE_DIR) + "/tests/report/data/xla_dump_softmax";

TEST(XlaDump, ListsModulesAndStepsInOrder) {
  auto mods = ListXlaDump(kDump);
  ASSERT_TRUE(mods.ok()) << mods.status().message();
  ASSERT_EQ(mods->size(), 2u);
  const XlaDumpModule& m = (*mods)[1];
  EXPECT_EQ(m.id, "module_0005");
  EXPECT_EQ(m.name, "jit_softmax");
  ASSERT_EQ(m.steps.size(), 4u);
  EXPECT_EQ(m.steps[0].kind, XlaDumpStep::Kind::kBefore);
  EXPECT_EQ(m.steps[1].index, 4);
  EXPECT_EQ(m.steps[2].index, 15);
  EXPECT_NE(m.steps[2].label.find("after_fusion"), std::string::npos);
  EXPECT_EQ(m.steps[3].kind, XlaDumpStep::Kind::kAfter);
  EXPECT_FALSE(m.buffer_assignment.empty());
  for (const auto& s : m.steps) EXPECT_TRUE(ParseHloFile(s.path).ok()) << s.path;
  auto picked = PickXlaDumpModule(*mods, "");
  ASSERT_TRUE(picked.ok());
  EXPECT_EQ(picked->name, "jit_softmax");
  EXPECT_TRUE(PickXlaDumpModule(*mods, "1").ok());
  EXPECT_FALSE(PickXlaDumpModule(*mods, "jit_nothing").ok());
  EXPECT_FALSE(ListXlaDump(kDump + "/nope").ok());
}

TEST(XlaDump, ParsesBufferAssignment) {
  auto ba = ReadXlaBufferAssignment(kDump + "/module_0005.jit_softmax.cpu_after_optimizations-buffer-assignment.txt");
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  // allocations 0..10 minus six thread-local ones.
  EXPECT_EQ(ba->allocations.size(), 5u);
  EXPECT_EQ(ba->buffers.size(), 7u);
  EXPECT_EQ(ba->peak_bytes, 16);        // preallocated-temp
  EXPECT_EQ(ba->lower_bound_bytes, 16);
  EXPECT_EQ(ba->output_bytes, 256);
  EXPECT_EQ(ba->parameter_bytes, 256);
  EXPECT_EQ(ba->sequence.size(), 7u);
  const AssignedBuffer* sub = nullptr;
  for (const auto& b : ba->buffers)
    if (b.instruction == "subtract_exponential_fusion") sub = &b;
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->start, 3);
  EXPECT_EQ(sub->end, 6);
  EXPECT_EQ(sub->bytes, 256);
  EXPECT_EQ(sub->kind, BufferKind::kOutput);
  EXPECT_EQ(CheckXml(RenderTimelineSvg(*ba)), "");
}

TEST(XlaDump, MalformedBufferAssignmentIsALocatedError) {
  auto r = ParseXlaBufferAssignment("BufferAssignment:\nallocation x: size 4, constant:\n", "f.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("f.txt:2: error:", 0), 0u) << r.status().message();
  auto v = ParseXlaBufferAssignment("allocation 0: size 4, constant:\n value: <1 c @0> (size=4,offset=z): f32[]\n", "g.txt");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message().rfind("g.txt:2: error:", 0), 0u) << v.status().message();
  EXPECT_FALSE(ParseXlaBufferAssignment("hello\n", "h.txt").ok());
}

}  // namespace
}  // namespace hloscope::report
