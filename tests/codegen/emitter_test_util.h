// Test helpers for the per-kind kernel emitters: parse an HLO module, build
// the KernelSpec of one entry instruction (one argument per operand leaf,
// then per result leaf), emit it into a fresh module and verify the IR.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/codegen/emitters.h"
#include "core/codegen/nvptx_backend.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/runtime/plan_io.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"
#include "core/parser/parser.h"

namespace hloscope::codegen::testing {

inline void AddLeaves(const Shape& s, bool out, int operand, KernelSpec& spec) {
  if (s.IsTuple()) {
    for (const Shape& e : s.tuple_shapes()) AddLeaves(e, out, operand, spec);
    return;
  }
  KernelArg a;
  a.shape = s;
  a.is_output = out;
  a.operand = out ? -1 : operand;
  spec.args.push_back(a);
}

inline KernelSpec SpecFor(const Instruction& instr, const std::string& name, const char* sm = "sm_90") {
  KernelSpec spec;
  spec.instr = &instr;
  spec.name = name;
  for (int i = 0; i < instr.operand_count(); ++i) AddLeaves(instr.operand(i)->shape(), false, i, spec);
  AddLeaves(instr.shape(), true, -1, spec);
  spec.target = *FindNvptxTarget(sm);
  return spec;
}

inline const Instruction* FindInstr(const Module& m, const std::string& name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  return nullptr;
}

struct Emitted {
  std::unique_ptr<Module> hlo;
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::Module> llvm;
  KernelSpec spec;
  EmittedKernel kernel;
  std::string error;  // emitter or verifier error
  std::string ir;
};

// Emits `instr_name` of `hlo_text` with `fn`; `alias_output_to` marks the
// (first) output as sharing storage with that argument.
inline Emitted EmitFor(const std::string& hlo_text, const std::string& instr_name, KernelEmitterFn fn,
                       int alias_output_to = -1, const char* sm = "sm_90") {
  Emitted e;
  auto parsed = ParseHloModule(hlo_text, "test.hlo");
  if (!parsed.ok()) {
    e.error = "parse: " + parsed.status().message();
    return e;
  }
  e.hlo = std::move(parsed).value();
  const Instruction* instr = FindInstr(*e.hlo, instr_name);
  if (!instr) {
    e.error = "no instruction " + instr_name;
    return e;
  }
  e.spec = SpecFor(*instr, "kernel_" + instr_name, sm);
  for (char& c : e.spec.name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  if (alias_output_to >= 0) {
    int out = 0;
    while (!e.spec.args[out].is_output) ++out;
    e.spec.args[out].aliases = alias_output_to;
    e.spec.args[alias_output_to].aliases = out;
  }
  e.ctx = std::make_unique<llvm::LLVMContext>();
  e.llvm = std::make_unique<llvm::Module>("test", *e.ctx);
  e.llvm->setTargetTriple("nvptx64-nvidia-cuda");
  auto k = fn(*e.llvm, e.spec);
  if (!k.ok()) {
    e.error = k.status().message();
    return e;
  }
  e.kernel = k.value();
  llvm::raw_string_ostream os(e.ir);
  e.llvm->print(os, nullptr);
  std::string verr;
  llvm::raw_string_ostream vs(verr);
  if (llvm::verifyModule(*e.llvm, &vs)) e.error = "verifier: " + verr;
  return e;
}

// A module whose entry is one dot of parameters a and b (`dn`: its
// dimension numbers).
inline std::string DotModule(const std::string& a, const std::string& b, const std::string& out,
                             const std::string& dn) {
  return "HloModule m\nENTRY e {\n  a = " + a + " parameter(0)\n  b = " + b + " parameter(1)\n  ROOT d = " + out +
         " dot(a, b), " + dn + "\n}\n";
}

// The whole path for a module used as written (no pipeline): kernel plan,
// emitters, PTX checked by ptxas (when ptxas is installed), the kernels run on
// the CPU on random inputs, compared with the interpreter. Returns "" or the
// first problem; `kinds` receives the kernels' kinds.
// `sm`: the target (ptxas checks its PTX); `tol`: the comparison's tolerance
// (default: by element type; Tolerance{} is exact).
inline std::string RunAndCompare(const std::string& hlo_text, uint64_t seed = 1,
                                 std::vector<std::string>* kinds = nullptr, const char* sm = "sm_90",
                                 std::optional<Tolerance> tol = std::nullopt) {
  CodegenOptions opts;
  opts.sm = sm;
  opts.emit_ptx = !PtxasPath().empty();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(hlo_text, "test.hlo", "", opts);
  if (!compiled.ok()) return "codegen: " + compiled.status().message();
  if (kinds)
    for (const auto& k : compiled->codegen.kernels) kinds->push_back(k.kind);
  auto inputs = MakeRandomInputs(*compiled->module->entry(), seed);
  auto want = EvaluateModule(*compiled->module, inputs);
  if (!want.ok()) return "interpreter: " + want.status().message();
  auto got = RunOnCpu(compiled->codegen, inputs);
  if (!got.ok()) return "cpu run: " + got.status().message();
  return runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs, tol);
}

}  // namespace hloscope::codegen::testing
