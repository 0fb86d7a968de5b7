// libFuzzer entry: parse arbitrary bytes as HLO, verify, print and re-parse;
// and as protobuf text (XLA's decision logs and target configs,
// core/support/proto_text.h). Must never crash, hang or allocate without bound.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/support/proto_text.h"
#include "core/verify/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hloscope::ParseProtoText(text, "<fuzz>");
  auto m = hloscope::ParseHloModule(text, "<fuzz>");
  if (!m.ok()) return 0;
  if (!hloscope::VerifyModule(**m).ok()) return 0;
  std::string printed = hloscope::PrintModule(**m);
  auto again = hloscope::ParseHloModule(printed, "<printed>");
  if (!again.ok()) {
    std::fprintf(stderr, "written text does not read back: %s\n", std::string(again.status().message()).c_str());
    __builtin_trap();
  }  // printed text must parse back
  return 0;
}
