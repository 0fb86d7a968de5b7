// SASS and kernel resources (core/codegen/sass.h): the ptxas -v parser and
// the occupancy arithmetic on fixed inputs (each case worked out by hand
// from the CUDA occupancy rules), the instruction classes on a fixed
// listing, and, where ptxas and nvdisasm are found, every kernel of every
// sample for sm_80 and sm_90: SASS, resources and the manifest fields; the
// batched SASS of a kernel against its own cubin's.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/nvptx_backend.h"
#include "core/codegen/sass.h"
#include "core/runtime/manifest.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

constexpr const char* kPtxasLog = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'other' for 'sm_90'
ptxas info    : Function properties for other
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers
ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
    16 bytes stack frame, 24 bytes spill stores, 20 bytes spill loads
ptxas info    : Used 168 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]
ptxas info    : Compile time = 2.107 ms
)";

TEST(PtxasInfo, ReadsTheEntrysOwnBlock) {
  auto r = ParsePtxasInfo(kPtxasLog, "k");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->registers, 168);
  EXPECT_EQ(r->spill_stores, 24);
  EXPECT_EQ(r->spill_loads, 20);
  EXPECT_EQ(r->stack_bytes, 16);
  EXPECT_EQ(r->shared_bytes, 4096);
  EXPECT_EQ(r->barriers, 1);
  EXPECT_EQ(r->constant_bytes, 384);
  auto o = ParsePtxasInfo(kPtxasLog, "other");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->registers, 12);
  EXPECT_EQ(o->stack_bytes, 8);
  EXPECT_FALSE(ParsePtxasInfo(kPtxasLog, "absent").ok());
}

DeviceSpec Hopper() {
  auto d = LoadDevice("h100_sxm");
  EXPECT_TRUE(d.ok());
  return d.ok() ? *d : DeviceSpec();
}

TEST(Occupancy, EachLimitByHand) {
  const DeviceSpec h = Hopper();  // 64K registers, 228 KiB shared, 2048 threads, 32 blocks per SM
  KernelResources r;
  r.registers = 32;  // 32 * 32 = 1024 per warp: 64 warps fit
  Occupancy o = ComputeOccupancy(r, 256, 0, h);
  EXPECT_EQ(o.max_warps_per_sm, 64);
  EXPECT_EQ(o.blocks_per_sm, 8);
  EXPECT_EQ(o.active_warps_per_sm, 64);
  EXPECT_EQ(o.limited_by, "warps");
  r.registers = 168;  // 168 * 32 = 5376 → 5376 per warp (a multiple of 256): 12 warps → 1 block of 8
  o = ComputeOccupancy(r, 256, 0, h);
  EXPECT_EQ(o.blocks_per_sm, 1);
  EXPECT_EQ(o.active_warps_per_sm, 8);
  EXPECT_EQ(o.limited_by, "registers");
  r.registers = 16;
  r.shared_bytes = 48 * 1024;  // + 1 KiB reserved: 233472 / 50176 = 4 blocks
  o = ComputeOccupancy(r, 128, 0, h);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_EQ(o.active_warps_per_sm, 16);
  EXPECT_EQ(o.limited_by, "shared memory");
  r.shared_bytes = 0;
  o = ComputeOccupancy(r, 32, 0, h);  // one warp per block: 32 blocks per SM at most
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_EQ(o.active_warps_per_sm, 32);
  EXPECT_EQ(o.limited_by, "blocks");
  o = ComputeOccupancy(r, 100, 16 * 1024, h);  // 4 warps; dynamic shared counts too: 233472 / 17408 = 13
  EXPECT_EQ(o.blocks_per_sm, 13);
  EXPECT_EQ(o.limited_by, "shared memory");
}

