// The differential driver behind hloscope-diffuzz: one module through
// everything that can disagree about it.
//
//   1. parse, verify, print, parse again, print again: the texts are equal;
//   2. the reference interpreter on the original (random inputs, seed 1);
//   3. each pipeline (simplify, gpu, gpu-classic) with the verifier and the
//      differential checker after every pass (what `check` runs), and the
//      optimized module's outputs against the original's;
//   4. buffer assignment of the gpu result with CheckBufferAssignment and the
//      independent clobber checker (what `memory --check` runs);
//   5. the generated kernels on the CPU over the assigned arena, compared
//      with the interpreter (what `run --device cpu` runs).
//
// Anything that fails is a Finding, except a documented refusal: an op the
// interpreter or the emitters say they do not support ("... is not
// supported ...", "cannot evaluate ..."), which is counted and skipped.
// CheckIsolated runs the check in a forked child so that a crash or a hang
// is a finding too.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/fuzz/random_module.h"

namespace hloscope::fuzz {

struct Finding {
  // parse, verify, roundtrip, interpreter, pipeline, mismatch, memory,
  // codegen, cpu-run, cpu-mismatch, crash, hang
  std::string kind;
  std::string stage;    // the pipeline (and pass) or step where it happened
  std::string message;  // first line(s) of what went wrong
  // kind + stage: what the shrinker must keep failing the same way.
  std::string Signature() const { return kind + "/" + stage; }
};

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

struct CheckOptions {
  std::vector<std::string> pipelines = {"simplify", "gpu", "gpu-classic"};
  bool cpu_run = true;       // step 5 (the slow one: LLVM JIT)
  uint64_t input_seed = 1;   // random inputs of the interpreter and the kernels
  // CheckIsolated: a child running longer is a hang. The sanitizer build
  // runs the interpreter many times slower: a module of 0.5 s ran past 60 s
  // there (CI, seed 572628039, at -O0), so its limit is longer. `--timeout`
  // sets it.
  int timeout_s = kSanitized ? 300 : 60;
};

struct CheckResult {
  std::optional<Finding> finding;  // the first one
  int64_t passes = 0;              // pass runs over all pipelines
  int64_t kernels = 0;             // kernel launches run on the CPU
  bool cpu_ran = false;            // step 5 ran to the comparison
  // A pipeline changed the result only in the sign of a zero (it agrees with
  // -0 and +0 as one value, EvalOptions::signed_zeros): counted, no finding.
  bool signed_zero = false;
  int64_t devices = 1;  // the interpreter ran it on this many devices
  std::vector<std::string> refusals;  // documented refusals met (first line each)
};

// True for the interpreter's and the emitters' documented "unsupported op"
// refusals, which are not findings.
bool IsDocumentedRefusal(const std::string& message);

// Runs the steps above in this process.
CheckResult CheckModuleText(const std::string& text, const CheckOptions& opts = {});
// The same in a forked child (crash → kind "crash", past timeout → "hang").
CheckResult CheckIsolated(const std::string& text, const CheckOptions& opts = {});

struct DriverOptions {
  uint64_t seed = 1;
  int64_t count = 100;   // modules (when seconds <= 0)
  double seconds = 0;    // run for this long instead
  std::string out_dir;   // where shrunk findings are saved ("" = not saved)
  int cpu_every = 4;     // every k-th module also runs its kernels on the CPU
  bool isolate = true;   // fork per module
  bool shrink = true;
  GenOptions gen;
  CheckOptions check;
  // One line per finding and the final summary go here.
  std::function<void(const std::string&)> print;
};

struct DriverStats {
  int64_t modules = 0, passes = 0, kernels = 0, cpu_modules = 0, findings = 0, refusals = 0, signed_zero = 0;
  int64_t multi_device = 0;      // modules evaluated on several devices
  int64_t cpu_multi_device = 0;  // of those, modules whose kernels ran on the CPU on every device
  std::vector<std::pair<std::string, int64_t>> by_kind;  // findings by kind
  std::vector<std::string> saved;                        // files written
  std::string Summary() const;  // "modules=N passes=P kernels=K findings=F"
};

DriverStats RunDriver(const DriverOptions& opts);

// Shrinks a failing generated module: first smaller shapes (regenerated
// from the same seed with a lower max_dim), then instruction deletion on
// the text (shrink.h). Returns the smallest text that still fails with the
// same signature.
std::string ShrinkFinding(uint64_t seed, const GenOptions& gen, const std::string& text, const Finding& f,
                          const CheckOptions& opts, bool isolate);

// A regression file's text: comments naming the seed and the finding, then
// the module.
std::string RegressionFileText(uint64_t seed, const GenOptions& gen, const Finding& f,
                               const std::string& module_text);

}  // namespace hloscope::fuzz
