// Sequential schedules of a computation that respect data and control
// dependencies: XLA's three ideas (DFS post-order, a greedy list scheduler
// that frees the most bytes, and a post-order that visits large operands
// first). The buffer assignment runs them all and keeps the best.
#pragma once

#include <string>
#include <vector>

#include "core/ir/computation.h"

namespace hloscope {

using Sequence = std::vector<const Instruction*>;

// Post-order from the root (operands in operand order), unreachable
// instructions appended in the same way.
Sequence DfsSchedule(const Computation& c);
// Greedy: among ready instructions pick the one with the largest
// (bytes freed − bytes defined); ties by input order.
Sequence ListSchedule(const Computation& c);
// Post-order that visits an instruction's operands largest output first.
Sequence PostorderBySizeSchedule(const Computation& c);
// The order the instructions have in the text (for is_scheduled modules).
Sequence TextOrderSchedule(const Computation& c);

// Bytes an instruction defines as new storage (0 for bitcast, tuple,
// get-tuple-element, parameters and constants), used by the heuristics.
int64_t DefinedBytes(const Instruction& i);

}  // namespace hloscope
