// The guided lesson: see lesson.h. Every stage reads only what the run
// recorded (steps, diffs, decisions, costs) plus, for the last two stages,
// the buffer assignment of the last step and the code of one kernel compiled
// on its own; every scan is linear in the module or the run.
//
// Built into hloscope_report (core/CMakeLists.txt), not hloscope_core: the
// kernels stage calls core/codegen.
#include "core/session/lesson.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/codegen/codegen.h"
#include "core/codegen/nvptx_backend.h"
#include "core/codegen/sass.h"
#include "core/cost/cost_model.h"
#include "core/cost/device.h"
#include "core/memory/peak_buffers.h"
#include "core/parser/parser.h"
#include "core/passes/cost_arithmetic.h"
#include "core/passes/pass_explanations.h"
#include "core/printer/printer.h"

namespace hloscope {
namespace {

// A time with its unit: "45.6 µs", "12.3 ms", "1.54 s".
std::string FormatTime(double us) {
  const double a = std::fabs(us);
  if (a >= 1e6) return FormatMicros(us / 1e6) + " s";
  if (a >= 1e3) return FormatMicros(us / 1e3) + " ms";
  return FormatMicros(us) + " µs";
}

std::string Code(std::string_view name) { return "`" + std::string(name) + "`"; }
std::string Str(int64_t v) { return std::to_string(v); }
std::string Plural(int64_t n, const std::string& one, const std::string& many) {
  return Str(n) + " " + (n == 1 ? one : many);
}

// "`a`, `b` and `c`" (at most `limit`, then "and N more").
std::string NameList(const std::vector<std::string>& names, size_t limit = 4) {
  std::string out;
  size_t shown = std::min(limit, names.size());
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == shown && shown == names.size()) ? " and " : ", ";
    out += Code(names[i]);
  }
  if (names.size() > shown) out += " and " + Str(static_cast<int64_t>(names.size() - shown)) + " more";
  return out;
}

const InstructionRecord* Record(const PipelineRun& run, int k, int64_t id) {
  return k >= 0 && k < run.size() && run.step(k).module ? run.step(k).module->Find(id) : nullptr;
}
std::string NameAt(const PipelineRun& run, int k, int64_t id) {
  const InstructionRecord* r = Record(run, k, id);
  return r ? r->name : "#" + Str(id);
}
bool ExistsAt(const PipelineRun& run, int k, const std::string& name) { return run.IdOfName(k, name) >= 0; }

// The first sentence of a pass's paragraph (the rest is in list-passes --long).
std::string Paragraph(std::string_view pass) { return std::string(PassExplanation(pass)); }

void AddFact(LessonStage& s, std::string key, std::string value) { s.facts.emplace_back(std::move(key), std::move(value)); }

// Index of the first step whose pass decides fusion, or -1.
int FirstFusionStep(const PipelineRun& run) {
  for (int k = 1; k < run.size(); ++k)
    if (IsFusionPass(run.step(k).pass)) return k;
  return -1;
}
int LastFusionStep(const PipelineRun& run) {
  for (int k = run.size() - 1; k >= 1; --k)
    if (IsFusionPass(run.step(k).pass)) return k;
  return -1;
}

// --- StableHLO → HLO ---------------------------------------------------------

// Counts `stablehlo.<op>` tokens of the source text (one linear scan).
std::map<std::string, int64_t> CountStablehloOps(const std::string& text) {
  std::map<std::string, int64_t> ops;
  static constexpr std::string_view kPrefix = "stablehlo.";
  size_t pos = 0;
  while ((pos = text.find(kPrefix, pos)) != std::string::npos) {
    size_t start = pos + kPrefix.size(), end = start;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    // An op is written `stablehlo.add ...` or `"stablehlo.add"(...)`; skip
    // attributes (`#stablehlo.dot<...>`) and types.
    bool attribute = pos > 0 && (text[pos - 1] == '#' || text[pos - 1] == '!');
    if (end > start && !attribute) ++ops["stablehlo." + text.substr(start, end - start)];
    pos = end;
  }
  return ops;
}

