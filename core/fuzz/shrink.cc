// The module shrinker (shrink.h).
#include "core/fuzz/shrink.h"

#include <memory>
#include <regex>
#include <set>
#include <vector>

#include "core/ir/computation.h"
#include "core/ir/instruction.h"
#include "core/ir/module.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope::fuzz {
namespace {

// Parameter numbers named by the input_output_alias header.
std::set<int64_t> AliasedParameters(const Module& m) {
  std::set<int64_t> out;
  const RawAttr* a = m.FindHeader("input_output_alias");
  if (!a) return out;
  static const std::regex kParam(R"(\(\s*(\d+)\s*,)");
  for (std::sregex_iterator it(a->value.begin(), a->value.end(), kParam), end; it != end; ++it)
    out.insert(std::stoll((*it)[1].str()));
  return out;
}

bool Removable(const Instruction* i) {
  return !i->IsRoot() && i->users().empty() && i->opcode() != Opcode::kParameter && !i->HasSideEffect() &&
         i->control_predecessors().empty() && i->control_successors().empty();
}

// Dead instructions, unused entry parameters (not renumbering donated ones)
// and computations nothing calls.
void Cleanup(Module& m) {
  for (const auto& c : m.computations()) {
    for (bool again = true; again;) {
      again = false;
      std::vector<Instruction*> dead;
      for (const auto& i : c->instructions())
        if (Removable(i.get())) dead.push_back(i.get());
      for (Instruction* i : dead) c->RemoveInstruction(i);
      again = !dead.empty();
    }
  }
  Computation* e = m.entry();
  const std::set<int64_t> aliased = AliasedParameters(m);
  const int64_t keep_below = aliased.empty() ? 0 : *aliased.rbegin() + 1;
  std::vector<Instruction*> unused;
  for (Instruction* p : e->parameters())
    if (p->users().empty() && !p->IsRoot() && p->parameter_number() >= keep_below) unused.push_back(p);
  for (Instruction* p : unused) e->RemoveInstruction(p);
  if (!unused.empty()) {
    std::vector<Instruction*> params;
    for (const auto& i : e->instructions())
      if (i->opcode() == Opcode::kParameter) params.push_back(i.get());
    std::sort(params.begin(), params.end(),
              [](const Instruction* a, const Instruction* b) { return a->parameter_number() < b->parameter_number(); });
    for (size_t k = 0; k < params.size(); ++k) params[k]->set_parameter_number(static_cast<int64_t>(k));
    e->RebuildParameters();
  }
  std::vector<Computation*> live = m.MakeComputationPostOrder();
  std::set<const Computation*> keep(live.begin(), live.end());
  std::vector<Computation*> drop;
  for (const auto& c : m.computations())
    if (!keep.count(c.get())) drop.push_back(c.get());
  for (Computation* c : drop) m.RemoveComputation(c);
  m.EraseHeader("entry_computation_layout");
}

// The instructions edits may touch, nearest the root first.
std::vector<Instruction*> Candidates(const Computation& c) {
  std::vector<Instruction*> out;
  for (const auto& i : c.instructions())
    if (i->opcode() != Opcode::kParameter) out.push_back(i.get());
  std::reverse(out.begin(), out.end());
  return out;
}

// Computations edits may change: not the reducers and combiners (to_apply):
// changing `min(a, b)` into `b` makes the result depend on the order of
// combining, a different failure than the one being reduced.
std::vector<Computation*> Editable(const Module& m) {
  std::set<const Computation*> appliers;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (Computation* a = i->to_apply()) appliers.insert(a);
  std::vector<Computation*> out;
  for (const auto& c : m.computations())
    if (!appliers.count(c.get())) out.push_back(c.get());
  return out;
}

// Applies edit `kind` number `k`; false when there is no such edit.
bool Apply(Module& m, int kind, size_t k) {
  Computation* e = m.entry();
  switch (kind) {
    case 0:  // drop the donations
      if (k > 0 || !m.FindHeader("input_output_alias")) return false;
      m.EraseHeader("input_output_alias");
      return true;
    case 1: {  // drop one element of a tuple root
      Instruction* root = e->root();
      if (root->opcode() != Opcode::kTuple || root->operand_count() <= 1 ||
          k >= static_cast<size_t>(root->operand_count()))
        return false;
      auto t = std::make_unique<Instruction>(Opcode::kTuple, m.UniqueName("tuple"));
      std::vector<Shape> shapes;
      for (int i = 0; i < root->operand_count(); ++i) {
        if (static_cast<size_t>(i) == k) continue;
        t->AppendOperand(root->operand(i));
        shapes.push_back(root->operand(i)->shape());
      }
      *t->mutable_shape() = Shape::Tuple(shapes);
      Instruction* nt = e->AddInstruction(std::move(t));
      e->set_root(nt);
      e->RemoveInstruction(root);
      m.EraseHeader("input_output_alias");
      return true;
    }
    case 2: {  // bypass: an instruction replaced by an operand of its shape
      size_t n = 0;
      for (Computation* c : Editable(m))
        for (Instruction* i : Candidates(*c))
          for (int o = 0; o < i->operand_count(); ++o) {
            if (!(i->operand(o)->shape() == i->shape())) continue;
            if (n++ != k) continue;
            Instruction* op = i->operand(o);
            if (i->IsRoot()) c->set_root(op);
            else i->ReplaceAllUsesWith(op);
            return true;
          }
      return false;
    }
    case 3: {  // an entry instruction replaced by a new parameter
      size_t n = 0;
      for (Instruction* i : Candidates(*e)) {
        if (i->IsRoot() || !i->shape().IsArray() || n++ != k) continue;
        auto p = std::make_unique<Instruction>(Opcode::kParameter, i->shape(), m.UniqueName("shrink_p"));
        p->set_parameter_number(e->num_parameters());
        Instruction* np = e->AddInstructionBefore(std::move(p), e->instructions().front().get());
        i->ReplaceAllUsesWith(np);
        e->RebuildParameters();
        return true;
      }
      return false;
    }
    case 4: {  // get-tuple-element of a tuple: the element itself
      size_t n = 0;
      for (Computation* c : Editable(m))
        for (Instruction* i : Candidates(*c)) {
          if (i->opcode() != Opcode::kGetTupleElement || i->operand(0)->opcode() != Opcode::kTuple || n++ != k)
            continue;
          Instruction* elem = i->operand(0)->operand(static_cast<int>(i->tuple_index()));
          if (i->IsRoot()) c->set_root(elem);
          else i->ReplaceAllUsesWith(elem);
          return true;
        }
      return false;
    }
    case 5: {  // an earlier instruction of the root's shape becomes the root
      size_t n = 0;
      for (Instruction* i : Candidates(*e)) {
        if (i == e->root() || !(i->shape() == e->root()->shape()) || n++ != k) continue;
        e->set_root(i);
        return true;
      }
      return false;
    }
  }
  return false;
}

}  // namespace

std::string ShrinkModuleText(const std::string& text, const std::function<bool(const std::string&)>& still_fails,
                             int max_tries) {
  std::string best = text;
  int64_t best_size = -1;
  {
    auto m = ParseHloModule(text, "<shrink>");
    if (!m.ok()) return text;
    best_size = (*m)->instruction_count();
  }
  int tries = 0;
  for (bool progress = true; progress && tries < max_tries;) {
    progress = false;
    for (int kind = 0; kind < 6 && tries < max_tries; ++kind) {
      for (size_t k = 0; tries < max_tries; ++k) {
        auto m = ParseHloModule(best, "<shrink>");
        if (!m.ok()) return best;
        if (!Apply(**m, kind, k)) break;
        Cleanup(**m);
        if (!VerifyModule(**m).ok()) continue;
        std::string t = PrintModule(**m);
        int64_t size = (*m)->instruction_count();
        // Keep edits that make the module smaller (or, for the header, shorter).
        if (size > best_size || (size == best_size && t.size() >= best.size())) continue;
        ++tries;
        if (!still_fails(t)) continue;
        best = t;
        best_size = size;
        progress = true;
        --k;  // the same index now names the next candidate
      }
    }
  }
  return best;
}

}  // namespace hloscope::fuzz
