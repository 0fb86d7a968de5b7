// Line info (core/codegen/line_info.h): the PTX .loc and SASS line comments
// of a kernel name the lines of its own instructions in the printed module
// (found here independently, by searching the text for "%name = "); the code
// is the same with and without; a SASS batch maps each kernel's PTX lines
// back to its own PTX. SASS cases skip without ptxas and nvdisasm.
#include "core/codegen/line_info.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/codegen/sass.h"
#include "core/ir/computation.h"
#include "core/printer/printer.h"
#include "tests/codegen/codegen_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The 1-based line of "%name = " in `text` (0 if absent), searched in the
// block of the instruction's computation (names repeat across computations).
int LineOfDefinition(const std::string& text, const Instruction& instr) {
  const std::vector<std::string> lines = Lines(text);
  const std::string comp = "%" + instr.parent()->name() + " ";
  bool in = false;
  for (size_t k = 0; k < lines.size(); ++k) {
    std::string l = lines[k];
    if (!in) {
      in = l.rfind(comp, 0) == 0 || l.rfind("ENTRY " + comp, 0) == 0;
      continue;
    }
    if (l == "}") return 0;
    size_t a = l.find_first_not_of(' ');
    if (a == std::string::npos) continue;
    l = l.substr(a);
    if (l.rfind("ROOT ", 0) == 0) l = l.substr(5);
    if (l.rfind("%" + instr.name() + " = ", 0) == 0) return static_cast<int>(k) + 1;
  }
  return 0;
}

// The lines (in `text`) of a kernel's instruction and of every instruction
// of its fused computations, nested ones included.
std::set<int> KernelInstructionLines(const std::string& text, const Instruction& kernel) {
  std::set<int> out;
  std::function<void(const Instruction&)> add = [&](const Instruction& i) {
    out.insert(LineOfDefinition(text, i));
    if (const Computation* c = i.fused_computation())
      for (const auto& f : c->instructions()) add(*f);
  };
  add(kernel);
  out.erase(0);
  return out;
}

const Instruction* FindInstruction(const Module& m, const std::string& name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  return nullptr;
}

constexpr const char* kPtx = R"(//
.version 7.8
.target sm_90
.address_size 64

.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b64 	%rd<4>;
$L__func_begin0:
	.loc	1 12 0
	ld.param.u64 	%rd1, [k_param_0];
	.loc	1 14 0
	cvta.to.global.u64 	%rd2, %rd1;
$L__BB0_1:
	.loc	2 3 0
	mov.u64 	%rd3, 0;
	.loc	1 0 0
	st.global.u64 	[%rd2], %rd3;
	ret;
}
	.file	1 "m.hlo"
	.file	2 "other.cu"
)";

TEST(PtxHloLines, CodeLinesAfterLocOfTheHloFile) {
  std::vector<int> got = PtxHloLines(kPtx);
  ASSERT_EQ(got.size(), Lines(kPtx).size());
  std::vector<int> want(got.size(), 0);
  want[13 - 1] = 12;  // ld.param
  want[15 - 1] = 14;  // cvta
  // mov: of other.cu; st, ret: line 0
  EXPECT_EQ(got, want);
  EXPECT_EQ(TextLinesOf(got, 14), std::vector<int>{15});
  EXPECT_TRUE(TextLinesOf(got, 0).empty());
}

constexpr const char* kSass = R"(	.target	sm_90
//--------------------- .text.k            --------------------------
	.section	.text.k,"ax",@progbits
k:
.text.k:
	//## File "m.hlo", line 48
	//## File ".nv_debug_ptx_txt", line 18
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File ".nv_debug_ptx_txt", line 26
        /*0010*/                   S2R R39, SR_TID.X ;
	//## File "m.hlo", line 17
        /*0020*/                   S2UR UR4, SR_CTAID.X ;
.L_x_1:
	//## File "elsewhere.cu", line 3
        /*0030*/                   EXIT ;
)";

