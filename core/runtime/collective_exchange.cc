#include "core/runtime/collective_exchange.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/parser/parser.h"

namespace hloscope::runtime {
namespace {

// memcpy that takes empty ranges (an empty array's storage may be null).
void CopyBytes(void* dst, const void* src, size_t n) {
  if (n > 0) std::memcpy(dst, src, n);
}

bool IsPermute(const CollectiveThunk& c) { return c.op == "collective-permute" || c.op == "collective-permute-start"; }
bool IsReduce(const CollectiveThunk& c) {
  return c.op == "all-reduce" || c.op == "all-reduce-start" || c.op == "reduce-scatter";
}
bool IsGather(const CollectiveThunk& c) { return c.op == "all-gather" || c.op == "all-gather-start"; }

std::string Where(const CollectiveThunk& c) { return c.op + " '" + c.instruction + "'"; }

StatusOr<Shape> LogicalShape(const std::string& text) {
  auto s = ParseShape(text);
  if (!s.ok()) return Error("shape '" + text + "': " + s.status().message());
  if (!s->IsArray()) return Error("shape '" + text + "' is not an array");
  Shape out = *s;
  out.set_layout(std::nullopt);
  return out;
}

// acc[i] = acc[i] ⊕ x[i] in the element type (each step rounded to it, as a
// device that reduces in that type does).
Status Combine(const CollectiveThunk& c, Literal& acc, const Literal& x) {
  const PrimitiveType t = acc.shape().element_type();
  if (x.shape().element_type() != t || x.num_elements() != acc.num_elements())
    return Error(Where(c) + ": the devices' operands differ in shape (" + acc.shape().ToString(false) + " and " +
                 x.shape().ToString(false) + ")");
  const std::string& k = c.reduction_kind;
  const int64_t n = acc.num_elements();
  if (k == "first") return Status::Ok();
  if (k == "last") {
    CopyBytes(acc.raw(), x.raw(), acc.raw_size());
    return Status::Ok();
  }
  if (IsComplex(t)) {
    if (k != "add" && k != "multiply") return Error(Where(c) + ": reducer '" + k + "' on complex values");
    for (int64_t i = 0; i < n; ++i)
      acc.SetComplex(i, k == "add" ? acc.GetComplex(i) + x.GetComplex(i) : acc.GetComplex(i) * x.GetComplex(i));
    return Status::Ok();
  }
  if (IsFloat(t)) {
    if (k == "and" || k == "or" || k == "xor") return Error(Where(c) + ": reducer '" + k + "' on floating values");
    for (int64_t i = 0; i < n; ++i) {
      const double a = acc.GetDouble(i), b = x.GetDouble(i);
      double r;
      if (k == "add") {
        r = a + b;
      } else if (k == "multiply") {
        r = a * b;
      } else if (std::isnan(a) || std::isnan(b)) {
        r = std::isnan(a) ? a : b;  // maximum and minimum propagate NaN
      } else if (k == "maximum") {
        r = (a > b || (a == b && !std::signbit(a))) ? a : b;
      } else {
        r = (a < b || (a == b && std::signbit(a))) ? a : b;
      }
      acc.SetDouble(i, r);
    }
    return Status::Ok();
  }
  const bool pred = t == PrimitiveType::kPred;
  const bool is_unsigned = IsUnsignedInt(t);
  if (!pred && !IsInteger(t)) return Error(Where(c) + ": cannot reduce " + acc.shape().ToString(false));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = acc.GetInt(i), b = x.GetInt(i);
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    uint64_t r;
    if (k == "add") {
      r = pred ? (ua | ub) : ua + ub;
    } else if (k == "multiply") {
      r = pred ? (ua & ub) : ua * ub;
    } else if (k == "and") {
      r = ua & ub;
    } else if (k == "or") {
      r = ua | ub;
    } else if (k == "xor") {
      r = ua ^ ub;
    } else {
      const bool a_less = is_unsigned || pred ? ua < ub : a < b;
      r = (k == "maximum") == a_less ? ub : ua;
    }
    acc.SetInt(i, static_cast<int64_t>(r));
  }
  return Status::Ok();
}

// Row-major geometry of a split along dimension `dim`: `outer` blocks of
// `inner` bytes each (the extent of `dim` and everything after it).
struct Split {
  int64_t outer = 1, inner = 0;
};
Split SplitAt(const Shape& s, int dim, int64_t element_bytes) {
  Split g;
  for (int i = 0; i < dim; ++i) g.outer *= s.dim(i);
  g.inner = element_bytes;
  for (int i = dim; i < s.rank(); ++i) g.inner *= s.dim(i);
  return g;
}

}  // namespace

