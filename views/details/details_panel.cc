#include "views/details/details_panel.h"
#include "views/common/release_off_thread.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "core/cost/cost_model.h"
#include "core/ir/attributes.h"
#include "core/passes/cost_arithmetic.h"
#include "core/report/decisions_diff.h"
#include "views/decisions/xla_decisions.h"
#include "views/kernels/kernels_model.h"
#include "views/pipeline/steps_model.h"

namespace hloscope::views {
namespace {

QString Esc(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped(); }

QString Link(int64_t id, std::string_view name) {
  return QString("<a href=\"inst:%1\">%2</a>").arg(id).arg(Esc(name));
}

QString Row(const QString& key, const QString& value) {
  return "<tr><td style='color:#555;padding-right:8px;vertical-align:top'>" + key + "</td><td>" + value + "</td></tr>";
}

}  // namespace

namespace {

// The steps of XLA's priority fusion log naming the instruction, as XLA
// wrote them, after XLA's last word on it as a producer.
QString XlaLogHtml(const std::string& name, const XlaDecisions& xla) {
  constexpr size_t kMaxSteps = 60;
  const std::vector<int> steps = report::XlaStepsNaming(*xla.pf, name);
  QString h = QObject::tr("<h4 style='margin:6px 2px 2px 2px'>XLA's priority fusion log naming it (%1)</h4>")
                  .arg(steps.size());
  for (size_t i = 0; i < xla.pf->producers.size() && i < xla.decisions.size(); ++i) {
    if (xla.pf->producers[i].producer != name) continue;
    const FusionDecision& d = xla.decisions[i];
    const bool fused = d.verdict != FusionVerdict::kNotFused;
    h += QString("<p style='margin:3px'>XLA: <span style='color:%1'><b>%2</b></span> — %3%4</p>")
             .arg(fused ? "#2e7d32" : "#c62828")
             .arg(Esc(FusionVerdictName(d.verdict)))
             .arg(Esc(d.reason))
             .arg(xla.costed[i] ? QString(" <span style='color:#777'>(us_unfused %1, us_fused %2)</span>")
                                      .arg(d.us_before, 0, 'g', 6)
                                      .arg(d.us_after, 0, 'g', 6)
                                : QString());
  }
  if (steps.empty()) {
    h += QObject::tr("<p style='color:#777'>none: XLA's log does not name %1 (it names the instructions of the "
                     "module priority fusion ran on, step %2)</p>")
             .arg(Esc(name))
             .arg(xla.step > 0 ? xla.step - 1 : xla.step);
    return h;
  }
  h += "<pre style='white-space:pre-wrap;margin:3px'>";
  for (size_t i = 0; i < steps.size() && i < kMaxSteps; ++i) {
    const report::XlaFusionStep& s = xla.pf->log.steps[static_cast<size_t>(steps[i])];
    h += QString("<span style='color:#777'>line %1</span>  %2\n").arg(s.line).arg(Esc(report::XlaStepLine(s)));
  }
  if (steps.size() > kMaxSteps) h += QObject::tr("… and %1 more\n").arg(steps.size() - kMaxSteps);
  h += "</pre>";
  return h;
}

}  // namespace

QString InstructionDetailsHtml(const PipelineRun& run, int step, int64_t id, const KernelListing* kernels,
                               const XlaDecisions* xla) {
  if (step < 0 || step >= run.size()) return {};
  const Step& s = run.step(step);
  const ModuleSnapshot& snap = *s.module;
  const InstructionRecord* rec = snap.Find(id);
  if (!rec) return QObject::tr("<p><i>No instruction selected (or it does not exist in step %1).</i></p>").arg(step);
  QString h;
  h += "<h3 style='margin:2px'>%" + Esc(rec->name) + "</h3>";
  const Instruction* inst = run.InstructionAt(step, id);
  const bool implicit = inst && inst->implicit_tuple_element() && inst->operand_count() == 1;
  QString line = Esc(snap.line(*rec));
  if (line.isEmpty() && implicit)
    line = "<i>" + QObject::tr("no line of its own: its users read it as") + "</i> %" +
           Esc(inst->operand(0)->name()) + "#" + QString::number(inst->tuple_index());
  h += "<pre style='white-space:pre-wrap;background:#f5f5f5;padding:4px'>" + line + "</pre>";
  h += "<table>";
  if (implicit)
    h += Row(QObject::tr("tuple element"),
             QObject::tr("element %1 of %2, written <code>%%3#%1</code> where it is used (today's XLA writes a use "
                         "of a multi-output instruction this way, with no get-tuple-element line)")
                 .arg(QString::number(inst->tuple_index()), Link(inst->operand(0)->id(), inst->operand(0)->name()),
                      Esc(inst->operand(0)->name())));
  h += Row("opcode", Esc(OpcodeName(rec->opcode)) + " <span style='color:#777'>(" +
                         Esc(CategoryName(CategoryOf(rec->opcode))) + ")</span>");
  if (rec->computation >= 0 && rec->computation < snap.computation_count())
    h += Row("computation", Esc(snap.computations[rec->computation].name));
  if (inst) {
    h += Row("shape", "<code>" + Esc(inst->shape().ToString(true)) + "</code>");
    h += Row("bytes", QString("%1 (%2)").arg(inst->shape().byte_size()).arg(HumanBytes(inst->shape().byte_size())));
    if (inst->opcode() == Opcode::kFusion) {
      QString calls = inst->fused_computation() ? Esc(inst->fused_computation()->name()) : QString("?");
      h += Row("fusion", Esc(FusionKindName(inst->fusion_kind())) + ", calls " + calls);
    }
  }
  QStringList ops;
  for (int64_t o : rec->operands)
    if (const InstructionRecord* r = snap.Find(o)) ops << Link(o, r->name);
  h += Row("operands", ops.isEmpty() ? "–" : ops.join(", "));
  QStringList users;
  for (const InstructionRecord& r : snap.instructions)
    for (int64_t o : r.operands)
      if (o == id) {
        users << Link(r.id, r.name);
        break;
      }
  h += Row("users", users.isEmpty() ? "–" : users.join(", "));
  if (inst) {
    for (const char* key : {"op_name", "op_type", "source_file", "source_line"}) {
      std::string v = inst->MetadataValue(key);
      if (!v.empty()) h += Row(key, "<code>" + Esc(v) + "</code>");
    }
    for (const MetadataField& a : inst->metadata()) {
      if (a.name == "op_name" || a.name == "op_type" || a.name == "source_file" || a.name == "source_line") continue;
      h += Row(Esc(a.name), "<code>" + Esc(a.value) + "</code>");
    }
    if (const RawAttr* bc = inst->FindRaw("backend_config"))
      h += Row("backend_config", "<code style='white-space:pre-wrap'>" + Esc(bc->value) + "</code>");
    if (LaunchesKernel(*inst)) {
      Cost c = KernelCost(*inst, CurrentDevice());
      h += Row("cost (" + Esc(CurrentDevice().id) + ")",
               QString("%1 flops, read %2, write %3<br>memory %4 µs, compute %5 µs, launch %6 µs → <b>%7 µs</b>")
                   .arg(c.flops, 0, 'g', 4)
                   .arg(HumanBytes(c.bytes_read))
                   .arg(HumanBytes(c.bytes_written))
                   .arg(c.memory_us, 0, 'f', 3)
                   .arg(c.compute_us, 0, 'f', 3)
                   .arg(c.launch_us, 0, 'f', 3)
                   .arg(c.time_us, 0, 'f', 3));
    } else {
      h += Row("cost", QObject::tr("no kernel of its own"));
    }
  }
  if (kernels) {
    const report::PlanEntry* e = kernels->Find(rec->name);
    const QColor c = e ? PlanEntryColor(e->kind) : QColor();
    QString what = e ? Esc(e->what) : QObject::tr("launches nothing of its own in the kernel plan");
    if (e && e->kind == report::PlanEntry::Kind::kKernel) what = "<code>" + Esc(e->name) + "</code>: " + what;
    if (c.isValid()) what = "<span style='color:" + c.name() + "'><b>" + what + "</b></span>";
    h += Row(QObject::tr("kernel"), what);
    // What ptxas and nvdisasm say of it (Generate kernels assembles every
    // PTX when the tools are found).
    if (const report::KernelResourceText* r = kernels->ResourcesOf(e)) {
      const report::KernelResourceText& rt = *r;
      if (!rt.resources.empty()) {
        h += Row(QObject::tr("resources (%1)").arg(Esc(kernels->code->plan.target)), Esc(rt.resources));
        QString occ = Esc(rt.occupancy);
        if (rt.active_warps < rt.max_warps) occ = "<b>" + occ + "</b>";
        h += Row(QObject::tr("occupancy"), occ);
        h += Row(QObject::tr("SASS"), Esc(rt.sass));
      } else if (!rt.sass_error.empty()) {
        h += Row(QObject::tr("SASS"), "<span style='color:#777'>" + Esc(rt.sass_error) + "</span>");
      }
    }
  }
  h += "</table>";
  auto decisions = run.DecisionsAbout(id, rec->name);
  h += QObject::tr("<h4 style='margin:6px 2px 2px 2px'>Fusion decisions naming it (%1)</h4>").arg(decisions.size());
  if (decisions.empty()) h += QObject::tr("<p style='color:#777'>none in this run</p>");
  for (const auto& [k, d] : decisions) {
    QStringList cons;
    for (size_t c = 0; c < d->consumers.size(); ++c)
      cons << (c < d->consumer_ids.size() ? Link(d->consumer_ids[c], d->consumers[c]) : Esc(d->consumers[c]));
    const bool fused = d->verdict != FusionVerdict::kNotFused;
    h += QString("<p style='margin:3px'>step %1 <b>%2</b>: %3 → {%4}: <span style='color:%5'><b>%6</b></span>%7<br>"
                 "<span style='color:#444'>%8</span><br><span style='color:#777'>bytes %9 → %10, est. %11 → %12 µs%13</span></p>")
             .arg(k)
             .arg(Esc(d->pass))
             .arg(Link(d->producer_id, d->producer))
             .arg(cons.join(", "))
             .arg(fused ? "#2e7d32" : "#c62828")
             .arg(Esc(FusionVerdictName(d->verdict)))
             .arg(d->result.empty() ? QString() : " into " + Esc(d->result))
             .arg(Esc(d->reason))
             .arg(d->bytes_before)
             .arg(d->bytes_after)
             .arg(d->us_before, 0, 'f', 3)
             .arg(d->us_after, 0, 'f', 3)
             .arg(HasCostBreakdown(*d) ? "<br>" + Esc(CostArithmetic(*d)) : QString());
  }
  if (xla && xla->pf) h += XlaLogHtml(rec->name, *xla);
  return h;
}

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent) {
  browser_ = new QTextBrowser;
  browser_->setOpenLinks(false);
  browser_->setOpenExternalLinks(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser_);
  connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() != "inst") return;
    bool ok = false;
    qint64 id = url.path().toLongLong(&ok);
    if (ok) emit instructionActivated(id);
  });
  render();
}

void DetailsPanel::setStep(std::shared_ptr<const PipelineRun> run, int step) {
  ReplaceOffThread(run_, std::move(run));
  step_ = step;
  render();
}

void DetailsPanel::setKernelListing(std::shared_ptr<const KernelListing> listing) {
  if (listing == kernels_) return;
  ReplaceOffThread(kernels_, std::move(listing));
  render();
}

void DetailsPanel::setXlaDecisions(std::shared_ptr<const XlaDecisions> xla) {
  if (xla == xla_) return;
  ReplaceOffThread(xla_, std::move(xla));
  render();
}

void DetailsPanel::setInstruction(int64_t id) {
  id_ = id;
  render();
}

QString DetailsPanel::plainText() const { return browser_->toPlainText(); }
QString DetailsPanel::html() const { return browser_->toHtml(); }

void DetailsPanel::render() {
  if (!run_ || step_ < 0) {
    browser_->setHtml(tr("<p><i>Open a module and select an instruction.</i></p>"));
    return;
  }
  browser_->setHtml(InstructionDetailsHtml(*run_, step_, id_, kernels_.get(), xla_.get()));
}

}  // namespace hloscope::views
