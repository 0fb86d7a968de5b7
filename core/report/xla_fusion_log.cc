#include "core/report/xla_fusion_log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/report/archive_read.h"
#include "core/support/proto_text.h"
#include "core/report/xla_dump.h"

namespace hloscope::report {
namespace fs = std::filesystem;

int64_t XlaFusionLog::count(XlaFusionStep::Kind k) const {
  return std::count_if(steps.begin(), steps.end(), [k](const XlaFusionStep& s) { return s.kind == k; });
}

namespace {

std::string Located(const std::string& origin, const ProtoTextField& f, const std::string& what) {
  return origin + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": error: " + what;
}

Status ReadDouble(const std::string& origin, const ProtoTextField& f, double* out) {
  const char* b = f.scalar.c_str();
  char* e = nullptr;
  double v = std::strtod(b, &e);
  if (f.scalar.empty() || f.is_string || e != b + f.scalar.size())
    return Status::Error(Located(origin, f, "field '" + f.name + "' expects a number, found '" + f.scalar + "'"));
  *out = v;
  return Status::Ok();
}

Status ReadString(const std::string& origin, const ProtoTextField& f, std::string* out) {
  if (f.is_message) return Status::Error(Located(origin, f, "field '" + f.name + "' expects a string, found a message"));
  *out = f.scalar;
  return Status::Ok();
}

Status ReadStep(const std::string& origin, std::string_view text, const ProtoTextField& step, XlaFusionStep* out) {
  out->line = step.line;
  if (!step.is_message) return Status::Error(Located(origin, step, "'fusion_steps' expects a message"));
  if (step.fields.empty()) return Status::Error(Located(origin, step, "an empty fusion step"));
  const ProtoTextField& k = step.fields.front();
  out->kind_name = k.name;
  if (!k.is_message) {
    out->raw = std::string(text.substr(step.begin, step.end - step.begin));
    return Status::Ok();
  }
  if (k.name == "fusion") out->kind = XlaFusionStep::Kind::kFusion;
  else if (k.name == "update_priority") out->kind = XlaFusionStep::Kind::kUpdatePriority;
  else if (k.name == "producer_ineligible") out->kind = XlaFusionStep::Kind::kProducerIneligible;
  if (out->kind == XlaFusionStep::Kind::kUnknown) {
    out->raw = std::string(text.substr(k.begin, k.end - k.begin));
    // A newer step kind that still names its producer is matched like the others.
    if (const ProtoTextField* p = k.Find("producer_name")) out->producer = p->scalar;
    return Status::Ok();
  }
  for (const ProtoTextField& f : k.fields) {
    if (f.name == "producer_name") RETURN_IF_ERROR(ReadString(origin, f, &out->producer));
    else if (f.name == "consumer_name") RETURN_IF_ERROR(ReadString(origin, f, &out->consumer));
    else if (f.name == "fusion_name") RETURN_IF_ERROR(ReadString(origin, f, &out->fusion_name));
    else if (f.name == "consumer_names") {
      std::string c;
      RETURN_IF_ERROR(ReadString(origin, f, &c));
      out->consumers.push_back(std::move(c));
    } else if (f.name == "us_fused") RETURN_IF_ERROR(ReadDouble(origin, f, &out->us_fused));
    else if (f.name == "us_unfused") RETURN_IF_ERROR(ReadDouble(origin, f, &out->us_unfused));
    else if (f.name == "reason") RETURN_IF_ERROR(ReadString(origin, f, &out->reason));
    // Fields a newer XLA adds are ignored; the step stays usable.
  }
  if (out->producer.empty())
    return Status::Error(Located(origin, k, "'" + k.name + "' step without a producer_name"));
  if (out->kind == XlaFusionStep::Kind::kFusion && out->consumer.empty())
    return Status::Error(Located(origin, k, "'fusion' step without a consumer_name"));
  if (out->kind == XlaFusionStep::Kind::kFusion && out->fusion_name.empty()) out->fusion_name = out->consumer;
  return Status::Ok();
}

}  // namespace

StatusOr<XlaFusionLog> ParseXlaFusionLog(std::string_view text, const std::string& origin) {
  ASSIGN_OR_RETURN(std::vector<ProtoTextField> top, ParseProtoText(text, origin));
  XlaFusionLog log;
  log.origin = origin;
  for (const ProtoTextField& f : top) {
    if (f.name == "fusion_steps") {
      XlaFusionStep s;
      RETURN_IF_ERROR(ReadStep(origin, text, f, &s));
      log.steps.push_back(std::move(s));
    } else if (f.name == "gpu_device_info" && f.is_message) {
      log.device_text = std::string(text.substr(f.begin, f.end - f.begin));
      for (const ProtoTextField& d : f.fields)
        if (!d.is_message) log.device[d.name] = d.scalar;
    }
  }
  return log;
}

StatusOr<XlaFusionLog> ReadXlaFusionLog(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return ParseXlaFusionLog(text, path);
}

std::string DevicePresetOfLog(const XlaFusionLog& log) {
  auto it = log.device.find("memory_bandwidth");
  if (it == log.device.end()) return "";
  const double gbs = std::strtod(it->second.c_str(), nullptr) / 1e9;
  if (!(gbs > 0)) return "";
  for (const std::string& id : DevicePresetIds()) {
    auto d = LoadDevice(id);
    if (d.ok() && std::fabs(d->hbm_bandwidth_gbs - gbs) / gbs < 0.05) return id;
  }
  return "";
}

std::string XlaProducerDecision::Explanation() const {
  if (fused) {
    std::string into;
    for (const auto& c : fused_into) into += (into.empty() ? "" : ", ") + c;
    return "XLA fused it into " + into;
  }
  if (refused_last || (!has_priority && !reason.empty())) return reason;
  if (has_priority && priority_us <= 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", priority_us);
    return "fusing would not save time by XLA's cost model (its priority ended at " + std::string(buf) + " us)";
  }
  if (has_priority && !reason.empty())
    return "XLA gave it a priority but never fused it (it had refused it before: " + reason + ")";
  if (has_priority) return "XLA gave it a priority but never fused it";
  return "not fused";
}

std::vector<XlaProducerDecision> SummarizeXlaFusionLog(const XlaFusionLog& log) {
  std::vector<XlaProducerDecision> out;
  std::unordered_map<std::string, size_t> index;
  auto get = [&](const std::string& name) -> XlaProducerDecision& {
    auto [it, fresh] = index.emplace(name, out.size());
    if (fresh) {
      out.emplace_back();
      out.back().producer = name;
    }
    return out[it->second];
  };
  // Producers changed since their last update_priority: their next one is a
  // full estimate.
  std::unordered_set<std::string> changed;
  for (size_t i = 0; i < log.steps.size(); ++i) {
    const XlaFusionStep& s = log.steps[i];
    if (s.kind == XlaFusionStep::Kind::kFusion) {
      changed.insert(s.consumer);
      changed.insert(s.fusion_name);
    }
    if (s.producer.empty()) continue;
    XlaProducerDecision& d = get(s.producer);
    d.steps.push_back(static_cast<int>(i));
    switch (s.kind) {
      case XlaFusionStep::Kind::kFusion:
        d.fused = true;
        d.fused_into.push_back(s.consumer);
        d.fusion_names.push_back(s.fusion_name);
        break;
      case XlaFusionStep::Kind::kUpdatePriority:
        d.consumers = s.consumers;
        if (!d.has_priority || changed.count(s.producer))
          d.priority_us = s.us_unfused - s.us_fused;
        else
          d.priority_us += s.us_unfused - s.us_fused;
        changed.erase(s.producer);
        d.has_priority = true;
        d.us_fused = s.us_fused;
        d.us_unfused = s.us_unfused;
        d.refused_last = false;  // a priority after a refusal: the refusal no longer holds
        break;
      case XlaFusionStep::Kind::kProducerIneligible:
        d.reason = s.reason;
        d.refused_last = true;
        break;
      case XlaFusionStep::Kind::kUnknown: break;
    }
  }
  return out;
}

namespace {

// The pass files of one module, ordered by their NNNN, as (name, content
// fetcher) — either files of a dump folder or members of passes.tar.xz.
struct PassFile {
  std::string name;   // file name
  std::string path;   // on disk ("" for an archive member)
  int index = -1;
};

int PassIndex(const std::string& file) {
  // MODULE.NAME.NNNN.PIPELINE.after_X...
  size_t k = 0;
  while ((k = file.find('.', k)) != std::string::npos) {
    if (k + 5 < file.size() && file[k + 5] == '.' &&
        std::all_of(file.begin() + k + 1, file.begin() + k + 5, [](char c) { return c >= '0' && c <= '9'; }))
      return std::stoi(file.substr(k + 1, 4));
    ++k;
  }
  return -1;
}

// Picks the file priority fusion ran on and the one it wrote: the file
// before "after_priority-fusion" and that file; when priority fusion changed
// nothing (no such file), the fusion pipeline's first file for both.
Status PickPriorityFusionFiles(std::vector<PassFile> files, const std::string& where, PassFile* before,
                               PassFile* after) {
  files.erase(std::remove_if(files.begin(), files.end(), [](const PassFile& f) { return f.index < 0; }), files.end());
  std::sort(files.begin(), files.end(), [](const PassFile& a, const PassFile& b) { return a.index < b.index; });
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].name.find(".after_priority-fusion") == std::string::npos) continue;
    if (i == 0) break;
    *before = files[i - 1];
    *after = files[i];
    return Status::Ok();
  }
  const PassFile* start = nullptr;
  for (const auto& f : files) {
    if (f.name.find(".fusion.after_pipeline-start") != std::string::npos ||
        f.name.find(".before_priority-fusion") != std::string::npos)
      start = &f;
    if (f.name.find(".fusion.after_variadic-op-splitter") != std::string::npos) start = &f;
  }
  if (!start)
    return Status::Error(where + ": error: no per-pass dump before priority fusion (dump with "
                                 "--xla_dump_hlo_pass_re=.* to get one)");
  *before = *start;
  *after = *start;
  return Status::Ok();
}

