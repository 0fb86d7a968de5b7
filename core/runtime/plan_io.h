// Moving values between the interpreter's literals (logical, row-major) and a
// plan's buffers (physical: the shape's layout), and comparing a run's
// outputs with expected ones. Shared by the CPU and CUDA executors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/compare.h"
#include "core/ir/literal.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

// Parses PlanValue::shape (an array shape, with or without layout).
StatusOr<Shape> PlanValueShape(const PlanValue& v);

// The bytes of `l` laid out as `physical` says (its layout; none = row-major).
// Errors for tiled layouts and packed sub-byte types.
StatusOr<std::vector<uint8_t>> LiteralToBuffer(const Literal& l, const Shape& physical);
StatusOr<Literal> LiteralFromBuffer(const uint8_t* data, size_t size, const Shape& physical);

// The entry inputs (one literal per parameter, tuples allowed, or already
// flattened as data files hold them) as one array leaf per plan.parameters
// entry, in that order; checks count, element type and dimensions.
StatusOr<std::vector<Literal>> ParameterLeaves(const ThunkPlan& plan, const std::vector<Literal>& inputs);

// "" when every output matches within DefaultTolerance, else the first
// mismatch: "output 1 (f32[4,8]) element [2,3]: expected …, got … — last
// written by kernel 'loop_fusion_3' (fusion.3)".
// With `tol`, every output is compared with that one tolerance.
std::string CompareOutputs(const ThunkPlan& plan, const std::vector<Literal>& expected,
                           const std::vector<Literal>& actual, std::optional<Tolerance> tol = std::nullopt);

// ValidatePlan plus what running needs: every parameter/output shape parses
// and fits its slice.
Status ValidatePlanForRun(const ThunkPlan& plan);
// The same for a run of every device of the plan (RunOnCpuDevices): the
// collectives are allowed where their groups, reducer and shapes were read.
Status ValidatePlanForDevices(const ThunkPlan& plan);

// The last kernel (in execution order) that writes bytes of `s`, or null.
const KernelThunk* LastWriter(const ThunkPlan& plan, const Slice& s);

}  // namespace hloscope::runtime
