#include "core/runtime/manifest.h"

#include <cctype>
#include <map>
#include <set>

namespace hloscope::runtime {
namespace {

using json = nlohmann::ordered_json;

json SliceJson(const Slice& s) { return json{{"allocation", s.allocation}, {"offset", s.offset}, {"size", s.size}}; }

json SlicesJson(const std::vector<Slice>& slices) {
  json a = json::array();
  for (const Slice& s : slices) a.push_back(SliceJson(s));
  return a;
}

json DimsJson(const uint32_t (&d)[3]) { return json::array({d[0], d[1], d[2]}); }

json SeqJson(const ThunkSequence& seq);

json ThunkJson(const Thunk& t) {
  json j;
  if (auto* k = std::get_if<KernelThunk>(&t.v)) {
    j["type"] = "kernel";
    j["name"] = k->name;
    j["kernel"] = KernelFunction(*k);
    j["kind"] = k->kind;
    if (!k->strategy.empty()) j["strategy"] = k->strategy;
    j["instruction"] = k->instruction;
    j["ll"] = KernelFunction(*k) + ".ll";
    j["ptx"] = KernelFunction(*k) + ".ptx";
    j["grid"] = DimsJson(k->dims.grid);
    j["block"] = DimsJson(k->dims.block);
    j["shared_bytes"] = k->dims.shared_bytes;
    json args = json::array();
    for (size_t i = 0; i < k->args.size(); ++i) {
      json a = SliceJson(k->args[i]);
      a["written"] = i < k->arg_written.size() && k->arg_written[i];
      args.push_back(std::move(a));
    }
    j["args"] = std::move(args);
    j["bytes"] = k->bytes;
    j["flops"] = k->flops;
    j["estimated_us"] = k->estimated_us;
    if (!k->sass.empty()) j["sass"] = k->sass;
    if (!k->resources_json.empty()) {
      json r = json::parse(k->resources_json, nullptr, /*allow_exceptions=*/false);
      if (!r.is_discarded()) j["resources"] = std::move(r);
    }
    if (!k->missing.empty()) {
      j.erase("kernel");
      j.erase("ll");
      j.erase("ptx");
      j["missing"] = k->missing;
    }
  } else if (auto* c = std::get_if<CopyThunk>(&t.v)) {
    j = json{{"type", "copy"}, {"instruction", c->instruction}, {"src", SliceJson(c->src)}, {"dst", SliceJson(c->dst)}};
  } else if (auto* m = std::get_if<MemsetThunk>(&t.v)) {
    j = json{{"type", "memset"}, {"instruction", m->instruction}, {"dst", SliceJson(m->dst)}, {"pattern", m->pattern}};
  } else if (auto* cc = std::get_if<CollectiveThunk>(&t.v)) {
    j = json{{"type", "collective"}, {"op", cc->op}, {"instruction", cc->instruction},
             {"participants", cc->participants}, {"replica_groups", cc->replica_groups}};
    if (cc->channel_id >= 0) j["channel_id"] = cc->channel_id;
    if (!cc->dimensions.empty()) j["dimensions"] = cc->dimensions;
    if (!cc->reduction.empty()) j["reduction"] = cc->reduction;
    if (!cc->source_target_pairs.empty()) j["source_target_pairs"] = cc->source_target_pairs;
    j["operands"] = SlicesJson(cc->operands);
    j["results"] = SlicesJson(cc->results);
    if (!cc->device_groups.empty()) j["device_groups"] = cc->device_groups;
    if (!cc->permute_sources.empty()) j["permute_sources"] = cc->permute_sources;
    if (!cc->reduction_kind.empty()) j["reduction_kind"] = cc->reduction_kind;
    if (!cc->operand_shapes.empty()) j["operand_shapes"] = cc->operand_shapes;
    if (!cc->result_shapes.empty()) j["result_shapes"] = cc->result_shapes;
  } else if (auto* h = std::get_if<HostTransferThunk>(&t.v)) {
    j = json{{"type", "host-transfer"}, {"op", h->op}, {"instruction", h->instruction}};
    if (h->channel_id >= 0) j["channel_id"] = h->channel_id;
    if (!h->config.empty()) j["config"] = h->config;
    j["operands"] = SlicesJson(h->operands);
    j["results"] = SlicesJson(h->results);
  } else if (auto* x = std::get_if<CustomCallThunk>(&t.v)) {
    j = json{{"type", "custom-call"}, {"instruction", x->instruction}, {"target", x->target}};
    if (!x->api_version.empty()) j["api_version"] = x->api_version;
    if (!x->backend_config.empty()) j["backend_config"] = x->backend_config;
    j["operands"] = SlicesJson(x->operands);
    j["results"] = SlicesJson(x->results);
  } else if (auto* w = std::get_if<WhileThunk>(&t.v)) {
    j = json{{"type", "while"}, {"instruction", w->instruction}, {"condition", SeqJson(w->condition)},
             {"pred", SliceJson(w->pred)}, {"body", SeqJson(w->body)}};
  } else if (auto* c = std::get_if<ConditionalThunk>(&t.v)) {
    json br = json::array();
    for (const ThunkSequence& b : c->branches) br.push_back(SeqJson(b));
    j = json{{"type", "conditional"}, {"instruction", c->instruction}, {"index", SliceJson(c->index)},
             {"index_is_pred", c->index_is_pred}, {"branches", std::move(br)}};
  }
  return j;
}

json SeqJson(const ThunkSequence& seq) {
  json a = json::array();
  for (const Thunk& t : seq) a.push_back(ThunkJson(t));
  return a;
}

json ValueJson(const PlanValue& v, bool parameter) {
  json j{{"shape", v.shape}, {"index", v.index}};
  if (parameter) j["parameter_number"] = v.parameter_number;
  j["slice"] = SliceJson(v.slice);
  return j;
}

// --- reading ------------------------------------------------------------------

// Reads fields of one JSON object, remembering the first error with its path.
class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}
  bool ok() const { return err_.empty(); }
  Status status() const { return ok() ? Status::Ok() : Error(err_); }
  void Fail(const std::string& path, const std::string& msg) {
    if (err_.empty()) err_ = where_ + ": " + (path.empty() ? "/" : path) + ": " + msg;
  }
  const json* Field(const json& obj, const std::string& path, const char* key, bool required = true) {
    if (!obj.is_object()) {
      Fail(path, "expected an object");
      return nullptr;
    }
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) Fail(path, std::string("missing field '") + key + "'");
      return nullptr;
    }
    return &*it;
  }
  std::string Str(const json& obj, const std::string& path, const char* key, bool required = true) {
    const json* f = Field(obj, path, key, required);
    if (!f) return "";
    if (!f->is_string()) {
      Fail(path + "/" + key, "expected a string");
      return "";
    }
    return f->get<std::string>();
  }
  int64_t Int(const json& obj, const std::string& path, const char* key, int64_t dflt, bool required = true) {
    const json* f = Field(obj, path, key, required);
    if (!f) return dflt;
    if (!f->is_number_integer()) {
      Fail(path + "/" + key, "expected an integer");
      return dflt;
    }
    return f->get<int64_t>();
  }
  double Num(const json& obj, const std::string& path, const char* key) {
    const json* f = Field(obj, path, key, false);
    if (!f) return 0;
    if (!f->is_number()) {
      Fail(path + "/" + key, "expected a number");
      return 0;
    }
    return f->get<double>();
  }
  bool Bool(const json& obj, const std::string& path, const char* key) {
    const json* f = Field(obj, path, key, false);
    if (!f) return false;
    if (!f->is_boolean()) {
      Fail(path + "/" + key, "expected true or false");
      return false;
    }
    return f->get<bool>();
  }
  std::vector<int64_t> Ints(const json& obj, const std::string& path, const char* key, bool required = true) {
    std::vector<int64_t> out;
    const json* f = Field(obj, path, key, required);
    if (!f) return out;
    if (!f->is_array()) {
      Fail(path + "/" + key, "expected an array of integers");
      return out;
    }
    for (size_t i = 0; i < f->size(); ++i) {
      if (!(*f)[i].is_number_integer()) {
        Fail(path + "/" + key + "/" + std::to_string(i), "expected an integer");
        return out;
      }
      out.push_back((*f)[i].get<int64_t>());
    }
    return out;
  }
  const json* Array(const json& obj, const std::string& path, const char* key) {
    const json* f = Field(obj, path, key);
    if (f && !f->is_array()) {
      Fail(path + "/" + key, "expected an array");
      return nullptr;
    }
    return f;
  }
  Slice ReadSlice(const json& obj, const std::string& path, const char* key) {
    Slice s;
    const json* f = Field(obj, path, key);
    if (!f) return s;
    std::string p = path + "/" + key;
    s.allocation = static_cast<int>(Int(*f, p, "allocation", -1));
    s.offset = Int(*f, p, "offset", 0);
    s.size = Int(*f, p, "size", 0);
    return s;
  }
  void ReadDims(const json& obj, const std::string& path, const char* key, uint32_t (&d)[3]) {
    std::vector<int64_t> v = Ints(obj, path, key);
    if (!ok()) return;
    if (v.size() != 3) return Fail(path + "/" + key, "expected 3 dimensions [x, y, z]");
    for (int i = 0; i < 3; ++i) {
      if (v[i] < 1 || v[i] > 0x7fffffff) return Fail(path + "/" + key, "dimension " + std::to_string(v[i]) + " is out of range");
      d[i] = static_cast<uint32_t>(v[i]);
    }
  }
  ThunkSequence ReadSeq(const json& arr, const std::string& path, int depth);
  Thunk ReadThunk(const json& j, const std::string& path, int depth);
  std::vector<Slice> ReadSlices(const json& j, const std::string& path, const char* key);

 private:
  std::string where_, err_;
};