std::string CollectiveUnsupportedOnDevices(const CollectiveThunk& c) {
  const bool id = c.op == "partition-id" || c.op == "replica-id";
  const bool done = c.op.size() > 5 && c.op.compare(c.op.size() - 5, 5, "-done") == 0;
  if (id || done) return "";
  const bool known = IsPermute(c) || IsReduce(c) || IsGather(c) || c.op == "all-to-all" || c.op == "collective-broadcast";
  if (!known) return c.op + " has no data movement between devices here";
  if (IsPermute(c) ? c.permute_sources.empty() : c.device_groups.empty())
    return "its device groups were not read (" + (IsPermute(c) ? c.source_target_pairs : c.replica_groups) + ")";
  if (c.operand_shapes.size() != c.operands.size() || c.result_shapes.size() != c.results.size())
    return "the shapes of its operands and results were not recorded";
  if (IsReduce(c) && c.reduction_kind.empty())
    return "its reducer '" + c.reduction + "' is not one elementwise op (add, multiply, maximum, minimum, and, or, xor) or one of its parameters";
  if (IsPermute(c) && c.operands.size() != c.results.size()) return "its in-place form (start indices) is not run here";
  return "";
}

StatusOr<std::vector<int64_t>> GroupOfDevice(const CollectiveThunk& c, int64_t d, int64_t devices, size_t* place) {
  if (IsPermute(c)) {
    std::vector<int64_t> all(static_cast<size_t>(devices));
    for (int64_t i = 0; i < devices; ++i) all[static_cast<size_t>(i)] = i;
    *place = static_cast<size_t>(d);
    return all;
  }
  for (const std::vector<int64_t>& g : c.device_groups) {
    auto it = std::find(g.begin(), g.end(), d);
    if (it != g.end()) {
      *place = static_cast<size_t>(it - g.begin());
      return g;
    }
  }
  return Error(Where(c) + ": device " + std::to_string(d) + " is in none of its groups (" + c.replica_groups + ")");
}

