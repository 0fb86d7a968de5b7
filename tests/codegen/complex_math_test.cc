// Complex transcendental functions in kernels (core/codegen/complex_math_ir.cc)
// against the interpreter's std::complex (glibc, C99 Annex G): every unary
// function the interpreter defines on c64/c128, power, maximum/minimum and
// `xla_builder.math.Atan`, on random values at several scales and on edge
// values — zeros of both signs, both sides of every branch cut (±0 imaginary
// or real parts), tiny, near-one and huge parts — where the signs of zero
// results must agree as well.
#include <cmath>
#include <complex>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::CompileRunCompare;

const std::vector<std::string> kUnary = {
    "exponential", "exponential-minus-one", "log", "log-plus-one", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan",
    "tanh", "sinh", "cosh", "asin", "acos", "asinh", "acosh", "atanh", "sign", "negate"};
const std::string kAtan = "custom-call(z), custom_call_target=\"xla_builder.math.Atan\"";

// The line of `op` applied to z: "c64[37] sine(z)".
std::string OpLine(const std::string& shape, const std::string& op) {
  if (op == kAtan || op.find('(') != std::string::npos) return shape + " " + op;
  return shape + " " + op + "(z)";
}

// A module whose value z (the line `z_line`) goes through every op of `ops`,
// the outputs a tuple.
std::string ModuleOver(const std::vector<std::string>& lines, const std::string& shape,
                       const std::vector<std::string>& ops) {
  std::string s = "HloModule m\n\nENTRY e {\n";
  for (const std::string& l : lines) s += "  " + l + "\n";
  std::string shapes, names;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string name = "o" + std::to_string(i);
    s += "  " + name + " = " + OpLine(shape, ops[i]) + "\n";
    shapes += (i ? ", " : "") + shape;
    names += (i ? ", " : "") + name;
  }
  return s + "  ROOT t = (" + shapes + ") tuple(" + names + ")\n}\n";
}

// Random z = p0 · scale (the interpreter's inputs lie in [-1, 1]²).
std::string RandomModule(const std::string& ct, double scale, const std::vector<std::string>& ops) {
  std::ostringstream sc;
  sc.precision(17);
  sc << scale;
  std::string shape = ct + "[128]";
  return ModuleOver({"p0 = " + shape + " parameter(0)", "s = " + ct + "[] constant((" + sc.str() + ", 0))",
                     "sb = " + shape + " broadcast(s), dimensions={}", "z = " + shape + " multiply(p0, sb)"},
                    shape, ops);
}

class ComplexMath : public ::testing::TestWithParam<std::string> {};

TEST_P(ComplexMath, UnaryOnRandomValuesAgreeWithInterpreter) {
  std::vector<std::string> ops = kUnary;
  ops.push_back(kAtan);
  for (double scale : {1.0, 0.001, 3.0, 20.0}) {
    SCOPED_TRACE("scale " + std::to_string(scale));
    // Two draws at scale 1, one elsewhere, of 128 values each: each compile
    // and ptxas run costs seconds.
    for (uint64_t seed : scale == 1.0 ? std::vector<uint64_t>{1, 2} : std::vector<uint64_t>{1}) {
      auto r = CompileRunCompare(RandomModule(GetParam(), scale, ops), "", true, seed);
      EXPECT_EQ(r.error, "") << "seed " << seed;
    }
  }
}

TEST_P(ComplexMath, PowerMaximumMinimumAgreeWithInterpreter) {
  const std::string ct = GetParam(), shape = ct + "[37]";
  std::string hlo = "HloModule m\n\nENTRY e {\n  p0 = " + shape + " parameter(0)\n  p1 = " + shape +
                    " parameter(1)\n  s = " + ct + "[] constant((2, 0))\n  sb = " + shape +
                    " broadcast(s), dimensions={}\n  w = " + shape + " multiply(p1, sb)\n  o0 = " + shape +
                    " power(p0, w)\n  o1 = " + shape + " maximum(p0, p1)\n  o2 = " + shape +
                    " minimum(p0, p1)\n  o3 = " + shape + " power(p0, p1)\n  ROOT t = (" + shape + ", " + shape +
                    ", " + shape + ", " + shape + ") tuple(o0, o1, o2, o3)\n}\n";
  for (uint64_t seed : {1, 2, 3}) {
    auto r = CompileRunCompare(hlo, "", true, seed);
    EXPECT_EQ(r.error, "") << "seed " << seed;
  }
}