ThunkSequence Reader::ReadSeq(const json& arr, const std::string& path, int depth) {
  ThunkSequence seq;
  if (!arr.is_array()) {
    Fail(path, "expected an array of thunks");
    return seq;
  }
  if (depth > 64) {
    Fail(path, "thunks nested more than 64 deep");
    return seq;
  }
  for (size_t i = 0; i < arr.size() && ok(); ++i) seq.push_back(ReadThunk(arr[i], path + "/" + std::to_string(i), depth));
  return seq;
}

std::vector<Slice> Reader::ReadSlices(const json& j, const std::string& path, const char* key) {
  std::vector<Slice> out;
  if (const json* a = Array(j, path, key)) {
    for (size_t i = 0; i < a->size() && ok(); ++i) {
      std::string sp = path + "/" + key + "/" + std::to_string(i);
      Slice s;
      s.allocation = static_cast<int>(Int((*a)[i], sp, "allocation", -1));
      s.offset = Int((*a)[i], sp, "offset", 0);
      s.size = Int((*a)[i], sp, "size", 0);
      out.push_back(s);
    }
  }
  return out;
}

Thunk Reader::ReadThunk(const json& j, const std::string& path, int depth) {
  Thunk t;
  std::string type = Str(j, path, "type");
  if (!ok()) return t;
  if (type == "kernel") {
    KernelThunk k;
    k.name = Str(j, path, "name");
    k.kernel = Str(j, path, "kernel", false);  // absent in bundles before kernels were shared
    if (k.kernel == k.name) k.kernel.clear();
    k.kind = Str(j, path, "kind");
    k.strategy = Str(j, path, "strategy", false);  // absent before 2026-12-06 and where the kind says it all
    k.instruction = Str(j, path, "instruction", false);
    ReadDims(j, path, "grid", k.dims.grid);
    ReadDims(j, path, "block", k.dims.block);
    k.dims.shared_bytes = static_cast<uint32_t>(Int(j, path, "shared_bytes", 0, false));
    if (const json* args = Array(j, path, "args")) {
      for (size_t i = 0; i < args->size() && ok(); ++i) {
        std::string ap = path + "/args/" + std::to_string(i);
        Slice s;
        const json& a = (*args)[i];
        s.allocation = static_cast<int>(Int(a, ap, "allocation", -1));
        s.offset = Int(a, ap, "offset", 0);
        s.size = Int(a, ap, "size", 0);
        k.args.push_back(s);
        k.arg_written.push_back(Bool(a, ap, "written"));
      }
    }
    k.bytes = Int(j, path, "bytes", 0, false);
    k.flops = Int(j, path, "flops", 0, false);
    k.estimated_us = Num(j, path, "estimated_us");
    k.missing = Str(j, path, "missing", false);
    k.sass = Str(j, path, "sass", false);
    if (j.contains("resources") && j["resources"].is_object()) k.resources_json = j["resources"].dump();
    t.v = std::move(k);
  } else if (type == "copy") {
    CopyThunk c;
    c.instruction = Str(j, path, "instruction", false);
    c.src = ReadSlice(j, path, "src");
    c.dst = ReadSlice(j, path, "dst");
    t.v = std::move(c);
  } else if (type == "memset") {
    MemsetThunk m;
    m.instruction = Str(j, path, "instruction", false);
    m.dst = ReadSlice(j, path, "dst");
    int64_t p = Int(j, path, "pattern", 0);
    if (p < 0 || p > 0xffffffffll) Fail(path + "/pattern", "expected a 32-bit unsigned pattern");
    m.pattern = static_cast<uint32_t>(p);
    t.v = std::move(m);
  } else if (type == "while") {
    WhileThunk w;
    w.instruction = Str(j, path, "instruction", false);
    if (const json* c = Field(j, path, "condition")) w.condition = ReadSeq(*c, path + "/condition", depth + 1);
    w.pred = ReadSlice(j, path, "pred");
    if (const json* b = Field(j, path, "body")) w.body = ReadSeq(*b, path + "/body", depth + 1);
    t.v = std::move(w);
  } else if (type == "conditional") {
    ConditionalThunk c;
    c.instruction = Str(j, path, "instruction", false);
    c.index = ReadSlice(j, path, "index");
    c.index_is_pred = Bool(j, path, "index_is_pred");
    if (const json* br = Array(j, path, "branches")) {
      for (size_t i = 0; i < br->size() && ok(); ++i)
        c.branches.push_back(ReadSeq((*br)[i], path + "/branches/" + std::to_string(i), depth + 1));
    }
    t.v = std::move(c);
  } else if (type == "host-transfer") {
    HostTransferThunk h;
    h.op = Str(j, path, "op");
    h.instruction = Str(j, path, "instruction", false);
    h.channel_id = Int(j, path, "channel_id", -1, false);
    h.config = Str(j, path, "config", false);
    h.operands = ReadSlices(j, path, "operands");
    h.results = ReadSlices(j, path, "results");
    t.v = std::move(h);
  } else if (type == "custom-call") {
    CustomCallThunk x;
    x.instruction = Str(j, path, "instruction", false);
    x.target = Str(j, path, "target");
    x.api_version = Str(j, path, "api_version", false);
    x.backend_config = Str(j, path, "backend_config", false);
    x.operands = ReadSlices(j, path, "operands");
    x.results = ReadSlices(j, path, "results");
    t.v = std::move(x);
  } else if (type == "collective") {
    CollectiveThunk c;
    c.op = Str(j, path, "op");
    c.instruction = Str(j, path, "instruction", false);
    c.participants = Int(j, path, "participants", 1);
    c.replica_groups = Str(j, path, "replica_groups", false);
    c.channel_id = Int(j, path, "channel_id", -1, false);
    c.reduction = Str(j, path, "reduction", false);
    c.source_target_pairs = Str(j, path, "source_target_pairs", false);
    if (j.contains("dimensions") && j["dimensions"].is_array())
      for (const json& d : j["dimensions"])
        if (d.is_number_integer()) c.dimensions.push_back(d.get<int64_t>());
    c.operands = ReadSlices(j, path, "operands");
    c.results = ReadSlices(j, path, "results");
    if (const json* g = Field(j, path, "device_groups", false)) {
      if (!g->is_array()) Fail(path + "/device_groups", "expected an array of arrays of device ids");
      for (size_t k = 0; ok() && g->is_array() && k < g->size(); ++k) {
        json holder{{"g", (*g)[k]}};
        c.device_groups.push_back(Ints(holder, path + "/device_groups/" + std::to_string(k), "g"));
      }
    }
    c.permute_sources = Ints(j, path, "permute_sources", false);
    c.reduction_kind = Str(j, path, "reduction_kind", false);
    for (auto [key, out] : {std::pair{"operand_shapes", &c.operand_shapes}, std::pair{"result_shapes", &c.result_shapes}}) {
      const json* f = Field(j, path, key, false);
      if (!f) continue;
      if (!f->is_array()) Fail(path + "/" + key, "expected an array of shapes");
      for (size_t k = 0; ok() && f->is_array() && k < f->size(); ++k) {
        if (!(*f)[k].is_string()) Fail(path + "/" + key + "/" + std::to_string(k), "expected a shape");
        else out->push_back((*f)[k].get<std::string>());
      }
    }
    t.v = std::move(c);
  } else {
    Fail(path + "/type", "unknown thunk type '" + type + "' (kernel, copy, memset, while, conditional, collective, host-transfer, custom-call)");
  }
  return t;
}

