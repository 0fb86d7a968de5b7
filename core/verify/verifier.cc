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

Status VerifyModule(const Module& m, const VerifyOptions& opts) {
  verify::Errors errors(m, opts.max_errors);
  verify::CheckStructure(m, errors);
  if (!errors.empty()) return errors.ToStatus();
  for (const auto& c : m.computations())
    for (const auto& instr : c->instructions()) {
      if (errors.full()) return errors.ToStatus();
      verify::CheckInstructionForm(*instr, errors);
    }
  // Shapes are only meaningful once every instruction has its expected form.
  if (!errors.empty() || !opts.check_shapes) return errors.ToStatus();
  for (const auto& c : m.computations())
    for (const auto& instr : c->instructions()) {
      if (errors.full()) return errors.ToStatus();
      verify::CheckInstructionShapes(*instr, opts, errors);
    }
  verify::CheckEntryLayout(m, errors);
  return errors.ToStatus();
}

}  // namespace hloscope
