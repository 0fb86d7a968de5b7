#include "app/cli/cli_args.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace hloscope::cli {

bool Args::Parse(const std::vector<std::string>& argv, const std::vector<std::string>& value_flags,
                 const std::vector<std::string>& bool_flags, std::string* error) {
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::string key = a, value;
      bool has_eq = false;
      if (auto eq = a.find('='); eq != std::string::npos) {
        key = a.substr(0, eq);
        value = a.substr(eq + 1);
        has_eq = true;
      }
      if (contains(value_flags, key)) {
        if (!has_eq) {
          if (i + 1 >= argv.size()) {
            *error = "flag " + key + " needs a value";
            return false;
          }
          value = argv[++i];
        }
        flags_[key] = value;
      } else if (contains(bool_flags, key) || key == "--help" || key == "-h") {
        flags_[key] = has_eq ? value : "1";
      } else {
        *error = "unknown flag " + key;
        return false;
      }
    } else {
      pos_.push_back(a);
    }
  }
  return true;
}

std::optional<std::string> Args::Get(const std::string& flag) const {
  auto it = flags_.find(flag);
  if (it == flags_.end()) return std::nullopt;
  return it->second;
}

std::string Args::GetOr(const std::string& flag, const std::string& dflt) const {
  auto v = Get(flag);
  return v ? *v : dflt;
}

bool Args::GetInt(const std::string& flag, long long* v, std::string* error) const {
  auto s = Get(flag);
  if (!s) return true;
  try {
    size_t pos;
    *v = std::stoll(*s, &pos);
    if (pos != s->size()) throw std::invalid_argument("x");
  } catch (...) {
    *error = "flag " + flag + " needs an integer, got '" + *s + "'";
    return false;
  }
  return true;
}

static std::vector<Command>& MutableCommands() {
  static std::vector<Command> cmds;
  return cmds;
}
const std::vector<Command>& Commands() { return MutableCommands(); }
void RegisterCommand(Command c) { MutableCommands().push_back(c); }

bool WriteOutput(const std::string& path, const std::string& text, bool force, std::string* error) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return true;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec) && !force) {
    *error = path + ": error: file exists (use --force to overwrite)";
    return false;
  }
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) {
      *error = path + ": error: cannot write";
      return false;
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) {
      *error = path + ": error: write failed";
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    *error = path + ": error: " + ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

void PrintVerifierWarnings(const std::string& verifier_message) {
  size_t start = 0, count = 0;
  while (start < verifier_message.size()) {
    size_t end = verifier_message.find('\n', start);
    if (end == std::string::npos) end = verifier_message.size();
    std::string line = verifier_message.substr(start, end - start);
    if (size_t at = line.find(": error: "); at != std::string::npos) line.replace(at, 9, ": warning: ");
    if (!line.empty()) {
      std::fprintf(stderr, "%s\n", line.c_str());
      ++count;
    }
    start = end + 1;
  }
  std::fprintf(stderr,
               "warning: the module does not verify (%zu message(s) above); shown as written. Passes, "
               "codegen and runs refuse it.\n",
               count);
}

bool ParseTolerance(const Args& args, std::optional<Tolerance>* tol, std::string* error) {
  tol->reset();
  if (!args.Has("--rtol") && !args.Has("--atol")) return true;
  Tolerance t;
  for (const char* flag : {"--rtol", "--atol"}) {
    auto v = args.Get(flag);
    if (!v) continue;
    char* end = nullptr;
    double d = std::strtod(v->c_str(), &end);
    if (v->empty() || *end || !(d >= 0) || d > 1e30) {
      *error = std::string(flag) + " takes a number >= 0, not '" + *v + "'";
      return false;
    }
    (std::string(flag) == "--rtol" ? t.rel : t.abs) = d;
  }
  *tol = t;
  return true;
}

std::string DescribeTolerance(const std::optional<Tolerance>& tol) {
  if (!tol) return "default tolerances by element type (docs/eval-tolerances.md; set with --rtol/--atol)";
  char buf[96];
  std::snprintf(buf, sizeof buf, "tolerance rtol=%g atol=%g (--rtol/--atol)", tol->rel, tol->abs);
  return buf;
}

std::string ExcessPrecisionHint(const std::vector<Literal>& expected) {
  for (const Literal& l : expected) {
    const PrimitiveType t = l.shape().element_type();
    if (t == PrimitiveType::kBF16 || t == PrimitiveType::kF16)
      return "note: bf16/f16 references computed by XLA's CPU backend may carry excess precision (f32 "
             "intermediates); record bit-exact ones with XLA_FLAGS=--xla_allow_excess_precision=false "
             "(docs/eval-tolerances.md)";
  }
  return "";
}

void AnnouncePipeline(const char* cmd, const std::string& pipeline) {
  std::fprintf(stderr, "hloscope-cli %s: pipeline %s\n", cmd, pipeline.c_str());
}

}  // namespace hloscope::cli
