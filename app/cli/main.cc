// hloscope-cli: every stage of hloscope, headless.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli/cli_args.h"

using hloscope::cli::Commands;

static void PrintUsage() {
  std::printf("usage: hloscope-cli <command> [args] (hloscope-cli <command> --help for details)\n\ncommands:\n");
  auto cmds = Commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return std::string(a.name) < b.name; });
  for (const auto& c : cmds) std::printf("  %-14s %s\n", c.name, c.summary);
}

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    PrintUsage();
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("hloscope-cli 0.1.0\n");
    return 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : Commands()) {
    if (c.name == std::string(argv[1])) {
      for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
          std::printf("%s\n", c.usage);
          return 0;
        }
      }
      return c.run(args);
    }
  }
  std::fprintf(stderr, "hloscope-cli: error: unknown command '%s'\n", argv[1]);
  PrintUsage();
  return 2;
}