StatusOr<std::vector<std::vector<Literal>>> ExchangeInGroup(const CollectiveThunk& c,
                                                            const std::vector<int64_t>& devices,
                                                            const std::vector<std::vector<Literal>>& members) {
  if (std::string why = CollectiveUnsupportedOnDevices(c); !why.empty())
    return Error(Where(c) + " cannot run on several devices: " + why);
  const size_t k = members.size();
  if (k == 0 || devices.size() != k) return Error(Where(c) + ": an empty group");
  for (const auto& m : members)
    if (m.size() != c.operand_shapes.size())
      return Error(Where(c) + ": a device brought " + std::to_string(m.size()) + " operands, not " +
                   std::to_string(c.operand_shapes.size()));
  std::vector<Shape> result_shapes;
  for (const std::string& r : c.result_shapes) {
    ASSIGN_OR_RETURN(Shape s, LogicalShape(r));
    result_shapes.push_back(std::move(s));
  }
  const size_t leaves = c.operand_shapes.size();
  std::vector<std::vector<Literal>> out(k);
  auto fresh = [&](size_t leaf) { return Literal(result_shapes[leaf]); };
  auto same_size = [&](const Literal& a, const Literal& b, const char* what) -> Status {
    if (a.raw_size() != b.raw_size() || a.shape().element_type() != b.shape().element_type())
      return Error(Where(c) + ": " + what + " " + a.shape().ToString(false) + " does not fit " + b.shape().ToString(false));
    return Status::Ok();
  };
  auto reduced = [&](size_t leaf) -> StatusOr<Literal> {
    Literal acc = members[0][leaf];
    for (size_t m = 1; m < k; ++m) RETURN_IF_ERROR(Combine(c, acc, members[m][leaf]));
    return acc;
  };
  const int dim = c.dimensions.empty() ? -1 : static_cast<int>(c.dimensions[0]);

  if (c.op == "all-reduce" || c.op == "all-reduce-start") {
    if (result_shapes.size() != leaves) return Error(Where(c) + ": one result per operand expected");
    for (size_t p = 0; p < leaves; ++p) {
      ASSIGN_OR_RETURN(Literal r, reduced(p));
      Literal shaped = fresh(p);
      RETURN_IF_ERROR(same_size(r, shaped, "the reduced value"));
      CopyBytes(shaped.raw(), r.raw(), r.raw_size());
      for (size_t m = 0; m < k; ++m) out[m].push_back(shaped);
    }
    return out;
  }
  if (IsGather(c) || c.op == "reduce-scatter") {
    if (result_shapes.size() != leaves) return Error(Where(c) + ": one result per operand expected");
    for (size_t p = 0; p < leaves; ++p) {
      const Shape& rs = result_shapes[p];
      if (dim < 0 || dim >= rs.rank()) return Error(Where(c) + ": dimension " + std::to_string(dim) + " is not in " + rs.ToString());
      const Literal& first = members[0][p];
      const int64_t eb = first.element_bytes();
      if (c.op == "reduce-scatter") {
        ASSIGN_OR_RETURN(Literal r, reduced(p));
        if (r.shape().rank() != rs.rank() || r.shape().dim(dim) != rs.dim(dim) * static_cast<int64_t>(k))
          return Error(Where(c) + ": the operand's dimension " + std::to_string(dim) + " is not " + std::to_string(k) +
                       " times the result's");
        const Split whole = SplitAt(r.shape(), dim, eb), piece = SplitAt(rs, dim, eb);
        for (size_t m = 0; m < k; ++m) {
          Literal mine = fresh(p);
          if (static_cast<int64_t>(mine.raw_size()) != piece.outer * piece.inner)
            return Error(Where(c) + ": result " + rs.ToString() + " does not fit its piece");
          for (int64_t o = 0; o < piece.outer; ++o)
            CopyBytes(mine.raw() + o * piece.inner, r.raw() + o * whole.inner + static_cast<int64_t>(m) * piece.inner,
                        static_cast<size_t>(piece.inner));
          out[m].push_back(std::move(mine));
        }
      } else {
        Literal gathered = fresh(p);
        const Split piece = SplitAt(first.shape(), dim, eb), whole = SplitAt(rs, dim, eb);
        if (first.shape().rank() != rs.rank() || rs.dim(dim) != first.shape().dim(dim) * static_cast<int64_t>(k) ||
            whole.outer != piece.outer)
          return Error(Where(c) + ": the result's dimension " + std::to_string(dim) + " is not " + std::to_string(k) +
                       " times the operand's");
        for (size_t m = 0; m < k; ++m) {
          RETURN_IF_ERROR(same_size(members[m][p], first, "operand"));
          for (int64_t o = 0; o < piece.outer; ++o)
            CopyBytes(gathered.raw() + o * whole.inner + static_cast<int64_t>(m) * piece.inner,
                        members[m][p].raw() + o * piece.inner, static_cast<size_t>(piece.inner));
        }
        for (size_t m = 0; m < k; ++m) out[m].push_back(gathered);
      }
    }
    return out;
  }
  if (c.op == "all-to-all") {
    if (dim >= 0) {  // one array, split along `dim`; member m's piece j goes to member j, in place m
      if (leaves != 1 || result_shapes.size() != 1) return Error(Where(c) + ": the array form takes one operand");
      const Literal& first = members[0][0];
      const Shape& s = first.shape();
      if (dim >= s.rank() || s.dim(dim) % static_cast<int64_t>(k) != 0)
        return Error(Where(c) + ": dimension " + std::to_string(dim) + " does not split into " + std::to_string(k) +
                     " equal pieces");
      const Split g = SplitAt(s, dim, first.element_bytes());
      const int64_t chunk = g.inner / static_cast<int64_t>(k);
      for (size_t m = 0; m < k; ++m) RETURN_IF_ERROR(same_size(members[m][0], first, "operand"));
      for (size_t j = 0; j < k; ++j) {
        Literal mine = fresh(0);
        if (static_cast<int64_t>(mine.raw_size()) != g.outer * g.inner)
          return Error(Where(c) + ": result " + result_shapes[0].ToString() + " does not hold the operand's elements");
        for (size_t m = 0; m < k; ++m)
          for (int64_t o = 0; o < g.outer; ++o)
            CopyBytes(mine.raw() + o * g.inner + static_cast<int64_t>(m) * chunk,
                        members[m][0].raw() + o * g.inner + static_cast<int64_t>(j) * chunk, static_cast<size_t>(chunk));
        out[j].push_back(std::move(mine));
      }
      return out;
    }
    // Tuple form: operand j of member m becomes result m of member j.
    if (leaves != k || result_shapes.size() != k)
      return Error(Where(c) + ": the tuple form takes one operand per member of its group (" + std::to_string(k) + ")");
    for (size_t j = 0; j < k; ++j)
      for (size_t m = 0; m < k; ++m) {
        Literal r = fresh(m);
        RETURN_IF_ERROR(same_size(members[m][j], r, "operand"));
        CopyBytes(r.raw(), members[m][j].raw(), r.raw_size());
        out[j].push_back(std::move(r));
      }
    return out;
  }
  if (c.op == "collective-broadcast" || IsPermute(c)) {
    if (result_shapes.size() != leaves) return Error(Where(c) + ": one result per operand expected");
    for (size_t m = 0; m < k; ++m) {
      // broadcast: the group's first device (the root); permute: the source.
      int64_t from = 0;
      if (IsPermute(c)) {
        const int64_t d = devices[m];
        from = d < static_cast<int64_t>(c.permute_sources.size()) ? c.permute_sources[static_cast<size_t>(d)] : -1;
        if (from >= static_cast<int64_t>(k)) return Error(Where(c) + ": source device " + std::to_string(from) + " is not in the run");
      }
      for (size_t p = 0; p < leaves; ++p) {
        Literal r = fresh(p);
        if (from >= 0) {
          RETURN_IF_ERROR(same_size(members[static_cast<size_t>(from)][p], r, "operand"));
          CopyBytes(r.raw(), members[static_cast<size_t>(from)][p].raw(), r.raw_size());
        }
        out[m].push_back(std::move(r));
      }
    }
    return out;
  }
  return Error(Where(c) + " has no data movement between devices here");
}

