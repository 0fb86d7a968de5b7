#include "core/passes/differential_checker.h"

#include "core/eval/compare.h"
#include "core/eval/random_inputs.h"

namespace hloscope {
namespace {

// Tolerance for one element type; nullopt = exact.
std::optional<Tolerance> ToleranceFor(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF64: case PrimitiveType::kC128:
      return Tolerance{1e-12, 1e-12};
    case PrimitiveType::kF32: case PrimitiveType::kC64:
      return Tolerance{1e-6, 1e-5};
    case PrimitiveType::kF16:
      return Tolerance{1e-3, 1e-3};
    case PrimitiveType::kBF16:
      return Tolerance{1e-2, 1e-2};
    default:
      if (IsFloat(t)) return Tolerance{0.125, 0.125};
      return std::nullopt;
  }
}

std::string CompareAt(const Literal& expected, const Literal& actual, const std::string& where) {
  if (expected.IsTuple() != actual.IsTuple()) return where + "tuple vs array result";
  if (expected.IsTuple()) {
    const auto& e = expected.tuple_elements();
    const auto& a = actual.tuple_elements();
    if (e.size() != a.size())
      return where + "tuple of " + std::to_string(e.size()) + " vs " + std::to_string(a.size()) + " elements";
    for (size_t i = 0; i < e.size(); ++i) {
      std::string d = CompareAt(e[i], a[i], where + "{" + std::to_string(i) + "} ");
      if (!d.empty()) return d;
    }
    return "";
  }
  std::string d = CompareLiterals(expected, actual, ToleranceFor(expected.shape().element_type()));
  return d.empty() ? "" : where + d;
}

}  // namespace

std::string DifferentialMismatch::ToString() const {
  return "pass '" + pass + "' (step " + std::to_string(step) + ", iteration " + std::to_string(iteration) +
         ") changed the result for seed " + std::to_string(seed) + ": " + detail;
}

std::string DifferentialChecker::Compare(const Literal& expected, const Literal& actual) {
  return CompareAt(expected, actual, "output ");
}

Status DifferentialChecker::BeforePipeline(const Module& m, std::string_view pipeline) {
  evaluable_ = false;
  reason_.clear();
  comparisons_ = 0;
  mismatch_.reset();
  seeds_.clear();
  inputs_.clear();
  previous_.clear();
  devices_ = 1;
  if (!m.entry()) {
    reason_ = "module has no entry computation";
    return Status::Ok();
  }
  // On one device unless a collective needs the others; then on all of them.
  devices_ = DevicesToEvaluate(m);
  for (int k = 0; k < opts_.seeds; ++k) {
    uint64_t seed = opts_.first_seed + static_cast<uint64_t>(k);
    std::vector<std::vector<Literal>> in = MakeRandomDeviceInputs(*m.entry(), seed, devices_);
    StatusOr<std::vector<Literal>> out = EvaluateOnDevices(m, devices_, in, opts_.eval);
    if (!out.ok()) {
      reason_ = out.status().message();
      seeds_.clear();
      inputs_.clear();
      previous_.clear();
      return Status::Ok();
    }
    seeds_.push_back(seed);
    inputs_.push_back(std::move(in));
    previous_.push_back(std::move(*out));
  }
  evaluable_ = true;
  return Status::Ok();
}

Status DifferentialChecker::AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) {
  if (!evaluable_ || !result.changed) return Status::Ok();
  for (size_t k = 0; k < seeds_.size(); ++k) {
    ++comparisons_;
    StatusOr<std::vector<Literal>> out = EvaluateOnDevices(m, devices_, inputs_[k], opts_.eval);
    std::string detail;
    if (!out.ok()) {
      detail = "the interpreter fails after the pass: " + out.status().message();
    } else {
      for (size_t d = 0; d < out->size() && detail.empty(); ++d) {
        detail = opts_.tolerance ? CompareLiterals(previous_[k][d], (*out)[d], opts_.tolerance)
                                 : Compare(previous_[k][d], (*out)[d]);
        if (!detail.empty() && devices_ > 1) detail = "device " + std::to_string(d) + ": " + detail;
      }
    }
    if (!detail.empty()) {
      mismatch_ = DifferentialMismatch{std::string(info.pass->name()), info.step, info.iteration, seeds_[k], detail};
      return Status::Error("differential check: " + mismatch_->ToString());
    }
    previous_[k] = std::move(*out);
  }
  return Status::Ok();
}

}  // namespace hloscope
