// Reads the MLIR text that JAX and the StableHLO project write: modules,
// func.func, ops in generic ("stablehlo.add"(%a, %b) : ...) and pretty
// (stablehlo.add %a, %b : ...) form, regions, attributes and locations.
// Errors read `FILE:LINE:COL: error: MESSAGE`.
#pragma once
#include <string>
#include <string_view>

#include "core/stablehlo/mlir_ast.h"
#include "core/support/status.h"

namespace hloscope::mlir {

// `line_offset` is added to every line number (for `// -----` chunks).
StatusOr<ModuleAst> ParseMlir(std::string_view text, const std::string& file, int line_offset = 0);
StatusOr<ModuleAst> ParseMlirFile(const std::string& path);

// `tensor<2x?xf32>` etc. from the text inside/including the brackets.
StatusOr<Type> ParseTypeText(std::string_view text);

}  // namespace hloscope::mlir