Status ResolveNames(XlaPriorityFusion* pf) {
  std::unordered_set<std::string> known;
  for (const auto& c : pf->before->computations())
    for (const auto& i : c->instructions()) known.insert(i->name());
  // A fusion stands for the instruction it was first made from (its
  // consumer, itself possibly a fusion made earlier).
  std::unordered_map<std::string, std::string> origin;
  auto origin_of = [&](const std::string& n) {
    std::string cur = n;
    for (int guard = 0; guard < 10000; ++guard) {
      auto it = origin.find(cur);
      if (it == origin.end() || it->second == cur) return cur;
      cur = it->second;
    }
    return cur;
  };
  std::set<std::string> names, unresolved;
  auto check = [&](const std::string& n) {
    if (n.empty()) return;
    names.insert(n);
    if (!known.count(n) && !origin.count(n)) unresolved.insert(n);
  };
  for (const XlaFusionStep& s : pf->log.steps) {
    check(s.producer);
    check(s.consumer);
    for (const auto& c : s.consumers) check(c);
    if (s.kind == XlaFusionStep::Kind::kFusion && s.fusion_name != s.consumer && !known.count(s.fusion_name)) {
      origin[s.fusion_name] = origin_of(s.consumer);
      names.insert(s.fusion_name);
      unresolved.erase(s.fusion_name);
    }
  }
  for (auto& d : pf->producers) d.origin = origin_of(d.producer);
  pf->names = static_cast<int64_t>(names.size());
  pf->unresolved.assign(unresolved.begin(), unresolved.end());
  return Status::Ok();
}

}  // namespace

