// XLA GPU's own cost estimate of each instruction (core/report/xla_costs.h):
// the table's reader on inline text (errors at file:line:column), then every
// committed reference's xla_costs.tsv: its rows counted against a plain
// count of its lines (not against the reader), every name an instruction of
// the module XLA's priority fusion started from, and our cost model within
// 5% or 0.3 ns of XLA's on at least the share measured when it was written.
#include "core/report/xla_costs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {
namespace fs = std::filesystem;

constexpr const char* kHeader =
    "# XLA GPU's cost-model estimate\n"
    "name\tblocks\tthreads\tflops\tbytes_read\tbytes_written\tread_ns\twrite_ns\tcompute_ns\texec_ns\n";

TEST(XlaCosts, ReadsEveryField) {
  auto t = ParseXlaCosts(std::string(kHeader) + "add.16.0\t1\t8\t56\t64\t32\t1\t0\t1.75\t1.75\n\n", "c.tsv");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->rows.size(), 1u);
  const XlaInstructionCost& c = t->rows[0];
  EXPECT_EQ(c.name, "add.16.0");
  EXPECT_EQ(c.blocks, 1);
  EXPECT_EQ(c.threads, 8);
  EXPECT_DOUBLE_EQ(c.flops, 56);
  EXPECT_EQ(c.bytes_read, 64);
  EXPECT_EQ(c.bytes_written, 32);
  EXPECT_DOUBLE_EQ(c.compute_ns, 1.75);
  EXPECT_DOUBLE_EQ(c.exec_ns, 1.75);
  EXPECT_EQ(c.line, 3);
}

TEST(XlaCosts, MalformedTablesAreLocatedErrors) {
  auto no_header = ParseXlaCosts("add.1\t1\t8\t56\t64\t32\t1\t0\t1.75\t1.75\n", "a.tsv");
  ASSERT_FALSE(no_header.ok());
  EXPECT_EQ(no_header.status().message().rfind("a.tsv:1:1: error: expected the header", 0), 0u)
      << no_header.status().message();
  auto bad_number = ParseXlaCosts(std::string(kHeader) + "add.1\t1\tmany\t56\t64\t32\t1\t0\t1.75\t1.75\n", "b.tsv");
  ASSERT_FALSE(bad_number.ok());
  EXPECT_EQ(bad_number.status().message(), "b.tsv:3:9: error: threads is not a number");
  auto short_line = ParseXlaCosts(std::string(kHeader) + "add.1\t1\t8\n", "c.tsv");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message().find("c.tsv:3:1: error: expected 10 tab-separated fields, found 3"),
            std::string::npos);
  EXPECT_FALSE(ParseXlaCosts("", "d.tsv").ok());
  EXPECT_FALSE(ParseXlaCosts(std::string(kHeader) + "x\t1\t1\t-3\t0\t0\t0\t0\t0\t0\n", "e.tsv").ok());
  EXPECT_FALSE(ReadXlaCosts("/nonexistent/folder").ok());
  EXPECT_FALSE(XlaModuleBeforeFusion("fusion_steps { }\n", "f.txt").ok());
  EXPECT_FALSE(XlaModuleBeforeFusion("hlo_module_before_fusion: \"HloModule m\n", "g.txt").ok());
}

// The instructions within tolerance, measured 2026-12-05 after the column
// reductions' launch and the unfused x·x's two reads: attention 16/16,
// embedding_xent 26/28, layer_norm 4/4, mlp_gelu 95/95, resnet_block 77/78,
// resnet_block_large 83/84, scan_rnn 8/9, softmax 1/1, transformer_block
// 31/31, transformer_train_step 805/809 (796 before those two). What is
// left: a concatenate, to which XLA's model gives 153,600 flops, a scatter
// and a while loop's dynamic slices; and the launch of large loop kernels,
// which XLA unrolls (4 elements a thread, a quarter of the blocks) without
// a change in time, as they have enough blocks either way.
const std::map<std::string, int64_t> kWithinFloor = {
    {"attention", 16},          {"attention_large", 16},  {"embedding_xent", 26},    {"layer_norm", 4},
    {"layer_norm_large", 4},    {"mlp_gelu", 95},         {"mlp_gelu_bf16", 0},      {"mlp_gelu_large", 95},
    {"resnet_block", 77},       {"resnet_block_large", 83}, {"scan_rnn", 8},         {"softmax", 1},
    {"transformer_block", 31},  {"transformer_block_large", 31}, {"transformer_train_step", 805}};

TEST(XlaCosts, CommittedReferencesAgreeWithOurCostModel) {
  auto h100 = LoadDevice("h100_sxm");
  ASSERT_TRUE(h100.ok());
  int tables = 0;
  for (const auto& e : fs::directory_iterator(testing::SamplesDir() + "/xla_gpu")) {
    const fs::path tsv = e.path() / "xla_costs.tsv";
    if (!fs::exists(tsv)) continue;
    const std::string stem = e.path().filename().string();
    SCOPED_TRACE(stem);
    ++tables;
    // Rows: the lines that are neither comments nor the header.
    std::ifstream in(tsv);
    std::string line;
    int64_t lines = 0;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#' && line.rfind("name\t", 0) != 0) ++lines;
    auto table = ReadXlaCosts(e.path().string());
    ASSERT_TRUE(table.ok()) << table.status().message();
    EXPECT_EQ(static_cast<int64_t>(table->rows.size()), lines);
    auto dump = ReadFileToString((e.path() / "priority_fusion_dump.txt").string());
    ASSERT_TRUE(dump.ok());
    auto before = XlaModuleBeforeFusion(*dump, "priority_fusion_dump.txt");
    ASSERT_TRUE(before.ok()) << before.status().message();
    std::set<std::string> names;
    for (const auto& c : (*before)->computations())
      for (const auto& i : c->instructions()) names.insert(i->name());
    for (const XlaInstructionCost& r : table->rows) EXPECT_TRUE(names.count(r.name)) << r.name;
    InstructionCostComparison cmp = CompareInstructionCosts(**before, *table, *h100);
    auto floor = kWithinFloor.find(stem);
    ASSERT_NE(floor, kWithinFloor.end()) << "no floor for " << stem;
    EXPECT_GE(cmp.within, floor->second) << cmp.within << " of " << cmp.compared;
    if (stem == "transformer_train_step") {
      EXPECT_GE(cmp.compared, 800);
      EXPECT_GE(cmp.same_launch, 800);
    }
  }
  EXPECT_EQ(tables, 15);
}

}  // namespace
}  // namespace hloscope::report
