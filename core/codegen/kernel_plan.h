// The kernel plan: the optimized entry computation as XLA's GPU backend
// lowers it — thunks over buffer-assignment allocations in schedule order.
// One kernel per fusion and per remaining instruction that computes; nothing
// for parameter/tuple/get-tuple-element/bitcast (they alias their operands'
// buffers); device copies where a value must move; while loops and
// conditionals driven from the host with their bodies planned recursively.
#pragma once

#include <memory>

#include <vector>

#include "core/codegen/kernel_emitter.h"
#include "core/memory/buffer_assignment.h"
#include "core/runtime/thunk_plan.h"

namespace hloscope::codegen {

struct KernelPlan {
  runtime::ThunkPlan plan;
  // One per kernel thunk, in runtime::AllKernels(plan) order; each thunk's
  // kind and launch dimensions are filled in when its kernel is emitted.
  std::vector<KernelSpec> specs;
  // Instructions the plan made for its specs (a contiguous slice is a copy
  // of a run of its operand's buffer: the copy and its parameter).
  std::vector<std::shared_ptr<Instruction>> synthetic;
};

// `module` must outlive the result (specs point at its instructions).
// `device` must outlive it too.
StatusOr<KernelPlan> BuildKernelPlan(const Module& module, const BufferAssignment& buffers,
                                     const NvptxTarget& target, const DeviceSpec& device);

// The kernel thunks of `plan` in AllKernels order, mutable.
std::vector<runtime::KernelThunk*> MutableKernels(runtime::ThunkPlan& plan);

}  // namespace hloscope::codegen