// --- validation ---------------------------------------------------------------

struct Validator {
  const ThunkPlan& plan;
  std::string where;
  std::string err;
  std::set<std::string> names;

  void Fail(const std::string& path, const std::string& msg) {
    if (err.empty()) err = where + ": " + path + ": " + msg;
  }
  void CheckSlice(const Slice& s, const std::string& path) {
    if (s.allocation < 0 || s.allocation >= static_cast<int>(plan.allocations.size()))
      return Fail(path, "allocation " + std::to_string(s.allocation) + " does not exist (the plan has " +
                            std::to_string(plan.allocations.size()) + ")");
    int64_t size = plan.allocations[s.allocation].size;
    if (s.offset < 0 || s.size < 0 || s.offset > size || s.size > size - s.offset)
      Fail(path, "slice [" + std::to_string(s.offset) + ", " + std::to_string(s.offset + s.size) +
                     ") is outside allocation " + std::to_string(s.allocation) + " (" + std::to_string(size) +
                     " bytes)");
  }
  static bool IsIdentifier(const std::string& s) {
    if (s.empty() || s.size() > 200 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  }
  void Seq(const ThunkSequence& seq, const std::string& path) {
    for (size_t i = 0; i < seq.size() && err.empty(); ++i) {
      std::string p = path + "/" + std::to_string(i);
      const Thunk& t = seq[i];
      if (auto* k = std::get_if<KernelThunk>(&t.v)) {
        if (!IsIdentifier(k->name)) Fail(p + "/name", "kernel name '" + k->name + "' is not a C identifier");
        if (!names.insert(k->name).second) Fail(p + "/name", "kernel name '" + k->name + "' is used twice");
        if (k->arg_written.size() != k->args.size()) Fail(p + "/args", "one 'written' flag per argument expected");
        if (k->args.empty()) Fail(p + "/args", "a kernel needs at least one argument");
        for (int d = 0; d < 3; ++d)
          if (k->dims.grid[d] < 1 || k->dims.block[d] < 1) Fail(p, "launch dimensions must be at least 1");
        if (int64_t(k->dims.block[0]) * k->dims.block[1] * k->dims.block[2] > 1024)
          Fail(p + "/block", "more than 1024 threads per block");
        if (k->dims.grid[1] > 65535 || k->dims.grid[2] > 65535) Fail(p + "/grid", "grid y/z above 65535");
        for (size_t a = 0; a < k->args.size(); ++a) CheckSlice(k->args[a], p + "/args/" + std::to_string(a));
      } else if (auto* c = std::get_if<CopyThunk>(&t.v)) {
        CheckSlice(c->src, p + "/src");
        CheckSlice(c->dst, p + "/dst");
        if (err.empty() && c->src.size != c->dst.size) Fail(p, "copy source and destination sizes differ");
      } else if (auto* m = std::get_if<MemsetThunk>(&t.v)) {
        CheckSlice(m->dst, p + "/dst");
        if (err.empty() && m->dst.size % 4 != 0) Fail(p + "/dst", "memset size is not a multiple of 4");
      } else if (auto* cc = std::get_if<CollectiveThunk>(&t.v)) {
        for (size_t a = 0; a < cc->operands.size(); ++a) CheckSlice(cc->operands[a], p + "/operands/" + std::to_string(a));
        for (size_t a = 0; a < cc->results.size(); ++a) CheckSlice(cc->results[a], p + "/results/" + std::to_string(a));
        if (cc->participants < 0) Fail(p + "/participants", "negative participant count");
        const int64_t devices = plan.devices();
        for (size_t g = 0; g < cc->device_groups.size() && err.empty(); ++g)
          for (int64_t d : cc->device_groups[g])
            if (d < 0 || d >= devices)
              Fail(p + "/device_groups/" + std::to_string(g), "device " + std::to_string(d) + " is not one of the plan's " +
                                                                    std::to_string(devices));
        if (!cc->permute_sources.empty() && static_cast<int64_t>(cc->permute_sources.size()) != devices)
          Fail(p + "/permute_sources", "one source per device (" + std::to_string(devices) + ") expected");
        for (int64_t d : cc->permute_sources)
          if (d < -1 || d >= devices) Fail(p + "/permute_sources", "source " + std::to_string(d) + " is not a device");
        if (!cc->operand_shapes.empty() && cc->operand_shapes.size() != cc->operands.size())
          Fail(p + "/operand_shapes", "one shape per operand expected");
        if (!cc->result_shapes.empty() && cc->result_shapes.size() != cc->results.size())
          Fail(p + "/result_shapes", "one shape per result expected");
      } else if (auto* h = std::get_if<HostTransferThunk>(&t.v)) {
        for (size_t a = 0; a < h->operands.size(); ++a) CheckSlice(h->operands[a], p + "/operands/" + std::to_string(a));
        for (size_t a = 0; a < h->results.size(); ++a) CheckSlice(h->results[a], p + "/results/" + std::to_string(a));
      } else if (auto* x = std::get_if<CustomCallThunk>(&t.v)) {
        for (size_t a = 0; a < x->operands.size(); ++a) CheckSlice(x->operands[a], p + "/operands/" + std::to_string(a));
        for (size_t a = 0; a < x->results.size(); ++a) CheckSlice(x->results[a], p + "/results/" + std::to_string(a));
        if (x->target.empty()) Fail(p + "/target", "a custom-call thunk names its target");
      } else if (auto* w = std::get_if<WhileThunk>(&t.v)) {
        Seq(w->condition, p + "/condition");
        CheckSlice(w->pred, p + "/pred");
        if (err.empty() && w->pred.size < 1) Fail(p + "/pred", "predicate slice is empty");
        Seq(w->body, p + "/body");
      } else if (auto* c = std::get_if<ConditionalThunk>(&t.v)) {
        CheckSlice(c->index, p + "/index");
        if (err.empty() && c->index.size < (c->index_is_pred ? 1 : 4)) Fail(p + "/index", "branch index slice too small");
        if (c->branches.empty()) Fail(p + "/branches", "a conditional needs at least one branch");
        for (size_t b = 0; b < c->branches.size(); ++b) Seq(c->branches[b], p + "/branches/" + std::to_string(b));
      }
    }
  }
};

}  // namespace

