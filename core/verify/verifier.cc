// VerifyModule: structure first; when the structure holds, the form and
// shapes of every instruction. Errors are collected (up to a limit) so that
// one run reports every problem, each located and naming its instruction.
#include "core/verify/verifier.h"

#include "core/verify/verifier_internal.h"

namespace hloscope {
namespace verify {

Errors::Errors(const Module& m, int max_errors)
    : file_(m.source_path().empty() ? "<module>" : m.source_path()), max_(max_errors < 1 ? 1 : max_errors) {}

void Errors::Push(SourceLoc loc, const std::string& name, const std::string& message) {
  if (full()) return;
  std::string line = file_;
  if (loc.line > 0) line += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  line += ": error: ";
  if (!name.empty()) line += name + ": ";
  line += message;
  lines_.push_back(std::move(line));
}

void Errors::Add(const Instruction& instr, const std::string& message) {
  Push(instr.loc(), instr.name(), message);
}

void Errors::Add(const Computation& c, const std::string& message) {
  Push(c.loc(), "computation " + c.name(), message);
}

void Errors::AddModule(const std::string& message) { Push({}, "", message); }

Status Errors::ToStatus() const {
  if (lines_.empty()) return Status::Ok();
  std::string all;
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (i) all += '\n';
    all += lines_[i];
  }
  if (full()) all += "\n(verification stopped at the limit of " + std::to_string(max_) + " errors)";
  return Status::Error(std::move(all));
}

}  // namespace verify

// Form and shapes share one walk over the instruction list CheckStructure
// gathered. Shape errors are held apart and only reported when no
// instruction has a form error (shapes are only meaningful once every
// instruction has its expected form), so the result is the same as a walk
// for forms followed by one for shapes.
Status VerifyModule(const Module& m, const VerifyOptions& opts) {
  verify::Errors errors(m, opts.max_errors);
  std::vector<const Instruction*> order;
  verify::CheckStructure(m, errors, order);
  if (!errors.empty()) return errors.ToStatus();
  verify::Errors shape_errors(m, opts.max_errors);
  for (const Instruction* instr : order) {
    if (errors.full()) return errors.ToStatus();
    verify::CheckInstructionForm(*instr, errors);
    if (opts.check_shapes && errors.empty() && !shape_errors.full())
      verify::CheckInstructionShapes(*instr, opts, shape_errors);
  }
  if (!errors.empty() || !opts.check_shapes) return errors.ToStatus();
  if (shape_errors.full()) return shape_errors.ToStatus();
  verify::CheckEntryLayout(m, shape_errors);
  return shape_errors.ToStatus();
}

}  // namespace hloscope
