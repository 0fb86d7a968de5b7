#include "core/passes/step_recorder.h"

#include <algorithm>
#include <unordered_set>

#include "core/printer/printer.h"

namespace hloscope {
namespace {

uint64_t Fingerprint(std::string_view s) { return std::hash<std::string_view>()(s); }

// Finds the line of `instr` at or after `pos` in `text`: the next line that
// starts with "  %name = " or "  ROOT %name = ". Returns npos if the next
// non-header line is something else.
bool LocateLine(const std::string& text, size_t& pos, const Instruction& instr, size_t* off, size_t* len) {
  std::string_view rest = std::string_view(text).substr(pos);
  std::string_view head = rest.substr(0, 2) == "  " ? rest.substr(2) : std::string_view();
  if (head.substr(0, 5) == "ROOT ") head.remove_prefix(5);
  const std::string& name = instr.name();
  if (head.size() < name.size() + 4 || head[0] != '%' || head.compare(1, name.size(), name) != 0 ||
      head.compare(1 + name.size(), 3, " = ") != 0)
    return false;
  size_t end = text.find('\n', pos);
  if (end == std::string::npos) end = text.size();
  *off = pos;
  *len = end - pos;
  pos = end + 1;
  return true;
}

}  // namespace

const InstructionRecord* ModuleSnapshot::Find(int64_t id) const {
  auto it = index_of_id.find(id);
  return it == index_of_id.end() ? nullptr : &instructions[it->second];
}

std::string_view ModuleSnapshot::line(const InstructionRecord& r) const {
  const std::string& buf = lines_in_fallback ? lines_fallback : text;
  return std::string_view(buf).substr(r.line_offset, r.line_length);
}

std::shared_ptr<const ModuleSnapshot> ModuleSnapshot::Capture(const Module& m) {
  auto s = std::make_shared<ModuleSnapshot>();
  s->text = PrintModule(m);
  s->instructions.reserve(static_cast<size_t>(m.instruction_count()));
  s->index_of_id.reserve(static_cast<size_t>(m.instruction_count()) * 2);
  bool located = true;
  size_t pos = 0;
  for (const auto& c : m.computations()) {
    ComputationRecord cr;
    cr.name = c->name();
    cr.is_entry = c->is_entry();
    cr.root_id = c->root() ? c->root()->id() : -1;
    cr.first_instruction = s->instructions.size();
    cr.instruction_count = c->instructions().size();
    if (located) {
      // Skip to the line after the computation header.
      std::string key = "%" + c->name() + " (";
      size_t h = s->text.find(key, pos);
      size_t nl = h == std::string::npos ? std::string::npos : s->text.find('\n', h);
      if (nl == std::string::npos) {
        located = false;
      } else {
        pos = nl + 1;
      }
    }
    const int32_t ci = static_cast<int32_t>(s->computations.size());
    for (const auto& i : c->instructions()) {
      InstructionRecord r;
      r.id = i->id();
      r.name = i->name();
      r.opcode = i->opcode();
      r.computation = ci;
      r.is_root = i.get() == c->root();
      r.operands.reserve(i->operands().size());
      for (const Instruction* o : i->operands()) r.operands.push_back(o->id());
      if (located) located = LocateLine(s->text, pos, *i, &r.line_offset, &r.line_length);
      s->index_of_id[r.id] = s->instructions.size();
      s->instructions.push_back(std::move(r));
    }
    s->computations.push_back(std::move(cr));
  }
  if (!located) {
    // Print line by line instead (only if the module text has an unusual shape).
    s->lines_in_fallback = true;
    size_t k = 0;
    for (const auto& c : m.computations()) {
      for (const auto& i : c->instructions()) {
        std::string line = (i.get() == c->root() ? "  ROOT " : "  ") + PrintInstruction(*i);
        InstructionRecord& r = s->instructions[k++];
        r.line_offset = s->lines_fallback.size();
        r.line_length = line.size();
        s->lines_fallback += line;
      }
    }
  }
  for (InstructionRecord& r : s->instructions) r.fingerprint = Fingerprint(s->line(r));
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
  step->index = static_cast<int>(steps_.size());
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
    auto snap = ModuleSnapshot::Capture(m);
    step->diff = DiffSnapshots(*last_, *snap, result.log ? result.log->replacements : std::vector<Replacement>{});
    last_ = std::move(snap);
    last_next_id_ = m.next_id();
    last_cost_ = EstimateModule(m, device_);
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