json ManifestToJson(const ThunkPlan& plan) {
  json j;
  j["format"] = "hloscope-bundle";
  j["version"] = kManifestVersion;
  j["module"] = plan.module;
  j["target"] = plan.target;
  if (plan.replicas != 1) j["replicas"] = plan.replicas;
  if (plan.partitions != 1) j["partitions"] = plan.partitions;
  if (!plan.synthesized_constants.empty()) j["synthesized_constants"] = plan.synthesized_constants;
  json allocs = json::array();
  for (const PlanAllocation& a : plan.allocations) {
    json ja{{"index", a.index}, {"kind", a.kind}, {"size", a.size}};
    if (a.kind == "parameter") {
      ja["parameter_number"] = a.parameter_number;
      ja["parameter_index"] = a.parameter_index;
    }
    ja["maybe_live_out"] = a.maybe_live_out;
    if (a.kind == "constant") ja["init"] = "constants/alloc" + std::to_string(a.index) + ".bin";
    allocs.push_back(std::move(ja));
  }
  j["allocations"] = std::move(allocs);
  j["parameters"] = json::array();
  for (const PlanValue& v : plan.parameters) j["parameters"].push_back(ValueJson(v, true));
  j["outputs"] = json::array();
  for (const PlanValue& v : plan.outputs) j["outputs"].push_back(ValueJson(v, false));
  j["thunks"] = SeqJson(plan.thunks);
  return j;
}