DeviceRendezvous::DeviceRendezvous(int64_t devices)
    : devices_(devices),
      rounds_(static_cast<size_t>(devices)),
      waiting_at_(static_cast<size_t>(devices)),
      left_(static_cast<size_t>(devices)) {}

StatusOr<std::vector<Literal>> DeviceRendezvous::Arrive(int64_t device, const CollectiveThunk& c,
                                                        std::vector<Literal> operands) {
  if (c.op == "collective-broadcast" && CollectiveUnsupportedOnDevices(c).empty()) {
    // A device in none of the groups receives zeros (StableHLO's
    // collective_broadcast), and meets no one.
    bool member = false;
    for (const auto& g : c.device_groups) member |= std::find(g.begin(), g.end(), device) != g.end();
    if (!member) {
      std::vector<Literal> zeros;
      for (const std::string& r : c.result_shapes) {
        ASSIGN_OR_RETURN(Shape s, LogicalShape(r));
        zeros.emplace_back(s);
      }
      return zeros;
    }
  }
  size_t place = 0;
  ASSIGN_OR_RETURN(std::vector<int64_t> group, GroupOfDevice(c, device, devices_, &place));
  std::unique_lock<std::mutex> lock(mu_);
  const int64_t round = rounds_[static_cast<size_t>(device)][&c]++;
  const Key key{&c, round, group[0]};
  Meeting& m = meetings_[key];
  if (m.group.empty()) {
    m.group = group;
    m.operands.resize(group.size());
    m.came.assign(group.size(), false);
  } else if (m.group != group) {
    m.error = Where(c) + ": device " + std::to_string(device) + " names another group than device " +
              std::to_string(m.group[0]);
  }
  m.operands[place] = std::move(operands);
  m.came[place] = true;
  ++m.arrived;
  if (m.arrived == m.group.size() && m.error.empty()) {
    auto r = ExchangeInGroup(c, m.group, m.operands);
    if (r.ok()) {
      m.results = std::move(*r);
    } else {
      m.error = r.status().message();
    }
    m.done = true;
    m.operands.clear();
    cv_.notify_all();
  } else {
    waiting_at_[static_cast<size_t>(device)] = Where(c) + " (its run " + std::to_string(round + 1) + ")";
    ++waiting_;
    FailStuck();
    cv_.wait(lock, [&] { return m.done || !m.error.empty(); });
    --waiting_;
    waiting_at_[static_cast<size_t>(device)].clear();
  }
  StatusOr<std::vector<Literal>> out = Status::Error("");
  if (!m.error.empty()) {
    out = Error(m.error);
  } else {
    out = std::move(m.results[place]);
  }
  if (++m.taken == m.arrived && (m.done || m.arrived == m.group.size() || !m.error.empty())) meetings_.erase(key);
  return out;
}