TEST(SassClasses, CountsAFixedListing) {
  const std::string sass = R"(
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/              @!P0 LDG.E R2, desc[UR4][R2.64] ;
        /*0030*/                   FFMA R3, R2, R2, R3 ;
        /*0040*/                   HMMA.16816.F32 R4, R8, R12, R4 ;
        /*0050*/                   IMAD.WIDE R6, R0, 0x4, R6 ;
        /*0060*/                   STG.E desc[UR4][R6.64], R3 ;
        /*0070*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0080*/                   EXIT ;
        /*0090*/                   BRA `(.L_x_0) ;
)";
  SassStats s = ClassifySass(sass);
  EXPECT_EQ(s.total, 10);
  EXPECT_EQ(s.memory, 3);   // LDC, LDG, STG
  EXPECT_EQ(s.tensor, 1);   // HMMA
  EXPECT_EQ(s.fma_alu, 2);  // FFMA, IMAD
  EXPECT_EQ(s.control, 3);  // BAR, EXIT, BRA
  EXPECT_EQ(s.other, 1);    // S2R
}

// Instructions of a function in nvdisasm's text, labels and the numbers of
// ptxas's internal helper copies ($__internal_N_$__cuda_sm20_rcp_...: per
// module, so they differ between a batch and a kernel alone) made anonymous.
std::vector<std::string> Instructions(const std::string& sass) {
  static const std::regex instr(R"(/\*[0-9a-f]+\*/\s+(.*?)\s*;)");
  std::vector<std::string> out;
  std::istringstream in(sass);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, instr))
      out.push_back(std::regex_replace(std::regex_replace(std::string(m[1]), std::regex(R"(\.L_x_\d+)"), "L"),
                                       std::regex(R"(\$__internal_\d+_\$)"), "$__internal_$"));
  return out;
}


class SamplesSass : public ::testing::TestWithParam<std::string> {};

TEST_P(SamplesSass, EveryKernelGetsSassAndResourcesForSm80AndSm90) {
  if (!MissingSassTools().empty()) GTEST_SKIP() << MissingSassTools();
  for (const char* sm : {"sm_80", "sm_90"}) {
    SCOPED_TRACE(sm);
    CodegenOptions opts;
    opts.sm = sm;
    opts.sass = true;
    auto r = CompileFile(hloscope::testing::SamplesDir() + "/" + GetParam() + ".hlo", "gpu", opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const nlohmann::json manifest = runtime::ManifestToJson(r->codegen.plan);
    size_t launches = 0;
    for (size_t i = 0; i < r->codegen.kernels.size(); ++i) {
      const KernelCode& k = r->codegen.CodeOf(i);
      if (!r->codegen.kernels[i].missing.empty()) continue;
      ++launches;
      EXPECT_TRUE(k.sass_error.empty()) << k.name << ": " << k.sass_error;
      EXPECT_NE(k.sass.find(".text." + k.kernel), std::string::npos) << k.name;
      EXPECT_NE(k.sass.find(std::string(".target\t") + sm), std::string::npos) << k.name;
      EXPECT_GT(k.resources.registers, 0) << k.name;
      // Bank 0 holds at least the kernel's parameters (sm_90: from the cubin).
      EXPECT_GT(k.resources.constant_bytes, 0) << k.name;
      EXPECT_GT(k.sass_stats.total, 0) << k.name;
      EXPECT_EQ(k.sass_stats.total, static_cast<int64_t>(Instructions(k.sass).size())) << k.name;
    }
    // Every kernel thunk of the manifest names its SASS and carries its resources.
    size_t with_resources = 0;
    std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& j) {
      if (j.is_object()) {
        if (j.value("type", "") == "kernel" && !j.contains("missing")) {
          EXPECT_TRUE(j.contains("sass")) << j.value("name", "");
          ASSERT_TRUE(j.contains("resources")) << j.value("name", "");
          const auto& res = j["resources"];
          for (const char* f : {"registers", "spill_stores", "spill_loads", "shared_bytes", "barriers"})
            EXPECT_TRUE(res.contains(f)) << f;
          ASSERT_TRUE(res["occupancy"].contains("h100_sxm"));
          EXPECT_GT(res["occupancy"]["h100_sxm"]["active_warps_per_sm"].get<int>(), 0);
          EXPECT_FALSE(res["occupancy"]["h100_sxm"]["limited_by"].get<std::string>().empty());
          ++with_resources;
        }
        for (const auto& [key, v] : j.items()) walk(v);
      } else if (j.is_array()) {
        for (const auto& v : j) walk(v);
      }
    };
    walk(manifest);
    EXPECT_EQ(with_resources, launches);
  }
}

INSTANTIATE_TEST_SUITE_P(All, SamplesSass, ::testing::ValuesIn(hloscope::testing::SampleStems()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The batch (one merged module, one nvdisasm call) gives each kernel the
// code its own cubin has.
TEST(SassBatch, SameCodeAsOneKernelAlone) {
  if (!MissingSassTools().empty()) GTEST_SKIP() << MissingSassTools();
  CodegenOptions opts;
  opts.sass = true;
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/transformer_block.hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto target = FindNvptxTarget("sm_90");
  ASSERT_TRUE(target);
  int compared = 0;
  for (const KernelCode& k : r->codegen.kernels) {
    if (k.same_as >= 0 || k.ptx.empty() || compared >= 4) continue;
    auto alone = CompileToSass(k.ptx, k.kernel, *target);
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    EXPECT_EQ(Instructions(k.sass), Instructions(alone->sass)) << k.kernel;
    EXPECT_EQ(k.resources.registers, alone->resources.registers) << k.kernel;
    EXPECT_EQ(k.resources.constant_bytes, alone->resources.constant_bytes) << k.kernel;
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

// For sm_80 ptxas -v still prints `bytes cmem[0]`: the cubin's
// .nv.constant0.<kernel> section, which ConstantBankSizes reads (and sm_90
// needs), has that size. ptxas is run here directly.
TEST(SassCubin, ConstantBankSectionIsWhatPtxasReports) {
  const std::string ptxas = PtxasPath();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
  CodegenOptions opts;
  opts.sm = "sm_80";
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/softmax.hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const KernelCode* k = nullptr;
  for (const KernelCode& c : r->codegen.kernels)
    if (!k && !c.ptx.empty()) k = &c;
  ASSERT_NE(k, nullptr);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("hloscope_cmem_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "k.ptx") << k->ptx;
  const std::string cmd = ptxas + " -v -arch=sm_80 -o " + (dir / "k.cubin").string() + " " + (dir / "k.ptx").string() +
                          " > " + (dir / "log").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream log_in(dir / "log"), cubin_in(dir / "k.cubin", std::ios::binary);
  std::stringstream log, cubin;
  log << log_in.rdbuf();
  cubin << cubin_in.rdbuf();
  std::filesystem::remove_all(dir);
  ASSERT_NE(log.str().find("cmem[0]"), std::string::npos) << log.str();
  auto res = ParsePtxasInfo(log.str(), k->kernel);
  ASSERT_TRUE(res.ok()) << res.status().message();
  const auto banks = ConstantBankSizes(cubin.str());
  ASSERT_TRUE(banks.count(k->kernel)) << k->kernel;
  EXPECT_GT(res->constant_bytes, 0);
  EXPECT_EQ(banks.at(k->kernel), res->constant_bytes);
  // Not an ELF, or cut short: nothing, no crash.
  EXPECT_TRUE(ConstantBankSizes("not an elf").empty());
  EXPECT_TRUE(ConstantBankSizes(cubin.str().substr(0, 80)).empty());
}

TEST(SassTools, MissingNvdisasmIsSaidNotFatal) {
  const char* old = std::getenv("HLOSCOPE_NVDISASM");
  std::string saved = old ? old : "";
  setenv("HLOSCOPE_NVDISASM", "/nonexistent/nvdisasm", 1);
  EXPECT_EQ(NvdisasmPath(), "");
  EXPECT_NE(MissingSassTools().find("nvdisasm not found"), std::string::npos);
  EXPECT_NE(MissingSassTools().find("install_deps.sh"), std::string::npos);
  CodegenOptions opts;
  opts.sass = true;
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/softmax.hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();  // PTX as ever; the SASS says why it is absent
  for (const KernelCode& k : r->codegen.kernels) {
    if (k.same_as >= 0 || !k.missing.empty()) continue;
    EXPECT_FALSE(k.ptx.empty());
    EXPECT_TRUE(k.sass.empty());
    EXPECT_NE(k.sass_error.find("nvdisasm not found"), std::string::npos) << k.sass_error;
  }
  if (old) setenv("HLOSCOPE_NVDISASM", saved.c_str(), 1);
  else unsetenv("HLOSCOPE_NVDISASM");
}

}  // namespace
}  // namespace hloscope::codegen
