// Helpers for interpreter tests: build literals from a shape string and
// values, run inline HLO text, read results back as doubles.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "core/eval/evaluator.h"
#include "core/parser/parser.h"

namespace hloscope::testing {

inline Literal Lit(std::string_view shape, const std::vector<double>& vals) {
  auto s = ParseShape(shape);
  EXPECT_TRUE(s.ok()) << shape;
  Literal l(*s);
  EXPECT_EQ(static_cast<int64_t>(vals.size()), l.num_elements()) << shape;
  PrimitiveType t = s->element_type();
  for (int64_t i = 0; i < l.num_elements() && i < static_cast<int64_t>(vals.size()); ++i) {
    if (IsFloat(t) || IsComplex(t)) l.SetDouble(i, vals[i]);
    else l.SetInt(i, static_cast<int64_t>(vals[i]));
  }
  return l;
}

inline StatusOr<Literal> RunHlo(std::string_view hlo, const std::vector<Literal>& args = {},
                                const EvalOptions& opts = {}) {
  auto m = ParseHloModule(hlo, "test.hlo");
  if (!m.ok()) return m.status();
  return EvaluateModule(**m, args, opts);
}

// Runs and expects success.
inline Literal MustRun(std::string_view hlo, const std::vector<Literal>& args = {}) {
  auto r = RunHlo(hlo, args);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : Literal();
}

inline std::vector<double> Vals(const Literal& l) {
  std::vector<double> v;
  for (int64_t i = 0; i < l.num_elements(); ++i) v.push_back(l.GetDouble(i));
  return v;
}

inline std::vector<int64_t> Ints(const Literal& l) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < l.num_elements(); ++i) v.push_back(l.GetInt(i));
  return v;
}

// Evaluates `op` applied elementwise: "f32[3] add(a, b)" style one-liner.
inline Literal Binary(std::string_view type, std::string_view op, const Literal& a, const Literal& b,
                      std::string_view attrs = "") {
  std::string in = a.shape().ToString(false), out = std::string(type);
  std::string hlo = "HloModule t\nENTRY e {\n  a = " + in + " parameter(0)\n  b = " + b.shape().ToString(false) +
                    " parameter(1)\n  ROOT r = " + out + " " + std::string(op) + "(a, b)" + std::string(attrs) + "\n}\n";
  return MustRun(hlo, {a, b});
}

inline Literal Unary(std::string_view type, std::string_view op, const Literal& a, std::string_view attrs = "") {
  std::string hlo = "HloModule t\nENTRY e {\n  a = " + a.shape().ToString(false) + " parameter(0)\n  ROOT r = " +
                    std::string(type) + " " + std::string(op) + "(a)" + std::string(attrs) + "\n}\n";
  return MustRun(hlo, {a});
}

inline uint32_t F32Bits(double v) {
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace hloscope::testing
