// One registry of passes and pipelines by name: the CLI (`opt`, `check`,
// `list-passes`), the GUI's pass list and the tests all read it. Pipelines
// are data (PipelineSpec) so other parts register into it:
//
//   PassRegistry& r = PassRegistry::Global();
//   r.RegisterPass({"fusion", "Fuses producers into consumers...", [] { return MakeFusionPass(); }});
//   r.RegisterPipeline({"gpu", "XLA's GPU pipeline, simplified", {
//       PipelineStage::Include("simplify"),
//       PipelineStage::Pass("fusion"),
//       PipelineStage::FixedPoint("fusion-cleanup", {PipelineStage::Pass("cse"),
//                                                    PipelineStage::Pass("dce")}, 4)}});
//   r.ExtendPipeline("gpu", {PipelineStage::Pass("buffer_assignment")});
//
// Built-in registrations happen in Global() (pass_registry.cc lists the
// Register* functions, one per family of passes).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/passes/pass.h"
#include "core/passes/pipeline.h"
#include "core/support/status.h"

namespace hloscope {

struct PassInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Pass>()> create;
};

// One stage of a pipeline: a pass, a fixed-point group of stages, or all
// stages of another registered pipeline (resolved when the pipeline is built).
struct PipelineStage {
  enum class Kind { kPass, kFixedPoint, kInclude };
  Kind kind = Kind::kPass;
  std::string name;                 // pass, group or included pipeline
  std::vector<PipelineStage> body;  // kFixedPoint only
  int max_iterations = 1;           // kFixedPoint only
  // kPass only: run only when this stage's own pipeline is the one run, not
  // where another pipeline includes it (simplify's copy_insertion: the gpu
  // pipeline inserts its copies after fusion instead).
  bool unless_included = false;

  static PipelineStage Pass(std::string name);
  static PipelineStage PassUnlessIncluded(std::string name);
  static PipelineStage FixedPoint(std::string name, std::vector<PipelineStage> body, int max_iterations);
  static PipelineStage Include(std::string pipeline);
};

struct PipelineSpec {
  std::string name;
  std::string description;
  std::vector<PipelineStage> stages;
};

class PassRegistry {
 public:
  // The process-wide registry, with every built-in pass and pipeline.
  static PassRegistry& Global();

  // Errors on a duplicate name.
  Status RegisterPass(PassInfo info);
  // Registers (or replaces) a pipeline; every stage must name a registered
  // pass or pipeline.
  Status RegisterPipeline(PipelineSpec spec);
  // Appends stages to a registered pipeline.
  Status ExtendPipeline(std::string_view name, std::vector<PipelineStage> stages);

  const PassInfo* FindPass(std::string_view name) const;
  const PipelineSpec* FindPipeline(std::string_view name) const;
  // In registration order.
  const std::vector<PassInfo>& passes() const { return passes_; }
  const std::vector<PipelineSpec>& pipelines() const { return pipelines_; }
  // Pipelines that run `pass`, directly or through included pipelines.
  std::vector<std::string> PipelinesContaining(std::string_view pass) const;

  StatusOr<std::unique_ptr<Pass>> CreatePass(std::string_view name) const;
  StatusOr<std::unique_ptr<Pipeline>> BuildPipeline(std::string_view name) const;
  // An ad-hoc pipeline from pass names (`--passes a,b,c`).
  StatusOr<std::unique_ptr<Pipeline>> BuildPassList(const std::vector<std::string>& passes,
                                                    std::string name = "custom") const;

 private:
  Status CheckStages(const std::vector<PipelineStage>& stages, std::string_view pipeline) const;
  Status AddStages(Pipeline& p, const std::vector<PipelineStage>& stages, int depth, bool included) const;
  bool Runs(const std::vector<PipelineStage>& stages, std::string_view pass, int depth) const;

  std::vector<PassInfo> passes_;
  std::vector<PipelineSpec> pipelines_;
};

// Built-in families, called by Global(): the simplification passes and the
// `simplify` pipeline (simplify_passes.cc).
void RegisterSimplifyPasses(PassRegistry& registry);

}  // namespace hloscope
