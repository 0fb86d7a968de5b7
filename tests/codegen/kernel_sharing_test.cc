// Launches of identical fused computations share one kernel (XLA's kernel
// reuse): what counts as identical (KernelKey), the plan and bundle fields
// that name the shared kernel, and that the shared code runs correctly.
#include <filesystem>
#include <map>

#include <gtest/gtest.h>
#include <unistd.h>

#include "core/codegen/kernel_key.h"
#include "core/parser/parser.h"
#include "core/runtime/bundle.h"
#include "core/runtime/manifest.h"
#include "tests/codegen/codegen_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

// f1 and f2 compute the same thing under other names, parameter names and
// metadata; f3 has another constant, f4 another layout.
const char* kModule = R"(HloModule m

%fa (x: f32[8,16], y: f32[8,16]) -> f32[8,16] {
  %x = f32[8,16]{1,0} parameter(0)
  %y = f32[8,16]{1,0} parameter(1)
  %m = f32[8,16]{1,0} multiply(%x, %y), metadata={op_name="jit(f)/mul"}
  %c = f32[] constant(2)
  %b = f32[8,16]{1,0} broadcast(%c), dimensions={}
  ROOT %a = f32[8,16]{1,0} add(%m, %b)
}

%fb (p0.7: f32[8,16], p1.9: f32[8,16]) -> f32[8,16] {
  %p0.7 = f32[8,16]{1,0} parameter(0)
  %p1.9 = f32[8,16]{1,0} parameter(1)
  %mul.3 = f32[8,16]{1,0} multiply(%p0.7, %p1.9), metadata={op_name="jit(f)/layer_2/mul"}
  %two = f32[] constant(2)
  %bc = f32[8,16]{1,0} broadcast(%two), dimensions={}
  ROOT %sum = f32[8,16]{1,0} add(%mul.3, %bc)
}

%fc (x: f32[8,16], y: f32[8,16]) -> f32[8,16] {
  %x = f32[8,16]{1,0} parameter(0)
  %y = f32[8,16]{1,0} parameter(1)
  %m = f32[8,16]{1,0} multiply(%x, %y)
  %c = f32[] constant(3)
  %b = f32[8,16]{1,0} broadcast(%c), dimensions={}
  ROOT %a = f32[8,16]{1,0} add(%m, %b)
}

%fd (x: f32[8,16], y: f32[8,16]) -> f32[8,16] {
  %x = f32[8,16]{0,1} parameter(0)
  %y = f32[8,16]{0,1} parameter(1)
  %m = f32[8,16]{0,1} multiply(%x, %y)
  %c = f32[] constant(2)
  %b = f32[8,16]{0,1} broadcast(%c), dimensions={}
  ROOT %a = f32[8,16]{0,1} add(%m, %b)
}

ENTRY %e (p: f32[8,16], q: f32[8,16], r: f32[8,16]{0,1}) -> (f32[8,16], f32[8,16], f32[8,16], f32[8,16]{0,1}) {
  %p = f32[8,16]{1,0} parameter(0)
  %q = f32[8,16]{1,0} parameter(1)
  %r = f32[8,16]{0,1} parameter(2)
  %f1 = f32[8,16]{1,0} fusion(%p, %q), kind=kLoop, calls=%fa
  %f2 = f32[8,16]{1,0} fusion(%f1, %q), kind=kLoop, calls=%fb
  %f3 = f32[8,16]{1,0} fusion(%f2, %p), kind=kLoop, calls=%fc
  %f4 = f32[8,16]{0,1} fusion(%r, %r), kind=kLoop, calls=%fd
  ROOT %t = (f32[8,16]{1,0}, f32[8,16]{1,0}, f32[8,16]{1,0}, f32[8,16]{0,1}) tuple(%f1, %f2, %f3, %f4)
}
)";

const KernelCode* ByInstruction(const CodegenResult& r, const std::string& instr) {
  for (const KernelCode& k : r.kernels)
    if (k.instruction == instr) return &k;
  return nullptr;
}

