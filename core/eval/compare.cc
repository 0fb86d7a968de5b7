#include "core/eval/compare.h"

#include <cmath>
#include <cstdio>

#include "core/support/str_util.h"

namespace hloscope {

Tolerance DefaultTolerance(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF64:
    case PrimitiveType::kC128: return {1e-9, 1e-9};
    case PrimitiveType::kF32:
    case PrimitiveType::kC64: return {1e-5, 1e-4};
    case PrimitiveType::kF16: return {1e-3, 1e-2};
    case PrimitiveType::kBF16: return {1e-2, 2e-2};
    default:
      if (IsFloat(t)) return {0.25, 0.25};
      return {0, 0};
  }
}

namespace {

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string IndexText(const Shape& s, int64_t lin) {
  std::vector<int64_t> idx(s.rank());
  for (int d = s.rank() - 1; d >= 0; --d) {
    int64_t n = s.dim(d);
    idx[d] = n ? lin % n : 0;
    lin = n ? lin / n : 0;
  }
  return "[" + JoinInts(idx) + "]";
}

// Compares one real value pair; returns "" or the reason.
std::string CompareReal(double e, double a, const Tolerance& t) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a) ? "" : "(NaN mismatch)";
  if (std::isinf(e) || std::isinf(a)) return e == a ? "" : "(infinity mismatch)";
  double diff = std::fabs(a - e), lim = t.abs + t.rel * std::fabs(e);
  if (diff <= lim) return "";
  return "(abs diff " + Num(diff) + " > tol " + Num(t.abs) + " + " + Num(t.rel) + "*|expected|)";
}

std::string CompareArrays(const Literal& e, const Literal& a, std::optional<Tolerance> tol, const std::string& where) {
  if (e.shape().element_type() != a.shape().element_type() || !e.shape().SameDims(a.shape()))
    return where + ": expected shape " + e.shape().ToString(false) + ", got " + a.shape().ToString(false);
  if (e.elided() || a.elided()) return where + ": values are elided";
  PrimitiveType t = e.shape().element_type();
  Tolerance tl = tol ? *tol : DefaultTolerance(t);
  for (int64_t i = 0; i < e.num_elements(); ++i) {
    std::string why;
    std::string es, as;
    if (IsComplex(t)) {
      auto ce = e.GetComplex(i), ca = a.GetComplex(i);
      why = CompareReal(ce.real(), ca.real(), tl);
      if (why.empty()) why = CompareReal(ce.imag(), ca.imag(), tl);
      if (!why.empty()) {
        es = "(" + Num(ce.real()) + ", " + Num(ce.imag()) + ")";
        as = "(" + Num(ca.real()) + ", " + Num(ca.imag()) + ")";
      }
    } else if (IsFloat(t)) {
      why = CompareReal(e.GetDouble(i), a.GetDouble(i), tl);
      if (!why.empty()) {
        es = Num(e.GetDouble(i));
        as = Num(a.GetDouble(i));
      }
    } else {
      bool u64 = IsUnsignedInt(t) && BitWidth(t) == 64;
      bool same = u64 ? e.Get<uint64_t>(i) == a.Get<uint64_t>(i) : e.GetInt(i) == a.GetInt(i);
      if (!same) {
        double diff = u64 ? std::fabs(static_cast<double>(e.Get<uint64_t>(i)) - static_cast<double>(a.Get<uint64_t>(i)))
                          : std::fabs(static_cast<double>(e.GetInt(i)) - static_cast<double>(a.GetInt(i)));
        double ev = u64 ? static_cast<double>(e.Get<uint64_t>(i)) : static_cast<double>(e.GetInt(i));
        if (diff > tl.abs + tl.rel * std::fabs(ev)) {
          why = tl.abs == 0 && tl.rel == 0 ? "(exact match required)"
                                           : "(abs diff " + Num(diff) + " > tol " + Num(tl.abs) + " + " + Num(tl.rel) + "*|expected|)";
          std::string x, y;
          e.AppendElement(x, i);
          a.AppendElement(y, i);
          es = x;
          as = y;
        }
      }
    }
    if (!why.empty())
      return where + " element " + IndexText(e.shape(), i) + ": expected " + es + ", got " + as + " " + why;
  }
  return "";
}

std::string CompareRec(const Literal& e, const Literal& a, std::optional<Tolerance> tol, std::vector<int64_t>& path) {
  std::string where = "output {" + JoinInts(path) + "}";
  if (e.IsTuple() != a.IsTuple())
    return where + ": expected " + e.shape().ToString(false) + ", got " + a.shape().ToString(false);
  if (!e.IsTuple()) return CompareArrays(e, a, tol, where);
  if (e.tuple_elements().size() != a.tuple_elements().size())
    return where + ": expected a tuple of " + std::to_string(e.tuple_elements().size()) + " elements, got " +
           std::to_string(a.tuple_elements().size());
  for (size_t i = 0; i < e.tuple_elements().size(); ++i) {
    path.push_back(static_cast<int64_t>(i));
    std::string r = CompareRec(e.tuple_elements()[i], a.tuple_elements()[i], tol, path);
    path.pop_back();
    if (!r.empty()) return r;
  }
  return "";
}

}  // namespace

std::string CompareLiterals(const Literal& expected, const Literal& actual, std::optional<Tolerance> tol) {
  std::vector<int64_t> path;
  return CompareRec(expected, actual, tol, path);
}

}  // namespace hloscope
