// The tutorial page: see lesson_html.h.
#include "core/report/lesson_html.h"

#include <cstdio>
#include <set>

#include "core/layout/graph_model.h"
#include "core/report/graph_svg.h"
#include "core/report/timeline.h"
#include "core/report/traffic.h"
#include "core/report/xml_escape.h"

namespace hloscope::report {
namespace {

constexpr const char* kCss = R"css(
body{font-family:Helvetica,Arial,sans-serif;margin:24px auto;color:#212121;max-width:1280px;line-height:1.45}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;border-bottom:1px solid #e0e0e0;padding-bottom:4px;margin-top:36px}
h3{font-size:14px;margin:16px 0 4px} p{font-size:14px;max-width:960px} code{font-size:12.5px;background:#f5f5f5;padding:0 2px}
table{border-collapse:collapse;font-size:12px;margin:6px 0} th,td{border:1px solid #e0e0e0;padding:3px 7px;text-align:left}
th{background:#f5f5f5} .muted{color:#757575;font-size:12px} nav a{margin-right:12px;font-size:13px}
.stage-no{color:#9e9e9e;margin-right:6px}
.picture{overflow:auto;border:1px solid #e0e0e0;max-height:860px;background:#fff;margin:6px 0}
pre{font-size:11.5px;background:#fafafa;border:1px solid #e0e0e0;padding:8px;overflow:auto;max-height:520px}
)css";

std::string E(const std::string& s) { return XmlEscape(s); }

// Plain text with `code` spans → paragraphs of HTML.
std::string TextToHtml(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find("\n\n", pos);
    if (end == std::string::npos) end = text.size();
    std::string para = text.substr(pos, end - pos);
    if (!para.empty()) {
      std::string html;
      bool in_code = false;
      size_t i = 0;
      while (i < para.size()) {
        size_t tick = para.find('`', i);
        std::string chunk = para.substr(i, tick == std::string::npos ? std::string::npos : tick - i);
        html += E(chunk);
        if (tick == std::string::npos) break;
        html += in_code ? "</code>" : "<code>";
        in_code = !in_code;
        i = tick + 1;
      }
      if (in_code) html += "</code>";
      out += "<p>" + html + "</p>\n";
    }
    pos = end + 2;
  }
  return out;
}

std::string StepLabel(const PipelineRun& run, int k) {
  const Step& s = run.step(k);
  return k == 0 ? "step 0 (the input)" : "step " + std::to_string(k) + " (" + s.pass + ")";
}

// The graph of the stage's step: its subjects with their operands and users
// (the whole computation when the stage has none), fitted to the view.
std::string StageGraph(const PipelineRun& run, const LessonStage& st, const LessonPageOptions& o, std::string* note) {
  const Step& step = run.step(st.step);
  if (!step.module) return {};
  layout::GraphOptions go;
  go.fit_width = o.graph_width;
  go.fit_height = o.graph_height;
  // The computation of the first subject (the entry when it has none);
  // the subjects in it are the focus.
  std::set<int64_t> ids;
  int32_t comp = -1;
  for (const std::string& name : st.subjects) {
    const InstructionRecord* r = step.module->Find(run.IdOfName(st.step, name));
    if (!r) continue;
    if (comp < 0) comp = r->computation;
    if (r->computation == comp) ids.insert(r->id);
  }
  if (comp >= 0 && comp < step.module->computation_count() && !step.module->computations[comp].is_entry)
    go.computation = step.module->computations[comp].name;
  if (st.id != "stablehlo") go.focus.assign(ids.begin(), ids.end());
  // A focused graph is small already (the subjects and their neighbours);
  // the fit's grouping is for the whole computation of a large module.
  if (!go.focus.empty()) go.fit_width = go.fit_height = 0;
  auto laid = LayOutSnapshot(*step.module, go);
  if (!laid.ok()) {
    *note = "graph not drawn: " + laid.status().message();
    return {};
  }
  if (!go.focus.empty())
    *note = "The graph of " + StepLabel(run, st.step) + (go.computation.empty() ? "" : ", computation " + go.computation) +
            ", around this stage's subjects (outlined in orange), with their operands and users.";
  else
    *note = "The graph of " + StepLabel(run, st.step) + ".";
  if (laid->graph.grouped)
    *note += " Grouped to read at this size: " + std::to_string(laid->graph.nodes.size()) + " boxes, " +
             std::to_string(laid->graph.hidden_instructions) + " instructions inside closed groups.";
  GraphSvgOptions so;
  so.standalone = false;
  so.title = st.title + " — " + StepLabel(run, st.step);
  so.highlight = ids;
  so.max_width = o.graph_width;
  return RenderGraphSvg(*laid, so);
}

}  // namespace

std::string RenderLessonHtml(const Session& session, const PipelineRun& run, const Lesson& lesson,
                             const LessonPageOptions& o) {
  auto progress = [&](const std::string& line) {
    if (o.progress) o.progress(line);
  };
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>hloscope lesson — " +
                  E(lesson.module_name) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
  h += "<h1>A guided tour of the pipeline — " + E(lesson.module_name) + "</h1>\n<nav>";
  for (size_t i = 0; i < lesson.stages.size(); ++i)
    h += "<a href=\"#stage-" + E(lesson.stages[i].id) + "\">" + std::to_string(i + 1) + ". " + E(lesson.stages[i].title) +
         "</a>";
  h += "</nav>\n";
  // Overview.
  const Step& first = run.step(0);
  const Step& last = run.step(run.size() - 1);
  h += "<section id=\"overview\">\n<h2>The module and the run</h2>\n<table>\n";
  auto kv = [&](const std::string& k, const std::string& v) { h += "<tr><th>" + E(k) + "</th><td>" + E(v) + "</td></tr>\n"; };
  kv("module", lesson.module_name);
  if (!o.source.empty()) kv("source", o.source);
  kv("input", session.is_stablehlo() ? "StableHLO" : "HLO");
  kv("pipeline", lesson.pipeline + " (" + std::to_string(run.size() - 1) + " steps)");
  kv("device", lesson.device);
  kv("instructions", std::to_string(first.module ? first.module->instruction_count() : 0) + " → " +
                         std::to_string(last.module ? last.module->instruction_count() : 0));
  kv("kernels (cost model)", std::to_string(first.cost.kernels) + " → " + std::to_string(last.cost.kernels));
  kv("HBM traffic", TrafficBytes(first.cost.hbm_bytes) + " → " + TrafficBytes(last.cost.hbm_bytes));
  h += "</table>\n<p>Each section below is one stage of the compiler on this module, with the step of the run it "
       "shows. The text is generated from this run: its steps, diffs, fusion decisions, costs and buffers.</p>\n"
       "</section>\n";
  for (size_t i = 0; i < lesson.stages.size(); ++i) {
    const LessonStage& st = lesson.stages[i];
    h += "<section id=\"stage-" + E(st.id) + "\">\n<h2><span class=\"stage-no\">" + std::to_string(i + 1) + ".</span>" +
         E(st.title) + "</h2>\n";
    h += "<div class=\"muted\">" + E(StepLabel(run, st.step));
    if (!st.subjects.empty()) {
      h += " · subjects:";
      for (const std::string& s : st.subjects) h += " <code>" + E(s) + "</code>";
    }
    h += "</div>\n" + TextToHtml(st.text);
    progress("stage " + st.id + ": graph of " + StepLabel(run, st.step));
    std::string note;
    std::string svg = StageGraph(run, st, o, &note);
    h += "<h3>The graph</h3>\n<div class=\"muted\">" + E(note) + "</div>\n";
    if (!svg.empty()) h += "<div class=\"picture\">" + svg + "</div>\n";
    if (st.id == "fusion") {
      progress("stage fusion: HBM traffic chart");
      TrafficSvgOptions to;
      to.title = "HBM traffic per step — " + lesson.module_name + ", pipeline " + lesson.pipeline;
      h += "<h3>HBM traffic per step: the warehouse trips</h3>\n<div class=\"picture\">" +
           RenderTrafficSvg(TrafficSeries(run.steps()), to) + "</div>\n";
    }
    if (st.id == "buffers") {
      progress("stage buffers: timeline");
      auto ba = run.BuffersAt(st.step);
      if (ba.ok()) {
        TimelineOptions to;
        to.standalone = false;
        to.title = "buffer timeline — " + lesson.module_name + " after " + StepLabel(run, st.step);
        h += "<h3>The buffer timeline</h3>\n<div class=\"picture\">" + RenderTimelineSvg(**ba, to) + "</div>\n";
      }
    }
    if (st.id == "kernels" && !st.kernel_ir.empty()) {
      h += "<h3>LLVM IR of <code>" + E(st.kernel) + "</code> (after libdevice and O3)</h3>\n<pre class=\"llvm-ir\">" +
           E(st.kernel_ir) + "</pre>\n";
      h += "<h3>PTX of <code>" + E(st.kernel) + "</code></h3>\n<pre class=\"ptx\">" + E(st.kernel_ptx) + "</pre>\n";
    }
    if (!st.facts.empty()) {
      h += "<details><summary>the numbers quoted</summary>\n<table>\n";
      for (const auto& [k, v] : st.facts) kv(k, v);
      h += "</table>\n</details>\n";
    }
    h += "</section>\n";
  }
  h += "<p class=\"muted\">Made by hloscope-cli report --lesson.</p>\n</body>\n</html>\n";
  return h;
}

}  // namespace hloscope::report
