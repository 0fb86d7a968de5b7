// Session and PipelineRun: loading, running a pipeline with the step
// recorder, and the lazily parsed per-step modules and buffer assignments.
#include "core/session/session.h"

#include <unordered_map>

#include "core/cost/cost_model.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/verify/verifier.h"

namespace hloscope {
namespace {

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Stops the pipeline before the next pass once the flag is set.
class CancelInstrumentation : public PassInstrumentation {
 public:
  explicit CancelInstrumentation(const std::atomic<bool>* flag) : flag_(flag) {}
  Status BeforePass(const Module&, const PassRunInfo&) override {
    if (flag_ && flag_->load()) return Status::Error("cancelled");
    return Status::Ok();
  }

 private:
  const std::atomic<bool>* flag_;
};

// Forwards each recorded step, renumbered after the input step.
class StepForwarder : public PassInstrumentation {
 public:
  StepForwarder(StepRecorder* rec, std::vector<std::shared_ptr<const Step>>* out,
                const std::function<void(const std::shared_ptr<const Step>&)>* cb)
      : rec_(rec), out_(out), cb_(cb) {}
  Status AfterPass(const Module&, const PassRunInfo&, const PassRunResult&) override {
    if (rec_->steps().empty()) return Status::Ok();
    auto s = std::make_shared<Step>(*rec_->steps().back());
    s->index = static_cast<int>(out_->size());
    out_->push_back(s);
    if (*cb_) (*cb_)(s);
    return Status::Ok();
  }

 private:
  StepRecorder* rec_;
  std::vector<std::shared_ptr<const Step>>* out_;
  const std::function<void(const std::shared_ptr<const Step>&)>* cb_;
};

}  // namespace

PipelineRun::PipelineRun(std::string name, std::string device, std::vector<std::shared_ptr<const Step>> steps)
    : name_(std::move(name)), device_(std::move(device)), steps_(std::move(steps)) {}

PipelineRun::Cached& PipelineRun::CacheFor(int k) const { return cache_[steps_.at(k)->module.get()]; }

StatusOr<std::shared_ptr<const Module>> PipelineRun::ModuleAt(int k) const {
  if (k < 0 || k >= size()) return Status::Error("no step " + std::to_string(k));
  const ModuleSnapshot* snap = steps_[k]->module.get();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Cached& c = cache_[snap];
    if (c.parsed) {
      if (!c.module) return Status::Error(c.module_error);
      return c.module;
    }
  }
  // Parse outside the lock so readers of other steps are not held up.
  auto parsed = ParseHloModule(snap->text, "step " + std::to_string(k));
  std::map<int64_t, const Instruction*> by_id;
  std::shared_ptr<const Module> module;
  std::string error;
  if (parsed.ok()) {
    module = std::shared_ptr<const Module>(std::move(*parsed));
    std::unordered_map<std::string, const Computation*> comps;
    for (const auto& c : module->computations()) comps[c->name()] = c.get();
    std::unordered_map<const Computation*, std::unordered_map<std::string, const Instruction*>> names;
    for (const InstructionRecord& r : snap->instructions) {
      if (r.computation < 0 || r.computation >= snap->computation_count()) continue;
      auto it = comps.find(snap->computations[r.computation].name);
      if (it == comps.end()) continue;
      auto& table = names[it->second];
      if (table.empty())
        for (const auto& i : it->second->instructions()) table[i->name()] = i.get();
      auto found = table.find(r.name);
      if (found != table.end()) by_id[r.id] = found->second;
    }
  } else {
    error = parsed.status().message();
  }
  std::lock_guard<std::mutex> lock(mu_);
  Cached& c = cache_[snap];
  if (!c.parsed) {
    c.parsed = true;
    c.module = module;
    c.module_error = error;
    c.by_id = std::move(by_id);
  }
  if (!c.module) return Status::Error(c.module_error);
  return c.module;
}

StatusOr<std::shared_ptr<const BufferAssignment>> PipelineRun::BuffersAt(int k) const {
  ASSIGN_OR_RETURN(std::shared_ptr<const Module> module, ModuleAt(k));
  const ModuleSnapshot* snap = steps_[k]->module.get();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Cached& c = cache_[snap];
    if (c.assigned) {
      if (!c.buffers) return Status::Error(c.buffers_error);
      return c.buffers;
    }
  }
  auto ba = AssignBuffers(*module);
  std::lock_guard<std::mutex> lock(mu_);
  Cached& c = cache_[snap];
  if (!c.assigned) {
    c.assigned = true;
    if (ba.ok()) c.buffers = *ba;
    else c.buffers_error = ba.status().message();
  }
  if (!c.buffers) return Status::Error(c.buffers_error);
  return c.buffers;
}

const Instruction* PipelineRun::InstructionAt(int k, int64_t id) const {
  if (!ModuleAt(k).ok()) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  const Cached& c = CacheFor(k);
  auto it = c.by_id.find(id);
  return it == c.by_id.end() ? nullptr : it->second;
}

void PipelineRun::SetBuffers(int k, std::shared_ptr<const BufferAssignment> buffers) {
  if (k < 0 || k >= size() || !buffers) return;
  std::lock_guard<std::mutex> lock(mu_);
  Cached& c = cache_[steps_[k]->module.get()];
  c.assigned = true;
  c.buffers = std::move(buffers);
}