// "`a` ×4, `b` ×2, `c` ×1" for the `limit` largest counts.
template <typename Map>
std::string TopCounts(const Map& counts, size_t limit) {
  std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (size_t i = 0; i < v.size() && i < limit; ++i) out += (i ? ", " : "") + Code(v[i].first) + " ×" + Str(v[i].second);
  return out;
}

std::optional<LessonStage> StablehloStage(const Session& session, const PipelineRun& run) {
  if (!session.is_stablehlo() || !run.step(0).module) return std::nullopt;
  const ModuleSnapshot& snap = *run.step(0).module;
  std::map<std::string, int64_t> sops = CountStablehloOps(session.source_text());
  int64_t total_sops = 0;
  for (const auto& [op, n] : sops) total_sops += n;
  std::map<std::string, int64_t> hops;
  for (const InstructionRecord& r : snap.instructions) ++hops[std::string(OpcodeName(r.opcode))];
  LessonStage s;
  s.id = "stablehlo";
  s.title = "From StableHLO to HLO";
  s.step = 0;
  s.panel = "text";
  s.text = "The input is StableHLO, the MLIR dialect that JAX and PyTorch/XLA hand to XLA. Its " +
           Plural(total_sops, "operation", "operations") + " (" + TopCounts(sops, 5) +
           ") were converted into one HLO module of " + Plural(snap.instruction_count(), "instruction", "instructions") +
           " in " + Plural(snap.computation_count(), "computation", "computations") + " (" + TopCounts(hops, 5) + ").";
  s.text +=
      "\n\nThe conversion is nearly one for one: each StableHLO op becomes the HLO instruction of the same meaning, "
      "`func.func`s become computations (the public `main` the entry), region bodies such as a reduction's become "
      "small computations of their own, and every value gets a name and a layout. Nothing is optimized yet: this "
      "module is step 0, the input every pass after it starts from.";
  int64_t root = -1;
  for (const ComputationRecord& c : snap.computations)
    if (c.is_entry) root = c.root_id;
  if (const InstructionRecord* r = snap.Find(root)) s.subjects.push_back(r->name);
  AddFact(s, "stablehlo_ops", Str(total_sops));
  AddFact(s, "hlo_instructions", Str(snap.instruction_count()));
  AddFact(s, "hlo_computations", Str(snap.computation_count()));
  return s;
}

// --- simplification ----------------------------------------------------------

bool IsSimplifyPass(const std::string& pass) { return pass == "dce" || pass == "algsimp" || pass == "constant_folding"; }