StatusOr<XlaPriorityFusion> LoadXlaPriorityFusion(const std::string& dir, const std::string& module_sel) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::Error(dir + ": error: not a directory");
  XlaPriorityFusion pf;
  std::string before_text, after_text;
  const bool reference = fs::is_regular_file(fs::path(dir) / "REFERENCE.json", ec);
  if (reference && !fs::is_directory(fs::path(dir) / "xla_dump", ec)) {
    // A committed reference: the log beside passes.tar.xz.
    fs::path logp = fs::path(dir) / "priority_fusion_dump.txt";
    if (!fs::is_regular_file(logp, ec))
      return Status::Error(logp.string() + ": error: no priority fusion log in this reference folder");
    ASSIGN_OR_RETURN(pf.log, ReadXlaFusionLog(logp.string()));
    fs::path tar = fs::path(dir) / "passes.tar.xz";
    if (!fs::is_regular_file(tar, ec))
      return Status::Error(tar.string() + ": error: no per-pass dumps in this reference folder");
    ASSIGN_OR_RETURN(std::vector<std::string> members, ListArchive(tar.string()));
    std::vector<PassFile> files;
    for (const auto& m : members) files.push_back({m, "", PassIndex(m)});
    PassFile b, a;
    RETURN_IF_ERROR(PickPriorityFusionFiles(files, tar.string(), &b, &a));
    ASSIGN_OR_RETURN(auto texts, ReadArchiveMembers(tar.string(), [&](const std::string& n) {
                       return n == b.name || n == a.name;
                     }));
    before_text = texts[b.name];
    after_text = texts[a.name];
    pf.before_label = tar.string() + ":" + b.name;
    pf.after_label = tar.string() + ":" + a.name;
  } else {
    std::string raw = reference ? (fs::path(dir) / "xla_dump").string() : dir;
    ASSIGN_OR_RETURN(std::vector<XlaDumpModule> mods, ListXlaDump(raw));
    ASSIGN_OR_RETURN(XlaDumpModule m, PickXlaDumpModule(mods, module_sel));
    if (m.fusion_log.empty())
      return Status::Error(raw + ": error: module " + m.id + " (" + m.name +
                           ") has no priority_fusion_dump.txt (XLA writes it with --xla_dump_hlo_pass_re=.*)");
    ASSIGN_OR_RETURN(pf.log, ReadXlaFusionLog(m.fusion_log));
    std::vector<PassFile> files;
    for (const auto& s : m.steps)
      if (s.kind == XlaDumpStep::Kind::kPass) files.push_back({fs::path(s.path).filename().string(), s.path, s.index});
    PassFile b, a;
    RETURN_IF_ERROR(PickPriorityFusionFiles(files, raw, &b, &a));
    ASSIGN_OR_RETURN(before_text, ReadFileToString(b.path));
    ASSIGN_OR_RETURN(after_text, ReadFileToString(a.path));
    pf.before_label = b.path;
    pf.after_label = a.path;
  }
  ASSIGN_OR_RETURN(pf.before, ParseHloModule(before_text, pf.before_label));
  ASSIGN_OR_RETURN(pf.after, ParseHloModule(after_text, pf.after_label));
  pf.producers = SummarizeXlaFusionLog(pf.log);
  RETURN_IF_ERROR(ResolveNames(&pf));
  return pf;
}

std::vector<int> XlaStepsNaming(const XlaPriorityFusion& pf, std::string_view instruction) {
  std::vector<int> out;
  for (size_t i = 0; i < pf.log.steps.size(); ++i) {
    const XlaFusionStep& s = pf.log.steps[i];
    bool hit = s.producer == instruction || s.consumer == instruction || s.fusion_name == instruction ||
               std::find(s.consumers.begin(), s.consumers.end(), instruction) != s.consumers.end();
    if (hit) out.push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace hloscope::report
