// Fast traversals for passes that run on every step of a pipeline: post
// orders with per-instruction state in a vector indexed by the stable id
// (no hashing), and the call graph read straight from called_refs().
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/module.h"

namespace hloscope {

// Reusable post-order builder: operands (and control predecessors) before
// users; instructions of the computation that nothing reaches are included.
class PostOrder {
 public:
  std::vector<Instruction*> Of(const Computation& comp);
};

// Computations reachable from the entry, callees before callers.
std::vector<Computation*> ComputationsCalleesFirst(const Module& m);

// Computations that are not the body of a fusion instruction, in module
// order. Like XLA's MakeNonfusionComputations: rewriting passes leave fused
// computations to the fusion passes (whose verifier rules are stricter).
std::vector<Computation*> NonFusionComputations(const Module& m);

// Calls `fn(callee)` for every computation `instr` calls.
template <typename Fn>
void ForEachCallee(const Instruction& instr, Fn fn) {
  for (const CalledRef& r : instr.called_refs())
    for (Computation* c : r.comps)
      if (c) fn(c);
}

}  // namespace hloscope