std::string ManifestToString(const ThunkPlan& plan) { return ManifestToJson(plan).dump(1) + "\n"; }

namespace {
std::string LineCol(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}
}  // namespace

StatusOr<ThunkPlan> ManifestFromString(const std::string& text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    auto pos = msg.find("parse error at ");
    return Error(where + ":" + LineCol(text, e.byte == 0 ? 0 : e.byte - 1) + ": error: invalid JSON (" +
                 (pos == std::string::npos ? msg : msg.substr(pos)) + ")");
  } catch (const json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    return Error(where + ": error: invalid JSON (" + std::string(e.what()) + ")");
  }
  Reader r(where);
  if (!j.is_object()) return Error(where + ": /: expected a JSON object");
  if (r.Str(j, "", "format") != "hloscope-bundle" && r.ok()) r.Fail("/format", "not a hloscope bundle manifest (expected \"hloscope-bundle\")");
  int64_t version = r.Int(j, "", "version", 0);
  if (r.ok() && version != kManifestVersion)
    r.Fail("/version", "manifest version " + std::to_string(version) + " is not supported (this build reads version " +
                           std::to_string(kManifestVersion) + ")");
  ThunkPlan plan;
  plan.module = r.Str(j, "", "module", false);
  plan.target = r.Str(j, "", "target", false);
  plan.replicas = r.Int(j, "", "replicas", 1, false);
  plan.partitions = r.Int(j, "", "partitions", 1, false);
  if (r.ok() && (plan.replicas < 1 || plan.partitions < 1 || plan.replicas > (1 << 20) || plan.partitions > (1 << 20) ||
                 plan.replicas * plan.partitions > (1 << 20)))
    r.Fail("/replicas", "replicas " + std::to_string(plan.replicas) + " × partitions " + std::to_string(plan.partitions) +
                            " is not 1 to 2^20 devices");
  if (j.contains("synthesized_constants") && j["synthesized_constants"].is_array())
    for (const json& n : j["synthesized_constants"])
      if (n.is_string()) plan.synthesized_constants.push_back(n.get<std::string>());
  if (const json* allocs = r.Array(j, "", "allocations")) {
    for (size_t i = 0; i < allocs->size() && r.ok(); ++i) {
      std::string p = "/allocations/" + std::to_string(i);
      const json& ja = (*allocs)[i];
      PlanAllocation a;
      a.index = static_cast<int>(r.Int(ja, p, "index", -1));
      a.kind = r.Str(ja, p, "kind");
      a.size = r.Int(ja, p, "size", 0);
      a.parameter_number = r.Int(ja, p, "parameter_number", -1, false);
      a.parameter_index = r.Ints(ja, p, "parameter_index", false);
      a.maybe_live_out = r.Bool(ja, p, "maybe_live_out");
      if (!r.ok()) break;
      if (a.index != static_cast<int>(i)) r.Fail(p + "/index", "allocation " + std::to_string(i) + " has index " + std::to_string(a.index));
      if (a.size < 0 || a.size > (int64_t(1) << 40)) r.Fail(p + "/size", "size " + std::to_string(a.size) + " is out of range");
      if (a.kind != "parameter" && a.kind != "constant" && a.kind != "temp" && a.kind != "output")
        r.Fail(p + "/kind", "unknown allocation kind '" + a.kind + "' (parameter, constant, temp, output)");
      if (a.kind == "parameter" && a.parameter_number < 0) r.Fail(p, "a parameter allocation needs parameter_number");
      plan.allocations.push_back(std::move(a));
    }
  }
  for (const char* key : {"parameters", "outputs"}) {
    const json* vals = r.Array(j, "", key);
    if (!vals) continue;
    bool param = std::string(key) == "parameters";
    for (size_t i = 0; i < vals->size() && r.ok(); ++i) {
      std::string p = std::string("/") + key + "/" + std::to_string(i);
      const json& jv = (*vals)[i];
      PlanValue v;
      v.shape = r.Str(jv, p, "shape");
      v.index = r.Ints(jv, p, "index", false);
      if (param) v.parameter_number = r.Int(jv, p, "parameter_number", -1);
      v.slice = r.ReadSlice(jv, p, "slice");
      (param ? plan.parameters : plan.outputs).push_back(std::move(v));
    }
  }
  if (r.ok()) {
    if (const json* th = r.Field(j, "", "thunks")) plan.thunks = r.ReadSeq(*th, "/thunks", 0);
  }
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(ValidatePlan(plan, where));
  return plan;
}

