// What the kernel planner (kernel_plan.cc) asks of shapes, literals and
// instructions: functions of the HLO alone, no buffers or thunks.
#ifndef HLOSCOPE_CORE_CODEGEN_KERNEL_PLAN_QUERIES_H_
#define HLOSCOPE_CORE_CODEGEN_KERNEL_PLAN_QUERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/computation.h"
#include "core/ir/literal.h"
#include "core/ir/shape.h"
#include "core/runtime/thunk_plan.h"

namespace hloscope::codegen::plan {

// An array leaf of a (possibly nested) tuple shape: its index path and shape.
struct Leaf {
  std::vector<int64_t> index;
  Shape shape;
};
// The array leaves in order; tokens and empty tuples have none.
std::vector<Leaf> LeavesOf(const Shape& s);

bool SameSlice(const runtime::Slice& a, const runtime::Slice& b);

// Ops whose value is their operand's bytes (bitcast, reshape, tuple,
// get-tuple-element, optimization barrier, identity custom-calls).
bool IsBitcastLike(const Instruction& i);

// `name` as a PTX identifier: letters, digits and '_', not starting with a
// digit or '_' ("k_…").
std::string Sanitize(const std::string& name);

// The layout's dims minor to major (the default layout where it has none).
std::vector<int64_t> MinorToMajor(const Shape& s);

// The literal's bytes in the physical order of `shape`'s layout (sub-byte
// types packed).
std::vector<uint8_t> PhysicalBytes(const Literal& lit, const Shape& shape);

// A slice whose elements are one contiguous run of its operand's buffer,
// in the same order: the run's start in bytes; nullopt for any other slice.
std::optional<int64_t> ContiguousSliceStartBytes(const Instruction& i);

// The reducer as one elementwise op of its two parameters, or one of
// them ("first", "last"), or "".
std::string ReductionKind(const Computation* fn);

// True when every read of operand `op` of kernel `i` is at the output's
// index (kernel_plan.cc: whether the kernel may write into that operand's
// buffer).
bool ReadsAtWrittenIndex(const Instruction& i, int op, const Shape& out);

}  // namespace hloscope::codegen::plan

#endif  // HLOSCOPE_CORE_CODEGEN_KERNEL_PLAN_QUERIES_H_
