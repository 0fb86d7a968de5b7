#include "core/passes/pipeline.h"

#include <chrono>

namespace hloscope {

void Pipeline::AddPass(std::unique_ptr<Pass> pass) {
  Item item;
  item.pass = std::move(pass);
  items_.push_back(std::move(item));
}

Pipeline& Pipeline::AddFixedPoint(std::string name, int max_iterations) {
  Item item;
  item.group = std::make_unique<Pipeline>(std::move(name));
  item.max_iterations = max_iterations < 1 ? 1 : max_iterations;
  items_.push_back(std::move(item));
  return *items_.back().group;
}

void Pipeline::AddInstrumentation(PassInstrumentation* instrumentation) {
  instrumentations_.push_back(instrumentation);
}

StatusOr<bool> Pipeline::Run(Module& module) {
  group_iterations_.clear();
  RunState state{name_, &instrumentations_, &group_iterations_, 0};
  for (PassInstrumentation* i : instrumentations_) RETURN_IF_ERROR(i->BeforePipeline(module, name_));
  ASSIGN_OR_RETURN(bool changed, RunItems(module, state, "", 1));
  for (PassInstrumentation* i : instrumentations_)
    RETURN_IF_ERROR(i->AfterPipeline(module, name_, changed));
  return changed;
}

StatusOr<bool> Pipeline::RunPass(Pass& pass, Module& module, RunState& state, std::string_view group,
                                 int iteration) {
  PassRunInfo info{state.pipeline, group, &pass, iteration, ++state.step};  // step 0 is the input
  for (PassInstrumentation* i : *state.instrumentations) RETURN_IF_ERROR(i->BeforePass(module, info));
  pass.ClearLog();
  auto start = std::chrono::steady_clock::now();
  StatusOr<bool> changed = pass.Run(module);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!changed.ok()) {
    return Status::Error("pass " + std::string(pass.name()) + " failed: " + changed.status().message());
  }
  PassRunResult result{*changed, ms, &pass.log()};
  for (PassInstrumentation* i : *state.instrumentations)
    RETURN_IF_ERROR(i->AfterPass(module, info, result));
  return *changed;
}

StatusOr<bool> Pipeline::RunItems(Module& module, RunState& state, std::string_view group, int iteration) {
  bool changed = false;
  for (Item& item : items_) {
    if (item.pass) {
      ASSIGN_OR_RETURN(bool c, RunPass(*item.pass, module, state, group, iteration));
      changed |= c;
      continue;
    }
    int it = 0;
    for (; it < item.max_iterations; ++it) {
      ASSIGN_OR_RETURN(bool c, item.group->RunItems(module, state, item.group->name(), it + 1));
      changed |= c;
      if (!c) {
        ++it;
        break;
      }
    }
    state.group_iterations->push_back({item.group->name(), it});
  }
  return changed;
}

std::string Pipeline::Describe() const {
  std::string out;
  for (const Item& item : items_) {
    if (!out.empty()) out += ", ";
    if (item.pass) {
      out += item.pass->name();
    } else {
      out += "fixed-point " + item.group->name() + " ×" + std::to_string(item.max_iterations) + " (" +
             item.group->Describe() + ")";
    }
  }
  return out;
}

}  // namespace hloscope
