// Minimal command-line parsing shared by the hloscope-cli subcommands.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/compare.h"

namespace hloscope::cli {

// Parsed arguments: positionals, --flag / --key value / --key=value.
class Args {
 public:
  // `value_flags` lists the flags that take a value; others are booleans.
  // Returns false (with *error) on an unknown flag.
  bool Parse(const std::vector<std::string>& argv, const std::vector<std::string>& value_flags,
             const std::vector<std::string>& bool_flags, std::string* error);
  const std::vector<std::string>& positional() const { return pos_; }
  bool Has(const std::string& flag) const { return flags_.count(flag) > 0; }
  std::optional<std::string> Get(const std::string& flag) const;
  std::string GetOr(const std::string& flag, const std::string& dflt) const;
  bool GetInt(const std::string& flag, long long* v, std::string* error) const;

 private:
  std::vector<std::string> pos_;
  std::map<std::string, std::string> flags_;
};

// A subcommand: name, one-line summary, usage text, and its entry point.
struct Command {
  const char* name;
  const char* summary;
  const char* usage;
  int (*run)(const std::vector<std::string>& args);
};

const std::vector<Command>& Commands();
void RegisterCommand(Command c);

// Self-registration from each cmd_*.cc: HLOSCOPE_CLI_COMMAND(name, summary, usage, fn).
struct CommandRegistrar {
  explicit CommandRegistrar(Command c) { RegisterCommand(c); }
};
#define HLOSCOPE_CLI_COMMAND(id, name, summary, usage, fn) \
  static ::hloscope::cli::CommandRegistrar hloscope_cli_registrar_##id({name, summary, usage, fn})

// Writes `text` to `path` atomically (temp file + rename); refuses to
// replace an existing file unless `force`. "-" writes to stdout.
bool WriteOutput(const std::string& path, const std::string& text, bool force, std::string* error);

// Prints the verifier's messages ("FILE:LINE:COL: error: ..." lines) to
// stderr as warnings, for commands that show a module that does not verify
// (print, stats, export-graph of the input), then one line saying so.
void PrintVerifierWarnings(const std::string& verifier_message);

// --rtol R / --atol A: one tolerance for every float output (a flag not given
// is 0); nullopt when neither is given (per-type defaults,
// docs/eval-tolerances.md). False with *error on a bad number.
bool ParseTolerance(const Args& args, std::optional<Tolerance>* tol, std::string* error);
// "tolerance rtol=R atol=A (--rtol/--atol)" or "default tolerances by type
// (docs/eval-tolerances.md)": what a mismatch message says it used.
std::string DescribeTolerance(const std::optional<Tolerance>& tol);
// A hint after a mismatch against a data file when an output is bf16 or f16:
// XLA's CPU backend keeps excess precision in such references.
std::string ExcessPrecisionHint(const std::vector<Literal>& expected);

// The first line of every command that runs passes, on stderr:
// "hloscope-cli CMD: pipeline P" (stdout may hold a module or JSON).
void AnnouncePipeline(const char* cmd, const std::string& pipeline);

// Exit codes shared by the commands that compare results: 1 for any
// mismatch against any reference (or an error), 3 when nothing could be
// checked (the module is not evaluable) and --allow-unevaluable is not given.
constexpr int kExitNotChecked = 3;
// codegen: the bundle was written, but some kernels could not be generated
// (each named with its reason; manifest.json marks them "missing").
constexpr int kExitIncomplete = 3;

}  // namespace hloscope::cli
