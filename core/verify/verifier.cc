// VerifyModule: structure first; when the structure holds, the form and
// shapes of every instruction. Errors are collected (up to a limit) so that
// one run reports every problem, each located and naming its instruction.
#include "core/verify/verifier.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

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

void Errors::Append(const Errors& other) {
  for (const std::string& line : other.lines_) {
    if (full()) return;
    lines_.push_back(line);
  }
}

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

namespace {

// Form and shape errors of a run of instructions. Shape checks stop at the
// run's first form error: once there is one, no shape error is reported.
struct RunErrors {
  RunErrors(const Module& m, int max) : form(m, max), shapes(m, max) {}
  verify::Errors form, shapes;
};

void CheckRun(const Instruction* const* begin, const Instruction* const* end, const VerifyOptions& opts,
              RunErrors& out) {
  for (const Instruction* const* it = begin; it != end; ++it) {
    if (out.form.full()) return;
    verify::CheckInstructionForm(**it, out.form);
    if (opts.check_shapes && out.form.empty() && !out.shapes.full()) {
      verify::CheckInstructionShapes(**it, opts, out.shapes);
      verify::CheckBuffers(**it, out.shapes);
    }
  }
}

int VerifyThreads(const VerifyOptions& opts, size_t instructions) {
  if (opts.threads == 1 || instructions < static_cast<size_t>(std::max(1, opts.parallel_min_instructions)))
    return 1;
  if (opts.threads > 0) return opts.threads;
  return static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace

// Form and shapes share one walk over the instruction list CheckStructure
// gathered. Shape errors are held apart and only reported when no
// instruction has a form error (shapes are only meaningful once every
// instruction has its expected form), so the result is the same as a walk
// for forms followed by one for shapes. For a large module the list is cut
// into runs that threads take in turn; the runs' messages are then joined
// in list order and cut at the limit, which is what the single walk reports.
Status VerifyModule(const Module& m, const VerifyOptions& opts) {
  verify::Errors errors(m, opts.max_errors);
  std::vector<const Instruction*> order;
  size_t count = 0;  // CheckStructure reports a missing computation
  for (const auto& c : m.computations()) count += c ? static_cast<size_t>(c->instruction_count()) : 0;
  const int threads = VerifyThreads(opts, count);
  verify::CheckStructure(m, errors, order, threads);
  if (!errors.empty()) return errors.ToStatus();
  // Runs small enough that threads finish together (costs vary along the list).
  const size_t run_size = threads == 1 ? std::max<size_t>(1, order.size()) : 1024;
  const size_t run_count = (order.size() + run_size - 1) / run_size;
  std::vector<RunErrors> runs;
  runs.reserve(run_count);
  for (size_t k = 0; k < run_count; ++k) runs.emplace_back(m, opts.max_errors);
  // Job 0 checks the entry computation layout (one long shape to parse and
  // compare: taken first so that it is not left for the end); job k > 0 is
  // run k - 1.
  verify::Errors entry_errors(m, opts.max_errors);
  std::atomic<size_t> next{opts.check_shapes ? 0u : 1u};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) <= run_count;) {
      if (k == 0) {
        verify::CheckEntryLayout(m, entry_errors);
        continue;
      }
      const Instruction* const* begin = order.data() + (k - 1) * run_size;
      CheckRun(begin, begin + std::min(run_size, order.size() - (k - 1) * run_size), opts, runs[k - 1]);
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads && static_cast<size_t>(t) <= run_count; ++t) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // fewer threads: the others take more runs
    }
  }
  work();
  for (std::thread& t : workers) t.join();
  verify::Errors shape_errors(m, opts.max_errors);
  for (const RunErrors& r : runs) {
    errors.Append(r.form);
    shape_errors.Append(r.shapes);
  }
  if (!errors.empty() || !opts.check_shapes) return errors.ToStatus();
  shape_errors.Append(entry_errors);  // stops at the limit, as if checked here
  return shape_errors.ToStatus();
}

}  // namespace hloscope
