// hloscope-diffuzz: random well-typed HLO modules through every pass and
// every kernel (core/fuzz/diff_driver.h). Prints one line per finding and
// ends with `modules=N passes=P kernels=K findings=F`.
//
//   hloscope-diffuzz [--seed S] [--count N | --seconds T] [--out DIR]
//                    [--cpu-every K] [--max-ops N] [--max-dim D] [--max-elements E] [--timeout S]
//                    [--no-fork] [--no-shrink]
//   hloscope-diffuzz --replay FILE...   check saved regressions (exit 1 on a finding)
//   hloscope-diffuzz --print SEED       print the module of one seed
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/fuzz/diff_driver.h"

namespace {

using hloscope::fuzz::CheckResult;

int Usage() {
  std::fprintf(stderr,
               "usage: hloscope-diffuzz [--seed S] [--count N | --seconds T] [--out DIR] [--cpu-every K]\n"
               "                        [--max-ops N] [--max-dim D] [--max-elements E] [--timeout S]\n"
               "                        [--no-fork] [--no-shrink]\n"
               "       hloscope-diffuzz [--timeout S] --replay FILE...\n"
               "       hloscope-diffuzz --print SEED [--max-ops N] [--max-dim D] [--max-elements E]\n"
               "  --timeout S: a module still running after S seconds is a hang (default %d)\n",
               hloscope::fuzz::CheckOptions{}.timeout_s);
  return 2;
}

// A saved regression: every file must check clean, except one carrying a
// `// known-finding: KIND` line (a bug outside what the fuzzer may fix, with
// its reason beside it), which must still show that kind of finding; when
// it stops showing it the marker is stale and the replay fails so that it
// is removed.
int Replay(const std::vector<std::string>& files, const hloscope::fuzz::CheckOptions& opts) {
  int bad = 0;
  for (const std::string& f : files) {
    std::ifstream in(f);
    if (!in) {
      std::fprintf(stderr, "%s: error: cannot read\n", f.c_str());
      ++bad;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::string known;
    if (size_t at = text.find("// known-finding: "); at != std::string::npos) {
      size_t end = text.find_first_of(" \n", at + 18);
      known = text.substr(at + 18, end - at - 18);
    }
    CheckResult r = hloscope::fuzz::CheckIsolated(text, opts);
    if (!known.empty()) {
      if (r.finding && r.finding->kind == known) {
        std::printf("%s: known finding still present (%s %s): %s\n", f.c_str(), r.finding->kind.c_str(),
                    r.finding->stage.c_str(), r.finding->message.c_str());
      } else {
        std::printf("%s: FAIL: marked known-finding %s but %s; remove the marker\n", f.c_str(), known.c_str(),
                    r.finding ? ("found " + r.finding->kind).c_str() : "it passes now");
        ++bad;
      }
      continue;
    }
    if (r.finding) {
      std::printf("%s: FAIL: %s %s: %s\n", f.c_str(), r.finding->kind.c_str(), r.finding->stage.c_str(),
                  r.finding->message.c_str());
      ++bad;
    } else {
      std::printf("%s: OK (%lld pass runs, %lld kernel launches%s)\n", f.c_str(), static_cast<long long>(r.passes),
                  static_cast<long long>(r.kernels),
                  r.signed_zero         ? ", a pass changed only the sign of a zero"
                  : r.refusals.empty() ? ""
                                       : ", with documented refusals");
    }
  }
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  hloscope::fuzz::DriverOptions o;
  std::vector<std::string> replay;
  bool print_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "hloscope-diffuzz: error: %s needs a value\n", what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed") o.seed = std::strtoull(value("--seed"), nullptr, 10);
    else if (a == "--count") o.count = std::atoll(value("--count"));
    else if (a == "--seconds") o.seconds = std::atof(value("--seconds"));
    else if (a == "--out") o.out_dir = value("--out");
    else if (a == "--cpu-every") o.cpu_every = std::atoi(value("--cpu-every"));
    else if (a == "--max-ops") o.gen.max_ops = std::atoi(value("--max-ops"));
    else if (a == "--max-dim") o.gen.max_dim = std::atoi(value("--max-dim"));
    else if (a == "--max-elements")
      o.gen.max_elements = std::max<int64_t>(1, std::atoll(value("--max-elements")));
    else if (a == "--timeout")
      o.check.timeout_s = std::max(1, std::atoi(value("--timeout")));
    else if (a == "--no-fork") o.isolate = false;
    else if (a == "--no-shrink") o.shrink = false;
    else if (a == "--print") print_only = true, o.seed = std::strtoull(value("--print"), nullptr, 10);
    else if (a == "--replay") {
      for (++i; i < argc; ++i) replay.push_back(argv[i]);
      if (replay.empty()) return Usage();
    } else if (a == "-h" || a == "--help") {
      Usage();
      return 0;
    } else {
      std::fprintf(stderr, "hloscope-diffuzz: error: unknown argument '%s'\n", a.c_str());
      return Usage();
    }
  }
  if (print_only) {
    std::printf("%s", hloscope::fuzz::GenerateModuleText(o.seed, o.gen).c_str());
    return 0;
  }
  if (!replay.empty()) return Replay(replay, o.check);
  o.print = [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  };
  hloscope::fuzz::DriverStats st = hloscope::fuzz::RunDriver(o);
  std::string kinds;
  for (const auto& [k, n] : st.by_kind) kinds += " " + k + "=" + std::to_string(n);
  std::printf("cpu_modules=%lld multi_device=%lld cpu_multi_device=%lld refusals=%lld signed_zero=%lld findings_by_kind:%s\n",
              static_cast<long long>(st.cpu_modules), static_cast<long long>(st.multi_device),
              static_cast<long long>(st.cpu_multi_device),
              static_cast<long long>(st.refusals), static_cast<long long>(st.signed_zero),
              kinds.empty() ? " none" : kinds.c_str());
  std::printf("%s\n", st.Summary().c_str());
  return st.findings > 0 ? 1 : 0;
}
