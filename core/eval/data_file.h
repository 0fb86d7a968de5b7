// hloscope-data-v1: inputs and expected outputs of a module as JSON (the
// format of samples/*.data.json, described in samples/README.md):
//   {"format":"hloscope-data-v1",
//    "inputs":[{"shape":"f32[2,3]","values":[...row-major...]}, ...],
//    "outputs":[...same, tuple results flattened in order...]}
// Floats are JSON numbers (read as double, then rounded to the type) or the
// strings "nan", "inf", "-inf"; integers are JSON integers; pred values are
// true/false; complex values are [re, im] pairs.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/literal.h"
#include "core/support/status.h"

namespace hloscope {

struct DataFile {
  std::vector<Literal> inputs, outputs;
};

StatusOr<DataFile> ReadDataFile(const std::string& path);
Status WriteDataFile(const std::string& path, const DataFile& d);

// The array leaves of a (possibly nested) tuple literal, in order; an array
// literal gives itself.
std::vector<Literal> FlattenTuple(const Literal& l);

// {"shape":"f32[2]","values":[...]} for one array literal, and back.
nlohmann::ordered_json LiteralToJson(const Literal& l);
StatusOr<Literal> LiteralFromJson(const nlohmann::json& j);

}  // namespace hloscope