TEST(SassLines, HloAndPtxLinesOfEachInstruction) {
  std::vector<int> hlo = SassHloLines(kSass), ptx = SassPtxLines(kSass);
  ASSERT_EQ(hlo.size(), Lines(kSass).size());
  ASSERT_EQ(ptx.size(), hlo.size());
  EXPECT_EQ(TextLinesOf(hlo, 48), (std::vector<int>{8, 10}));
  EXPECT_EQ(TextLinesOf(hlo, 17), std::vector<int>{12});
  EXPECT_EQ(hlo[14 - 1], 0);  // EXIT: another file
  EXPECT_EQ(ptx[8 - 1], 18);
  EXPECT_EQ(ptx[10 - 1], 26);
  EXPECT_EQ(ptx[12 - 1], 26);
  EXPECT_EQ(ptx[13 - 1], 0);  // a label
}

TEST(HloLineTable, EveryInstructionAtItsDefinition) {
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/layer_norm.hlo", "gpu", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string text = PrintModule(*r->module);
  HloLineTable t = MakeHloLineTable(*r->module);
  EXPECT_EQ(t.file, r->module->name() + ".hlo");
  size_t n = 0;
  for (const auto& c : r->module->computations())
    for (const auto& i : c->instructions()) {
      EXPECT_EQ(t.LineOf(i.get()), LineOfDefinition(text, *i)) << i->name();
      EXPECT_GT(t.LineOf(i.get()), 0) << i->name();
      ++n;
    }
  EXPECT_EQ(t.lines.size(), n);
  EXPECT_EQ(t.LineOf(nullptr), 0);
}

// Every located PTX and SASS line of a kernel is one of its own
// instructions', and the lines cover more than the fusion's own.
void CheckKernelLines(const CompiledFile& r, const KernelCode& k, bool sass) {
  SCOPED_TRACE(k.kernel);
  const std::string text = PrintModule(*r.module);
  const Instruction* instr = FindInstruction(*r.module, k.instruction);
  ASSERT_NE(instr, nullptr);
  const std::set<int> own = KernelInstructionLines(text, *instr);
  EXPECT_EQ(k.hlo_file, r.module->name() + ".hlo");
  EXPECT_NE(k.ptx.find(".file\t1 \"" + k.hlo_file + "\""), std::string::npos);
  std::vector<int> ptx = PtxHloLines(k.ptx);
  std::set<int> seen;
  size_t code = 0, located = 0;
  for (int l : ptx) {
    if (l == 0) continue;
    ++located;
    seen.insert(l);
    EXPECT_TRUE(own.count(l)) << "PTX names line " << l << ", not one of " << k.instruction << "'s";
  }
  // Kernel-parameter loads (ld.param, cvta.to.global) belong to the
  // kernel's signature, no instruction's: 8 of a 4-operand loop kernel's 39.
  for (const std::string& l : Lines(k.ptx))
    code += !l.empty() && l[0] == '\t' && l[1] != '.' && l[1] != '/' && l[1] != '{' && l[1] != '}' &&
            l.rfind("\tld.param", 0) != 0 && l.rfind("\tcvta.to.global", 0) != 0;
  EXPECT_GT(located, code * 8 / 10) << "most PTX instructions are located";
  if (instr->fused_computation()) EXPECT_GE(seen.size(), 3u);
  if (!sass) return;
  ASSERT_FALSE(k.sass.empty()) << k.sass_error;
  std::vector<int> hlo = SassHloLines(k.sass), from_ptx = SassPtxLines(k.sass);
  const std::vector<std::string> sass_lines = Lines(k.sass), ptx_lines = Lines(k.ptx);
  std::set<int> sass_seen;
  size_t instructions = 0, compared = 0, agree = 0;
  for (size_t i = 0; i < hlo.size(); ++i) {
    if (sass_lines[i].find("*/") == std::string::npos || sass_lines[i].find("/*") == std::string::npos)
      continue;
    if (hlo[i] == 0 && from_ptx[i] == 0) continue;
    ++instructions;
    if (hlo[i] != 0) {
      sass_seen.insert(hlo[i]);
      EXPECT_TRUE(own.count(hlo[i])) << "SASS names line " << hlo[i] << ": " << sass_lines[i];
    }
    const int p = from_ptx[i];
    ASSERT_GT(p, 0) << sass_lines[i];
    ASSERT_LE(p, static_cast<int>(ptx_lines.size())) << sass_lines[i];
    // The PTX line it came from is located at the same HLO line.
    // The PTX line it came from, where located (not the function's `{`, not
    // `.loc F 0`, which ptxas leaves out), is located at the same HLO line.
    const int want = ptx[static_cast<size_t>(p - 1)];
    if (want == 0) continue;
    ++compared;
    agree += want == hlo[i];
  }
  EXPECT_GT(instructions, 0u);
  EXPECT_GT(compared, instructions / 2);
  EXPECT_GE(agree, compared * 95 / 100) << agree << " of " << compared;
  if (instr->fused_computation()) EXPECT_GE(sass_seen.size(), 2u);
}

