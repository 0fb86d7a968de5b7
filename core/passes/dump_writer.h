// `--dump-dir DIR`: writes the module before the pipeline, after every pass
// that changed it, and at the end, with the file names of XLA's
// --xla_dump_to + --xla_dump_hlo_pass_re=.* :
//   module_0000.<name>.before_optimizations.txt
//   module_0000.<name>.NNNN.<pipeline>.after_<pass>.txt   (changed passes; NNNN is the
//                                                          step number, as --step takes it)
//   module_0000.<name>.after_optimizations.txt
// Existing dump files of the same module are refused unless `force`.
#pragma once

#include <string>
#include <vector>

#include "core/passes/instrumentation.h"

namespace hloscope {

struct DumpOptions {
  std::string dir;
  int module_id = 0;   // the NNNN after "module_"
  bool force = false;  // replace existing dump files of this module
};

class DumpWriter : public PassInstrumentation {
 public:
  explicit DumpWriter(DumpOptions opts) : opts_(std::move(opts)) {}
  Status BeforePipeline(const Module& m, std::string_view pipeline) override;
  Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) override;
  Status AfterPipeline(const Module& m, std::string_view pipeline, bool changed) override;

  // Paths written so far, in order.
  const std::vector<std::string>& written() const { return written_; }

  // "module_0000.<sanitized name>." (XLA replaces / \ [ ] and spaces by _).
  static std::string Prefix(int module_id, std::string_view module_name);

 private:
  Status Write(const Module& m, const std::string& suffix);

  DumpOptions opts_;
  std::vector<std::string> written_;
};

}  // namespace hloscope