// Where the "kernel" value of the thunk of `instr` is in manifest text, and it.
size_t KernelFieldAt(const std::string& manifest, const std::string& instr) {
  size_t at = manifest.find("\"instruction\": \"" + instr + "\"");
  if (at == std::string::npos) return at;
  at = manifest.rfind("\"kernel\": \"", at);
  return at == std::string::npos ? at : at + 11;
}
std::string KernelFieldOf(const std::string& manifest, const std::string& instr) {
  size_t at = KernelFieldAt(manifest, instr);
  return at == std::string::npos ? "" : manifest.substr(at, manifest.find('"', at) - at);
}

TEST(KernelSharing, IdenticalFusionsShareOneKernel) {
  auto r = CompileText(kModule, "test.hlo", "", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const CodegenResult& cg = r->codegen;
  ASSERT_EQ(cg.kernels.size(), 4u);
  EXPECT_EQ(cg.distinct, 3u);
  const KernelCode *f1 = ByInstruction(cg, "f1"), *f2 = ByInstruction(cg, "f2"), *f3 = ByInstruction(cg, "f3"),
                   *f4 = ByInstruction(cg, "f4");
  ASSERT_TRUE(f1 && f2 && f3 && f4);
  EXPECT_EQ(f1->same_as, -1);
  EXPECT_EQ(f2->kernel, f1->name);  // f2 launches f1's kernel
  EXPECT_TRUE(f2->ptx.empty());
  EXPECT_EQ(f3->kernel, f3->name);  // another constant: its own kernel
  EXPECT_EQ(f4->kernel, f4->name);  // another layout: its own kernel
  const size_t i2 = static_cast<size_t>(f2 - cg.kernels.data());
  EXPECT_EQ(&cg.CodeOf(i2), f1);
  std::vector<const runtime::KernelThunk*> thunks = runtime::AllKernels(cg.plan);
  ASSERT_EQ(thunks.size(), 4u);
  EXPECT_EQ(runtime::KernelFunction(*thunks[i2]), f1->name);
  EXPECT_EQ(thunks[i2]->kind, "loop");
  EXPECT_EQ(thunks[i2]->dims.threads(), thunks[static_cast<size_t>(f1 - cg.kernels.data())]->dims.threads());
  EXPECT_EQ(runtime::DistinctKernels(cg.plan).size(), 3u);
  // The manifest names the kernel each launch runs and its one file.
  const std::string manifest = runtime::ManifestToString(cg.plan);
  EXPECT_EQ(KernelFieldOf(manifest, "f2"), f1->name) << manifest;
  EXPECT_EQ(KernelFieldOf(manifest, "f3"), f3->name);
}

TEST(KernelSharing, SharedKernelsRunCorrectlyOnTheCpu) {
  testing::CheckResult r = testing::CompileRunCompare(kModule);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, 4u);
}

// A slice that is one contiguous run of its operand (whole minor
// dimensions, a cut one, single indices above) copies that run: its start is
// the argument's offset, and slices of one shape share one kernel, however
// far into the buffer they start (Llama 3.1 8B: all-reduce-contiguous's 970
// slices of combined all-reduces, 1,111 -> 145 distinct kernels). A slice
// of a minor dimension is gathered by its own kernel. A run that starts off
// a 16-byte boundary is read with the alignment it has (kernel arguments are
// otherwise declared 16-byte aligned): one kernel per shape and alignment.
const char* kSlices = R"(HloModule slices