TEST(KernelLines, PtxOfEverySampleKernelNamesItsOwnInstructions) {
  for (const std::string& stem : {"layer_norm", "softmax", "transformer_block"}) {
    SCOPED_TRACE(stem);
    auto r = CompileFile(hloscope::testing::SamplesDir() + "/" + stem + ".hlo", "gpu", {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    for (const KernelCode& k : r->codegen.kernels)
      if (k.same_as < 0 && k.missing.empty()) CheckKernelLines(*r, k, false);
  }
}

TEST(KernelLines, SassOfAFusionNamesItsOwnInstructions) {
  if (!MissingSassTools().empty()) GTEST_SKIP() << MissingSassTools();
  CodegenOptions opts;
  opts.sass = true;
  opts.threads = 1;  // one batch: the merged module's lines are mapped back
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/transformer_block.hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  size_t checked = 0;
  for (const KernelCode& k : r->codegen.kernels)
    if (k.same_as < 0 && k.missing.empty()) {
      CheckKernelLines(*r, k, true);
      ++checked;
    }
  EXPECT_GT(checked, 3u);
}

// Each instruction with the PTX and HLO lines nvdisasm gives it.
std::vector<std::string> LocatedInstructions(const std::string& sass) {
  static const std::regex instr(R"(/\*[0-9a-f]+\*/\s+([^;]*;))");
  std::vector<std::string> out;
  const std::vector<std::string> lines = Lines(sass);
  const std::vector<int> hlo = SassHloLines(sass), ptx = SassPtxLines(sass);
  std::smatch m;
  for (size_t i = 0; i < lines.size(); ++i)
    if (std::regex_search(lines[i], m, instr))
      out.push_back(std::regex_replace(std::regex_replace(std::string(m[1]), std::regex(R"(\.L_x_\d+)"), "L"),
                                       std::regex(R"(\$__internal_\d+_\$)"), "$__internal_$") +
                    " @" + std::to_string(ptx[i]) + ":" + std::to_string(hlo[i]));
  return out;
}

TEST(KernelLines, BatchGivesEachKernelTheLinesOfItsOwnCubin) {
  if (!MissingSassTools().empty()) GTEST_SKIP() << MissingSassTools();
  CodegenOptions opts;
  opts.sass = true;
  opts.threads = 1;
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/transformer_block.hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto target = FindNvptxTarget("sm_90");
  ASSERT_TRUE(target);
  int compared = 0;
  for (const KernelCode& k : r->codegen.kernels) {
    if (k.same_as >= 0 || k.ptx.empty() || compared >= 4) continue;
    auto alone = CompileToSass(k.ptx, k.kernel, *target);
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    const std::vector<std::string> batch = LocatedInstructions(k.sass),
                                   own = LocatedInstructions(alone->sass);
    EXPECT_EQ(batch.size(), own.size()) << k.kernel;
    for (size_t i = 0; i < batch.size() && i < own.size(); ++i)
      if (batch[i] != own[i]) {
        ADD_FAILURE() << k.kernel << " instruction " << i << ": batch " << batch[i] << ", alone " << own[i];
        break;
      }
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

// The IR and PTX without their debug lines and attachments.
std::string WithoutDebugIr(const std::string& ir) {
  std::string out;
  static const std::regex dbg(R"(, !dbg !\d+| !dbg !\d+)"), number(R"(!\d+)");
  for (const std::string& l : Lines(ir)) {
    if (!l.empty() && l[0] == '!') continue;  // metadata: the compile unit, subprograms, locations, flags
    // Metadata numbers shift with the debug nodes before them.
    out += std::regex_replace(std::regex_replace(l, dbg, ""), number, "!N") + "\n";
  }
  return out;
}
std::string WithoutDebugPtx(const std::string& ptx) {
  std::string out;
  for (const std::string& l : Lines(ptx)) {
    if (l.find("\t.loc\t") == 0 || l.find("\t.file\t") == 0 || l.find("\t.section\t.debug") == 0 ||
        l.rfind("$L__tmp", 0) == 0 || l.rfind("$L__func_", 0) == 0)
      continue;
    out += l + "\n";
  }
  return out;
}

// "" when equal, else the first differing line of each.
std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  const std::vector<std::string> x = Lines(a), y = Lines(b);
  size_t i = 0;
  while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
  return "line " + std::to_string(i + 1) + ":\n  with:    " + (i < x.size() ? x[i] : "(end)") +
         "\n  without: " + (i < y.size() ? y[i] : "(end)");
}

class SamplesLineInfo : public ::testing::TestWithParam<std::string> {};

// Debug locations change no code: the optimized IR and the PTX of every
// kernel are those made without line info, debug lines aside.
TEST_P(SamplesLineInfo, SameCodeWithoutLineInfo) {
  const std::string path = hloscope::testing::SamplesDir() + "/" + GetParam() + ".hlo";
  CodegenOptions with, without;
  without.line_info = false;
  auto a = CompileFile(path, "gpu", with);
  auto b = CompileFile(path, "gpu", without);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  ASSERT_EQ(a->codegen.kernels.size(), b->codegen.kernels.size());
  for (size_t i = 0; i < a->codegen.kernels.size(); ++i) {
    const KernelCode &x = a->codegen.kernels[i], &y = b->codegen.kernels[i];
    SCOPED_TRACE(x.name);
    EXPECT_TRUE(y.hlo_file.empty());
    EXPECT_EQ(y.ptx.find("\t.loc\t"), std::string::npos);  // not ".local" (a local depot)
    EXPECT_EQ(FirstDifference(WithoutDebugIr(x.optimized_ir), WithoutDebugIr(y.optimized_ir)), "")
        << "optimized IR";
    EXPECT_EQ(FirstDifference(WithoutDebugPtx(x.ptx), WithoutDebugPtx(y.ptx)), "") << "PTX";
    // What the GUI's IR tab shows: the IR with its line info dropped is the
    // IR made without, metadata lines (`!N = …`, numbered differently) aside.
    const std::string shown = IrWithoutDebugInfo(x.optimized_ir);
    EXPECT_EQ(shown.find("!dbg"), std::string::npos);
    EXPECT_EQ(shown.find("!DI"), std::string::npos);
    auto code = [](const std::string& ir) {  // numbers of metadata shift with the debug nodes before them
      static const std::regex number(R"(!\d+)");
      std::string out;
      for (const std::string& l : Lines(ir))
        if (l.rfind('!', 0) != 0) out += std::regex_replace(l, number, "!N") + "\n";
      return out;
    };
    EXPECT_EQ(FirstDifference(code(shown), code(y.optimized_ir)), "") << "IR without debug info";
  }
}

INSTANTIATE_TEST_SUITE_P(All, SamplesLineInfo, ::testing::ValuesIn(hloscope::testing::SampleStems()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The CPU path strips the line info: kernels with it run as before.
TEST(KernelLines, CpuRunIgnoresLineInfo) {
  auto r = testing::CompileRunCompare(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT r = f32[] add(x, y)
}
ENTRY e {
  a = f32[64,32] parameter(0)
  e = f32[64,32] exponential(a)
  z = f32[] constant(0)
  s = f32[64] reduce(e, z), dimensions={1}, to_apply=add
  ROOT n = f32[64] negate(s)
})",
                                      "gpu");
  EXPECT_EQ(r.error, "");
}

}  // namespace
}  // namespace hloscope::codegen
