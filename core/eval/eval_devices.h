// Evaluation on several devices (eval_devices.cc): each device of a module's
// num_partitions × replica_count runs the entry computation on its own
// thread, with its own Interp; the collectives meet at a Rendezvous, where
// every member of a group leaves its operands and takes what the collective
// gives it. Internal to the interpreter; the entry point is
// EvaluateModuleOnDevices (evaluator.h).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/eval/eval_internal.h"

namespace hloscope::eval {

class Rendezvous;

// Which device an Interp evaluates for, and what it has met so far.
struct DeviceContext {
  int64_t replica = 0, partition = 0;
  int64_t replicas = 1, partitions = 1;
  Rendezvous* rendezvous = nullptr;
  // How many times each collective has run on this device: the n-th run of
  // an instruction meets the n-th run of the same instruction elsewhere.
  std::unordered_map<const Instruction*, int64_t> runs;
  // Each collective's groups (or collective-permute's sources), computed on
  // its first run.
  std::unordered_map<const Instruction*, std::vector<std::vector<int64_t>>> groups;
  std::unordered_map<const Instruction*, std::vector<int64_t>> sources;

  int64_t device() const { return replica * partitions + partition; }
};

// A collective, replica-id or partition-id on the device `in` evaluates for.
StatusOr<Literal> EvalOnDevice(Interp& in, const Instruction& instr, Operands ops);

}  // namespace hloscope::eval