Status ValidatePlan(const ThunkPlan& plan, const std::string& where) {
  Validator v{plan, where, "", {}};
  for (size_t i = 0; i < plan.parameters.size(); ++i) {
    v.CheckSlice(plan.parameters[i].slice, "/parameters/" + std::to_string(i) + "/slice");
    if (plan.parameters[i].parameter_number < 0) v.Fail("/parameters/" + std::to_string(i), "parameter_number missing");
  }
  for (size_t i = 0; i < plan.outputs.size(); ++i) v.CheckSlice(plan.outputs[i].slice, "/outputs/" + std::to_string(i) + "/slice");
  v.Seq(plan.thunks, "/thunks");
  if (v.err.empty()) {
    // A shared kernel is the code of another launch, with the same signature.
    std::map<std::string, const KernelThunk*> by_name;
    for (const KernelThunk* k : AllKernels(plan)) by_name[k->name] = k;
    for (const KernelThunk* k : AllKernels(plan)) {
      if (k->kernel.empty() || k->kernel == k->name) continue;
      auto it = by_name.find(k->kernel);
      const std::string p = "/thunks: kernel '" + k->name + "'";
      if (it == by_name.end()) {
        v.Fail(p, "launches kernel '" + k->kernel + "', which no launch of the plan defines");
      } else if (!it->second->kernel.empty() && it->second->kernel != it->second->name) {
        v.Fail(p, "launches kernel '" + k->kernel + "', which itself launches '" + it->second->kernel + "'");
      } else if (!it->second->missing.empty() || !k->missing.empty()) {
        v.Fail(p, "shares kernel '" + k->kernel + "' although one of them has no code");
      } else if (it->second->args.size() != k->args.size()) {
        v.Fail(p, "launches kernel '" + k->kernel + "' with " + std::to_string(k->args.size()) + " arguments; it takes " +
                      std::to_string(it->second->args.size()));
      }
      if (!v.err.empty()) break;
    }
  }
  return v.err.empty() ? Status::Ok() : Error(v.err);
}

}  // namespace hloscope::runtime
