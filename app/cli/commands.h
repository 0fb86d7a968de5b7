// Registration of every hloscope-cli subcommand (one file per group).
#pragma once

namespace hloscope::cli {
void RegisterAllCommands();
void RegisterParseCommands();  // parse, print, stats
}  // namespace hloscope::cli
