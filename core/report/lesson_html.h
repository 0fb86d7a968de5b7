// The tutorial page (issue 30, item 5): the guided lesson (core/session/
// lesson.h) as one self-contained HTML page — inline CSS and SVG, no script,
// nothing fetched — with, per stage, its title and text, the graph of the
// stage's step (its subjects and their neighbours, the subjects outlined in
// orange; the view's 1200×800 fit groups what would not read), the HBM
// traffic chart with the fusion stage, the buffer timeline with the buffers
// stage and the kernel's LLVM IR and PTX with the kernels stage.
// `hloscope-cli report FILE --lesson --out DIR` writes it as DIR/lesson.html.
#pragma once

#include <functional>
#include <string>

#include "core/session/lesson.h"
#include "core/session/session.h"

namespace hloscope::report {

struct LessonPageOptions {
  std::string source;  // the input file, for the header
  // The graph view's size the pictures are fitted to (GraphOptions::fit_*).
  double graph_width = 1200, graph_height = 800;
  // Called once per picture drawn ("stage fusion: graph of step 30").
  std::function<void(const std::string&)> progress;
};

// Sections: <section id="overview">, then <section id="stage-ID"> per stage
// in the lesson's order.
std::string RenderLessonHtml(const Session& session, const PipelineRun& run, const Lesson& lesson,
                             const LessonPageOptions& options = {});

}  // namespace hloscope::report
