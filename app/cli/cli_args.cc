#include "app/cli/cli_args.h"

#include <algorithm>
#include <cstdio>
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

}  // namespace hloscope::cli
