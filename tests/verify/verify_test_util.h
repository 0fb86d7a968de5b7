// Helpers for the verifier and shape-inference tests: parse inline HLO,
// find instructions, run the verifier and shape inference.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "core/parser/parser.h"
#include "core/verify/shape_inference.h"
#include "core/verify/verifier.h"

namespace hloscope::testing {

inline std::unique_ptr<Module> ParseOrDie(std::string_view text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message() << "\n" << text;
  if (!m.ok()) return nullptr;
  m.value()->set_source_path("t.hlo");
  return std::move(m).value();
}

inline Instruction* FindInstr(const Module& m, std::string_view name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  ADD_FAILURE() << "no instruction named " << name;
  return nullptr;
}

// "OK" or the verifier's message.
inline std::string Verify(const Module& m, const VerifyOptions& opts = {}) {
  Status s = VerifyModule(m, opts);
  return s.ok() ? "OK" : s.message();
}

inline std::string VerifyText(std::string_view text, const VerifyOptions& opts = {}) {
  auto m = ParseOrDie(text);
  return m ? Verify(*m, opts) : "parse failed";
}

// The inferred shape of `name` (no layout) or "error: <message>".
inline std::string Inferred(const Module& m, std::string_view name) {
  const Instruction* i = FindInstr(m, name);
  if (!i) return "missing";
  auto s = InferShape(*i);
  return s.ok() ? s->ToString(/*print_layout=*/false) : "error: " + s.status().message();
}

}  // namespace hloscope::testing
