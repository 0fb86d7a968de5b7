#include "core/ir/module.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

namespace hloscope {

const RawAttr* Module::FindHeader(std::string_view name) const {
  for (const auto& h : header_)
    if (h.name == name) return &h;
  return nullptr;
}

void Module::SetHeader(std::string name, std::string value) {
  for (auto& h : header_) {
    if (h.name == name) {
      h.value = std::move(value);
      return;
    }
  }
  header_.push_back({std::move(name), std::move(value)});
}

void Module::EraseHeader(std::string_view name) {
  header_.erase(std::remove_if(header_.begin(), header_.end(),
                               [&](const RawAttr& r) { return r.name == name; }),
                header_.end());
}

bool Module::is_scheduled() const {
  const RawAttr* r = FindHeader("is_scheduled");
  return r && r->value == "true";
}

Computation* Module::AddComputation(std::unique_ptr<Computation> c) {
  return AddComputationBefore(std::move(c), nullptr);
}

Computation* Module::AddComputationBefore(std::unique_ptr<Computation> c, Computation* before) {
  Computation* raw = c.get();
  raw->set_parent(this);
  RegisterName(raw->name());
  auto pos = comps_.end();
  if (before) pos = FindFromBack(before);
  comps_.insert(pos, std::move(c));
  return raw;
}

std::vector<std::unique_ptr<Computation>>::iterator Module::FindFromBack(const Computation* c) {
  // From the back: fusion passes add each fused computation just before the
  // computation it is used in (the entry, last) and remove recent ones; a
  // search from the front walked all of Llama's ten thousand each time.
  auto it = std::find_if(comps_.rbegin(), comps_.rend(),
                         [&](const std::unique_ptr<Computation>& p) { return p.get() == c; });
  return it == comps_.rend() ? comps_.end() : std::prev(it.base());
}

void Module::RemoveComputation(Computation* c) {
  auto it = FindFromBack(c);
  if (it != comps_.end()) comps_.erase(it);
}

Computation* Module::FindComputation(std::string_view name) const {
  for (const auto& c : comps_)
    if (c->name() == name) return c.get();
  return nullptr;
}

std::vector<Computation*> Module::MakeComputationPostOrder() const {
  std::vector<Computation*> order;
  std::unordered_set<const Computation*> seen;
  std::function<void(Computation*)> visit = [&](Computation* c) {
    if (!seen.insert(c).second) return;
    for (const auto& i : c->instructions())
      for (Computation* callee : i->called_computations()) visit(callee);
    order.push_back(c);
  };
  if (entry_) visit(entry_);
  return order;
}

int64_t Module::instruction_count() const {
  int64_t n = 0;
  for (const auto& c : comps_) n += c->instruction_count();
  return n;
}

void Module::BuildNames() {
  names_.clear();
  for (const auto& c : comps_) {
    names_.insert(c->name());
    for (const auto& i : c->instructions()) names_.insert(i->name());
  }
  names_built_ = true;
}

void Module::RegisterName(const std::string& n) {
  if (names_built_) names_.insert(n);
}

std::string Module::UniqueName(std::string_view prefix) {
  if (!names_built_) BuildNames();
  std::string base = HloName(prefix);
  // Strip a trailing ".N" so derived names read like XLA's (add.3 → add.7).
  auto dot = base.rfind('.');
  if (dot != std::string::npos && dot + 1 < base.size() &&
      std::all_of(base.begin() + dot + 1, base.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    base.resize(dot);
  if (base.empty()) base = "v";
  int64_t& counter = name_counters_[base];
  for (;;) {
    std::string cand = base + "." + std::to_string(++counter);
    if (names_.insert(cand).second) return cand;
  }
}

std::string HloName(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '$' || c == '.' || c == '-';
    if (!ok) c = '_';
  }
  if (out.empty()) out = "v";
  return out;
}

std::string Module::UniqueComputationName(std::string_view prefix) { return UniqueName(prefix); }

}  // namespace hloscope
