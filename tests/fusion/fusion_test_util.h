// Shared helpers for the fusion conformance tests: run one fusion pass (or
// a list) on inline HLO with the verifier and the differential check after
// every pass, then ask which fusion each original instruction ended in.
// Cases are adapted from XLA's GPU fusion tests (shapes shrunk so the
// interpreter can check them); docs/fusion-conformance.md keeps the tally.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/eval/compare.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope::fusion_testing {

inline std::unique_ptr<Module> Parse(const std::string& text) {
  auto m = ParseHloModule(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

// Evaluates the entry on random inputs of `seed`; nullopt (not a failure)
// when the interpreter cannot run the module.
inline std::optional<Literal> Evaluate(const Module& m, uint64_t seed) {
  auto out = EvaluateModule(m, MakeRandomInputs(*m.entry(), seed));
  if (!out.ok()) return std::nullopt;
  return std::move(*out);
}

struct FusionRun {
  std::unique_ptr<Module> module;
  bool changed = false;  // any pass reported a change
  std::vector<FusionDecision> decisions;

  // Fusion instruction name(s) an instruction of the input now lives in,
  // joined with ","; "" when it is not inside any fusion. Fused
  // instructions keep their names, so this reads the grouping directly.
  std::string Group(const std::string& name) const {
    std::set<std::string> in;
    for (const auto& c : module->computations())
      for (const auto& i : c->instructions()) {
        if (i->opcode() != Opcode::kFusion || !i->fused_computation()) continue;
        for (const auto& f : i->fused_computation()->instructions())
          if (f->opcode() != Opcode::kParameter && f->name() == name) in.insert(i->name());
      }
    std::string s;
    for (const auto& n : in) s += (s.empty() ? "" : ",") + n;
    return s;
  }
  const Instruction* Find(const std::string& name) const {
    for (const auto& c : module->computations())
      for (const auto& i : c->instructions())
        if (i->name() == name) return i.get();
    return nullptr;
  }
  // Kind of the fusion `fusion_name` ("kLoop", "kInput"...), "" if none.
  std::string Kind(const std::string& fusion_name) const {
    const Instruction* f = Find(fusion_name);
    if (!f || f->opcode() != Opcode::kFusion) return "";
    return std::string(FusionKindName(f->fusion_kind()));
  }
  // Kind of the fusion `name` ended up in.
  std::string KindOf(const std::string& name) const { return Kind(Group(name)); }
  int CountFusions() const {
    int n = 0;
    for (const auto& i : module->entry()->instructions()) n += i->opcode() == Opcode::kFusion;
    return n;
  }
  std::string Text() const { return PrintModule(*module); }
  const FusionDecision* DecisionFor(const std::string& producer, FusionVerdict v) const {
    for (const auto& d : decisions)
      if (d.producer == producer && d.verdict == v) return &d;
    return nullptr;
  }
};

// Runs each pass of `passes` in turn. After every pass: the module
// verifies, prints and parses back, and evaluates (when the interpreter can)
// to the same values as the input on two random seeds.
inline FusionRun RunFusion(const std::vector<std::string>& passes, const std::string& text) {
  FusionRun run;
  run.module = Parse(text);
  if (!run.module) return run;
  Status v0 = VerifyModule(*run.module);
  EXPECT_TRUE(v0.ok()) << "input does not verify: " << v0.message();
  std::vector<std::optional<Literal>> expected;
  for (uint64_t seed : {1u, 2u}) expected.push_back(Evaluate(*run.module, seed));
  EXPECT_TRUE(expected[0].has_value()) << "the input must be evaluable for the differential check";
  for (const std::string& name : passes) {
    SCOPED_TRACE("after pass " + name);
    const PassInfo* info = PassRegistry::Global().FindPass(name);
    EXPECT_NE(info, nullptr) << name;
    if (!info) return run;
    std::unique_ptr<Pass> pass = info->create();
    auto changed = pass->Run(*run.module);
    EXPECT_TRUE(changed.ok()) << changed.status().message();
    run.changed |= changed.ok() && *changed;
    for (const auto& d : pass->log().decisions) run.decisions.push_back(d);
    Status v = VerifyModule(*run.module);
    EXPECT_TRUE(v.ok()) << v.message() << "\n" << run.Text();
    std::string printed = PrintModule(*run.module);
    auto back = ParseHloModule(printed, "printed.hlo");
    EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.status().message()) << "\n" << printed;
    if (back.ok()) EXPECT_EQ(PrintModule(**back), printed);
    for (size_t s = 0; s < expected.size(); ++s) {
      if (!expected[s]) continue;
      std::optional<Literal> got = Evaluate(*run.module, s + 1);
      EXPECT_TRUE(got.has_value()) << "the fused module no longer evaluates\n" << run.Text();
      if (got) EXPECT_EQ(CompareLiterals(*expected[s], *got), "") << run.Text();
    }
  }
  return run;
}

inline FusionRun RunFusion(const char* pass, const std::string& text) {
  return RunFusion(std::vector<std::string>{pass}, text);
}

// The reducer most XLA tests declare.
inline constexpr const char* kAdd = R"(
scalar_add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// A small reduction read by two one-operand consumers (XLA GPU compiles it
// into one kernel: the reduction computed in each epilogue, the two copies
// merged as siblings).
inline std::string ReductionReadByTwoEpilogues() {
  return std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  p0 = f32[8,16] parameter(0)
  c0 = f32[] constant(0)
  r2 = f32[8] reduce(p0, c0), dimensions={1}, to_apply=scalar_add
  n1 = f32[8] negate(r2)
  n2 = f32[8] exponential(r2)
  ROOT t = (f32[8], f32[8]) tuple(n1, n2)
})";
}

}  // namespace hloscope::fusion_testing
