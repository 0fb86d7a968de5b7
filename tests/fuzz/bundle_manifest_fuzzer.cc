// libFuzzer entry: read arbitrary bytes as a kernel bundle's manifest.json
// (core/runtime/manifest.h: JSON, then the whole plan checked). Must never
// crash, hang or allocate without bound; a manifest that reads must write
// back to one that reads again, to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/runtime/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto plan = hloscope::runtime::ManifestFromString(text, "<fuzz>");
  if (!plan.ok()) return 0;
  std::string written = hloscope::runtime::ManifestToString(*plan);
  auto again = hloscope::runtime::ManifestFromString(written, "<written>");
  if (!again.ok()) {
    std::fprintf(stderr, "written text does not read back: %s\n", std::string(again.status().message()).c_str());
    __builtin_trap();
  }  // what we write must read back
  if (hloscope::runtime::ManifestToString(*again) != written) __builtin_trap();
  return 0;
}
