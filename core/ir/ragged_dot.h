// What ragged-dot's attributes say (XLA's shape-inference rules, read from
// shape_inference.cc and the evaluator): the dot's dimension numbers, the one
// lhs ragged dimension and the rhs group dimension, the mode they imply, and
// which lhs dimensions the group sizes' leading dimensions stand for. Shared
// by the verifier, the interpreter and the ragged-dot rewriter.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/attributes.h"
#include "core/ir/instruction.h"

namespace hloscope {

// The integers of a raw attribute such as lhs_ragged_dims={1,2}; nullopt
// when it is absent or holds anything but integers and braces.
std::optional<std::vector<int64_t>> RawIntList(const Instruction& instr, std::string_view name);

enum class RaggedDotMode {
  kNonContracting,  // [b,m,k] · [g,b,k,n] → [b,m,n]: each lhs row m picks its group's rhs
  kContracting,     // [b,m,k] · [b,k,n] → [g,b,m,n]: group g contracts its own range of k
  kBatch,           // [b,m,k] · [b,k,n] → [b,m,n]: batches past the groups' total are zero
};

struct RaggedDotDims {
  DotDnums dot;
  int64_t lhs_ragged = -1;
  std::vector<int64_t> rhs_group;  // one in the non-contracting mode, else none
  RaggedDotMode mode = RaggedDotMode::kNonContracting;
  // The lhs dimensions that group_sizes [p..., g] is indexed by before g, in
  // order: the batch dimensions (in the batch mode only those before the
  // ragged one), then, in the contracting mode, the contracting dimensions
  // before the ragged one, or, in the non-contracting mode, the free
  // dimensions before it. A group_sizes of rank 1 is the same for all.
  std::vector<int64_t> group_prefix;
};

// Nullopt when there is no operand or lhs_ragged_dims does not name exactly
// one dimension; ranges are not checked (the verifier does).
std::optional<RaggedDotDims> RaggedDotDimsOf(const Instruction& instr);

}  // namespace hloscope
