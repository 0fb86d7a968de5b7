// XLA GPU's own GEMM fusion search, from what its gemm_fusion pass logs at
// TF_CPP_VMODULE=gemm_fusion=6 (tools/xla_gpu_reference.py --vlog, the
// default of `hloscope-cli xla-gpu`): xla_vlog.txt. XLA 0.12 writes, per dot,
//   Creating dot fusion v2 around dot: %dot.24 = ... metadata={op_name="..."}
// then one line per candidate, breadth first from the dot's operands, then
// toward its users:
//   Fusing operand: %add_any.0 = ...
//   Not fusing operand: %mul.6 = ... due to profitability decision: Too many parameters.
//   Fusing user into epilogue: %add.12 = ...
//   Not fusing user: %transpose.38 = ... due to profitability decision: ...
// The candidates are the ops of XLA's search space (bitcasts moved to the
// inputs, shared ops cloned per path), so their names are XLA's clones;
// their op_name metadata names the op they came from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope::report {

struct XlaGemmCandidate {
  bool fused = false;
  bool user = false;        // a candidate of the epilogue (toward the users)
  std::string name;         // XLA's name in its search space ("add_any.0")
  std::string op_name;      // the op it came from ("" when XLA keeps none: parameters, clones of constants)
  std::string instruction;  // the instruction as XLA logged it, metadata dropped
  std::string reason;       // why not ("profitability decision: Too many parameters")
  int line = 0;             // in the log
};

struct XlaGemmSearch {
  std::string dot;      // XLA's dot ("dot.24")
  std::string op_name;  // its op_name ("dot_general.71"): the dot of the module XLA was given
  int line = 0;
  std::vector<XlaGemmCandidate> candidates;  // in the log's order
};

struct XlaGemmLog {
  std::string origin;
  std::vector<XlaGemmSearch> searches;
};

// Reads the searches out of an XLA log (other lines are skipped: the log
// holds every module's and pass's messages).
XlaGemmLog ParseXlaGemmLog(std::string_view text, const std::string& origin);
// DIR/xla_vlog.txt of a folder the tool wrote (or the file itself); an error
// when there is none or it cannot be read.
StatusOr<XlaGemmLog> ReadXlaGemmLog(const std::string& dir_or_file);

// The searches about `instruction` of the module XLA was given: the one
// around it when it is a dot (by op_name or XLA's name), else every search
// with a candidate that came from it, with only those candidates.
std::vector<XlaGemmSearch> XlaGemmStoryOf(const XlaGemmLog& log, std::string_view instruction);

// Our GEMM fusions against XLA's logged searches: every candidate XLA logged
// for a dot that is the dot of one of our GEMM fusions (kind=kCustom) in
// `ours`, whose op keeps its name and opcode in `ours` (not a bitcast XLA
// moved, or a transpose its layout assignment made, under the op's
// op_name), counts; it agrees when both fused it or both left it out.
struct GemmVerdictDiff {
  std::string dot;  // the dot's name in `ours` (XLA's op_name for it)
  XlaGemmCandidate candidate;
  bool ours_fused = false;
};
struct GemmAgreement {
  int64_t searches = 0;  // XLA's searches around a dot of one of our GEMM fusions
  int64_t compared = 0, agree = 0;
  std::vector<GemmVerdictDiff> differ;
};
GemmAgreement CompareGemmSearches(const Module& ours, const XlaGemmLog& log);

// "fused operand add_any.51 (XLA's add_any.0)", "left out operand mul.455
// (XLA's mul.6): profitability decision: Too many parameters".
std::string XlaGemmCandidateLine(const XlaGemmCandidate& c);

}  // namespace hloscope::report
