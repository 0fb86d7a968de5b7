// Shared between the elementwise files: arithmetic kernels by arity.
#pragma once

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {

// Unary arithmetic (abs ... sinh, not, popcnt, clz, is-finite).
StatusOr<Literal> EvalUnary(const Instruction& instr, const Literal& a);
// Binary arithmetic and bitwise ops on two same-shaped arrays.
StatusOr<Literal> EvalBinary(const Instruction& instr, const Literal& a, const Literal& b);

}  // namespace hloscope::eval
