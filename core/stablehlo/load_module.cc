#include "core/stablehlo/load_module.h"

#include "core/parser/parser.h"
#include "core/stablehlo/convert_to_hlo.h"

namespace hloscope {

StatusOr<std::unique_ptr<Module>> LoadModuleFile(const std::string& path) {
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".mlir") == 0) return mlir::ImportStablehloFile(path);
  return ParseHloFile(path);
}

}  // namespace hloscope
