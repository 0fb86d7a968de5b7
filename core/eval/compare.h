// Comparing interpreter results with expected values, within per-type
// tolerances (docs/eval-tolerances.md explains each default).
#pragma once

#include <optional>
#include <string>

#include "core/ir/literal.h"

namespace hloscope {

// |actual - expected| <= abs + rel * |expected| passes. NaN matches NaN;
// an infinity matches only the same infinity.
struct Tolerance {
  double abs = 0, rel = 0;
};

// Defaults by element type:
//   pred, integers: exact (0, 0)
//   f64:  abs 1e-9,  rel 1e-9
//   f32:  abs 1e-5,  rel 1e-4
//   f16:  abs 1e-3,  rel 1e-2
//   bf16: abs 1e-2,  rel 2e-2
//   f8/f4 types: abs 0.25, rel 0.25
//   c64 / c128: those of f32 / f64, per component
Tolerance DefaultTolerance(PrimitiveType t);

// "" when equal within tolerance (tuples compared leaf by leaf), else a
// description of the FIRST differing element, e.g.
// "output {1} element [2,3]: expected 1.5, got 1.7 (abs diff 0.2 > tol 1e-05 + 0.0001*|expected|)".
// Without `tol`, each leaf uses DefaultTolerance of its element type.
std::string CompareLiterals(const Literal& expected, const Literal& actual,
                            std::optional<Tolerance> tol = std::nullopt);

}  // namespace hloscope
