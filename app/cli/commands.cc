#include "app/cli/commands.h"

namespace hloscope::cli {
void RegisterAllCommands() {
  static bool done = false;
  if (done) return;
  done = true;
  RegisterParseCommands();
}
}  // namespace hloscope::cli
