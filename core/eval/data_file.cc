#include "core/eval/data_file.h"

#include <cmath>
#include <fstream>
#include <limits>

#include "core/parser/parser.h"

namespace hloscope {
namespace {

nlohmann::ordered_json FloatJson(double v, PrimitiveType t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (t == PrimitiveType::kF32 || t == PrimitiveType::kC64) {
    // Shortest text that reads back to the same float.
    return std::strtod(FormatFloat(v, PrimitiveType::kF32).c_str(), nullptr);
  }
  return v;
}

StatusOr<double> JsonFloat(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "-nan" || s == "-NaN") return -std::numeric_limits<double>::quiet_NaN();
    if (s == "inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return Status::Error("expected a number or \"nan\"/\"inf\"/\"-inf\", got " + v.dump());
}

}  // namespace

std::vector<Literal> FlattenTuple(const Literal& l) {
  std::vector<Literal> out;
  if (!l.IsTuple()) {
    out.push_back(l);
    return out;
  }
  for (const Literal& e : l.tuple_elements()) {
    auto sub = FlattenTuple(e);
    for (Literal& s : sub) out.push_back(std::move(s));
  }
  return out;
}

nlohmann::ordered_json LiteralToJson(const Literal& l) {
  nlohmann::ordered_json j;
  j["shape"] = l.shape().ToString(false);
  nlohmann::ordered_json vals = nlohmann::ordered_json::array();
  PrimitiveType t = l.shape().element_type();
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    if (t == PrimitiveType::kPred) {
      vals.push_back(l.GetInt(i) != 0);
    } else if (IsComplex(t)) {
      auto c = l.GetComplex(i);
      vals.push_back(nlohmann::ordered_json::array({FloatJson(c.real(), t), FloatJson(c.imag(), t)}));
    } else if (IsFloat(t)) {
      vals.push_back(FloatJson(l.GetDouble(i), t));
    } else if (IsUnsignedInt(t) && BitWidth(t) == 64) {
      vals.push_back(l.Get<uint64_t>(i));
    } else {
      vals.push_back(l.GetInt(i));
    }
  }
  j["values"] = std::move(vals);
  return j;
}

StatusOr<Literal> LiteralFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("shape") || !j["shape"].is_string() || !j.contains("values") ||
      !j["values"].is_array())
    return Status::Error("expected {\"shape\": \"...\", \"values\": [...]}");
  ASSIGN_OR_RETURN(Shape shape, ParseShape(j["shape"].get<std::string>()));
  shape.ClearLayoutRecursive();
  if (!shape.IsArray()) return Status::Error("shape " + shape.ToString(false) + " is not an array");
  Literal l(shape);
  const auto& vals = j["values"];
  if (static_cast<int64_t>(vals.size()) != l.num_elements())
    return Status::Error("shape " + shape.ToString(false) + " needs " + std::to_string(l.num_elements()) +
                         " values, got " + std::to_string(vals.size()));
  PrimitiveType t = shape.element_type();
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    const auto& v = vals[static_cast<size_t>(i)];
    std::string where = "value " + std::to_string(i) + ": ";
    if (t == PrimitiveType::kPred) {
      if (v.is_boolean()) l.SetInt(i, v.get<bool>());
      else if (v.is_number_integer()) l.SetInt(i, v.get<int64_t>() != 0);
      else return Status::Error(where + "expected true/false, got " + v.dump());
    } else if (IsComplex(t)) {
      if (!v.is_array() || v.size() != 2) return Status::Error(where + "expected [re, im], got " + v.dump());
      StatusOr<double> re = JsonFloat(v[0]), im = JsonFloat(v[1]);
      if (!re.ok()) return Status::Error(where + re.status().message());
      if (!im.ok()) return Status::Error(where + im.status().message());
      l.SetComplex(i, {*re, *im});
    } else if (IsFloat(t)) {
      StatusOr<double> d = JsonFloat(v);
      if (!d.ok()) return Status::Error(where + d.status().message());
      l.SetDouble(i, *d);
    } else if (IsInteger(t)) {
      if (v.is_number_unsigned()) {
        uint64_t u = v.get<uint64_t>();
        if (IsUnsignedInt(t) && BitWidth(t) == 64) l.Set<uint64_t>(i, u);
        else l.SetInt(i, static_cast<int64_t>(u));
      } else if (v.is_number_integer()) {
        l.SetInt(i, v.get<int64_t>());
      } else if (v.is_boolean()) {
        l.SetInt(i, v.get<bool>());
      } else {
        return Status::Error(where + "expected an integer, got " + v.dump());
      }
    } else {
      return Status::Error("element type " + std::string(PrimitiveTypeName(t)) + " is not supported in data files");
    }
  }
  return l;
}

StatusOr<DataFile> ReadDataFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::Error(path + ": error: not a valid JSON object");
  if (j.contains("format") && j["format"] != "hloscope-data-v1")
    return Status::Error(path + ": error: unknown format " + j["format"].dump() + " (expected \"hloscope-data-v1\")");
  DataFile d;
  for (const char* key : {"inputs", "outputs"}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_array()) return Status::Error(path + ": error: \"" + key + "\" must be an array");
    auto& dst = std::string(key) == "inputs" ? d.inputs : d.outputs;
    for (size_t i = 0; i < j[key].size(); ++i) {
      StatusOr<Literal> l = LiteralFromJson(j[key][i]);
      if (!l.ok())
        return Status::Error(path + ": error: " + key + "[" + std::to_string(i) + "]: " + l.status().message());
      dst.push_back(std::move(*l));
    }
  }
  return d;
}

Status WriteDataFile(const std::string& path, const DataFile& d) {
  nlohmann::ordered_json j;
  j["format"] = "hloscope-data-v1";
  j["inputs"] = nlohmann::ordered_json::array();
  j["outputs"] = nlohmann::ordered_json::array();
  for (const Literal& l : d.inputs)
    for (const Literal& leaf : FlattenTuple(l)) j["inputs"].push_back(LiteralToJson(leaf));
  for (const Literal& l : d.outputs)
    for (const Literal& leaf : FlattenTuple(l)) j["outputs"].push_back(LiteralToJson(leaf));
  std::ofstream f(path, std::ios::binary);
  if (!f) return Status::Error(path + ": error: cannot open for writing");
  f << j.dump() << "\n";
  if (!f) return Status::Error(path + ": error: write failed");
  return Status::Ok();
}

}  // namespace hloscope
