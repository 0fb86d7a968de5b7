// The reference interpreter: evaluates HLO modules, computations and single
// instructions on literals with XLA's semantics (see docs/eval-tolerances.md
// for how its results are compared with JAX's).
//
// Values are logical (row-major) arrays; layouts never change values, except
// that `bitcast` reinterprets the physical buffer as XLA does. Ops that
// cannot be evaluated on one device without outside state (collectives,
// custom-call, send/recv, infeed, ...) and constants whose values were
// elided (`{...}`) give an error naming the op and the instruction, never a
// wrong answer. The stateful `rng` and `rng-get-and-update-state` draw from
// one random-number state per evaluation (core/eval/rng_state.h): it starts
// from a fixed seed in every EvaluateModule / EvaluateComputation, and only
// instructions reachable from the root advance it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/literal.h"
#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

// False while an UnsignedZerosScope is alive on this thread: the default of
// EvalOptions::signed_zeros.
bool DefaultSignedZeros();

// While one is alive, EvalOptions made on this thread start with
// signed_zeros = false, so that a pass that evaluates (constant folding)
// folds -0 as +0, as the differential driver's signed-zero re-check
// evaluates the program around it (core/fuzz/diff_driver.cc).
class UnsignedZerosScope {
 public:
  UnsignedZerosScope();
  ~UnsignedZerosScope();
  UnsignedZerosScope(const UnsignedZerosScope&) = delete;
  UnsignedZerosScope& operator=(const UnsignedZerosScope&) = delete;

 private:
  bool saved_;
};

struct EvalOptions {
  // A while loop that runs more iterations than this is an error.
  int64_t max_while_iterations = 10'000'000;
  // False: every floating result's -0 reads as +0, as if the sign of a zero
  // were no part of the value. XLA's algebraic simplifier assumes so (x + 0
  // becomes x; a dot over one element becomes a multiply), and the
  // differential checks use this to tell a signed-zero difference from a
  // wrong value.
  bool signed_zeros = DefaultSignedZeros();
};

// Evaluates the entry computation. The result is one Literal (a tuple
// literal for tuple roots).
// OK when the interpreter can evaluate `m` as far as a look at its
// instructions tells (no collective across several devices); else the first
// reason, located. EvaluateModule asks it first; callers ask it before
// making gigabytes of inputs for a module it cannot run.
Status ModuleEvaluable(const Module& m);

StatusOr<Literal> EvaluateModule(const Module& m, const std::vector<Literal>& args,
                                 const EvalOptions& opts = {});

// A module that runs on several devices (num_partitions × replica_count in
// its header, or as many as its collectives name: ModuleDeviceGrid in
// core/ir/collectives.h), evaluated as it runs: every device on its own arguments
// (args[d] for the device of flattened id d = replica × num_partitions +
// partition), replica-id and partition-id giving each device its own, and
// the collectives (all-reduce, all-gather, reduce-scatter, all-to-all,
// collective-permute, collective-broadcast, their -start/-done forms and
// async wrappers) exchanging values between the devices of their groups as
// XLA defines them (core/ir/collectives.h for the groups). Returns every
// device's result, in device order. Devices that stop at different
// collectives (different paths through the program) end the evaluation with
// an error naming where each one waits. At most 512 devices.
StatusOr<std::vector<Literal>> EvaluateModuleOnDevices(const Module& m,
                                                       const std::vector<std::vector<Literal>>& args,
                                                       const EvalOptions& opts = {});
// OK when EvaluateModuleOnDevices can evaluate `m` as far as a look at its
// collectives tells (their groups are well formed); else the first reason.
Status ModuleEvaluableOnDevices(const Module& m);

// The devices an evaluation of `m` takes: all of its devices when it has
// several and a collective, replica-id or partition-id (and they evaluate
// it: ModuleEvaluableOnDevices); else 1 (and EvaluateModule says why it
// cannot, if it cannot).
int64_t DevicesToEvaluate(const Module& m);
// EvaluateModule(m, args[0]) for one device, EvaluateModuleOnDevices for
// several: every device's result.
StatusOr<std::vector<Literal>> EvaluateOnDevices(const Module& m, int64_t devices,
                                                 const std::vector<std::vector<Literal>>& args,
                                                 const EvalOptions& opts = {});
StatusOr<Literal> EvaluateComputation(const Computation& c, const std::vector<Literal>& args,
                                      const EvalOptions& opts = {});
// Evaluates one instruction given its operand values (used by constant
// folding). Called computations (fusion, reduce, while...) are evaluated too.
StatusOr<Literal> EvaluateInstruction(const Instruction& instr,
                                      const std::vector<const Literal*>& operands,
                                      const EvalOptions& opts = {});

}  // namespace hloscope