ENTRY %e (p: f32[1000], q: f32[6,5,4], r: bf16[8,7]) -> (f32[100], f32[100], f32[100], f32[2,5,4], f32[1,2,4], f32[2,5,2], bf16[1,7]) {
  %p = f32[1000]{0} parameter(0)
  %q = f32[6,5,4]{2,1,0} parameter(1)
  %r = bf16[8,7]{1,0} parameter(2)
  %a = f32[100]{0} slice(%p), slice={[16:116]}
  %b = f32[100]{0} slice(%p), slice={[600:700]}
  %u = f32[100]{0} slice(%p), slice={[17:117]}
  %c = f32[2,5,4]{2,1,0} slice(%q), slice={[3:5], [0:5], [0:4]}
  %d = f32[1,2,4]{2,1,0} slice(%q), slice={[4:5], [1:3], [0:4]}
  %n = f32[2,5,2]{2,1,0} slice(%q), slice={[0:2], [0:5], [1:3]}
  %s = bf16[1,7]{1,0} slice(%r), slice={[4:5], [0:7]}
  ROOT %t = (f32[100]{0}, f32[100]{0}, f32[100]{0}, f32[2,5,4]{2,1,0}, f32[1,2,4]{2,1,0}, f32[2,5,2]{2,1,0}, bf16[1,7]{1,0}) tuple(%a, %b, %u, %c, %d, %n, %s)
}
)";

TEST(KernelSharing, ContiguousSlicesCopyARunAndShareOneKernelPerShape) {
  auto r = CompileText(kSlices, "slices.hlo", "", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const CodegenResult& cg = r->codegen;
  ASSERT_EQ(cg.kernels.size(), 7u);
  EXPECT_EQ(cg.distinct, 6u);  // a and b: one kernel
  const KernelCode *a = ByInstruction(cg, "a"), *b = ByInstruction(cg, "b"), *n = ByInstruction(cg, "n");
  ASSERT_TRUE(a && b && n);
  EXPECT_EQ(b->kernel, a->name);
  std::vector<const runtime::KernelThunk*> thunks = runtime::AllKernels(cg.plan);
  auto thunk_of = [&](const KernelCode* k) { return thunks[static_cast<size_t>(k - cg.kernels.data())]; };
  // Starts in bytes: p[16], p[600], p[17], q[3,0,0], q[4,1,0], r[4,0]; n
  // reads all of q.
  const std::map<std::string, int64_t> offsets = {{"a", 64}, {"b", 2400}, {"u", 68}, {"c", 240},
                                                   {"d", 336}, {"s", 56},  {"n", 0}};
  for (const auto& [name, offset] : offsets) {
    const KernelCode* k = ByInstruction(cg, name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(thunk_of(k)->args[0].offset, offset) << name;
    EXPECT_EQ(thunk_of(k)->kind, name == "n" ? "loop" : "copy") << name;
  }
  // u has a's shape but starts 4 bytes past a 16-byte boundary: its own
  // kernel, which assumes 4-byte alignment.
  const KernelCode* u = ByInstruction(cg, "u");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kernel, u->name);
  EXPECT_NE(u->ir.find("align 4"), std::string::npos);
  EXPECT_EQ(thunk_of(ByInstruction(cg, "d"))->args[0].size, 32);
  testing::CheckResult run = testing::CompileRunCompare(kSlices);
  EXPECT_EQ(run.error, "");
  EXPECT_EQ(run.kernels, 7u);
}

TEST(KernelSharing, OffGivesOneKernelPerLaunch) {
  CodegenOptions o;
  o.share_kernels = false;
  auto r = CompileText(kModule, "test.hlo", "", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->codegen.distinct, 4u);
  for (const KernelCode& k : r->codegen.kernels) EXPECT_EQ(k.same_as, -1);
}

TEST(KernelSharing, ThreadsDoNotChangeTheCode) {
  CodegenOptions one, two;
  one.threads = 1;
  two.threads = 2;
  auto a = CompileFile(hloscope::testing::SamplesDir() + "/transformer_train_step.hlo", "gpu", one);
  auto b = CompileFile(hloscope::testing::SamplesDir() + "/transformer_train_step.hlo", "gpu", two);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->codegen.threads, 1);
  ASSERT_EQ(a->codegen.kernels.size(), b->codegen.kernels.size());
  EXPECT_LT(a->codegen.distinct, a->codegen.kernels.size());  // the train step repeats its layers' fusions
  for (size_t k = 0; k < a->codegen.kernels.size(); ++k) {
    EXPECT_EQ(a->codegen.kernels[k].kernel, b->codegen.kernels[k].kernel);
    EXPECT_EQ(a->codegen.kernels[k].ptx, b->codegen.kernels[k].ptx) << a->codegen.kernels[k].name;
  }
}