// Edge values: (re, im) text for an HLO constant.
const std::vector<std::string> kEdges = {
    "(0, 0)", "(-0, 0)", "(0, -0)", "(-0, -0)",                        // zeros
    "(-2, 0)", "(-2, -0)", "(-0.5, 0)", "(-0.5, -0)",                  // negative real axis
    "(2, 0)", "(2, -0)", "(0.5, 0)", "(0.5, -0)", "(1, 0)", "(-1, -0)",  // real axis
    "(0, 2)", "(-0, 2)", "(0, -2)", "(-0, -2)", "(0, 0.5)", "(-0, -0.5)", "(0, 1)", "(-0, -1)",  // imaginary axis
    "(0.001, 0.002)", "(-1e-05, 3e-06)", "(1e-20, -1e-20)", "(-3e-30, 0)", "(0, 4e-25)",        // tiny
    "(0.999, 1e-07)", "(1.001, -1e-07)", "(-0.999, 1e-07)", "(1, 1e-06)", "(0.6, 0.8)",        // near 1
    "(3, 4)", "(-3, 4)", "(-3, -4)", "(20, -7)", "(-7, 20)", "(30, 1)", "(1, -30)", "(-0.3, 60)"};
// For the functions that stay finite for huge |z| (or, tanh/tan, bounded).
const std::vector<std::string> kHuge = {"(1e15, 1e15)", "(-1e15, 3)", "(3, -1e15)", "(1e30, -1e30)",
                                        "(-1e30, 0)",   "(0, 1e30)",  "(-0, -1e30)", "(1e30, 1)"};
const std::vector<std::string> kBounded = {"log", "log-plus-one", "sqrt", "rsqrt", "cbrt", "tan", "tanh", "asin",
                                           "acos", "asinh", "acosh", "atanh", "sign"};

// Every component agrees within the type's tolerance, NaN with NaN, and a
// zero with a zero of the same sign (unless `zero_sign` is false).
std::string CompareSigned(const Literal& want, const Literal& got, const std::vector<std::string>& zs, double tol,
                          bool zero_sign) {
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    std::complex<double> e = want.GetComplex(i), a = got.GetComplex(i);
    for (int part = 0; part < 2; ++part) {
      double ev = part ? e.imag() : e.real(), av = part ? a.imag() : a.real();
      bool ok = (std::isnan(ev) && std::isnan(av)) || (ev == 0 && av == 0 && (!zero_sign || std::signbit(ev) == std::signbit(av))) ||
                (ev != 0 && std::fabs(av - ev) <= tol + tol * 10 * std::fabs(ev)) || (std::isinf(ev) && av == ev);
      if (!ok) {
        std::ostringstream os;
        os.precision(17);
        os << "z = " << zs[i] << ": want " << e << ", got " << a;
        return os.str();
      }
    }
  }
  return "";
}

std::string ConstantLine(const std::string& name, const std::string& ct, const std::vector<std::string>& zs) {
  std::string list;
  for (size_t i = 0; i < zs.size(); ++i) list += (i ? ", " : "") + zs[i];
  return name + " = " + ct + "[" + std::to_string(zs.size()) + "] constant({" + list + "})";
}

