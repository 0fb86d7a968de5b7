// What-if fusion (issue 30): overrides are data the fusion passes read.
// `--force P:C` asks that producer P be fused into consumer C even where the
// pass's heuristics or cost said no; `--forbid P:C` that P and C never end
// in one kernel. A forced fusion that is not legal (a cycle, op kinds that
// cannot fuse, an emitter limit, P or C gone) is refused with the reason and
// never performed.
//
// P and C name instructions of the input module (by name, or `#N` for the
// stable id N). Fused instructions keep their names and ids, so a fusion
// made by an earlier pass is matched through its members: `--forbid a:b`
// also keeps a fusion holding `a` away from one holding `b`.
//
// The passes find the overrides like the device they cost against: a
// ScopedFusionOverrides installs them for the pipeline runs on its thread
// (the Pass interface stays Run(module)). What they did is in the decision
// records: reasons that start with kForcedReason, kForbiddenReason or
// kRefusedReason, followed by the pair in parentheses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <unordered_set>

#include "core/ir/module.h"
#include "core/passes/instrumentation.h"
#include "core/support/status.h"

namespace hloscope {

inline constexpr const char* kForcedReason = "forced by what-if override";
inline constexpr const char* kForbiddenReason = "forbidden by what-if override";
inline constexpr const char* kRefusedReason = "what-if override refused";

// One end of a pair: an instruction name, or a stable id (`#N`).
struct OverrideRef {
  std::string name;  // "" when given by id
  int64_t id = -1;
  std::string ToString() const { return id >= 0 ? "#" + std::to_string(id) : name; }
};

struct FusionOverridePair {
  OverrideRef producer, consumer;
  // "P:C" as it is written on the command line.
  std::string ToString() const { return producer.ToString() + ":" + consumer.ToString(); }
};

struct FusionOverrides {
  std::vector<FusionOverridePair> force, forbid;
  bool empty() const { return force.empty() && forbid.empty(); }
};

// "P:C" → the pair; an error naming what is wrong otherwise (no ':', an
// empty side, `#` without a number). A leading '%' on a name is dropped.
StatusOr<FusionOverridePair> ParseOverridePair(std::string_view text);

// Checks that every name and id of `o` is an instruction of `m` (the input
// module) or in `seen` (names and ids a run printed along the way, see
// OverrideNameWatch), and that no pair is both forced and forbidden; the
// error names the first offending pair.
struct SeenNames {
  std::unordered_set<std::string> names;
  std::unordered_set<int64_t> ids;
};
Status ValidateOverrides(const Module& m, const FusionOverrides& o, const SeenNames* seen = nullptr);

// An instrumentation that notes which names and ids of `o` any module of a
// pipeline run held (the input, or after any pass): overrides may name
// instructions printed at the start of a pass (`multiply.1` made by
// algsimp), not only those of the input.
class OverrideNameWatch : public PassInstrumentation {
 public:
  explicit OverrideNameWatch(const FusionOverrides& o);
  Status BeforePipeline(const Module& m, std::string_view) override;
  Status AfterPass(const Module& m, const PassRunInfo&, const PassRunResult&) override;
  const SeenNames& seen() const { return seen_; }

 private:
  void Scan(const Module& m);
  SeenNames wanted_, seen_;
};

// True if `kernel` is the instruction `r` names, or a fusion one of whose
// fused instructions (at any depth) it names.
bool Holds(const Instruction& kernel, const OverrideRef& r);

// The forbid pair that keeps `producer` and `consumer` (instructions or
// fusions) apart, in either direction; nullptr when none does.
const FusionOverridePair* ForbiddenPair(const FusionOverrides& o, const Instruction& producer,
                                        const Instruction& consumer);

// "forbidden by what-if override (--forbid P:C)".
std::string ForbiddenReason(const FusionOverridePair& p);

// The overrides fusion passes on this thread read (none unless a scope is
// active).
const FusionOverrides& CurrentFusionOverrides();

// Installs `o` for this thread until destroyed (the previous ones return).
class ScopedFusionOverrides {
 public:
  explicit ScopedFusionOverrides(const FusionOverrides& o);
  ~ScopedFusionOverrides();
  ScopedFusionOverrides(const ScopedFusionOverrides&) = delete;
  ScopedFusionOverrides& operator=(const ScopedFusionOverrides&) = delete;

 private:
  const FusionOverrides* previous_;
};

// In a module after a run: the top-level instructions of non-fused
// computations that hold `r` (a duplicated producer is held by several).
std::vector<const Instruction*> HoldersOf(const Module& m, const OverrideRef& r);
// True if one kernel of `m` holds both ends of `pair`; `*where` gets its
// name.
bool InOneKernel(const Module& m, const FusionOverridePair& pair, std::string* where = nullptr);

}  // namespace hloscope
