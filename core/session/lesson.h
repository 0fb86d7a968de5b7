// The guided lesson (issue 30, item 3): a tour of the pipeline's stages on
// the open module, with text generated from this run's data (never canned
// per sample), each stage naming the step to show, the panel to raise and
// the instructions to select and highlight. The GUI's tour panel
// (Help → Guided tour, `hloscope --lesson FILE`) and the tutorial page
// (`hloscope-cli report FILE --lesson --out DIR`) both read it. Qt-free.
//
// Stages, in order (a stage whose subject is absent is left out, e.g. no
// StableHLO stage for HLO input, no CSE stage when CSE found nothing):
//   "stablehlo"   StableHLO → HLO (.mlir input): what the conversion made
//   "simplify"    simplification: what algsimp/DCE/constant folding removed
//   "cse"         CSE: "these N instructions computed the same value"
//   "fusion"      fusion: one representative decision, its kernels and
//                 HBM bytes before/after, with the warehouse picture
//   "buffers"     buffer assignment: peak against the lower bound, what
//                 reused what (one example of reuse)
//   "kernels"     kernels: one kernel's LLVM IR → PTX (→ SASS when the
//                 tools are present), its registers and what it computes
// On large modules (tens of thousands of instructions) examples are picked
// as representative (the largest fusion, the largest buffer at the peak,
// the most common kernel kind), in linear time.
#pragma once

#include <string>
#include <vector>

#include "core/session/session.h"

namespace hloscope {

struct LessonStage {
  std::string id;     // "stablehlo", "simplify", "cse", "fusion", "buffers", "kernels"
  std::string title;  // "Simplification: CSE"
  // Paragraphs generated from the run, separated by blank lines; plain text
  // (`code` in backquotes for instruction names and opcodes).
  std::string text;
  int step = 0;        // the step to show: index into PipelineRun::steps() (0 = the input)
  std::string panel;   // what to raise: "graph", "timeline", "text", "decisions", "kernels", "ptx", "llvm-ir"
  // Instructions (names in that step's module) to select (the first) and
  // highlight (all); may be empty.
  std::vector<std::string> subjects;
  // Numbers the text quotes, for tests and the HTML page ("kernels_before": "144", ...).
  std::vector<std::pair<std::string, std::string>> facts;
  // The "kernels" stage: the kernel shown (an instruction of the last
  // step's entry) and, with LessonOptions::kernel_code, its LLVM IR (after
  // libdevice and O3) and PTX, compiled on their own; empty otherwise.
  std::string kernel;
  std::string kernel_ir, kernel_ptx;
};

struct Lesson {
  std::string module_name;
  std::string pipeline, device;
  std::vector<LessonStage> stages;
};

struct LessonOptions {
  // Generate one kernel's LLVM IR / PTX for the "kernels" stage (slower;
  // the GUI may pass false and fill it from its own kernel worker).
  bool kernel_code = true;
};

// Builds the tour of `run` (a run of `session`'s module). Errors only when
// the run has no steps.
StatusOr<Lesson> BuildLesson(const Session& session, const PipelineRun& run, const LessonOptions& options = {});

}  // namespace hloscope
