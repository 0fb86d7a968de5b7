// Bundles record random inputs as their seed and the module (a few KB), and
// reading the bundle regenerates the very same values (issue 21, item 8).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "core/codegen/codegen.h"
#include "core/eval/random_inputs.h"
#include "core/printer/printer.h"
#include "core/runtime/bundle.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

namespace fs = std::filesystem;

TEST(BundleInputs, RandomInputsAreRecordedAsSeedAndRegeneratedOnRead) {
  auto compiled = CompileFile(hloscope::testing::SamplesDir() + "/transformer_block.hlo", "gpu");
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  runtime::Bundle b;
  b.plan = compiled->codegen.plan;
  for (const auto& k : compiled->codegen.kernels) b.kernels.push_back({k.name, k.ir, k.ptx, ""});
  b.inputs = MakeRandomInputs(*compiled->module->entry(), 7);
  b.input_seed = 7;
  b.module_text = PrintModule(*compiled->module);
  const fs::path dir = fs::temp_directory_path() / ("hloscope_bundle_seed_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(runtime::WriteBundle(dir.string(), b, false).ok());
  EXPECT_FALSE(fs::exists(dir / "inputs.data.json"));
  ASSERT_TRUE(fs::exists(dir / "inputs.random.json"));
  EXPECT_LT(fs::file_size(dir / "inputs.random.json"), 200u);
  auto read = runtime::ReadBundle(dir.string());
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->inputs.size(), b.inputs.size());
  for (size_t k = 0; k < b.inputs.size(); ++k) {
    ASSERT_EQ(read->inputs[k].raw_size(), b.inputs[k].raw_size()) << k;
    EXPECT_EQ(0, std::memcmp(read->inputs[k].raw(), b.inputs[k].raw(), b.inputs[k].raw_size())) << k;
  }
  EXPECT_EQ(read->input_seed, std::optional<uint64_t>(7));
  // Written as values when asked: the random-inputs record goes away.
  b.input_seed.reset();
  ASSERT_TRUE(runtime::WriteBundle(dir.string(), b, true).ok());
  EXPECT_TRUE(fs::exists(dir / "inputs.data.json"));
  EXPECT_FALSE(fs::exists(dir / "inputs.random.json"));
  auto again = runtime::ReadBundle(dir.string());
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_FALSE(again->input_seed.has_value());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hloscope::codegen
