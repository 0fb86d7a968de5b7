#include "core/passes/step_recorder.h"

#include <algorithm>
#include <thread>
#include <unordered_set>

#include "core/printer/printer.h"

namespace hloscope {
namespace {

uint64_t Fingerprint(std::string_view s) { return std::hash<std::string_view>()(s); }

}  // namespace

const InstructionRecord* ModuleSnapshot::Find(int64_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= index_of_id.size()) return nullptr;
  const uint32_t k = index_of_id[static_cast<size_t>(id)];
  return k == kNoInstruction ? nullptr : &instructions[k];
}

std::string_view ModuleSnapshot::line(const InstructionRecord& r) const {
  return std::string_view(text).substr(r.line_offset, r.line_length);
}

std::shared_ptr<const ModuleSnapshot> ModuleSnapshot::Capture(const Module& m) {
  auto s = std::make_shared<ModuleSnapshot>();
  std::vector<InstructionLine> lines;
  s->text = PrintModuleWithLines(m, &lines);
  s->instructions.reserve(lines.size());
  s->operand_ids.reserve(lines.size() * 2);
  std::vector<size_t> operand_start;
  operand_start.reserve(lines.size() + 1);
  // One walk over the instructions (each one a cache miss on a large
  // module); the id index is filled from the records afterwards.
  int64_t max_id = -1;
  size_t k = 0;
  for (const auto& c : m.computations()) {
    ComputationRecord cr;
    cr.name = c->name();
    cr.is_entry = c->is_entry();
    cr.root_id = c->root() ? c->root()->id() : -1;
    cr.first_instruction = s->instructions.size();
    cr.instruction_count = c->instructions().size();
    const int32_t ci = static_cast<int32_t>(s->computations.size());
    for (const auto& i : c->instructions()) {
      InstructionRecord& r = s->instructions.emplace_back();  // in place: nothing moved
      r.id = i->id();
      r.name = i->name();
      r.opcode = i->opcode();
      r.computation = ci;
      r.is_root = i.get() == c->root();
      // Where its operands start; the views are made once the pool stops growing.
      operand_start.push_back(s->operand_ids.size());
      for (const Instruction* o : i->operands()) s->operand_ids.push_back(o->id());
      r.line_offset = lines[k].offset;
      r.line_length = lines[k].length;
      ++k;
      r.fingerprint = Fingerprint(s->line(r));
      max_id = std::max(max_id, r.id);
    }
    s->computations.push_back(std::move(cr));
  }
  operand_start.push_back(s->operand_ids.size());
  for (size_t n = 0; n < s->instructions.size(); ++n)
    s->instructions[n].operands = std::span<const int64_t>(s->operand_ids.data() + operand_start[n],
                                                           operand_start[n + 1] - operand_start[n]);
  s->index_of_id.assign(static_cast<size_t>(max_id + 1), ModuleSnapshot::kNoInstruction);
  for (size_t n = 0; n < s->instructions.size(); ++n)
    if (const int64_t id = s->instructions[n].id; id >= 0)
      s->index_of_id[static_cast<size_t>(id)] = static_cast<uint32_t>(n);
  return s;
}

StepDiff DiffSnapshots(const ModuleSnapshot& before, const ModuleSnapshot& after,
                       const std::vector<Replacement>& replacements) {
  StepDiff d;
  for (const InstructionRecord& r : after.instructions) {
    const InstructionRecord* old = before.Find(r.id);
    if (!old) {
      d.added.push_back(r.id);
    } else if (old->fingerprint != r.fingerprint) {
      d.modified.push_back(r.id);
    }
  }
  std::unordered_set<int64_t> removed;
  for (const InstructionRecord& r : before.instructions) {
    if (!after.Find(r.id)) {
      d.removed.push_back(r.id);
      removed.insert(r.id);
    }
  }
  // Follow replacement chains (a → b, then b → c) to an instruction that
  // exists after the step.
  std::unordered_map<int64_t, int64_t> next;
  for (const Replacement& rep : replacements) next[rep.old_id] = rep.new_id;
  for (const Replacement& rep : replacements) {
    if (!removed.count(rep.old_id) || before.Find(rep.old_id) == nullptr) continue;
    int64_t target = rep.new_id;
    for (int hops = 0; hops < 64 && !after.Find(target); ++hops) {
      auto it = next.find(target);
      if (it == next.end()) break;
      target = it->second;
    }
    if (!after.Find(target)) continue;
    (before.Find(target) ? d.folded_into : d.replaced).push_back({rep.old_id, target});
  }
  return d;
}

Status StepRecorder::BeforePipeline(const Module& m, std::string_view pipeline) {
  steps_.clear();
  initial_ = ModuleSnapshot::Capture(m);
  last_ = initial_;
  last_next_id_ = m.next_id();
  device_ = CurrentDevice();
  initial_cost_ = last_cost_ = EstimateModule(m, device_);
  return Status::Ok();
}

Status StepRecorder::AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) {
  auto step = std::make_shared<Step>();
  step->index = info.step;
  step->pipeline = std::string(info.pipeline);
  step->group = std::string(info.group);
  step->pass = std::string(info.pass->name());
  step->iteration = info.iteration;
  step->changed = result.changed;
  step->ms = result.wall_ms;
  if (result.log) {
    step->stats = result.log->stats;
    step->rewrites = result.log->rewrites;
    step->decisions = result.log->decisions;
  }
  // A pass that reports no change but touched ids or counts is recorded as
  // changed anyway, so the snapshot never lies.
  bool touched = result.changed || m.next_id() != last_next_id_ || m.instruction_count() != last_->instruction_count() ||
                 static_cast<int64_t>(m.computations().size()) != last_->computation_count();
  if (touched) {
    // The cost totals on a second thread while the snapshot is taken (both
    // only read the module).
    ModuleCost cost;
    std::thread estimate([&] { cost = EstimateModule(m, device_); });
    std::shared_ptr<const ModuleSnapshot> snap;
    try {
      snap = ModuleSnapshot::Capture(m);
    } catch (...) {
      estimate.join();
      throw;
    }
    estimate.join();
    step->diff = DiffSnapshots(*last_, *snap, result.log ? result.log->replacements : std::vector<Replacement>{});
    last_ = std::move(snap);
    last_next_id_ = m.next_id();
    last_cost_ = std::move(cost);
  }
  step->cost = last_cost_;
  step->module = last_;
  step->instructions = last_->instruction_count();
  step->computations = last_->computation_count();
  std::shared_ptr<const Step> done = std::move(step);
  steps_.push_back(done);
  if (on_step) on_step(done);
  return Status::Ok();
}

}  // namespace hloscope
