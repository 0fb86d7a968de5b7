#include "app/cli/override_flags.h"

#include <algorithm>

namespace hloscope::cli {

bool TakeOverrideFlags(std::vector<std::string>* argv, const std::vector<std::string>& force_flags,
                       const std::vector<std::string>& forbid_flags, FusionOverrides* out, std::string* error) {
  std::vector<std::string> rest;
  for (size_t k = 0; k < argv->size(); ++k) {
    const std::string& a = (*argv)[k];
    std::string flag = a, value;
    bool inline_value = false;
    if (size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      flag = a.substr(0, eq);
      value = a.substr(eq + 1);
      inline_value = true;
    }
    const bool force = std::find(force_flags.begin(), force_flags.end(), flag) != force_flags.end();
    const bool forbid = std::find(forbid_flags.begin(), forbid_flags.end(), flag) != forbid_flags.end();
    if (!force && !forbid) {
      rest.push_back(a);
      continue;
    }
    if (!inline_value) {
      if (k + 1 >= argv->size()) {
        *error = flag + " needs a value PRODUCER:CONSUMER";
        return false;
      }
      value = (*argv)[++k];
    }
    auto pair = ParseOverridePair(value);
    if (!pair.ok()) {
      *error = flag + " " + pair.status().message();
      return false;
    }
    (force ? out->force : out->forbid).push_back(*pair);
  }
  *argv = std::move(rest);
  return true;
}

std::string DescribeOverrides(const FusionOverrides& o) {
  std::string s;
  for (const auto& p : o.force) s += (s.empty() ? "" : " ") + std::string("--force ") + p.ToString();
  for (const auto& p : o.forbid) s += (s.empty() ? "" : " ") + std::string("--forbid ") + p.ToString();
  return s;
}

}  // namespace hloscope::cli
