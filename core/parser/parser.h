// HLO text parser. Reads what XLA prints (before/after optimization, fused,
// scheduled; with or without the HloModule header and ENTRY). Errors are
// `FILE:LINE:COL: error: MESSAGE` pointing at the offending token.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

struct ParseOptions {
  // Threads for a large input: 0 = one per hardware thread (at most 8);
  // 1 = parse on the calling thread only.
  int threads = 0;
  // Inputs shorter than this are parsed on the calling thread only.
  size_t parallel_min_bytes = 256 * 1024;
  // The text is cut into chunks of about this size that workers parse from
  // the end backwards while the calling thread parses from the start.
  size_t chunk_bytes = 48 * 1024;
  // False: the calling thread waits for workers to parse every chunk
  // instead of parsing the ones no worker has started (for tests: which
  // thread parses what no longer depends on timing).
  bool claim_unstarted_chunks = true;
  // When set, receives how many chunks of the text worker threads parsed
  // and the parse took over (0 when it ran serially); for tests and benchmarks.
  int* chunks_taken = nullptr;
};

// Parses a module. `filename` is used in error messages only. Large inputs
// are parsed by several threads (ParseOptions); the result, including any
// error message, is the same as with one thread.
StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text,
                                                 std::string_view filename = "<input>");
StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text, std::string_view filename,
                                                 const ParseOptions& opts);
// Reads and parses a file (errors for unreadable files too).
StatusOr<std::unique_ptr<Module>> ParseHloFile(const std::string& path);
// Parses a shape such as `f32[2,3]{1,0}` or `(f32[], s32[4])`.
StatusOr<Shape> ParseShape(std::string_view text);

// Reads a whole file into a string.
StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace hloscope