// `ops` of the constant z = `zs` (and w = `ws` where given).
void ExpectEdgesAgree(const std::string& ct, const std::vector<std::string>& zs, const std::vector<std::string>& ops,
                      const std::vector<std::string>& ws = {}) {
  std::string shape = ct + "[" + std::to_string(zs.size()) + "]";
  std::vector<std::string> lines = {ConstantLine("z", ct, zs)};
  if (!ws.empty()) lines.push_back(ConstantLine("w", ct, ws));
  std::string hlo = ModuleOver(lines, shape, ops);
  CodegenOptions opts;
  opts.emit_ptx = testing::HavePtxas();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(hlo, "edges.hlo", "", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto want = EvaluateModule(*compiled->module, {});
  ASSERT_TRUE(want.ok()) << want.status().message();
  auto got = RunOnCpu(compiled->codegen, {});
  ASSERT_TRUE(got.ok()) << got.status().message();
  std::vector<Literal> want_leaves = FlattenTuple(*want);
  ASSERT_EQ(want_leaves.size(), got->outputs.size());
  const double tol = ct == "c64" ? 1e-5 : 1e-9;
  // Zero signs not compared: cbrt, where the interpreter's pow(z, 1/3) =
  // exp((1/3 + 0i) log z) gives cbrt(x - 0i) = cbrt(x) + 0i for x > 1 (0·log x
  // added to -0) while the kernels keep cbrt(conj z) = conj(cbrt z); rsqrt,
  // whose zeros take their signs from the division algorithm (libgcc's
  // __divsc3 for c64, Smith's in the kernels); power, where 0^w = ±0 ± 0i
  // with signs C99 leaves unspecified (glibc: 0^2 = 0 - 0i).
  for (size_t k = 0; k < ops.size(); ++k) {
    bool zero_sign = ops[k] != "cbrt" && ops[k] != "rsqrt" && ops[k] != "power(z, w)";
    EXPECT_EQ(CompareSigned(want_leaves[k], got->outputs[k], zs, tol, zero_sign), "") << ct << " " << ops[k];
  }
}

TEST_P(ComplexMath, EdgeValuesAndBranchCutsAgreeWithInterpreter) {
  std::vector<std::string> ops = kUnary;
  ops.push_back(kAtan);
  ExpectEdgesAgree(GetParam(), kEdges, ops);
}

TEST_P(ComplexMath, HugeValuesAgreeWithInterpreter) {
  std::vector<std::string> ops = kBounded;
  ops.push_back(kAtan);
  ExpectEdgesAgree(GetParam(), kHuge, ops);
}

// pow(1, w) = pow(z, 0) = 1, 0^w = 0 for re(w) > 0, the cut of log z along
// the negative real axis; lexicographic max/min with ties.
TEST_P(ComplexMath, PowerMaximumMinimumEdgeValues) {
  ExpectEdgesAgree(GetParam(),
                   {"(0, 0)", "(-0, 0)", "(1, 0)", "(-2, 0)", "(-2, -0)", "(2, 3)", "(0, 0.5)", "(-1, 0)", "(0.5, -0)",
                    "(3, 1)", "(1e-3, 0)"},
                   {"power(z, w)", "maximum(z, w)", "minimum(z, w)"},
                   {"(2, 0)", "(0.5, 1)", "(3, 4)", "(0.5, 0)", "(0.5, 0)", "(0, 0)", "(2, 0)", "(0.5, 0)", "(-1.5, 0)",
                    "(3, -1)", "(-0.25, 2)"});
}

INSTANTIATE_TEST_SUITE_P(Types, ComplexMath, ::testing::Values("c64", "c128"));

// xla_builder.math.Atan on real types: atan(x), f16/bf16 computed in f32.
TEST(ComplexMath, BuilderAtanOnRealTypes) {
  for (const char* t : {"f32", "f64", "f16", "bf16"}) {
    std::string shape = std::string(t) + "[33]";
    std::string hlo = ModuleOver({"p0 = " + shape + " parameter(0)", "s = " + std::string(t) + "[] constant(7)",
                                  "sb = " + shape + " broadcast(s), dimensions={}", "z = " + shape + " multiply(p0, sb)"},
                                 shape, {kAtan});
    auto r = CompileRunCompare(hlo);
    EXPECT_EQ(r.error, "") << t;
  }
}

// Complex atan2 as XLA defines it (its evaluator and elemental emitter):
// atan2(y, x) = -i log((x + iy) / sqrt(x² + y²)).
TEST(ComplexMath, Atan2OfComplexFollowsXlasDefinition) {
  for (const char* t : {"c64", "c128"}) {
    const std::string shape = std::string(t) + "[64]";
    auto r = CompileRunCompare(ModuleOver({"p0 = " + shape + " parameter(0)", "p1 = " + shape + " parameter(1)"}, shape,
                                          {"atan2(p0, p1)"}));
    EXPECT_EQ(r.error, "") << t;
  }
}

}  // namespace
}  // namespace hloscope::codegen
