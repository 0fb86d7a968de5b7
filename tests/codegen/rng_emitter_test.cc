// rng-bit-generator kernels: emitted, run on the CPU (the same LLVM IR) and
// compared bit for bit with the interpreter (core/eval/eval_rng.cc) — the
// bits and the new state — for three_fry, philox and rng_default, 8- to
// 64-bit outputs, ranks 0 to 3 with odd and even dimensions, non-default
// layouts, states u64[2], u64[3] and longer, counters that carry, a grid
// smaller than the output (grid-stride) and a new state written over the
// state (single-block form).
#include <cstring>
#include <optional>

#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

// The first element where two leaves differ, bitwise ("" when all match).
std::string ExactMismatch(const std::vector<Literal>& want, const std::vector<Literal>& got) {
  if (want.size() != got.size())
    return "expected " + std::to_string(want.size()) + " outputs, got " + std::to_string(got.size());
  for (size_t k = 0; k < want.size(); ++k) {
    if (want[k] == got[k]) continue;
    if (!want[k].shape().SameDims(got[k].shape()) || want[k].element_bytes() != got[k].element_bytes())
      return "output " + std::to_string(k) + ": shape " + got[k].shape().ToString() + ", expected " +
             want[k].shape().ToString();
    int eb = want[k].element_bytes();
    for (int64_t i = 0; i < want[k].num_elements(); ++i) {
      if (std::memcmp(want[k].raw() + i * eb, got[k].raw() + i * eb, eb) == 0) continue;
      std::string w, g;
      want[k].AppendElement(w, i);
      got[k].AppendElement(g, i);
      return "output " + std::to_string(k) + " element " + std::to_string(i) + ": got " + g + ", expected " + w;
    }
  }
  return "";
}

// The whole path (kernel plan, emitter, ptxas when installed, CPU run) on the
// module as written, compared bit for bit with the interpreter.
std::string RunExact(const std::string& text, uint64_t seed, std::vector<std::string>* kinds) {
  CodegenOptions opts;
  opts.emit_ptx = !PtxasPath().empty();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(text, "test.hlo", "", opts);
  if (!compiled.ok()) return "codegen: " + compiled.status().message();
  for (const auto& k : compiled->codegen.kernels) kinds->push_back(k.kind);
  auto inputs = MakeRandomInputs(*compiled->module->entry(), seed);
  auto want = EvaluateModule(*compiled->module, inputs);
  if (!want.ok()) return "interpreter: " + want.status().message();
  auto got = RunOnCpu(compiled->codegen, inputs);
  if (!got.ok()) return "cpu run: " + got.status().message();
  return ExactMismatch(FlattenTuple(*want), got->outputs);
}

