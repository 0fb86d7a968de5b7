#include "core/report/xla_dump_run.h"

#include <string>
#include <unordered_map>

#include "core/cost/cost_model.h"
#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/passes/step_recorder.h"

namespace hloscope::report {

StatusOr<std::shared_ptr<PipelineRun>> LoadXlaDumpRun(const XlaDumpModule& module, const std::atomic<bool>* cancel) {
  if (module.steps.empty()) return Status::Error(module.id + ": the dump has no module files");
  std::unordered_map<std::string, int64_t> id_of_name;
  int64_t next_id = 0;
  std::vector<std::shared_ptr<const Step>> steps;
  std::shared_ptr<const ModuleSnapshot> prev;
  const DeviceSpec& device = CurrentDevice();
  for (const XlaDumpStep& file : module.steps) {
    if (cancel && cancel->load()) return Status::Error("cancelled");
    ASSIGN_OR_RETURN(std::unique_ptr<Module> m, ParseHloFile(file.path));
    // One id per instruction name across the files.
    for (const auto& c : m->computations())
      for (const auto& i : c->instructions()) {
        auto [it, fresh] = id_of_name.try_emplace(i->name(), next_id);
        if (fresh) ++next_id;
        i->set_id(it->second);
      }
    auto step = std::make_shared<Step>();
    step->index = static_cast<int>(steps.size());
    step->pipeline = "xla-dump";
    step->pass = file.label;
    step->module = ModuleSnapshot::Capture(*m);
    step->instructions = step->module->instruction_count();
    step->computations = step->module->computation_count();
    step->cost = EstimateModule(*m, device);
    if (prev) {
      step->diff = DiffSnapshots(*prev, *step->module, {});
      step->changed = !step->diff.empty();
    }
    prev = step->module;
    steps.push_back(std::move(step));
  }
  auto run = std::make_shared<PipelineRun>("xla-dump", device.id, std::move(steps));
  if (!module.buffer_assignment.empty()) {
    auto ba = ReadXlaBufferAssignment(module.buffer_assignment);
    if (ba.ok()) {
      const int last = run->size() - 1;
      for (AssignedBuffer& b : ba->buffers)
        if (b.instruction_id < 0) b.instruction_id = run->IdOfName(last, b.instruction);
      run->SetBuffers(last, std::make_shared<const BufferAssignment>(std::move(*ba)));
    }
  }
  return run;
}

}  // namespace hloscope::report
