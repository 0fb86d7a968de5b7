// The per-kernel table `hloscope-run` and `hloscope-cli run` print: name,
// kind, launch dimensions, median time, achieved GB/s (KernelThunk::bytes /
// time), % of the measured copy bandwidth, TFLOP/s (KernelThunk::flops /
// time), estimated vs measured µs.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/runtime/run_result.h"

namespace hloscope::runtime {

std::string RunReportText(const RunResult& r);
nlohmann::ordered_json RunReportJson(const RunResult& r);

}  // namespace hloscope::runtime
