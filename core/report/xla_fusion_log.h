// XLA GPU's own fusion decisions: the log priority fusion writes with
// --xla_dump_hlo_pass_re=.* (`<module>.priority_fusion_dump.txt`, a
// FusionProcessDumpProto in protobuf text). Each step is one of
//   fusion { fusion_name producer_name consumer_name }        what XLA fused
//   update_priority { producer_name consumer_names us_fused us_unfused }
//                                          XLA's cost model's numbers
//   producer_ineligible { producer_name reason }   a refusal in XLA's words
// and any other kind is kept raw. The log's names are those of the module
// priority fusion ran on (the dump's per-pass file before it) plus the
// fusions it made on the way; XlaPriorityFusion resolves every name against
// that module.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope::report {

struct XlaFusionStep {
  enum class Kind { kFusion, kUpdatePriority, kProducerIneligible, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string kind_name;   // the step's field name ("fusion", "update_priority", ...)
  int line = 0;            // where the step starts in the log
  std::string producer;    // every kind but unknown
  std::string consumer;    // fusion
  std::string fusion_name; // fusion: the result (may be the consumer's name)
  std::vector<std::string> consumers;  // update_priority
  double us_fused = 0, us_unfused = 0; // update_priority
  std::string reason;      // producer_ineligible
  std::string raw;         // unknown kinds: the step's text as written
};

struct XlaFusionLog {
  std::string origin;                // the file read
  std::vector<XlaFusionStep> steps;  // in the log's order
  std::string device_text;           // gpu_device_info as written ("" if absent)
  std::map<std::string, std::string> device;  // its scalar fields (core_count, memory_bandwidth, ...)
  int64_t count(XlaFusionStep::Kind k) const;
};

// Parses a priority_fusion_dump. Malformed or truncated text is an error at
// ORIGIN:LINE:COL; a known step missing its producer_name likewise.
StatusOr<XlaFusionLog> ParseXlaFusionLog(std::string_view text, const std::string& origin);
StatusOr<XlaFusionLog> ReadXlaFusionLog(const std::string& path);

// XLA's last word on one producer, from all the steps naming it.
struct XlaProducerDecision {
  std::string producer;                  // the name in the log
  std::string origin;                    // the instruction of the module before priority fusion it stands for
                                         // (a fusion XLA made stands for the consumer it was made from)
  bool fused = false;                    // some fusion step took it as producer
  std::vector<std::string> fused_into;   // consumers of those steps
  std::vector<std::string> fusion_names; // and their results
  std::string reason;                    // the last producer_ineligible reason ("" if none)
  bool refused_last = false;             // that refusal is its last record (no priority after it)
  bool has_priority = false;             // an update_priority step named it
  std::vector<std::string> consumers;    // of its last update_priority
  double us_fused = 0, us_unfused = 0;   // of its last update_priority
  // Its priority (µs saved) as XLA's queue held it after the last
  // update_priority: a full estimate when it was first named or had changed
  // since (a producer fused into it, or it is a fusion made since), else the
  // last full one plus every incremental difference since (XLA re-estimates
  // only the consumers that changed and logs just those).
  double priority_us = 0;
  std::vector<int> steps;                // indices into XlaFusionLog::steps
  // "fused", or "not fused" with XLA's reason, or "not fused" because fusing
  // would not save time (its priority ended at or below zero).
  std::string verdict() const { return fused ? "fused" : "not fused"; }
  std::string Explanation() const;
};

// The device preset (core/cost/device.h) whose HBM bandwidth is the log's
// gpu_device_info's (memory_bandwidth, bytes/s), within 5%, so that our cost
// model prices the device XLA's did; "" when none matches.
std::string DevicePresetOfLog(const XlaFusionLog& log);

// One entry per producer the log names, in order of first appearance.
std::vector<XlaProducerDecision> SummarizeXlaFusionLog(const XlaFusionLog& log);

// The decision log with the modules it speaks of, from a dump folder:
// an --xla_dump_to folder, or a folder tools/xla_gpu_reference.py wrote
// (REFERENCE.json, priority_fusion_dump.txt, passes.tar.xz; or its raw
// xla_dump/ when kept).
struct XlaPriorityFusion {
  XlaFusionLog log;
  std::vector<XlaProducerDecision> producers;  // SummarizeXlaFusionLog(log), origins resolved
  std::string before_label, after_label;       // the per-pass files (names inside passes.tar.xz for references)
  std::unique_ptr<Module> before;              // the module priority fusion ran on
  std::unique_ptr<Module> after;               // after priority fusion (== before's text when it changed nothing)
  // Names in the log found in neither `before` nor the fusions made by
  // earlier steps: 0 when the log and the module belong together.
  std::vector<std::string> unresolved;
  int64_t names = 0;  // distinct names in the log
};

// `module_sel` picks a module of a dump with several (id or name, as
// PickXlaDumpModule); "" takes the largest.
StatusOr<XlaPriorityFusion> LoadXlaPriorityFusion(const std::string& dir, const std::string& module_sel = "");

// The decisions that name `instruction` (as producer or consumer) of the
// module priority fusion ran on, or of a fusion it made: indices into
// log.steps.
std::vector<int> XlaStepsNaming(const XlaPriorityFusion& pf, std::string_view instruction);

}  // namespace hloscope::report
