// libFuzzer entry: parse arbitrary bytes as StableHLO/MLIR text, convert to
// HLO, verify, print and re-parse the HLO. Must never crash, hang or
// allocate without bound; a converted module that verifies must print to
// text that parses back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/verify/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ast = hloscope::mlir::ParseMlir(text, "<fuzz>");
  if (!ast.ok()) return 0;
  auto converted = hloscope::mlir::ConvertToHlo(*ast);
  if (!converted.ok() || !converted->module) return 0;
  if (!hloscope::VerifyModule(*converted->module).ok()) return 0;
  std::string printed = hloscope::PrintModule(*converted->module);
  auto again = hloscope::ParseHloModule(printed, "<printed>");
  if (!again.ok()) {
    std::fprintf(stderr, "written text does not read back: %s\n", std::string(again.status().message()).c_str());
    __builtin_trap();
  }  // printed text must parse back
  return 0;
}
