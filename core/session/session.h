// A session: one loaded module and the pipeline runs made on it, as
// immutable data the GUI reads from any thread. Qt-free.
//
//   auto s = Session::Load("samples/transformer_block.hlo");   // parse + verify
//   auto run = s->RunPipeline({.pipeline = "gpu"});              // on a worker thread
//   run->steps()[0]  — the input ("input", or "stablehlo→hlo" for .mlir)
//   run->ModuleAt(k), run->BuffersAt(k)  — parsed lazily, cached, thread-safe
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/memory/buffer_assignment.h"
#include "core/passes/step_recorder.h"
#include "core/support/status.h"

namespace hloscope {

struct RunOptions {
  std::string pipeline = "gpu";          // a registered pipeline...
  std::vector<std::string> passes;       // ...or, when not empty, these passes
  std::string device;                    // preset id or JSON path; "" keeps CurrentDevice()
  bool verify = true;                    // the verifier after every pass
  // Called on the running thread after each recorded step (0-based index
  // into PipelineRun::steps(), the input being step 0).
  std::function<void(const std::shared_ptr<const Step>&)> on_step;
  const std::atomic<bool>* cancel = nullptr;  // set to stop between passes
};

// The result of one pipeline run: steps (0 = the input) and lazily computed
// per-step data. Every method is safe to call from any thread.
class PipelineRun {
 public:
  PipelineRun(std::string name, std::string device, std::vector<std::shared_ptr<const Step>> steps);

  const std::string& name() const { return name_; }
  const std::string& device() const { return device_; }
  const std::vector<std::shared_ptr<const Step>>& steps() const { return steps_; }
  int size() const { return static_cast<int>(steps_.size()); }
  const Step& step(int k) const { return *steps_.at(k); }

  // The module after step k, parsed from the step's snapshot text (cached;
  // steps that share a snapshot share the module).
  StatusOr<std::shared_ptr<const Module>> ModuleAt(int k) const;
  // Buffer assignment of the module after step k (cached).
  StatusOr<std::shared_ptr<const BufferAssignment>> BuffersAt(int k) const;
  // The instruction of step k's module with the snapshot id `id`, or null.
  const Instruction* InstructionAt(int k, int64_t id) const;
  // The snapshot id of the instruction named `name` in step k, or -1.
  int64_t IdOfName(int k, std::string_view name) const;

  // Every decision of every step that names `id` or `name` (producer or
  // consumer), with the step index.
  std::vector<std::pair<int, const FusionDecision*>> DecisionsAbout(int64_t id, std::string_view name) const;
  // Makes `buffers` the buffer assignment of step k instead of ours (XLA's
  // own assignment for an after_optimizations dump). Call before sharing
  // the run with other threads.
  void SetBuffers(int k, std::shared_ptr<const BufferAssignment> buffers);

 private:
  struct Cached {
    std::shared_ptr<const Module> module;
    std::shared_ptr<const BufferAssignment> buffers;
    std::string module_error, buffers_error;
    std::map<int64_t, const Instruction*> by_id;  // snapshot id → instruction
    bool parsed = false, assigned = false;
  };
  Cached& CacheFor(int k) const;  // locks held by caller
  void ParseLocked(int k, Cached& c) const;

  std::string name_, device_;
  std::vector<std::shared_ptr<const Step>> steps_;
  mutable std::mutex mu_;
  mutable std::map<const ModuleSnapshot*, Cached> cache_;
};

class Session {
 public:
  // Reads HLO text or StableHLO (.mlir) and verifies it. Parse errors carry
  // FILE:LINE:COL and fail the load; a module that parses but does not
  // verify still loads (to be looked at), with the verifier's located
  // messages in verify_warnings(), and every pipeline run refuses it.
  static StatusOr<std::shared_ptr<const Session>> Load(const std::string& path);
  // The same from text in memory (`filename` names it in errors; a name
  // ending in .mlir is read as StableHLO).
  static StatusOr<std::shared_ptr<const Session>> FromText(std::string text, std::string filename);

  const std::string& path() const { return path_; }
  const std::string& source_text() const { return source_; }
  bool is_stablehlo() const { return stablehlo_; }
  const std::string& module_name() const { return module_name_; }
  int64_t instruction_count() const { return initial_->instruction_count(); }
  const std::shared_ptr<const ModuleSnapshot>& initial() const { return initial_; }

  // The verifier's messages ("FILE:LINE:COL: error: ..." lines) when the
  // module does not verify; empty when it does.
  const std::string& verify_warnings() const { return verify_warnings_; }
  // A fresh copy of the loaded module, verified (an error when it does not
  // verify) unless `verify` is false.
  StatusOr<std::unique_ptr<Module>> NewModule(bool verify = true) const;
  // A pipeline run with no passes: just the input step.
  std::shared_ptr<const PipelineRun> InputOnly() const;
  // Runs a pipeline on a fresh copy of the module. Cancellation returns the
  // error "cancelled".
  StatusOr<std::shared_ptr<const PipelineRun>> RunPipeline(const RunOptions& opts) const;

 private:
  std::shared_ptr<const Step> InputStep(const ModuleCost& cost) const;

  std::string path_, source_, module_name_, verify_warnings_;
  bool stablehlo_ = false;
  std::shared_ptr<const ModuleSnapshot> initial_;
};

}  // namespace hloscope