Literal State(const std::vector<uint64_t>& v) {
  Literal l(Shape(PrimitiveType::kU64, {static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) l.Set<uint64_t>(static_cast<int64_t>(i), v[i]);
  return l;
}

runtime::PlanAllocation Alloc(int index, const std::string& kind, int64_t size, int64_t param = -1) {
  runtime::PlanAllocation a;
  a.index = index;
  a.kind = kind;
  a.size = size;
  a.parameter_number = param;
  a.maybe_live_out = kind == "output" || param >= 0;
  return a;
}

runtime::PlanValue ValueIn(const Shape& s, int alloc, int64_t param = -1) {
  runtime::PlanValue v;
  v.shape = s.ToString();
  v.parameter_number = param;
  v.slice = runtime::Slice{alloc, 0, s.byte_size()};
  return v;
}

// The kernel of `r` (entry: parameter(0) = the state, ROOT r) alone, launched
// with `dims` (default: the emitter's); `in_place`: the new state shares the
// state's storage. Compared bit for bit with the interpreter.
std::string RunKernelAlone(const std::string& text, const Literal& state, bool in_place,
                           std::optional<runtime::LaunchDims> dims = std::nullopt, runtime::LaunchDims* used = nullptr) {
  auto e = EmitFor(text, "r", &EmitRngBitGeneratorKernel, in_place ? 0 : -1);
  if (!e.error.empty()) return e.error;
  const Shape& ss = e.spec.args[0].shape;
  const Shape& bs = e.spec.args[2].shape;
  runtime::ThunkPlan plan;
  plan.module = "rng";
  plan.target = "sm_90";
  plan.allocations = {Alloc(0, "parameter", ss.byte_size(), 0), Alloc(1, "output", ss.byte_size()),
                      Alloc(2, "output", bs.byte_size())};
  plan.parameters = {ValueIn(ss, 0, 0)};
  plan.outputs = {ValueIn(ss, in_place ? 0 : 1), ValueIn(bs, 2)};
  runtime::KernelThunk k;
  k.name = e.spec.name;
  k.kind = e.kernel.kind;
  k.instruction = "r";
  k.args = {plan.parameters[0].slice, plan.outputs[0].slice, plan.outputs[1].slice};
  k.arg_written = {in_place, true, true};
  k.dims = dims ? *dims : e.kernel.dims;
  if (used) *used = k.dims;
  plan.thunks.push_back(runtime::Thunk{k});
  auto want = EvaluateModule(*e.hlo, {state});
  if (!want.ok()) return "interpreter: " + want.status().message();
  auto got = RunOnCpu(plan, {{e.spec.name, e.ir}}, {state});
  if (!got.ok()) return "cpu run: " + got.status().message();
  return ExactMismatch(FlattenTuple(*want), got->outputs);
}

std::string RngModule(const std::string& state, const std::string& bits, const std::string& algorithm) {
  return "HloModule m\nENTRY e {\n  s = " + state + " parameter(0)\n  ROOT r = (" + state + ", " + bits +
         ") rng-bit-generator(s), algorithm=" + algorithm + "\n}\n";
}

// --- emitted IR ------------------------------------------------------------

TEST(RngEmitter, OneThreadPerElementOverTheWholeGrid) {
  auto e = EmitFor(RngModule("u64[3]{0}", "u32[1000,3]{1,0}", "rng_philox"), "r", &EmitRngBitGeneratorKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "rng-bit-generator");
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  EXPECT_EQ(e.kernel.dims.grid[0], 12u);  // 3000 elements
  EXPECT_EQ(e.ir.find("barrier0"), std::string::npos) << "no barrier without aliasing";
}

TEST(RngEmitter, NewStateOverTheStateRunsAsOneBlockWithBarriers) {
  auto e = EmitFor(RngModule("u64[3]{0}", "u32[1000,3]{1,0}", "rng_three_fry"), "r", &EmitRngBitGeneratorKernel,
                   /*alias_output_to=*/0);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);
  EXPECT_EQ(e.kernel.dims.block[0], 1024u);
  EXPECT_NE(e.ir.find("barrier0"), std::string::npos) << e.ir;
}

TEST(RngEmitter, StateThatIsNotU64IsNamed) {
  // xla/tools/tests/hlo_extractor_test.hlo writes an f32[4] state.
  auto e = EmitFor(RngModule("f32[4]{0}", "f32[4]{0}", "rng_default"), "r", &EmitRngBitGeneratorKernel);
  EXPECT_NE(e.error.find("the state must be u64[N] with N >= 2"), std::string::npos) << e.error;
}

TEST(RngEmitter, IsTheEmitterSelectedForRngBitGenerator) {
  auto m = ParseHloModule(RngModule("u64[2]{0}", "u32[8]{0}", "rng_philox"), "test.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto fn = SelectEmitter(*(*m)->entry()->root());
  ASSERT_TRUE(fn.ok()) << fn.status().message();
  EXPECT_EQ(*fn, &EmitRngBitGeneratorKernel);
}

// --- executed on the CPU against the interpreter ---------------------------

struct Case {
  const char* name;
  std::string text;
};

class RngRun : public ::testing::TestWithParam<Case> {};

TEST_P(RngRun, MatchesTheInterpreterBitForBit) {
  for (uint64_t seed : {1, 7}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(RunExact(GetParam().text, seed, &kinds), "") << "seed " << seed;
    EXPECT_EQ(kinds, std::vector<std::string>{"rng-bit-generator"});
  }
}

std::vector<Case> Cases() {
  std::vector<Case> c;
  auto add = [&](const char* name, const char* state, const char* bits, const char* alg) {
    c.push_back({name, RngModule(state, bits, alg)});
  };
  // three_fry: 32-bit outputs split along the first even dim, else the largest.
  add("threefry_u32_scalar_n2", "u64[2]{0}", "u32[]", "rng_three_fry");
  add("threefry_u32_odd_1d", "u64[2]{0}", "u32[7]{0}", "rng_three_fry");
  add("threefry_u32_even_1d", "u64[3]{0}", "u32[8]{0}", "rng_three_fry");
  add("threefry_u32_odd_2d", "u64[3]{0}", "u32[5,3]{1,0}", "rng_three_fry");
  add("threefry_u32_odd_2d_largest_last", "u64[2]{0}", "u32[3,7]{1,0}", "rng_three_fry");
  add("threefry_s32_even_middle_3d", "u64[3]{0}", "s32[3,4,5]{2,1,0}", "rng_three_fry");
  add("threefry_u32_layout_01", "u64[2]{0}", "u32[6,5]{0,1}", "rng_three_fry");
  add("threefry_u8_layout_102", "u64[3]{0}", "u8[3,4,5]{1,0,2}", "rng_three_fry");
  add("threefry_u16_odd_3d", "u64[3]{0}", "u16[3,5,3]{2,1,0}", "rng_three_fry");
  add("threefry_u64_scalar", "u64[2]{0}", "u64[]", "rng_three_fry");
  add("threefry_u64_2d", "u64[3]{0}", "u64[3,5]{1,0}", "rng_three_fry");
  add("threefry_s64_layout_01", "u64[2]{0}", "s64[4,3]{0,1}", "rng_three_fry");
  add("threefry_u32_many_blocks", "u64[2]{0}", "u32[1001,3]{1,0}", "rng_three_fry");
  // philox (and rng_default): four words per counter, two 64-bit elements.
  add("philox_u32_scalar_n2", "u64[2]{0}", "u32[]", "rng_philox");
  add("philox_u32_odd_1d_n3", "u64[3]{0}", "u32[7]{0}", "rng_philox");
  add("philox_u64_odd_1d_n2", "u64[2]{0}", "u64[5]{0}", "rng_philox");
  add("philox_u64_2d_n3", "u64[3]{0}", "u64[2,3]{1,0}", "rng_philox");
  add("philox_u8_odd_3d", "u64[3]{0}", "u8[3,5,7]{2,1,0}", "rng_philox");
  add("philox_s16_unit_dim", "u64[2]{0}", "s16[4,1,3]{2,1,0}", "rng_philox");
  add("philox_u32_layout_01", "u64[3]{0}", "u32[5,6]{0,1}", "rng_philox");
  add("philox_u64_layout_021", "u64[2]{0}", "u64[3,4,2]{0,2,1}", "rng_philox");
  add("philox_u64_scalar_n6", "u64[6]{0}", "u64[]", "rng_philox");
  add("philox_u32_many_blocks", "u64[3]{0}", "u32[3,1001]{1,0}", "rng_philox");
  add("default_u32_2d", "u64[2]{0}", "u32[2,5]{1,0}", "rng_default");
  add("default_u64_odd", "u64[3]{0}", "u64[9]{0}", "rng_default");
  // The interpreter's Put also writes float bit patterns; so does the kernel.
  add("philox_f32_bits", "u64[3]{0}", "f32[4,3]{1,0}", "rng_philox");
  add("threefry_f16_bits", "u64[2]{0}", "f16[5]{0}", "rng_three_fry");
  add("threefry_f64_bits", "u64[2]{0}", "f64[3]{0}", "rng_three_fry");
  // The corpus modules' constant states (rng_bit_generator_expander-*.hlo).
  c.push_back({"corpus_threefry_u8_constant_state", R"hlo(
HloModule m
ENTRY e {
  s = u64[4] constant({9, 10, 11, 12})
  ROOT r = (u64[4], u8[]) rng-bit-generator(s), algorithm=rng_three_fry
})hlo"});
  c.push_back({"corpus_philox_u64_constant_state", R"hlo(
HloModule m
ENTRY e {
  s = u64[6] constant({0, 1, 8, 9, 4, 1})
  ROOT r = (u64[6], u64[]) rng-bit-generator(s), algorithm=rng_philox
})hlo"});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Shapes, RngRun, ::testing::ValuesIn(Cases()),
                         [](const auto& i) { return std::string(i.param.name); });

// --- the kernel alone: counters that carry, grid-stride, in-place state ----

constexpr uint64_t kNearMax = 0xFFFFFFFFFFFFFFFDull;

TEST(RngKernelRun, PhiloxCounterCarriesIntoTheHighWord) {
  EXPECT_EQ(RunKernelAlone(RngModule("u64[3]{0}", "u32[37]{0}", "rng_philox"), State({0x1234567890ABCDEFull, kNearMax, 5}),
                           false),
            "");
  EXPECT_EQ(RunKernelAlone(RngModule("u64[3]{0}", "u64[9]{0}", "rng_philox"),
                           State({0x1234567890ABCDEFull, kNearMax, ~0ull}), false),
            "");
}

TEST(RngKernelRun, PhiloxWithTwoWordStateCarriesIntoTheKey) {
  EXPECT_EQ(RunKernelAlone(RngModule("u64[2]{0}", "u32[3,7]{1,0}", "rng_philox"), State({77, kNearMax}), false), "");
}

TEST(RngKernelRun, ThreeFryCounterWraps) {
  EXPECT_EQ(RunKernelAlone(RngModule("u64[3]{0}", "u32[4,5]{1,0}", "rng_three_fry"), State({~0ull, kNearMax, 3}), false),
            "");
  EXPECT_EQ(RunKernelAlone(RngModule("u64[2]{0}", "u64[6]{0}", "rng_three_fry"), State({42, kNearMax}), false), "");
}

TEST(RngKernelRun, GridSmallerThanTheOutputStridesOverIt) {
  runtime::LaunchDims small;
  small.grid[0] = 2;
  small.block[0] = 32;
  EXPECT_EQ(RunKernelAlone(RngModule("u64[3]{0}", "u32[7,67]{0,1}", "rng_philox"), State({3, 4, 5}), false, small), "");
  EXPECT_EQ(RunKernelAlone(RngModule("u64[2]{0}", "u8[5,3,9]{2,1,0}", "rng_three_fry"), State({3, 4}), false, small), "");
}

TEST(RngKernelRun, NewStateWrittenOverTheState) {
  for (const char* alg : {"rng_three_fry", "rng_philox", "rng_default"}) {
    runtime::LaunchDims used;
    EXPECT_EQ(RunKernelAlone(RngModule("u64[3]{0}", "u32[3000]{0}", alg), State({9, kNearMax, 11}), true, std::nullopt,
                             &used),
              "")
        << alg;
    EXPECT_EQ(used.grid[0], 1u);
    EXPECT_EQ(RunKernelAlone(RngModule("u64[2]{0}", "u64[5,2]{1,0}", alg), State({9, 10}), true), "") << alg;
  }
}

}  // namespace
}  // namespace hloscope::codegen