TEST(KernelSharing, BundleHoldsOneFilePerKernel) {
  namespace fs = std::filesystem;
  auto r = CompileText(kModule, "test.hlo", "", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  runtime::Bundle b;
  b.plan = r->codegen.plan;
  for (const KernelCode& k : r->codegen.kernels)
    if (k.same_as < 0) b.kernels.push_back({k.kernel, k.ir, k.ptx, ""});
  b.inputs = MakeRandomInputs(*r->module->entry(), 0);
  fs::path dir = fs::temp_directory_path() / ("hloscope_sharing_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(runtime::WriteBundle(dir.string(), b, false).ok());
  size_t ptx_files = 0;
  for (const auto& e : fs::directory_iterator(dir)) ptx_files += e.path().extension() == ".ptx";
  EXPECT_EQ(ptx_files, 3u);
  auto back = runtime::ReadBundle(dir.string(), {.load_ll = true, .load_ptx = true});
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->kernels.size(), 3u);
  EXPECT_EQ(runtime::DistinctKernels(back->plan).size(), 3u);
  EXPECT_EQ(runtime::ManifestToString(back->plan), runtime::ManifestToString(b.plan));
  fs::remove_all(dir);
}

TEST(KernelSharing, ManifestThatLaunchesAnUnknownKernelIsRefused) {
  auto r = CompileText(kModule, "test.hlo", "", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  runtime::ThunkPlan plan = r->codegen.plan;
  std::string text = runtime::ManifestToString(plan);
  const std::string f1 = ByInstruction(r->codegen, "f1")->name;
  size_t at = KernelFieldAt(text, "f2");
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(text.substr(at, f1.size()), f1);
  text.replace(at, f1.size(), "nope");
  auto bad = runtime::ManifestFromString(text, "m.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("launches kernel 'nope', which no launch of the plan defines"), std::string::npos)
      << bad.status().message();
}

TEST(KernelKey, NamesAreRenamedByFirstAppearance) {
  EXPECT_EQ(CanonicalizeNames("%add.3 = f32[] add(%x, %y.1), to_apply=%r\n%z = f32[] negate(%add.3)"),
            "%0 = f32[] add(%1, %2), to_apply=%3\n%4 = f32[] negate(%0)");
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

// `--pipeline none` compiles a module as written: XLA's own fusions
// (samples/*.xla_cpu_optimized.hlo) become our kernels as XLA formed them,
// and run on the CPU as the interpreter computes the module (issue 23,
// acceptance 2: every one of them, including the fusions with elementwise
// ops after a reduce, which are emitted elementally).
class PipelineNone : public ::testing::TestWithParam<std::string> {};

TEST_P(PipelineNone, XlaFusionsCompileAsWrittenAndMatchTheInterpreter) {
  const std::string path = hloscope::testing::SamplesDir() + "/" + GetParam() + ".xla_cpu_optimized.hlo";
  auto r = CompileFile(path, "none", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(runtime::MissingKernels(r->codegen.plan).empty());
  testing::CheckResult run = testing::CompileRunCompare(*ReadFileToString(path), "none");
  EXPECT_EQ(run.error, "");
}

INSTANTIATE_TEST_SUITE_P(Samples, PipelineNone,
                         ::testing::Values("attention", "embedding_xent", "layer_norm", "mlp_gelu", "mlp_gelu_bf16",
                                           "resnet_block", "scan_rnn", "softmax", "transformer_block",
                                           "transformer_train_step"));

}  // namespace
}  // namespace hloscope::codegen
