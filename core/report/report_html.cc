// report.html: one self-contained page (inline CSS and SVG, no scripts, no
// network) from the report's JSON data and its pictures.
#include <cstdio>
#include <string>

#include "core/report/report.h"
#include "core/report/traffic.h"
#include "core/report/xml_escape.h"

namespace hloscope::report {
namespace {
using J = nlohmann::ordered_json;

constexpr const char* kCss = R"css(
body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#212121;max-width:1400px}
h1{font-size:22px;margin-bottom:4px} h3{font-size:14px;margin:14px 0 4px} h2{font-size:17px;border-bottom:1px solid #e0e0e0;padding-bottom:4px;margin-top:28px}
table{border-collapse:collapse;font-size:12px;margin:6px 0} th,td{border:1px solid #e0e0e0;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f5f5f5} td.n{text-align:right;font-variant-numeric:tabular-nums} tr.changed td{background:#f1f8e9}
.pos{color:#c62828} .neg{color:#2e7d32} .muted{color:#757575} code{font-size:12px}
details{margin:4px 0} summary{cursor:pointer;color:#455a64;font-size:12px}
.picture{overflow:auto;border:1px solid #e0e0e0;max-height:900px;background:#fff}
.verdict-fused,.verdict-merged,.verdict-fused-with-duplication{color:#2e7d32} .verdict-not-fused{color:#9e9e9e}
nav a{margin-right:12px;font-size:13px}
tr.missing td{background:#ffebee} .missing{color:#c62828;font-weight:bold} .external{color:#ad1457}
tr.warn td{background:#fff8e1}
)css";

std::string E(const std::string& s) { return XmlEscape(s); }
std::string Str(const J& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_null()) return "";
  return j.dump();
}
std::string Num(const J& j, const char* fmt = "%.3f") {
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  if (j.is_number()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, j.get<double>());
    return buf;
  }
  return "";
}
std::string Delta(const J& j) {
  int64_t v = j.is_number() ? j.get<int64_t>() : 0;
  if (v == 0) return "<td class=\"n muted\">0</td>";
  return std::string("<td class=\"n ") + (v > 0 ? "pos\">+" : "neg\">") + std::to_string(v) + "</td>";
}

// A kernel's registers, spills and occupancy on `device` (its "resources";
// empty cells without SASS, with why in a tooltip).
std::string ResourceCells(const J& x, const std::string& device) {
  if (!x.contains("resources")) {
    const std::string why = x.contains("sass_error") ? Str(x["sass_error"]) : "no SASS";
    return "<td class=\"n muted\" title=\"" + E(why) + "\"></td><td></td><td></td>";
  }
  const J& r = x["resources"];
  const int64_t spills = r.value("spill_stores", int64_t{0}) + r.value("spill_loads", int64_t{0});
  std::string occ;
  if (r.contains("occupancy") && r["occupancy"].is_object() && !r["occupancy"].empty()) {
    const J& o = r["occupancy"].contains(device) ? r["occupancy"][device] : r["occupancy"].begin().value();
    const int64_t a = o.value("active_warps_per_sm", int64_t{0}), m = o.value("max_warps_per_sm", int64_t{0});
    occ = std::to_string(a) + "/" + std::to_string(m) + " warps";
    if (a < m) occ += " (" + E(o.value("limited_by", std::string())) + ")";
  }
  return "<td class=\"n\">" + Num(r["registers"]) + "</td><td class=\"n" + (spills ? "" : " muted") + "\">" +
         std::to_string(spills) + "</td><td>" + occ + "</td>";
}

std::string StepRow(const J& s) {
  std::string pass = Str(s["pass"]);
  if (!Str(s["group"]).empty()) pass = Str(s["group"]) + " / " + pass + " #" + Num(s["iteration"]);
  // The pass name links to its paragraph in "What the passes do".
  return std::string("<tr") + (s["changed"].get<bool>() ? " class=\"changed\"" : "") + "><td class=\"n\">" +
         Num(s["index"]) + "</td><td><a href=\"#pass-" + E(Str(s["pass"])) + "\">" + E(pass) + "</a></td><td>" +
         (s["changed"].get<bool>() ? "yes" : "no") +
         "</td><td class=\"n\">" + Num(s["instructions"]) + "</td>" + Delta(s["d_instructions"]) + "<td class=\"n\">" +
         Num(s["kernels"]) + "</td>" + Delta(s["d_kernels"]) + Delta(s["d_hbm_bytes"]) + "<td class=\"n\">" +
         Num(s["ms"]) + "</td></tr>\n";
}

constexpr const char* kStepHeader =
    "<tr><th>#</th><th>pass</th><th>changed</th><th>instructions</th><th>Δinstructions</th><th>kernels</th>"
    "<th>Δkernels</th><th>ΔHBM bytes</th><th>ms</th></tr>\n";

std::string StepsTable(const J& steps) {
  std::string out = "<table>\n" + std::string(kStepHeader);
  size_t i = 0;
  while (i < steps.size()) {
    if (steps[i]["changed"].get<bool>()) {
      out += StepRow(steps[i++]);
      continue;
    }
    size_t j = i;
    std::string names;
    while (j < steps.size() && !steps[j]["changed"].get<bool>()) {
      if (j - i < 6) names += (names.empty() ? "" : ", ") + Str(steps[j]["pass"]);
      ++j;
    }
    if (j - i > 6) names += ", …";
    out += "<tr><td colspan=\"9\"><details><summary>" + std::to_string(j - i) + " no-op step" +
           (j - i == 1 ? "" : "s") + " (" + E(names) + ")</summary><table>\n" + kStepHeader;
    for (size_t k = i; k < j; ++k) out += StepRow(steps[k]);
    out += "</table></details></td></tr>\n";
    i = j;
  }
  return out + "</table>\n";
}

// Each pass that ran, with its one-line description and its paragraph on
// what it does, why and what to look for (pass_explanations.h).
std::string PassesSection(const J& passes) {
  std::string h = "<section id=\"passes\">\n<h2>What the passes do</h2>\n<p class=\"muted\">Every pass this "
                  "pipeline ran, in the order it first ran: what it does, why compilers do it and what to look for "
                  "in the graph (<code>hloscope-cli list-passes --long</code> prints the same).</p>\n"
                  "<details><summary>" +
                  std::to_string(passes.size()) + " passes</summary>\n<dl>\n";
  for (const J& p : passes)
    h += "<dt id=\"pass-" + E(Str(p["name"])) + "\"><code>" + E(Str(p["name"])) + "</code> — " +
         E(Str(p["description"])) + "</dt>\n<dd>" + E(Str(p["explanation"])) + "</dd>\n";
  return h + "</dl>\n</details>\n</section>\n";
}

std::string Picture(const std::string& id, const std::string& title, const std::string& svg, const std::string& note) {
  std::string out = "<section id=\"" + id + "\">\n<h2>" + E(title) + "</h2>\n";
  if (!note.empty()) out += "<p class=\"muted\">" + E(note) + "</p>\n";
  if (!svg.empty()) out += "<div class=\"picture\">\n" + svg + "</div>\n";
  return out + "</section>\n";
}

std::string GroupList(const J& groups, const char* other_side) {
  if (groups.empty()) return "<p class=\"muted\">none</p>\n";
  std::string out = "<table>\n<tr><th>fusion</th><th>its matched members</th><th>kernels on the " +
                    std::string(other_side) + " side</th></tr>\n";
  size_t shown = 0;
  for (const auto& g : groups) {
    if (shown++ == 200) break;
    std::string members, others;
    for (const auto& m : g["members"]) members += (members.empty() ? "" : ", ") + Str(m);
    for (const auto& k : g["other_kernels"]) {
      std::string names;
      for (const auto& n : k["members"]) names += (names.empty() ? "" : ", ") + Str(n);
      others += "<div><code>" + E(Str(k["kernel"])) + "</code>: " + E(names) + "</div>";
    }
    out += "<tr><td><code>" + E(Str(g["fusion"])) + "</code></td><td>" + E(members) + "</td><td>" + others +
           "</td></tr>\n";
  }
  out += "</table>\n";
  if (groups.size() > 200)
    out += "<p class=\"muted\">" + std::to_string(groups.size() - 200) + " more in report.json.</p>\n";
  return out;
}

// Our optimized module against another (typically XLA's): totals on both
// sides and the fusion groupings that differ.
std::string CompareSection(const J& c) {
  std::string h = "<section id=\"compare\">\n<h2>Compared with " + E(Str(c["b"]["label"])) + "</h2>\n";
  h += "<table>\n<tr><th></th><th>module</th><th>instructions</th><th>matched ops</th><th>kernels</th><th>fusions</th>"
       "<th>HBM bytes</th><th>estimated µs</th></tr>\n";
  for (const char* side : {"a", "b"}) {
    const J& s = c[side];
    h += "<tr><th>" + E(Str(s["label"])) + "</th><td>" + E(Str(s["module"])) + "</td><td class=\"n\">" +
         Num(s["instructions"]) + "</td><td class=\"n\">" + Num(s["matched"]) + " / " + Num(s["ops"]) +
         "</td><td class=\"n\">" + Num(s["kernels"]) + "</td><td class=\"n\">" + Num(s["fusions"]) +
         "</td><td class=\"n\">" + Num(s["hbm_bytes"]) + "</td><td class=\"n\">" + Num(s["est_us"]) + "</td></tr>\n";
  }
  h += "</table>\n<p class=\"muted\">Both sides costed on the same device. " + Num(c["same_groups"]) +
       " fusions group the same matched instructions on both sides.</p>\n";
  h += "<h3>Fused together only on the other side (" + std::to_string(c["fused_only_in_b"].size()) + ")</h3>\n" +
       GroupList(c["fused_only_in_b"], "our");
  h += "<h3>Fused together only by us (" + std::to_string(c["fused_only_in_a"].size()) + ")</h3>\n" +
       GroupList(c["fused_only_in_a"], "other");
  return h + "</section>\n";
}

// Our priority fusion decisions beside XLA GPU's own (decisions-diff):
// totals, the cost scatter, and the producers, disagreements first.
std::string DecisionsVsXlaSection(const J& x, const std::string& scatter) {
  std::string h = "<section id=\"decisions-vs-xla\">\n<h2>Fusion decisions against XLA GPU's</h2>\n";
  if (x.contains("note")) return h + "<p class=\"muted\">" + E(Str(x["note"])) + "</p>\n</section>\n";
  const J& t = x["totals"];
  h += "<p>XLA's log: <code>" + E(Str(x["xla"]["log"])) + "</code> (" + Num(x["xla_steps"]) + " steps, " +
       Num(x["xla_fusions"]) + " fusions). Producers either priority fusion considered: " + Num(t["producers"]) +
       " — agree " + Num(t["agree"]) + ", disagree " + Num(t["disagree"]) + ", only ours " + Num(t["only_ours"]) +
       ", only XLA's " + Num(t["only_xla"]) + ".</p>\n";
  const J& c = x["cost"];
  if (c["pairs"].get<int64_t>() > 0) {
    h += "<p>Cost model, ours / XLA's on the " + Num(c["pairs"]) + " producers both costed: unfused median " +
         Num(c["median_ratio_unfused"]) + " (mean " + Num(c["mean_ratio_unfused"]) + "); fused (" +
         Num(c["fused_pairs"]) + ") median " + Num(c["median_ratio_fused"]) + " (mean " + Num(c["mean_ratio_fused"]) +
         "). The dashed line is agreement.</p>\n";
  }
  if (!scatter.empty()) h += "<div class=\"picture\">" + scatter + "</div>\n";
  if (x.contains("gemm")) {
    const J& g = x["gemm"];
    h += "<p>GEMM fusions against XLA's logged search (<code>" + E(Str(g["log"])) + "</code>): " +
         Num(g["agree"]) + " of " + Num(g["compared"]) + " prologue candidates of " + Num(g["searches"]) +
         " dots get XLA's verdict.";
    for (const J& e : g["differ"])
      h += "<br><code>" + E(Str(e["dot"])) + "</code>: XLA " +
           (e["xla_fused"].get<bool>() ? std::string("fused ") : std::string("left out ")) + "<code>" +
           E(Str(e["op"])) + "</code>" + (Str(e["xla_reason"]).empty() ? "" : " (" + E(Str(e["xla_reason"])) + ")") +
           ", ours " + (e["ours_fused"].get<bool>() ? "fused it" : "left it out");
    h += "</p>\n";
  }
  if (x.contains("instruction_costs")) {
    const J& c = x["instruction_costs"];
    h += "<p>Our cost model against XLA's own estimate of each instruction of the module its priority fusion "
         "started from (<code>" + E(Str(c["file"])) + "</code>): " + Num(c["within"]) + " of " + Num(c["compared"]) +
         " within 5% or 0.3 ns; launch (blocks, threads per block) as XLA's on " + Num(c["same_launch"]) + ".";
    int shown = 0;
    for (const J& p : c["pairs"]) {
      if (p["within"].get<bool>() || shown++ >= 5) break;
      h += "<br><code>" + E(Str(p["name"])) + "</code> (" + E(Str(p["opcode"])) + "): ours " +
           Num(p["ours"]["exec_ns"]) + " ns, XLA's " + Num(p["xla"]["exec_ns"]) + " ns";
    }
    h += "</p>\n";
  }
  h += "<table>\n<tr><th>producer</th><th>ours</th><th>XLA's</th><th>µs unfused → fused (ours)</th>"
       "<th>µs unfused → fused (XLA)</th></tr>\n";
  auto verdict = [](const J& s) -> std::string {
    if (s.is_null()) return "<span class=\"muted\">not considered</span>";
    return "<b>" + E(Str(s["verdict"])) + "</b>: " + E(Str(s["reason"]));
  };
  auto us = [](const J& s) -> std::string {
    if (s.is_null() || s["us_unfused"].is_null()) return "";
    return Num(s["us_unfused"]) + " → " + (s["us_fused"].is_null() ? std::string("–") : Num(s["us_fused"]));
  };
  size_t shown = 0;
  for (const J& p : x["producers"]) {
    if (++shown > 300) break;
    const bool both = !p["ours"].is_null() && !p["xla"].is_null();
    std::string cls = both && !p["agree"].get<bool>() ? " class=\"warn\"" : "";
    std::string name = "<code>" + E(Str(p["producer"])) + "</code>";
    if (both && Str(p["xla"]["producer"]) != Str(p["ours"]["producer"]))
      name += "<br><span class=\"muted\">XLA: " + E(Str(p["xla"]["producer"])) + "</span>";
    h += "<tr" + cls + "><td>" + name + "</td><td>" + verdict(p["ours"]) + "</td><td>" + verdict(p["xla"]) +
         "</td><td class=\"n\">" + us(p["ours"]) + "</td><td class=\"n\">" + us(p["xla"]) + "</td></tr>\n";
  }
  h += "</table>\n";
  if (x["producers"].size() > 300)
    h += "<p class=\"muted\">" + std::to_string(x["producers"].size() - 300) + " more in report.json.</p>\n";
  return h + "</section>\n";
}

// HBM traffic per step: the chart and the steps that changed the traffic or
// the launches (all of them are in report.json's "traffic").
std::string TrafficSection(const J& t, const std::string& svg) {
  std::string h = "<section id=\"traffic\">\n<h2>HBM traffic per step</h2>\n<p class=\"muted\">The warehouse trips: "
                  "bytes every kernel reads from HBM and writes back, and kernel launches, after each step (the cost "
                  "model's estimate; an unfused producer writes its result and its consumer reads it back, a fusion "
                  "hands it over on chip). Hover a bar for its numbers.</p>\n";
  if (!svg.empty()) h += "<div class=\"picture\">\n" + svg + "</div>\n";
  h += "<table>\n<tr><th>#</th><th>pass</th><th>read</th><th>written</th><th>total</th><th>Δtotal</th>"
       "<th>kernels</th><th>Δkernels</th><th>estimated µs</th></tr>\n";
  size_t left_out = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const J& p = t[i];
    const int64_t total = p["bytes_read"].get<int64_t>() + p["bytes_written"].get<int64_t>();
    int64_t d_total = 0, d_kernels = 0;
    if (i > 0) {
      d_total = total - t[i - 1]["bytes_read"].get<int64_t>() - t[i - 1]["bytes_written"].get<int64_t>();
      d_kernels = p["kernels"].get<int64_t>() - t[i - 1]["kernels"].get<int64_t>();
      if (d_total == 0 && d_kernels == 0 && i + 1 < t.size()) {
        ++left_out;
        continue;
      }
    }
    auto signed_bytes = [](int64_t v) {
      if (v == 0) return std::string("<td class=\"n muted\">0</td>");
      return std::string("<td class=\"n ") + (v > 0 ? "pos\">+" : "neg\">") + E(TrafficBytes(v)) + "</td>";
    };
    h += "<tr><td class=\"n\">" + Num(p["step"]) + "</td><td>" + E(Str(p["pass"])) + "</td><td class=\"n\">" +
         E(TrafficBytes(p["bytes_read"].get<int64_t>())) + "</td><td class=\"n\">" +
         E(TrafficBytes(p["bytes_written"].get<int64_t>())) + "</td><td class=\"n\">" + E(TrafficBytes(total)) +
         "</td>" + (i ? signed_bytes(d_total) : "<td></td>") + "<td class=\"n\">" + Num(p["kernels"]) + "</td>" +
         (i ? Delta(J(d_kernels)) : "<td></td>") + "<td class=\"n\">" + Num(p["est_us"], "%.2f") + "</td></tr>\n";
  }
  h += "</table>\n";
  if (left_out)
    h += "<p class=\"muted\">" + std::to_string(left_out) + " step" + (left_out == 1 ? "" : "s") +
         " that changed neither the traffic nor the launches left out (all steps: report.json, \"traffic\").</p>\n";
  return h + "</section>\n";
}

}  // namespace

std::string RenderReportHtml(const J& d, const ReportPictures& pics) {
  const J& mod = d["module"];
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>hloscope report — " +
                  E(Str(mod["name"])) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
  h += "<h1>hloscope report — " + E(Str(mod["name"])) + "</h1>\n";
  h += "<nav><a href=\"#summary\">summary</a><a href=\"#steps\">steps</a>" +
       std::string(d.contains("traffic") ? "<a href=\"#traffic\">HBM traffic</a>" : "") + "<a href=\"#graph-before\">graph before</a>"
       "<a href=\"#graph-after\">graph after</a><a href=\"#decisions\">fusion decisions</a><a href=\"#timeline\">buffer "
       "timeline</a>" +
       std::string(d.contains("xla_memory") ? "<a href=\"#xla-timeline\">XLA's buffer timeline</a>" : "") +
       (d.contains("compare") ? "<a href=\"#compare\">compare</a>" : "") +
       (d.contains("decisions_vs_xla") ? "<a href=\"#decisions-vs-xla\">decisions vs XLA</a>" : "") +
       "<a href=\"#kernels\">kernels</a>" +
       std::string(d.contains("passes") ? "<a href=\"#passes\">what the passes do</a>" : "") +
       "<a href=\"#files\">files</a></nav>\n";
  // Summary.
  const J& in = d["initial"];
  const J& fin = d["final"];
  h += "<section id=\"summary\">\n<h2>Module summary</h2>\n<table>\n";
  auto kv = [&](const std::string& k, const std::string& v) { h += "<tr><th>" + E(k) + "</th><td>" + E(v) + "</td></tr>\n"; };
  kv("module", Str(mod["name"]));
  kv("source", Str(mod["source"]));
  kv("instructions", Num(mod["instructions"]));
  kv("computations", Num(mod["computations"]));
  kv("parameters", Num(mod["parameters"]));
  kv("pipeline", Str(mod["pipeline"]));
  kv("device", Str(mod["device"]["name"]) + " (" + Str(mod["device"]["id"]) + ")");
  h += "</table>\n<table>\n<tr><th></th><th>instructions</th><th>kernels</th><th>HBM bytes</th><th>estimated µs</th></tr>\n";
  h += "<tr><th>before</th><td class=\"n\">" + Num(in["instructions"]) + "</td><td class=\"n\">" + Num(in["kernels"]) +
       "</td><td class=\"n\">" + Num(in["hbm_bytes"]) + "</td><td class=\"n\">" + Num(in["est_us"]) + "</td></tr>\n";
  h += "<tr><th>after</th><td class=\"n\">" + Num(fin["instructions"]) + "</td><td class=\"n\">" + Num(fin["kernels"]) +
       "</td><td class=\"n\">" + Num(fin["hbm_bytes"]) + "</td><td class=\"n\">" + Num(fin["est_us"]) + "</td></tr>\n";
  h += "</table>\n</section>\n";
  // Steps.
  size_t changed = 0;
  for (const auto& s : d["steps"]) changed += s["changed"].get<bool>();
  h += "<section id=\"steps\">\n<h2>Pipeline steps</h2>\n<p class=\"muted\">" + std::to_string(d["steps"].size()) +
       " pass runs, " + std::to_string(changed) + " changed the module; runs of no-op steps are folded. # is the step number (0 = the input), as "
       "<code>hloscope-cli export-graph --step</code> and the GUI number steps.</p>\n" +
       StepsTable(d["steps"]) + "</section>\n";
  if (d.contains("traffic")) h += TrafficSection(d["traffic"], pics.traffic);
  h += Picture("graph-before", "Graph before optimization (entry computation)", pics.graph_before, pics.graph_before_note);
  h += Picture("graph-after", "Graph after optimization (fusions collapsed: one node per kernel)", pics.graph_after,
               pics.graph_after_note);
  // Decisions.
  const J& dec = d["decisions"];
  h += "<section id=\"decisions\">\n<h2>Fusion decisions</h2>\n<p class=\"muted\">" + std::to_string(dec.size()) +
       " candidates considered; final fusions: " + std::to_string(d["fusions"].size()) + ".</p>\n";
  h += "<details open><summary>final fusions</summary><table>\n<tr><th>fusion</th><th>kind</th><th>members</th></tr>\n";
  for (const auto& f : d["fusions"]) {
    std::string members;
    for (const auto& m : f["members"]) members += (members.empty() ? "" : ", ") + Str(m);
    h += "<tr><td><code>" + E(Str(f["name"])) + "</code></td><td>" + E(Str(f["kind"])) + "</td><td><code>" + E(members) +
         "</code></td></tr>\n";
  }
  h += "</table></details>\n<details" + std::string(dec.size() <= 400 ? " open" : "") +
       "><summary>every decision</summary><table>\n<tr><th>step</th><th>pass</th><th>producer</th><th>consumers</th>"
       "<th>verdict</th><th>reason</th><th>result</th><th>bytes before→after</th><th>µs before→after</th></tr>\n";
  for (const auto& x : dec) {
    std::string consumers;
    for (const auto& c : x["consumers"]) consumers += (consumers.empty() ? "" : ", ") + Str(c);
    std::string verdict = Str(x["verdict"]), cls = verdict;
    const std::string arithmetic = x.value("arithmetic", std::string());  // under the reason
    for (char& c : cls)
      if (c == ' ') c = '-';
    h += "<tr><td class=\"n\">" + Num(x["step"]) + "</td><td>" + E(Str(x["pass"])) + "</td><td><code>" +
         E(Str(x["producer"])) + "</code></td><td><code>" + E(consumers) + "</code></td><td class=\"verdict-" + cls +
         "\">" + E(verdict) + "</td><td>" + E(Str(x["reason"])) +
         (arithmetic.empty() ? "" : "<div class=\"muted\">" + E(arithmetic) + "</div>") +
         "</td><td><code>" + E(Str(x["result"])) +
         "</code></td><td class=\"n\">" + Num(x["bytes_before"]) + " → " + Num(x["bytes_after"]) +
         "</td><td class=\"n\">" + Num(x["us_before"]) + " → " + Num(x["us_after"]) + "</td></tr>\n";
  }
  h += "</table></details>\n</section>\n";
  // Timeline.
  std::string mem_note = pics.timeline_note;
  if (d["memory"].contains("peak_bytes"))
    mem_note = "scheduler " + Str(d["memory"]["scheduler"]) + ": peak (heap) " + Num(d["memory"]["peak_bytes"]) +
               " B, lower bound " + Num(d["memory"]["lower_bound_bytes"]) + " B, ratio " + Num(d["memory"]["ratio"]) +
               "; parameters " + Num(d["memory"]["parameter_bytes"]) + " B, outputs " + Num(d["memory"]["output_bytes"]) +
               " B.";
  h += Picture("timeline", "Buffer timeline (optimized module)", pics.timeline, mem_note);
  if (d["memory"].contains("io_aliases")) {
    // Donated parameters: why each alias was allowed, and the copies it took.
    const J& ios = d["memory"]["io_aliases"];
    int64_t taken = 0, copies = 0;
    for (const J& io : ios) {
      taken += io["taken"].get<bool>();
      copies += io.contains("copy");
    }
    h += "<section id=\"io-aliases\">\n<details><summary>Donated parameters (input_output_alias): " + Num(taken) +
         " of " + Num(static_cast<int64_t>(ios.size())) + " shared, " + Num(copies) +
         " through a copy copy_insertion added</summary><table>\n<tr><th>alias</th><th>shared</th><th>copy</th>"
         "<th>why</th></tr>\n";
    for (const J& io : ios)
      h += "<tr><td><code>" + E(Str(io["alias"])) + "</code></td><td>" + (io["taken"].get<bool>() ? "yes" : "no") +
           "</td><td>" + (io.contains("copy") ? "<code>%" + E(Str(io["copy"])) + "</code>" : "") + "</td><td>" +
           E(Str(io["reason"])) + "</td></tr>\n";
    h += "</table></details>\n</section>\n";
  }
  if (d.contains("xla_memory")) {
    const J& x = d["xla_memory"];
    std::string note = "From " + Str(x["source"]) + ": peak (heap) " + Num(x["peak_bytes"]) + " B, lower bound " +
                       Num(x["lower_bound_bytes"]) + " B, " + Num(x["buffers"]) + " buffers in " + Num(x["allocations"]) +
                       " allocations.";
    if (d["memory"].contains("peak_bytes"))
      note += " Ours above: peak " + Num(d["memory"]["peak_bytes"]) + " B.";
    h += Picture("xla-timeline", "XLA's buffer timeline (its buffer-assignment dump)", pics.xla_timeline, note);
  }
  if (d.contains("compare")) h += CompareSection(d["compare"]);
  if (d.contains("decisions_vs_xla")) h += DecisionsVsXlaSection(d["decisions_vs_xla"], pics.cost_scatter);
  // Kernels.
  const J& k = d["kernels"];
  h += "<section id=\"kernels\">\n<h2>Kernels</h2>\n";
  const bool has_thunks = k.contains("thunks") && !k["thunks"].empty();
  if (!k["generated"].get<bool>() || (k["list"].empty() && !has_thunks)) {
    h += "<p class=\"muted\">" + E(Str(k["note"])) + "</p>\n";
  } else {
    const std::string summary = k.contains("summary") ? Str(k["summary"])
                                                      : std::to_string(k["list"].size()) + " kernel launches";
    h += "<p class=\"muted\">" + E(summary) + " for " + E(Str(k["target"])) +
         (k.contains("bundle") ? "; the runnable kernel bundle is in <a href=\"bundle/manifest.json\">bundle/</a>" : "") +
         ". " + E(Str(k["note"])) + ".</p>\n";
    if (k.contains("counts") && k["counts"]["missing"].get<int64_t>() > 0)
      h += "<p><span class=\"missing\">" + Num(k["counts"]["missing"]) +
           " missing</span>: no kernel emitter implements these; they stay in the plan (\"missing\" in the bundle's "
           "manifest.json, which runners refuse), and every other kernel was generated.</p>\n";
    if (k.contains("run")) {
      const J& run = k["run"];
      if (run.contains("error"))
        h += "<p class=\"muted\">Kernel run on " + E(Str(run["device"])) + " failed: " + E(Str(run["error"])) + "</p>\n";
      else
        h += "<p>Kernels run on " + E(Str(run["device"])) + ": whole plan " + Num(run["total_ms"]) + " ms; outputs " +
             (run.contains("matches_interpreter")
                  ? std::string(run["matches_interpreter"].get<bool>() ? "match the interpreter"
                                                                       : "DIFFER from the interpreter: " +
                                                                             E(Str(run["mismatch"])))
                  : std::string("not checked (the interpreter could not run the module)")) +
             ".</p>\n";
    }
    if (!k["list"].empty()) {
      const std::string dev = k.contains("device") ? Str(k["device"]) : std::string();
      if (k.contains("sass")) h += "<p class=\"muted\">SASS: " + E(Str(k["sass"])) + ".</p>\n";
      h += "<table>\n<tr><th>kernel</th><th>kind</th><th>launch</th><th>bytes</th><th>flops</th><th>estimated µs</th>"
           "<th>measured µs</th><th>registers</th><th>spills (B)</th><th>occupancy" +
           (dev.empty() ? std::string() : " on " + E(dev)) + "</th><th>files</th></tr>\n";
      for (const auto& x : k["list"]) {
        if (x.contains("missing")) {
          h += "<tr class=\"missing\"><td><code>" + E(Str(x["name"])) + "</code></td><td class=\"missing\">missing</td>"
               "<td colspan=\"9\">" + E(Str(x["missing"])) + "</td></tr>\n";
          continue;
        }
        std::string files;
        for (const auto& f : x["files"]) files += "<a href=\"" + E(Str(f)) + "\">" + E(Str(f)) + "</a> ";
        h += "<tr><td><code>" + E(Str(x["name"])) + "</code></td><td>" + E(Str(x["kind"])) + "</td><td>" +
             E(Str(x["launch"])) + "</td><td class=\"n\">" + Num(x["bytes"]) + "</td><td class=\"n\">" +
             Num(x["flops"]) + "</td><td class=\"n\">" + Num(x["estimated_us"]) + "</td><td class=\"n\">" +
             Num(x["measured_us"]) + "</td>" + ResourceCells(x, dev) + "<td>" + files + "</td></tr>\n";
      }
      h += "</table>\n";
    }
    if (has_thunks) {
      h += "<h3>Not kernels of ours (" + std::to_string(k["thunks"].size()) +
           ")</h3>\n<p class=\"muted\">Custom-calls into external targets (a library or a framework that a runtime "
           "provides), collectives and host transfers: the plan keeps their places and slices.</p>\n"
           "<table>\n<tr><th>instruction</th><th>thunk</th><th>what</th></tr>\n";
      for (const auto& x : k["thunks"]) {
        const bool custom = Str(x["thunk"]) == "custom-call";
        h += "<tr><td><code>" + E(Str(x["instruction"])) + "</code></td><td" +
             (custom ? " class=\"external\"" : "") + ">" + E(Str(x["thunk"])) + "</td><td>" + E(Str(x["what"])) +
             "</td></tr>\n";
      }
      h += "</table>\n";
    }
  }
  h += "</section>\n";
  if (d.contains("passes")) h += PassesSection(d["passes"]);
  h += "<section id=\"files\">\n<h2>Files</h2>\n<ul>\n";
  for (const auto& f : d["files"]) h += "<li><a href=\"" + E(Str(f)) + "\">" + E(Str(f)) + "</a></li>\n";
  h += "</ul>\n<p class=\"muted\">" + std::string(kReportFormat) + " version " + std::to_string(kReportVersion) +
       " — data in report.json (docs/report-schema.md).</p>\n</section>\n</body>\n</html>\n";
  return h;
}

}  // namespace hloscope::report
