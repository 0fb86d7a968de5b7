#include "views/decisions/xla_decisions.h"

#include <QObject>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

namespace hloscope::views {
namespace {

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}


}  // namespace

int XlaPriorityFusionStep(const report::XlaDumpModule& module, const report::XlaPriorityFusion& pf) {
  // after_label is the file's path, or "ARCHIVE:MEMBER" for a reference.
  for (size_t i = 0; i < module.steps.size(); ++i) {
    const std::string file = std::filesystem::path(module.steps[i].path).filename().string();
    if (!file.empty() && (pf.after_label == file || EndsWith(pf.after_label, "/" + file) ||
                          EndsWith(pf.after_label, ":" + file)))
      return static_cast<int>(i);
  }
  for (size_t i = 0; i < module.steps.size(); ++i)
    if (module.steps[i].label.find("after_priority-fusion") != std::string::npos) return static_cast<int>(i);
  return -1;
}

std::shared_ptr<const XlaDecisions> MakeXlaDecisions(std::shared_ptr<const report::XlaPriorityFusion> pf,
                                                     const PipelineRun& run, int step) {
  auto out = std::make_shared<XlaDecisions>();
  out->step = step >= 0 && step < run.size() ? step : -1;
  if (out->step >= 0) out->step_label = run.step(out->step).pass;
  // Names of the step and of the one before (what priority fusion consumed);
  // an XLA dump run keeps one id per name across its files.
  std::unordered_map<std::string, int64_t> ids;
  for (int k : {out->step, out->step - 1}) {
    if (k < 0 || out->step < 0) continue;
    for (const InstructionRecord& r : run.step(k).module->instructions) ids.emplace(r.name, r.id);
  }
  auto id_of = [&](const std::string& name) {
    auto it = ids.find(name);
    return it == ids.end() ? int64_t{-1} : it->second;
  };
  for (const report::XlaProducerDecision& p : pf->producers) {
    FusionDecision d;
    d.pass = kXlaPriorityFusionPass;
    d.producer = p.producer;
    d.producer_id = id_of(p.producer);
    if (d.producer_id < 0 && p.origin != p.producer) d.producer_id = id_of(p.origin);
    d.consumers = p.fused ? p.fused_into : p.consumers;
    for (const std::string& c : d.consumers) d.consumer_ids.push_back(id_of(c));
    d.verdict = p.fused ? FusionVerdict::kFused : FusionVerdict::kNotFused;
    d.reason = p.Explanation();
    d.result = Join(p.fusion_names);
    if (p.has_priority) {
      d.us_before = p.us_unfused;
      d.us_after = p.us_fused;
    }
    out->costed.push_back(p.has_priority);
    if (p.fused) {
      ++out->fused;
    } else {
      ++out->refused;
      out->refusals.insert(QString::fromStdString(p.producer), QString::fromStdString(d.reason));
    }
    out->decisions.push_back(std::move(d));
  }
  out->summary = QObject::tr("XLA's own priority fusion decisions (%1): %2 producers, %3 fused, %4 not fused")
                     .arg(QString::fromStdString(pf->log.origin))
                     .arg(pf->producers.size())
                     .arg(out->fused)
                     .arg(out->refused);
  if (!pf->unresolved.empty())
    out->summary += QObject::tr("; %1 names of the log are not in XLA's module").arg(pf->unresolved.size());
  out->pf = std::move(pf);
  return out;
}

std::shared_ptr<const DecisionsVsXla> MakeDecisionsVsXla(report::DecisionsDiff diff, const PipelineRun& ours) {
  auto out = std::make_shared<DecisionsVsXla>();
  std::unordered_map<std::string, int64_t> ids;
  if (diff.our_step >= 0 && diff.our_step < ours.size())
    for (const FusionDecision& d : ours.step(diff.our_step).decisions) ids.emplace(d.producer, d.producer_id);
  for (const report::ProducerDiff& p : diff.producers) {
    auto it = p.ours.present ? ids.find(p.ours.producer) : ids.end();
    out->ids.push_back(it == ids.end() ? -1 : it->second);
  }
  out->diff = std::make_shared<const report::DecisionsDiff>(std::move(diff));
  return out;
}

}  // namespace hloscope::views
