#include "core/fusion/fusion_overrides.h"

#include <cctype>
#include <unordered_set>

namespace hloscope {
namespace {

thread_local const FusionOverrides* current_overrides = nullptr;

StatusOr<OverrideRef> ParseRef(std::string_view s, std::string_view side, std::string_view whole) {
  OverrideRef r;
  if (!s.empty() && s.front() == '%') s.remove_prefix(1);
  if (s.empty())
    return Status::Error("'" + std::string(whole) + "': the " + std::string(side) + " is empty (expected PRODUCER:CONSUMER)");
  if (s.front() == '#') {
    std::string_view digits = s.substr(1);
    bool ok = !digits.empty() && digits.size() < 18;
    for (char ch : digits) ok = ok && std::isdigit(static_cast<unsigned char>(ch));
    if (!ok)
      return Status::Error("'" + std::string(whole) + "': the " + std::string(side) +
                           " '" + std::string(s) + "' is not a stable id (#N, N a number)");
    r.id = std::stoll(std::string(digits));
    return r;
  }
  for (char ch : s)
    if (std::isspace(static_cast<unsigned char>(ch)))
      return Status::Error("'" + std::string(whole) + "': the " + std::string(side) + " '" + std::string(s) +
                           "' holds a space");
  r.name = std::string(s);
  return r;
}

bool Names(const Instruction& i, const OverrideRef& r) { return r.id >= 0 ? i.id() == r.id : i.name() == r.name; }

bool HoldsIn(const Computation& c, const OverrideRef& r, int depth) {
  for (const auto& i : c.instructions()) {
    if (i->opcode() == Opcode::kParameter) continue;
    if (Names(*i, r)) return true;
    if (depth < 4 && i->opcode() == Opcode::kFusion && i->fused_computation() &&
        HoldsIn(*i->fused_computation(), r, depth + 1))
      return true;
  }
  return false;
}

}  // namespace

StatusOr<FusionOverridePair> ParseOverridePair(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos)
    return Status::Error("'" + std::string(text) + "' is not PRODUCER:CONSUMER (no ':')");
  if (text.find(':', colon + 1) != std::string_view::npos)
    return Status::Error("'" + std::string(text) + "' is not PRODUCER:CONSUMER (more than one ':')");
  FusionOverridePair p;
  auto producer = ParseRef(text.substr(0, colon), "producer", text);
  if (!producer.ok()) return producer.status();
  auto consumer = ParseRef(text.substr(colon + 1), "consumer", text);
  if (!consumer.ok()) return consumer.status();
  p.producer = *producer;
  p.consumer = *consumer;
  return p;
}

Status ValidateOverrides(const Module& m, const FusionOverrides& o, const SeenNames* seen) {
  std::unordered_set<std::string> names;
  std::unordered_set<int64_t> ids;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      names.insert(i->name());
      ids.insert(i->id());
    }
  auto known = [&](const OverrideRef& r) {
    if (r.id >= 0) return ids.count(r.id) > 0 || (seen && seen->ids.count(r.id) > 0);
    return names.count(r.name) > 0 || (seen && seen->names.count(r.name) > 0);
  };
  auto check = [&](const std::vector<FusionOverridePair>& pairs, const char* flag) -> Status {
    for (const FusionOverridePair& p : pairs)
      for (const OverrideRef* r : {&p.producer, &p.consumer})
        if (!known(*r))
          return Status::Error(std::string(flag) + " " + p.ToString() + ": no instruction " +
                               (r->id >= 0 ? "with id " : "named '") + r->ToString() + (r->id >= 0 ? "" : "'") +
                               " in module " + m.name() + (seen ? ", nor made by the pipeline" : "") +
                               " (overrides name instructions of the input, or made by a pass before a fusion pass)");
    return Status::Ok();
  };
  if (Status s = check(o.force, "--force"); !s.ok()) return s;
  if (Status s = check(o.forbid, "--forbid"); !s.ok()) return s;
  for (const FusionOverridePair& f : o.force)
    for (const FusionOverridePair& b : o.forbid)
      if ((f.producer.ToString() == b.producer.ToString() && f.consumer.ToString() == b.consumer.ToString()) ||
          (f.producer.ToString() == b.consumer.ToString() && f.consumer.ToString() == b.producer.ToString()))
        return Status::Error("--force " + f.ToString() + " and --forbid " + b.ToString() +
                             " ask for opposite things about one pair");
  return Status::Ok();
}

bool Holds(const Instruction& kernel, const OverrideRef& r) {
  if (Names(kernel, r)) return true;
  return kernel.opcode() == Opcode::kFusion && kernel.fused_computation() &&
         HoldsIn(*kernel.fused_computation(), r, 0);
}

const FusionOverridePair* ForbiddenPair(const FusionOverrides& o, const Instruction& producer,
                                        const Instruction& consumer) {
  for (const FusionOverridePair& p : o.forbid) {
    if (Holds(producer, p.producer) && Holds(consumer, p.consumer)) return &p;
    if (Holds(producer, p.consumer) && Holds(consumer, p.producer)) return &p;
  }
  return nullptr;
}

std::string ForbiddenReason(const FusionOverridePair& p) {
  return std::string(kForbiddenReason) + " (--forbid " + p.ToString() + ")";
}

const FusionOverrides& CurrentFusionOverrides() {
  static const FusionOverrides kNone;
  return current_overrides ? *current_overrides : kNone;
}

ScopedFusionOverrides::ScopedFusionOverrides(const FusionOverrides& o) : previous_(current_overrides) {
  current_overrides = &o;
}

ScopedFusionOverrides::~ScopedFusionOverrides() { current_overrides = previous_; }

OverrideNameWatch::OverrideNameWatch(const FusionOverrides& o) {
  for (const auto* pairs : {&o.force, &o.forbid})
    for (const FusionOverridePair& p : *pairs)
      for (const OverrideRef* r : {&p.producer, &p.consumer}) {
        if (r->id >= 0) wanted_.ids.insert(r->id);
        else wanted_.names.insert(r->name);
      }
}

Status OverrideNameWatch::BeforePipeline(const Module& m, std::string_view) {
  Scan(m);
  return Status::Ok();
}

Status OverrideNameWatch::AfterPass(const Module& m, const PassRunInfo&, const PassRunResult&) {
  if (seen_.names.size() + seen_.ids.size() < wanted_.names.size() + wanted_.ids.size()) Scan(m);
  return Status::Ok();
}

void OverrideNameWatch::Scan(const Module& m) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      if (wanted_.names.count(i->name())) seen_.names.insert(i->name());
      if (wanted_.ids.count(i->id())) seen_.ids.insert(i->id());
    }
}

std::vector<const Instruction*> HoldersOf(const Module& m, const OverrideRef& r) {
  std::vector<const Instruction*> out;
  for (const auto& c : m.computations()) {
    if (c->fusion_instruction) continue;
    for (const auto& i : c->instructions())
      if (i->opcode() != Opcode::kParameter && Holds(*i, r)) out.push_back(i.get());
  }
  return out;
}

bool InOneKernel(const Module& m, const FusionOverridePair& pair, std::string* where) {
  for (const Instruction* k : HoldersOf(m, pair.producer))
    if (Holds(*k, pair.consumer)) {
      if (where) *where = k->name();
      return true;
    }
  return false;
}

}  // namespace hloscope
