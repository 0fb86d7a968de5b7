// Helpers for the layout tests: a sample run through a pipeline with the step
// recorder, and a snapshot's module parsed again (as the GUI does).
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "core/layout/graph_layout.h"
#include "core/layout/graph_model.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/pipeline.h"
#include "core/passes/step_recorder.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {

struct PipelineRun {
  std::unique_ptr<StepRecorder> recorder = std::make_unique<StepRecorder>();
  std::unique_ptr<Module> final_module;
};

inline PipelineRun RunPipeline(const std::string& sample, const std::string& pipeline) {
  PipelineRun run;
  auto m = ParseHloFile(SamplesDir() + "/" + sample);
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok()) return run;
  auto p = PassRegistry::Global().BuildPipeline(pipeline);
  EXPECT_TRUE(p.ok());
  if (!p.ok()) return run;
  (*p)->AddInstrumentation(run.recorder.get());
  auto changed = (*p)->Run(**m);
  EXPECT_TRUE(changed.ok()) << changed.status().message();
  run.final_module = std::move(*m);
  return run;
}

inline std::unique_ptr<Module> Reparse(const ModuleSnapshot& snap) {
  auto m = ParseHloModule(snap.text, "<snapshot>");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

inline layout::Graph MustBuild(const ModuleSnapshot& snap, const layout::GraphOptions& o = {}) {
  auto m = Reparse(snap);
  if (!m) return {};
  auto g = layout::BuildGraph(*m, snap, o);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : layout::Graph{};
}

}  // namespace hloscope::testing