int64_t PipelineRun::IdOfName(int k, std::string_view name) const {
  if (k < 0 || k >= size()) return -1;
  if (!name.empty() && name[0] == '%') name.remove_prefix(1);
  for (const InstructionRecord& r : steps_[k]->module->instructions)
    if (r.name == name) return r.id;
  return -1;
}

std::vector<std::pair<int, const FusionDecision*>> PipelineRun::DecisionsAbout(int64_t id,
                                                                              std::string_view name) const {
  std::vector<std::pair<int, const FusionDecision*>> out;
  for (const auto& s : steps_) {
    for (const FusionDecision& d : s->decisions) {
      bool about = (id >= 0 && d.producer_id == id) || (!name.empty() && d.producer == name);
      for (int64_t c : d.consumer_ids) about |= id >= 0 && c == id;
      for (const std::string& c : d.consumers) about |= !name.empty() && c == name;
      if (about) out.push_back({s->index, &d});
    }
  }
  return out;
}

StatusOr<std::shared_ptr<const Session>> Session::Load(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return FromText(std::move(text), path);
}

StatusOr<std::shared_ptr<const Session>> Session::FromText(std::string text, std::string filename) {
  auto s = std::make_shared<Session>();
  s->path_ = std::move(filename);
  s->source_ = std::move(text);
  s->stablehlo_ = EndsWith(s->path_, ".mlir");
  ASSIGN_OR_RETURN(std::unique_ptr<Module> m, s->NewModule(/*verify=*/false));
  if (Status v = VerifyModule(*m); !v.ok()) s->verify_warnings_ = v.message();
  s->module_name_ = m->name();
  s->initial_ = ModuleSnapshot::Capture(*m);
  return std::shared_ptr<const Session>(std::move(s));
}

StatusOr<std::unique_ptr<Module>> Session::NewModule(bool verify) const {
  std::unique_ptr<Module> m;
  if (stablehlo_) {
    ASSIGN_OR_RETURN(mlir::ModuleAst ast, mlir::ParseMlir(source_, path_));
    ASSIGN_OR_RETURN(mlir::ConvertResult r, mlir::ConvertToHlo(ast));
    m = std::move(r.module);
  } else {
    ASSIGN_OR_RETURN(m, ParseHloModule(source_, path_));
  }
  m->set_source_path(path_);
  if (verify) RETURN_IF_ERROR(VerifyModule(*m));
  return m;
}

std::shared_ptr<const Step> Session::InputStep(const ModuleCost& cost) const {
  auto s = std::make_shared<Step>();
  s->index = 0;
  s->pass = stablehlo_ ? "stablehlo→hlo" : "input";
  s->changed = stablehlo_;
  s->module = initial_;
  s->instructions = initial_->instruction_count();
  s->computations = initial_->computation_count();
  s->cost = cost;
  return s;
}

std::shared_ptr<const PipelineRun> Session::InputOnly() const {
  ModuleCost cost;
  if (verify_warnings_.empty())
    if (auto m = NewModule(); m.ok()) cost = EstimateModule(**m, CurrentDevice());
  return std::make_shared<PipelineRun>("input", CurrentDevice().id,
                                       std::vector<std::shared_ptr<const Step>>{InputStep(cost)});
}

StatusOr<std::shared_ptr<const PipelineRun>> Session::RunPipeline(const RunOptions& opts) const {
  if (!opts.device.empty()) {
    ASSIGN_OR_RETURN(DeviceSpec d, LoadDevice(opts.device));
    SetCurrentDevice(d);
  }
  const PassRegistry& reg = PassRegistry::Global();
  std::unique_ptr<Pipeline> pipeline;
  if (!opts.passes.empty()) {
    ASSIGN_OR_RETURN(pipeline, reg.BuildPassList(opts.passes));
  } else {
    ASSIGN_OR_RETURN(pipeline, reg.BuildPipeline(opts.pipeline));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Module> m, NewModule());
  StepRecorder recorder;
  VerifierInstrumentation verifier(VerifyOptions{}, /*verify_input=*/false);
  CancelInstrumentation cancel(opts.cancel);
  std::vector<std::shared_ptr<const Step>> steps;
  StepForwarder forward(&recorder, &steps, &opts.on_step);
  pipeline->AddInstrumentation(&cancel);
  pipeline->AddInstrumentation(&recorder);
  if (opts.verify) pipeline->AddInstrumentation(&verifier);
  // The input step is known once the recorder has seen the module.
  struct InputHook : PassInstrumentation {
    const Session* self;
    StepRecorder* rec;
    std::vector<std::shared_ptr<const Step>>* out;
    const std::function<void(const std::shared_ptr<const Step>&)>* cb;
    Status BeforePipeline(const Module&, std::string_view) override {
      auto s = self->InputStep(rec->initial_cost());
      out->push_back(s);
      if (*cb) (*cb)(s);
      return Status::Ok();
    }
  } input;
  input.self = this;
  input.rec = &recorder;
  input.out = &steps;
  input.cb = &opts.on_step;
  pipeline->AddInstrumentation(&input);
  pipeline->AddInstrumentation(&forward);
  auto changed = pipeline->Run(*m);
  if (!changed.ok()) return changed.status();
  return std::make_shared<const PipelineRun>(pipeline->name(), CurrentDevice().id, std::move(steps));
}

}  // namespace hloscope
