// libFuzzer entry: parse arbitrary bytes as HLO, verify, print and re-parse,
// read every collective's device groups (replica_groups in every form, mesh
// included; the device grid; whether the interpreter could run it);
// and as protobuf text (XLA's decision logs and target configs,
// core/support/proto_text.h). Must never crash, hang or allocate without bound.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/eval/evaluator.h"
#include "core/ir/collectives.h"
#include "core/ir/computation.h"
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
  const hloscope::DeviceGrid grid = hloscope::ModuleDeviceGrid(**m);
  for (const auto& c : (*m)->computations())
    for (const auto& i : c->instructions()) {
      if (!hloscope::IsCollective(i->opcode())) continue;
      (void)hloscope::CollectiveDeviceGroups(*i, grid.replicas, grid.partitions);
      (void)hloscope::PermuteSources(*i, grid.replicas, grid.partitions);
    }
  (void)hloscope::ModuleEvaluable(**m);
  (void)hloscope::ModuleEvaluableOnDevices(**m);
  std::string printed = hloscope::PrintModule(**m);
  auto again = hloscope::ParseHloModule(printed, "<printed>");
  if (!again.ok()) {
    std::fprintf(stderr, "written text does not read back: %s\n", std::string(again.status().message()).c_str());
    __builtin_trap();
  }  // printed text must parse back
  return 0;
}