void DeviceRendezvous::Leave(int64_t device, const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  left_[static_cast<size_t>(device)] = why.empty() ? "it finished" : why;
  ++gone_;
  FailStuck();
}

void DeviceRendezvous::FailStuck() {
  bool changed = false;
  // A meeting that waits for a device that has left never completes.
  for (auto& [key, m] : meetings_) {
    if (m.done || !m.error.empty()) continue;
    for (size_t i = 0; i < m.group.size(); ++i) {
      const int64_t d = m.group[i];
      if (m.came[i] || left_[static_cast<size_t>(d)].empty()) continue;
      m.error = Where(*std::get<0>(key)) + ": device " + std::to_string(d) + " did not come (" +
                left_[static_cast<size_t>(d)] + ")";
      changed = true;
      break;
    }
  }
  // Every device waits or has left, and no meeting completed: no one can go on.
  bool any_done = false, any_open = false;
  for (const auto& [key, m] : meetings_) {
    any_done |= m.done;
    any_open |= !m.done && m.error.empty();
  }
  if (any_open && !any_done && waiting_ + gone_ == devices_) {
    std::string where;
    for (int64_t d = 0; d < devices_; ++d) {
      const std::string& w = waiting_at_[static_cast<size_t>(d)];
      where += "\n  device " + std::to_string(d) + ": " + (w.empty() ? left_[static_cast<size_t>(d)] : "waits at " + w);
    }
    for (auto& [key, m] : meetings_)
      if (!m.done && m.error.empty()) m.error = "the devices wait for each other at different collectives:" + where;
    changed = true;
  }
  if (changed) cv_.notify_all();
}

}  // namespace hloscope::runtime
