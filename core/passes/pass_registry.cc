#include "core/passes/pass_registry.h"

#include "core/fusion/fusion_pass_base.h"

#include <algorithm>

namespace hloscope {

PipelineStage PipelineStage::Pass(std::string name) {
  PipelineStage s;
  s.kind = Kind::kPass;
  s.name = std::move(name);
  return s;
}

PipelineStage PipelineStage::PassUnlessIncluded(std::string name) {
  PipelineStage s = Pass(std::move(name));
  s.unless_included = true;
  return s;
}

PipelineStage PipelineStage::FixedPoint(std::string name, std::vector<PipelineStage> body,
                                        int max_iterations) {
  PipelineStage s;
  s.kind = Kind::kFixedPoint;
  s.name = std::move(name);
  s.body = std::move(body);
  s.max_iterations = max_iterations;
  return s;
}

PipelineStage PipelineStage::Include(std::string pipeline) {
  PipelineStage s;
  s.kind = Kind::kInclude;
  s.name = std::move(pipeline);
  return s;
}

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = [] {
    auto* r = new PassRegistry();
    RegisterSimplifyPasses(*r);
    RegisterFusionPasses(*r);
    return r;
  }();
  return *registry;
}

Status PassRegistry::RegisterPass(PassInfo info) {
  if (FindPass(info.name)) return Status::Error("pass '" + info.name + "' is already registered");
  if (!info.create) return Status::Error("pass '" + info.name + "' has no factory");
  passes_.push_back(std::move(info));
  return Status::Ok();
}

Status PassRegistry::CheckStages(const std::vector<PipelineStage>& stages, std::string_view pipeline) const {
  for (const PipelineStage& s : stages) {
    switch (s.kind) {
      case PipelineStage::Kind::kPass:
        if (!FindPass(s.name))
          return Status::Error("pipeline '" + std::string(pipeline) + "': unknown pass '" + s.name + "'");
        break;
      case PipelineStage::Kind::kFixedPoint:
        if (s.max_iterations < 1)
          return Status::Error("pipeline '" + std::string(pipeline) + "': group '" + s.name +
                               "' needs max_iterations >= 1");
        RETURN_IF_ERROR(CheckStages(s.body, pipeline));
        break;
      case PipelineStage::Kind::kInclude:
        if (s.name == pipeline || !FindPipeline(s.name))
          return Status::Error("pipeline '" + std::string(pipeline) + "': cannot include pipeline '" +
                               s.name + "'");
        break;
    }
  }
  return Status::Ok();
}

Status PassRegistry::RegisterPipeline(PipelineSpec spec) {
  RETURN_IF_ERROR(CheckStages(spec.stages, spec.name));
  for (PipelineSpec& p : pipelines_) {
    if (p.name == spec.name) {
      p = std::move(spec);
      return Status::Ok();
    }
  }
  pipelines_.push_back(std::move(spec));
  return Status::Ok();
}

Status PassRegistry::ExtendPipeline(std::string_view name, std::vector<PipelineStage> stages) {
  RETURN_IF_ERROR(CheckStages(stages, name));
  for (PipelineSpec& p : pipelines_) {
    if (p.name != name) continue;
    for (PipelineStage& s : stages) p.stages.push_back(std::move(s));
    return Status::Ok();
  }
  return Status::Error("unknown pipeline '" + std::string(name) + "'");
}

const PassInfo* PassRegistry::FindPass(std::string_view name) const {
  for (const PassInfo& p : passes_)
    if (p.name == name) return &p;
  return nullptr;
}

const PipelineSpec* PassRegistry::FindPipeline(std::string_view name) const {
  for (const PipelineSpec& p : pipelines_)
    if (p.name == name) return &p;
  return nullptr;
}

bool PassRegistry::Runs(const std::vector<PipelineStage>& stages, std::string_view pass, int depth) const {
  if (depth > 16) return false;
  for (const PipelineStage& s : stages) {
    switch (s.kind) {
      case PipelineStage::Kind::kPass:
        if (s.name == pass) return true;
        break;
      case PipelineStage::Kind::kFixedPoint:
        if (Runs(s.body, pass, depth + 1)) return true;
        break;
      case PipelineStage::Kind::kInclude:
        if (const PipelineSpec* p = FindPipeline(s.name); p && Runs(p->stages, pass, depth + 1)) return true;
        break;
    }
  }
  return false;
}

std::vector<std::string> PassRegistry::PipelinesContaining(std::string_view pass) const {
  std::vector<std::string> out;
  for (const PipelineSpec& p : pipelines_)
    if (Runs(p.stages, pass, 0)) out.push_back(p.name);
  return out;
}

StatusOr<std::unique_ptr<Pass>> PassRegistry::CreatePass(std::string_view name) const {
  const PassInfo* info = FindPass(name);
  if (!info) return Status::Error("unknown pass '" + std::string(name) + "' (see `hloscope-cli list-passes`)");
  return info->create();
}

Status PassRegistry::AddStages(Pipeline& p, const std::vector<PipelineStage>& stages, int depth,
                               bool included) const {
  if (depth > 16) return Status::Error("pipelines include each other too deeply (a cycle?)");
  for (const PipelineStage& s : stages) {
    switch (s.kind) {
      case PipelineStage::Kind::kPass: {
        if (s.unless_included && included) break;
        ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, CreatePass(s.name));
        p.AddPass(std::move(pass));
        break;
      }
      case PipelineStage::Kind::kFixedPoint:
        RETURN_IF_ERROR(AddStages(p.AddFixedPoint(s.name, s.max_iterations), s.body, depth + 1, included));
        break;
      case PipelineStage::Kind::kInclude: {
        const PipelineSpec* inc = FindPipeline(s.name);
        if (!inc) return Status::Error("unknown pipeline '" + s.name + "'");
        RETURN_IF_ERROR(AddStages(p, inc->stages, depth + 1, true));
        break;
      }
    }
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<Pipeline>> PassRegistry::BuildPipeline(std::string_view name) const {
  // `none`: no passes, the module as written (XLA's own optimized modules).
  if (name == "none") return std::make_unique<Pipeline>("none");
  const PipelineSpec* spec = FindPipeline(name);
  if (!spec) {
    std::string known;
    for (const PipelineSpec& p : pipelines_) known += (known.empty() ? "" : ", ") + p.name;
    return Status::Error("unknown pipeline '" + std::string(name) + "' (known: " + known + ", none)");
  }
  auto p = std::make_unique<Pipeline>(spec->name);
  RETURN_IF_ERROR(AddStages(*p, spec->stages, 0, false));
  return p;
}

StatusOr<std::unique_ptr<Pipeline>> PassRegistry::BuildPassList(const std::vector<std::string>& passes,
                                                                 std::string name) const {
  if (passes.empty()) return Status::Error("empty pass list");
  auto p = std::make_unique<Pipeline>(std::move(name));
  for (const std::string& n : passes) {
    ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, CreatePass(n));
    p->AddPass(std::move(pass));
  }
  return p;
}

}  // namespace hloscope