std::optional<LessonStage> SimplifyStage(const PipelineRun& run) {
  int end = FirstFusionStep(run);
  if (end < 0) end = run.size();
  std::map<std::string, int64_t> removed;  // by pass
  std::map<std::string, int64_t> rules;    // algsimp/constant_folding rewrites by rule
  std::map<std::string, std::string> rule_example;
  int best = -1;
  size_t best_changes = 0;
  for (int k = 1; k < end; ++k) {
    const Step& st = run.step(k);
    if (!IsSimplifyPass(st.pass) || !st.changed) continue;
    removed[st.pass] += static_cast<int64_t>(st.diff.removed.size());
    for (const Rewrite& rw : st.rewrites) {
      ++rules[rw.rule];
      if (!rule_example.count(rw.rule)) rule_example[rw.rule] = rw.instruction;
    }
    size_t changes = st.diff.removed.size() + st.rewrites.size();
    if (changes > best_changes) best = k, best_changes = changes;
  }
  if (best < 0) return std::nullopt;
  const Step& last = run.step(end - 1);
  LessonStage s;
  s.id = "simplify";
  s.title = "Simplification: algsimp, constant folding, DCE";
  s.step = best;
  s.panel = "graph";
  int64_t total = 0;
  for (const auto& [p, n] : removed) total += n;
  std::string by_pass;
  for (const char* p : {"algsimp", "constant_folding", "dce"}) {
    auto it = removed.find(p);
    if (it == removed.end()) continue;
    by_pass += (by_pass.empty() ? "" : ", ") + Code(p) + " " + Str(it->second);
  }
  const ModuleCost& c0 = run.step(0).cost;
  s.text = "Before any fusion, the simplification passes ran over the module (steps 1–" + Str(end - 1) + "). " +
           "They removed " + Plural(total, "instruction", "instructions") + " (" + by_pass + "): the module went from " +
           Plural(run.step(0).instructions ? run.step(0).instructions : run.step(0).module->instruction_count(),
                  "instruction", "instructions") +
           " to " + Str(last.instructions) + ", and the kernels it would launch unfused from " + Str(c0.kernels) +
           " to " + Str(last.cost.kernels) + ".";
  if (!rules.empty()) {
    std::vector<std::pair<std::string, int64_t>> v(rules.begin(), rules.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string list;
    for (size_t i = 0; i < v.size() && i < 3; ++i)
      list += (i ? "; " : "") + Code(v[i].first) + " " + Plural(v[i].second, "time", "times") + " (e.g. at " +
              Code(rule_example[v[i].first]) + ")";
    s.text += " The rewrites applied most: " + list + ".";
  }
  const Step& shown = run.step(best);
  s.text += "\n\nStep " + Str(best) + " (" + Code(shown.pass) + ") changed the most: " +
            Plural(static_cast<int64_t>(shown.diff.removed.size()), "instruction", "instructions") + " removed, " +
            Plural(static_cast<int64_t>(shown.rewrites.size()), "rewrite", "rewrites") + ". " + Paragraph(shown.pass);
  // Subjects: what the shown step rewrote or folded into, still there after it.
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (s.subjects.size() < 6 && !name.empty() && ExistsAt(run, best, name) && seen.insert(name).second)
      s.subjects.push_back(name);
  };
  for (const Rewrite& rw : shown.rewrites) add(rw.instruction);
  for (const Replacement& r : shown.diff.replaced) add(NameAt(run, best, r.new_id));
  for (const Replacement& r : shown.diff.folded_into) add(NameAt(run, best, r.new_id));
  for (int64_t id : shown.diff.modified) add(NameAt(run, best, id));
  AddFact(s, "removed", Str(total));
  for (const auto& [p, n] : removed) AddFact(s, "removed_" + p, Str(n));
  AddFact(s, "instructions_before", Str(run.step(0).module->instruction_count()));
  AddFact(s, "instructions_after", Str(last.instructions));
  AddFact(s, "kernels_before", Str(c0.kernels));
  AddFact(s, "kernels_after", Str(last.cost.kernels));
  return s;
}

// --- CSE ---------------------------------------------------------------------

