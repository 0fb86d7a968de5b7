// An HLO module: computations (callees before callers, as printed), the
// entry, header attributes and the debug-info tables.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/computation.h"

namespace hloscope {

// One debug-info table (FileNames, FunctionNames, FileLocations, StackFrames):
// rows of `id value` with the value verbatim.
struct DebugTable {
  std::string name;
  std::vector<std::pair<int64_t, std::string>> rows;
};

class Module {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}
  Module(const Module&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  bool has_header() const { return has_header_; }
  void set_has_header(bool h) { has_header_ = h; }
  // File the module was read from ("" if none).
  const std::string& source_path() const { return source_path_; }
  void set_source_path(std::string p) { source_path_ = std::move(p); }

  // Header attributes verbatim, in order (is_scheduled, entry_computation_layout...).
  std::vector<RawAttr>& header_attrs() { return header_; }
  const std::vector<RawAttr>& header_attrs() const { return header_; }
  const RawAttr* FindHeader(std::string_view name) const;
  void SetHeader(std::string name, std::string value);
  void EraseHeader(std::string_view name);
  bool is_scheduled() const;

  std::vector<DebugTable>& debug_tables() { return debug_; }
  const std::vector<DebugTable>& debug_tables() const { return debug_; }

  const std::vector<std::unique_ptr<Computation>>& computations() const { return comps_; }
  Computation* entry() const { return entry_; }
  void set_entry(Computation* c) { entry_ = c; }
  Computation* AddComputation(std::unique_ptr<Computation> c);
  // Inserts before `before` (callees must come before callers when printed).
  Computation* AddComputationBefore(std::unique_ptr<Computation> c, Computation* before);
  void RemoveComputation(Computation* c);
  Computation* FindComputation(std::string_view name) const;

  // Computations in callee-before-caller order reachable from the entry.
  std::vector<Computation*> MakeComputationPostOrder() const;

  int64_t instruction_count() const;
  int64_t NewId() { return next_id_++; }
  int64_t next_id() const { return next_id_; }

  // A name not used by any instruction or computation: `prefix.N`. The
  // prefix is made a valid HLO name first (HloName).
  std::string UniqueName(std::string_view prefix);
  std::string UniqueComputationName(std::string_view prefix);
  void RegisterName(const std::string& n);

 private:
  std::string name_;
  bool has_header_ = true;
  std::string source_path_;
  std::vector<RawAttr> header_;
  std::vector<DebugTable> debug_;
  std::vector<std::unique_ptr<Computation>> comps_;
  // Where `c` is in comps_ (end() if absent), searched from the back.
  std::vector<std::unique_ptr<Computation>>::iterator FindFromBack(const Computation* c);
  Computation* entry_ = nullptr;
  int64_t next_id_ = 0;
  std::unordered_set<std::string> names_;
  bool names_built_ = false;
  std::unordered_map<std::string, int64_t> name_counters_;
  void BuildNames();
};

// `s` as a name the HLO parser reads back: characters outside
// [A-Za-z0-9_$.-] become '_' (MLIR names such as @"<lambda>" or
// @"my module"); empty becomes "v".
std::string HloName(std::string_view s);

}  // namespace hloscope