std::optional<LessonStage> CseStage(const PipelineRun& run) {
  int best = -1;
  size_t best_n = 0;
  for (int k = 1; k < run.size(); ++k) {
    const Step& st = run.step(k);
    if (st.pass != "cse" || !st.changed) continue;
    size_t n = st.diff.removed.size();
    if (n > best_n) best = k, best_n = n;
  }
  if (best < 0) return std::nullopt;
  const Step& st = run.step(best);
  // Removed duplicate → the instruction that stayed (folded_into: it existed
  // before; replaced: new in this step). Grouped by the survivor.
  std::map<int64_t, std::vector<int64_t>> groups;
  for (const Replacement& r : st.diff.folded_into) groups[r.new_id].push_back(r.old_id);
  for (const Replacement& r : st.diff.replaced) groups[r.new_id].push_back(r.old_id);
  LessonStage s;
  s.id = "cse";
  s.title = "Simplification: common subexpression elimination";
  s.step = best;
  s.panel = "graph";
  int64_t n = static_cast<int64_t>(st.diff.removed.size());
  s.text = "In step " + Str(best) + ", CSE found " + Plural(n, "instruction", "instructions") +
           (n == 1 ? " that computed the same value as an instruction before it, and removed it: its users now read the first one."
                   : " that computed the same value as an instruction before them, and removed them: their users now read the first one.");
  // The largest groups first (ties: the earliest survivor).
  std::vector<std::pair<int64_t, std::vector<int64_t>>> g(groups.begin(), groups.end());
  std::stable_sort(g.begin(), g.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string examples;
  for (size_t i = 0; i < g.size() && i < 3; ++i) {
    std::vector<std::string> dups;
    for (int64_t id : g[i].second) dups.push_back(NameAt(run, best - 1, id));
    const InstructionRecord* keep = Record(run, best, g[i].first);
    if (!keep) continue;
    examples += (examples.empty() ? "" : " ") + NameList(dups, 3) + (dups.size() == 1 ? " was a copy of " : " were copies of ") +
                Code(keep->name) + " (" + Code(OpcodeName(keep->opcode)) + ").";
    if (s.subjects.size() < 6) s.subjects.push_back(keep->name);
  }
  if (!examples.empty()) s.text += " " + examples;
  const Step& before = run.step(best - 1);
  s.text += " The module went from " + Str(before.instructions ? before.instructions : before.module->instruction_count()) +
            " to " + Str(st.instructions) + " instructions; unfused kernels " + Str(before.cost.kernels) + " → " +
            Str(st.cost.kernels) + ".";
  s.text += "\n\n" + Paragraph("cse");
  AddFact(s, "removed", Str(n));
  AddFact(s, "groups", Str(static_cast<int64_t>(groups.size())));
  if (!s.subjects.empty()) AddFact(s, "example_kept", s.subjects.front());
  return s;
}

// --- fusion ------------------------------------------------------------------

std::optional<LessonStage> FusionStage(const PipelineRun& run) {
  int first = FirstFusionStep(run), last = LastFusionStep(run);
  if (first < 0) return std::nullopt;
  const FusionDecision* pick = nullptr;
  int pick_step = -1;
  int64_t fused = 0, refused = 0;
  std::map<std::string, int64_t> reasons;  // refusal reasons
  for (int k = first; k <= last; ++k) {
    for (const FusionDecision& d : run.step(k).decisions) {
      if (d.verdict == FusionVerdict::kNotFused) {
        ++refused;
        ++reasons[d.reason];
        continue;
      }
      ++fused;
      int64_t saved = d.bytes_before - d.bytes_after;
      if (!pick || saved > pick->bytes_before - pick->bytes_after) pick = &d, pick_step = k;
    }
  }
  const ModuleCost& before = run.step(first - 1).cost;
  const ModuleCost& after = run.step(last).cost;
  if (!pick && before.kernels == after.kernels) return std::nullopt;
  LessonStage s;
  s.id = "fusion";
  s.title = "Fusion";
  s.step = pick ? pick_step : last;
  s.panel = "graph";
  s.text = "Fusion ran in steps " + Str(first) + "–" + Str(last) + ": the module's kernels went from " +
           Str(before.kernels) + " to " + Str(after.kernels) + ", its HBM traffic from " +
           FormatDecimalBytes(before.hbm_bytes) + " to " + FormatDecimalBytes(after.hbm_bytes) +
           " and the estimated time from " + FormatTime(before.est_us) + " to " + FormatTime(after.est_us) + ". " +
           Plural(fused + refused, "candidate was", "candidates were") + " considered: " + Str(fused) + " fused, " +
           Str(refused) + " not.";
  if (!reasons.empty()) {
    auto top = std::max_element(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    s.text += " The commonest reason to refuse (" + Plural(top->second, "time", "times") + "): \"" + top->first + "\"";
  }
  s.text +=
      "\n\nWhy it matters: HBM is the warehouse. An unfused kernel writes its result to HBM, and the next kernel walks "
      "back to the warehouse to fetch it; a fused kernel hands the value over in registers, and one launch does the "
      "work of several.";
  if (pick) {
    std::string consumers = NameList(pick->consumers, 3);
    s.text += "\n\nThe decision that saved the most traffic, in step " + Str(pick_step) + " (" + Code(pick->pass) + "): " +
              Code(pick->producer) + " was " + FusionVerdictName(pick->verdict) + " into " + consumers +
              (pick->result.empty() ? "" : ", making " + Code(pick->result)) + ". " + pick->reason;
    if (!pick->reason.empty() && pick->reason.back() != '.') s.text += ".";
    s.text += " Unfused, " + Code(pick->producer) + " writes its result to HBM and " + consumers +
              " fetch" + (pick->consumers.size() == 1 ? "es" : "") + " it back; fused, it never leaves the kernel.";
    std::string arith = CostArithmetic(*pick);
    if (!arith.empty()) s.text += " " + arith;
    else
      s.text += " HBM bytes " + FormatDecimalBytes(pick->bytes_before) + " → " + FormatDecimalBytes(pick->bytes_after) +
                ", ≈ " + FormatTime(pick->us_before) + " → " + FormatTime(pick->us_after) + ".";
    std::string para = Paragraph(pick->pass);
    if (!para.empty()) s.text += "\n\n" + para;
    for (const std::string& name : {pick->result, pick->producer})
      if (!name.empty() && ExistsAt(run, pick_step, name) && s.subjects.size() < 4) s.subjects.push_back(name);
    for (const std::string& name : pick->consumers)
      if (ExistsAt(run, pick_step, name) && s.subjects.size() < 4) s.subjects.push_back(name);
    AddFact(s, "producer", pick->producer);
    AddFact(s, "decision_pass", pick->pass);
    AddFact(s, "bytes_saved", Str(pick->bytes_before - pick->bytes_after));
    if (!pick->result.empty()) AddFact(s, "result", pick->result);
  }
  AddFact(s, "kernels_before", Str(before.kernels));
  AddFact(s, "kernels_after", Str(after.kernels));
  AddFact(s, "hbm_bytes_before", Str(before.hbm_bytes));
  AddFact(s, "hbm_bytes_after", Str(after.hbm_bytes));
  AddFact(s, "decisions_fused", Str(fused));
  AddFact(s, "decisions_not_fused", Str(refused));
  return s;
}

// --- buffers -----------------------------------------------------------------

std::optional<LessonStage> BuffersStage(const PipelineRun& run) {
  const int last = run.size() - 1;
  auto bs = run.BuffersAt(last);
  if (!bs.ok()) return std::nullopt;
  const BufferAssignment& ba = **bs;
  LessonStage s;
  s.id = "buffers";
  s.title = "Buffer assignment";
  s.step = last;
  s.panel = "timeline";
  std::set<std::string> seen;
  auto subject = [&](const std::string& name) {
    if (!name.empty() && s.subjects.size() < 6 && ExistsAt(run, last, name) && seen.insert(name).second)
      s.subjects.push_back(name);
  };
  char ratio[64];
  std::snprintf(ratio, sizeof ratio, "%.2f", ba.ratio());
  s.text = "After the last step, the " + Code(ba.scheduler) + " scheduler orders the entry's " +
           Plural(static_cast<int64_t>(ba.sequence.size()), "instruction", "instructions") +
           ", and every value gets a buffer with a live range: from the instruction that writes it to its last reader. "
           "Temporaries are packed into one heap, where buffers whose live ranges do not overlap may share bytes. "
           "The heap needs " +
           FormatDecimalBytes(ba.peak_bytes) + "; the most bytes ever live at once (the lower bound no packing can beat) is " +
           FormatDecimalBytes(ba.lower_bound_bytes) + ", a ratio of " + ratio + ".";
  std::string at_peak;
  if (ba.peak_position >= 0 && ba.peak_position < static_cast<int64_t>(ba.sequence.size())) {
    at_peak = ba.sequence[static_cast<size_t>(ba.peak_position)];
    LiveSet live = BuffersLiveAtPeak(ba);
    s.text += " The peak is at position " + Str(ba.peak_position) + ", while " + Code(at_peak) + " runs: " +
              Plural(static_cast<int64_t>(live.entries.size()), "buffer is", "buffers are") + " live (" +
              FormatDecimalBytes(live.bytes) + ")";
    if (!live.entries.empty()) {
      const AssignedBuffer& big = ba.buffers[static_cast<size_t>(live.entries.front().buffer)];
      s.text += ", the largest " + Code(big.instruction) + " (" + big.shape + ", " + FormatDecimalBytes(big.bytes) + ")";
      subject(big.instruction);
      AddFact(s, "largest_at_peak", big.instruction);
    }
    s.text += ".";
    subject(at_peak);
  }
  // One example of reuse: two temporaries at the same offset of the same
  // allocation whose live ranges do not overlap (the largest such pair).
  std::unordered_map<int64_t, std::vector<int>> by_place;  // (allocation, offset) → buffers
  for (size_t i = 0; i < ba.buffers.size(); ++i) {
    const AssignedBuffer& b = ba.buffers[i];
    if (b.kind != BufferKind::kTemp || b.bytes <= 0) continue;
    by_place[(static_cast<int64_t>(b.allocation) << 40) ^ b.offset].push_back(static_cast<int>(i));
  }
  const AssignedBuffer *ra = nullptr, *rb = nullptr;
  for (auto& [key, v] : by_place) {
    if (v.size() < 2) continue;
    std::sort(v.begin(), v.end(), [&](int a, int b) { return ba.buffers[a].start < ba.buffers[b].start; });
    for (size_t i = 0; i + 1 < v.size(); ++i) {
      const AssignedBuffer& a = ba.buffers[v[i]];
      const AssignedBuffer& b = ba.buffers[v[i + 1]];
      if (a.end >= b.start || a.instruction == b.instruction) continue;
      int64_t size = std::min(a.bytes, b.bytes);
      if (!ra || size > std::min(ra->bytes, rb->bytes) ||
          (size == std::min(ra->bytes, rb->bytes) && a.id < ra->id))
        ra = &a, rb = &b;
    }
  }
  if (ra) {
    s.text += "\n\nWhat reused what: " + Code(ra->instruction) + " (" + FormatDecimalBytes(ra->bytes) + ", live " +
              Str(ra->start) + "–" + Str(ra->end) + ") and " + Code(rb->instruction) + " (" +
              FormatDecimalBytes(rb->bytes) + ", live " + Str(rb->start) + "–" + Str(rb->end) + ") sit at the same offset " +
              Str(ra->offset) + " of the heap: " + Code(ra->instruction) + " is dead before " + Code(rb->instruction) +
              " is written, so the same bytes serve both.";
    subject(ra->instruction);
    subject(rb->instruction);
    AddFact(s, "reuse_first", ra->instruction);
    AddFact(s, "reuse_second", rb->instruction);
    AddFact(s, "reuse_offset", Str(ra->offset));
  }
  s.text += "\n\nParameters (" + FormatDecimalBytes(ba.parameter_bytes) + "), constants (" +
            FormatDecimalBytes(ba.constant_bytes) + ") and outputs (" + FormatDecimalBytes(ba.output_bytes) +
            ") live for the whole program in allocations of their own. In the timeline, look for the live-bytes curve "
            "touching the lower-bound line at the peak, and for rectangles stacked at one height one after another: "
            "that is reuse.";
  AddFact(s, "scheduler", ba.scheduler);
  AddFact(s, "peak_bytes", Str(ba.peak_bytes));
  AddFact(s, "lower_bound_bytes", Str(ba.lower_bound_bytes));
  AddFact(s, "peak_position", Str(ba.peak_position));
  if (!at_peak.empty()) AddFact(s, "at_peak", at_peak);
  return s;
}

// --- kernels -----------------------------------------------------------------

std::string KindOf(const Instruction& i) {
  if (i.opcode() == Opcode::kFusion) return std::string(FusionKindName(i.fusion_kind())) + " fusion";
  return std::string(OpcodeName(i.opcode()));
}

int64_t CountLines(const std::string& s) { return static_cast<int64_t>(std::count(s.begin(), s.end(), '\n')); }

// The called computations of `c`, transitively, callees first.
void CalleesPostOrder(const Computation* c, std::set<const Computation*>& seen, std::vector<const Computation*>& out) {
  if (!seen.insert(c).second) return;
  for (const auto& i : c->instructions())
    for (const Computation* callee : i->called_computations()) CalleesPostOrder(callee, seen, out);
  out.push_back(c);
}

// A module of one kernel: its called computations and an entry whose
// parameters carry the kernel's operands' names, so the instruction's
// printed line reads them unchanged.
std::string KernelModuleText(const Instruction& k) {
  std::set<const Computation*> seen;
  std::vector<const Computation*> comps;
  for (const Computation* c : k.called_computations()) CalleesPostOrder(c, seen, comps);
  std::string text = "HloModule lesson_" + k.name() + "\n\n";
  for (const Computation* c : comps) text += PrintComputation(*c) + "\n";
  text += "ENTRY %lesson_entry {\n";
  std::set<const Instruction*> params;
  int n = 0;
  for (const Instruction* op : k.operands())
    if (params.insert(op).second)
      text += "  %" + op->name() + " = " + op->shape().ToString() + " parameter(" + Str(n++) + ")\n";
  text += "  ROOT " + PrintInstruction(k) + "\n}\n";
  return text;
}

LessonStage KernelsStage(const PipelineRun& run, const LessonOptions& options, const DeviceSpec& device) {
  const int last = run.size() - 1;
  LessonStage s;
  s.id = "kernels";
  s.title = "Kernels: LLVM IR and PTX";
  s.step = last;
  s.panel = "kernels";
  auto mod = run.ModuleAt(last);
  if (!mod.ok() || !(*mod)->entry()) {
    s.text = "The last module could not be read back: " + (mod.ok() ? std::string("no entry") : mod.status().message());
    return s;
  }
  const Computation& entry = *(*mod)->entry();
  std::map<std::string, int64_t> kinds;
  std::map<std::string, std::vector<const Instruction*>> of_kind;
  int64_t kernels = 0;
  for (const auto& i : entry.instructions()) {
    if (!LaunchesKernel(*i)) continue;
    ++kernels;
    std::string kind = KindOf(*i);
    ++kinds[kind];
    of_kind[kind].push_back(i.get());
  }
  if (kinds.empty()) {
    s.text = "The last module launches no kernels.";
    AddFact(s, "kernels", "0");
    return s;
  }
  // The commonest kind (ties: the name first in order); in it, a kernel
  // small enough to read: the fusion whose computation is closest to six
  // instructions (unfused ops have none), the first in the entry on a tie.
  std::string kind;
  int64_t best_n = -1;
  for (const auto& [k, n] : kinds)
    if (n > best_n) kind = k, best_n = n;
  const Instruction* pick = nullptr;
  int64_t pick_score = 0;
  for (const Instruction* i : of_kind[kind]) {
    const Computation* fc = i->opcode() == Opcode::kFusion ? i->fused_computation() : nullptr;
    int64_t size = fc ? fc->instruction_count() : 1;
    int64_t score = std::abs(size - 6);
    if (!pick || score < pick_score) pick = i, pick_score = score;
  }
  s.subjects.push_back(pick->name());
  std::string kinds_text = TopCounts(kinds, 4);
  s.text = "The optimized module launches " + Plural(kernels, "kernel", "kernels") + " (" + kinds_text +
           "). The commonest kind is " + Code(kind) + " (" + Str(best_n) + "); here is one of them, " + Code(pick->name()) +
           ", of shape " + Code(pick->shape().ToString(false)) + ".";
  if (const Computation* fc = pick->opcode() == Opcode::kFusion ? pick->fused_computation() : nullptr) {
    std::map<std::string, int64_t> ops;
    for (const auto& i : fc->instructions())
      if (i->opcode() != Opcode::kParameter) ++ops[std::string(OpcodeName(i->opcode()))];
    s.text += " Inside it: " + TopCounts(ops, 6) + ", all in one kernel: its " +
              Plural(fc->num_parameters(), "input is", "inputs are") +
              " read from HBM once, the values between its instructions stay in registers, and only the result is "
              "written back.";
  }
  AddFact(s, "kernels", Str(kernels));
  AddFact(s, "kernel_kind", kind);
  AddFact(s, "kernel", pick->name());
  s.kernel = pick->name();
  if (!options.kernel_code) {
    s.text += "\n\nIts LLVM IR and PTX are generated when this stage is shown (Step → Generate kernels).";
    return s;
  }
  // Compile that kernel alone: a module of it, its own buffer assignment and
  // code generation (the code is the same as in the whole module's plan).
  const std::string text = KernelModuleText(*pick);
  auto small = ParseHloModule(text, "lesson kernel");
  StatusOr<codegen::CodegenResult> cg = Status::Error("not compiled");
  std::shared_ptr<const BufferAssignment> small_ba;
  if (small.ok()) {
    auto ba = AssignBuffers(**small);
    if (ba.ok()) {
      small_ba = *ba;
      codegen::CodegenOptions co;
      co.device = device;
      co.threads = 1;
      co.line_info = false;
      cg = codegen::GenerateKernels(**small, *small_ba, co);
    } else {
      cg = ba.status();
    }
  } else {
    cg = small.status();
  }
  const codegen::KernelCode* code = nullptr;
  if (cg.ok())
    for (size_t i = 0; i < cg->kernels.size(); ++i)
      if (cg->kernels[i].missing.empty() && !cg->CodeOf(i).ptx.empty()) {
        code = &cg->CodeOf(i);
        break;
      }
  if (!code) {
    std::string why = !cg.ok() ? cg.status().message()
                      : cg->kernels.empty() ? std::string("no kernel in its plan")
                                            : cg->kernels.front().missing;
    s.text += "\n\nIts code could not be generated here: " + why;
    return s;
  }
  s.kernel_ir = code->optimized_ir.empty() ? code->ir : code->optimized_ir;
  s.kernel_ptx = code->ptx;
  s.text += "\n\nCode generation emits it as one LLVM function " + Code("@" + code->kernel) + " (a " + Code(code->kind) +
            " emitter; " + Plural(CountLines(s.kernel_ir), "line", "lines") +
            " of IR after libdevice and O3): each GPU thread computes its elements from the thread and block indices. "
            "LLVM's NVPTX backend turns it into PTX, the GPU's virtual assembly (" +
            Plural(CountLines(s.kernel_ptx), "line", "lines") + ")";
  AddFact(s, "codegen_kind", code->kind);
  AddFact(s, "ir_lines", Str(CountLines(s.kernel_ir)));
  AddFact(s, "ptx_lines", Str(CountLines(s.kernel_ptx)));
  std::optional<codegen::NvptxTarget> target = codegen::FindNvptxTarget("sm_90");
  if (!codegen::PtxasPath().empty() && target) {
    auto res = codegen::PtxasResources(s.kernel_ptx, {code->kernel}, *target);
    if (res.ok() && res->count(code->kernel)) {
      const codegen::KernelResources& r = res->at(code->kernel);
      s.text += "; ptxas assembles it for " + std::string(target->sm) + " into machine code using " +
                Plural(r.registers, "register", "registers") + " per thread" +
                (r.spill_stores || r.spill_loads ? ", with spills (" + Str(r.spill_stores) + " bytes stored)" : ", no spills");
      AddFact(s, "registers", Str(r.registers));
      AddFact(s, "spill_bytes", Str(r.spill_stores));
    }
  } else {
    s.text += " (no ptxas here, so no register count)";
  }
  s.text += ". The grid of threads covers the output; every input byte is fetched from HBM once.";
  return s;
}

}  // namespace

StatusOr<Lesson> BuildLesson(const Session& session, const PipelineRun& run, const LessonOptions& options) {
  if (run.size() == 0) return Status::Error("the run has no steps");
  Lesson lesson;
  lesson.module_name = session.module_name();
  lesson.pipeline = run.name();
  lesson.device = run.device();
  DeviceSpec device = CurrentDevice();
  if (!run.device().empty())
    if (auto d = LoadDevice(run.device()); d.ok()) device = *d;
  if (auto st = StablehloStage(session, run)) lesson.stages.push_back(std::move(*st));
  if (auto st = SimplifyStage(run)) lesson.stages.push_back(std::move(*st));
  if (auto st = CseStage(run)) lesson.stages.push_back(std::move(*st));
  if (auto st = FusionStage(run)) lesson.stages.push_back(std::move(*st));
  if (auto st = BuffersStage(run)) lesson.stages.push_back(std::move(*st));
  lesson.stages.push_back(KernelsStage(run, options, device));
  return lesson;
}

}  // namespace hloscope
