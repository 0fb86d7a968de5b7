#include "core/fusion/fusion_builder.h"

#include <algorithm>
#include <functional>
#include <list>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"

namespace hloscope {
namespace {

bool NameTaken(const Computation& c, const std::string& name) {
  for (const auto& i : c.instructions())
    if (i->name() == name) return true;
  return false;
}

// A copy of `src` in `dest` reading `operands`, keeping its name (made
// unique within `dest` when needed) and everything but control edges. A
// copy that had to be renamed (a second copy of a duplicated op in one
// kernel, after multi-output fusion) names the op it copies in op_name when
// `src` carries none, as XLA's copies keep the op_name of the op they were
// made from: `lt.25` with op_name="lt.3" reads as a copy of lt.3.
Instruction* CopyInto(const Instruction& src, Computation* dest, const std::vector<Instruction*>& operands,
                      Instruction* before) {
  std::string name = src.name();
  const bool renamed = NameTaken(*dest, name);
  if (renamed) name = dest->parent()->UniqueName(name);
  auto c = std::make_unique<Instruction>(src.opcode(), src.shape(), name);
  c->attrs() = src.attrs();
  c->mutable_called_refs() = src.called_refs();
  if (src.literal()) c->set_literal(std::make_unique<Literal>(*src.literal()));
  c->set_parameter_number(src.parameter_number());
  c->metadata() = src.metadata();
  if (renamed && src.opcode() != Opcode::kParameter && src.MetadataValue("op_name").empty())
    c->metadata().Add("op_name", "\"" + src.name() + "\"");
  c->raw_attrs() = src.raw_attrs();
  c->set_loc(src.loc());
  c->set_implicit_tuple_element(src.implicit_tuple_element());
  for (Instruction* o : operands) c->AppendOperand(o);
  return dest->AddInstructionBefore(std::move(c), before);
}

Instruction* FirstNonParameter(const Computation& c) {
  for (const auto& i : c.instructions())
    if (i->opcode() != Opcode::kParameter) return i.get();
  return nullptr;
}

Instruction* NewParameter(Computation* c, int64_t number, const Shape& shape) {
  std::string name = "param_" + std::to_string(number);
  if (NameTaken(*c, name)) name = c->parent()->UniqueName(name);
  auto p = std::make_unique<Instruction>(Opcode::kParameter, shape, name);
  p->set_parameter_number(number);
  Instruction* first = c->instructions().empty() ? nullptr : c->instructions().front().get();
  return c->AddInstructionBefore(std::move(p), first);
}

// Renumbers the fused computation's parameters to match `operands` (the
// fusion's new operand list, where params[k] stands for operands[k]).
void Renumber(Instruction* fusion, Computation* fc, const std::vector<Instruction*>& operands,
              const std::vector<Instruction*>& params) {
  fusion->DetachOperands();
  for (size_t k = 0; k < operands.size(); ++k) {
    fusion->AppendOperand(operands[k]);
    params[k]->set_parameter_number(static_cast<int64_t>(k));
  }
  fc->RebuildParameters();
}

// Inlines the computation of `producer` (a fusion or a plain instruction)
// into `fc`, mapping its inputs through `input_for`; returns the values that
// stand for the producer's outputs (one per root / tuple element of root).
std::vector<Instruction*> Inline(Instruction* producer, Computation* fc,
                                 const std::function<Instruction*(Instruction*)>& input_for) {
  Instruction* before = FirstNonParameter(*fc);
  if (producer->opcode() != Opcode::kFusion) {
    std::vector<Instruction*> ops;
    for (Instruction* o : producer->operands()) ops.push_back(input_for(o));
    return {CopyInto(*producer, fc, ops, before)};
  }
  const Computation* pc = producer->fused_computation();
  const bool tuple_root = pc->root()->opcode() == Opcode::kTuple;
  std::unordered_map<const Instruction*, Instruction*> map;
  for (Instruction* i : pc->MakePostOrder()) {
    if (i->opcode() == Opcode::kParameter) {
      map[i] = input_for(producer->operand(static_cast<int>(i->parameter_number())));
      continue;
    }
    if (tuple_root && i == pc->root()) continue;  // its elements are the outputs
    std::vector<Instruction*> ops;
    for (Instruction* o : i->operands()) ops.push_back(map.at(o));
    map[i] = CopyInto(*i, fc, ops, before);
  }
  if (tuple_root) {
    std::vector<Instruction*> outs;
    for (const Instruction* o : pc->root()->operands()) outs.push_back(map.at(o));
    return outs;
  }
  Instruction* root = map.at(pc->root());
  if (root->shape().IsTuple()) {
    // A variadic root (reduce, sort): expose each element.
    std::vector<Instruction*> outs;
    for (int64_t k = 0; k < root->shape().tuple_size(); ++k) {
      auto g = std::make_unique<Instruction>(Opcode::kGetTupleElement, root->shape().tuple_shapes()[k],
                                             fc->parent()->UniqueName(root->name() + "_gte"));
      g->attrs().index = k;
      g->attrs().mark(Attr::kIndex);
      g->AppendOperand(root);
      outs.push_back(fc->AddInstructionBefore(std::move(g), nullptr));
    }
    return outs;
  }
  return {root};
}

void RemoveIfDead(Instruction* i) {
  if (!i->users().empty() || i->IsRoot()) return;
  Computation* parent = i->parent();
  Computation* fused = i->opcode() == Opcode::kFusion ? i->fused_computation() : nullptr;
  parent->RemoveInstruction(i);
  if (fused) parent->parent()->RemoveComputation(fused);
}

// c->SortTopologically(): the same stable post order (list order, operands
// then control predecessors depth-first), but an instruction whose
// dependencies are all placed is taken as it stands, and the list is only
// reordered when a merge left something behind its users. The entry
// computation is re-sorted after every multi-output and horizontal merge, so
// this is one light pass over the list instead of a hash-map DFS.
void SortByPostOrder(Computation* c) {
  const int64_t bound = c->parent() ? c->parent()->next_id() : 0;
  for (const auto& i : c->instructions())
    if (i->id() < 0 || i->id() >= bound) return c->SortTopologically();
  // Visit state by id, stamped with a generation so nothing is cleared:
  // < gen = not visited, gen = visiting, gen + 1 = placed.
  static thread_local std::vector<uint64_t> mark;
  static thread_local uint64_t generation = 0;
  if (mark.size() < static_cast<size_t>(bound)) mark.resize(static_cast<size_t>(bound) * 2, 0);
  generation += 2;
  const uint64_t visiting = generation, placed = generation + 1;
  auto state = [&](const Instruction* i) -> uint64_t& { return mark[static_cast<size_t>(i->id())]; };
  auto deps_placed = [&](const Instruction* i) {
    for (const Instruction* d : i->operands())
      if (d->parent() == c && state(d) != placed) return false;
    for (const Instruction* d : i->control_predecessors())
      if (d->parent() == c && state(d) != placed) return false;
    return true;
  };
  std::vector<std::pair<Instruction*, size_t>> stack;
  const auto& list = c->instructions();
  std::vector<Instruction*> order;
  order.reserve(list.size());
  bool moved = false;
  for (auto it = list.begin(); it != list.end(); ++it) {
    Instruction* start = it->get();
    if (state(start) == placed) continue;
    if (deps_placed(start)) {
      state(start) = placed;
      order.push_back(start);
      continue;
    }
    // Depth-first over what is not placed yet; what it emits before `start`
    // comes from further down the list.
    stack.push_back({start, 0});
    state(start) = visiting;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      size_t nops = node->operands().size();
      size_t total = nops + node->control_predecessors().size();
      if (next < total) {
        Instruction* dep = next < nops ? node->operand(static_cast<int>(next)) : node->control_predecessors()[next - nops];
        ++next;
        if (dep->parent() != c) continue;
        if (state(dep) < visiting) {
          state(dep) = visiting;
          stack.push_back({dep, 0});
        }
        continue;
      }
      Instruction* done = node;
      stack.pop_back();
      state(done) = placed;
      order.push_back(done);
      moved |= done != start;
    }
  }
  if (moved) c->Reorder(order);
}

// SortByPostOrder after a merge, without the pass over every instruction's
// operands. Precondition: the list was topological before the merge, and the
// only instructions that may now come before one of their dependencies are
// `fresh` (what the merge added) and their users and control successors.
// Then the stable post order keeps every other instruction where it is, and
// each such "late" instruction v, in list order, is preceded by the
// depth-first post order of its dependencies that are neither before v nor
// already moved — exactly what SortByPostOrder's walk emits there. Costs only
// the instructions looked at and moved (positions are the list's order keys).
void RestoreOrder(Computation* c, const std::vector<Instruction*>& fresh) {
  const int64_t bound = c->parent() ? c->parent()->next_id() : 0;
  static thread_local std::vector<uint64_t> mark;  // by id
  static thread_local uint64_t generation = 0;
  if (mark.size() < static_cast<size_t>(bound)) mark.resize(static_cast<size_t>(bound) * 2, 0);
  auto ok = [&](const Instruction* i) { return i->id() >= 0 && i->id() < bound; };
  // Positions are the list's order keys: moving an instruction changes only
  // its own key (a renumbering keeps the order), and moved instructions are
  // never compared again, so every comparison below sees the order the list
  // had before this call.
  auto at = [&](const Instruction* i) { return i->order_key(); };
  auto late = [&](const Instruction* v) {
    for (const Instruction* d : v->operands())
      if (d->parent() == c && at(d) > at(v)) return true;
    for (const Instruction* d : v->control_predecessors())
      if (d->parent() == c && at(d) > at(v)) return true;
    return false;
  };
  std::vector<Instruction*> lates;
  bool ids_ok = true;
  auto consider = [&](Instruction* v) {
    if (v->parent() != c) return;
    ids_ok = ids_ok && ok(v);
    if (late(v)) lates.push_back(v);
  };
  for (Instruction* f : fresh) {
    if (f->parent() != c) continue;
    consider(f);
    for (Instruction* u : f->users()) consider(u);
    for (Instruction* u : f->control_successors()) consider(u);
  }
  if (!ids_ok) return SortByPostOrder(c);
  if (lates.empty()) return;
  std::sort(lates.begin(), lates.end(), [&](const Instruction* a, const Instruction* b) { return at(a) < at(b); });
  lates.erase(std::unique(lates.begin(), lates.end()), lates.end());
  generation += 2;
  const uint64_t visiting = generation, moved = generation + 1;
  auto state = [&](const Instruction* i) -> uint64_t& { return mark[static_cast<size_t>(i->id())]; };
  std::vector<std::pair<Instruction*, size_t>> stack;
  std::vector<Instruction*> emitted;
  for (Instruction* v : lates) {
    if (state(v) == moved) continue;
    const int64_t limit = at(v);
    auto placed = [&](const Instruction* d) { return state(d) >= visiting || at(d) < limit; };
    emitted.clear();
    stack.push_back({v, 0});
    state(v) = visiting;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      size_t nops = node->operands().size();
      size_t total = nops + node->control_predecessors().size();
      if (next < total) {
        Instruction* dep = next < nops ? node->operand(static_cast<int>(next)) : node->control_predecessors()[next - nops];
        ++next;
        if (dep->parent() != c) continue;
        if (!ok(dep)) return SortByPostOrder(c);  // ids not from this module: the full sort
        if (placed(dep)) continue;
        state(dep) = visiting;
        stack.push_back({dep, 0});
        continue;
      }
      Instruction* done = node;
      stack.pop_back();
      state(done) = moved;
      emitted.push_back(done);
    }
    // `emitted` ends with v; the others move, in order, to just before it.
    for (Instruction* e : emitted)
      if (e != v) c->MoveBefore(e, v);
  }
}

// `k`, its users (get-tuple-elements) and theirs (tuples of them): what a
// merge added.
std::vector<Instruction*> WithUsers(Instruction* k) {
  std::vector<Instruction*> out = {k};
  for (Instruction* u : k->users()) {
    out.push_back(u);
    for (Instruction* w : u->users()) out.push_back(w);
  }
  return out;
}

Instruction* AddGte(Computation* c, Instruction* tuple, int64_t index, Instruction* before) {
  auto g = std::make_unique<Instruction>(Opcode::kGetTupleElement, tuple->shape().tuple_shapes()[index],
                                         c->parent()->UniqueName(tuple->name() + "_gte"));
  g->attrs().index = index;
  g->attrs().mark(Attr::kIndex);
  g->AppendOperand(tuple);
  return c->AddInstructionBefore(std::move(g), before);
}

}  // namespace

Instruction* WrapInFusion(Instruction* instr, FusionKind kind) {
  Computation* parent = instr->parent();
  Module* m = parent->parent();
  auto comp = std::make_unique<Computation>(m->UniqueComputationName("fused_computation"));
  Computation* fc = m->AddComputationBefore(std::move(comp), parent);
  std::vector<Instruction*> operands, params;
  std::unordered_map<Instruction*, Instruction*> param_of;
  std::vector<Instruction*> mapped;
  for (Instruction* o : instr->operands()) {
    auto it = param_of.find(o);
    if (it == param_of.end()) {
      Instruction* p = NewParameter(fc, static_cast<int64_t>(operands.size()), o->shape());
      // Keep parameters in number order at the front.
      fc->Reorder([&] {
        std::vector<Instruction*> order;
        for (Instruction* q : params) order.push_back(q);
        order.push_back(p);
        for (const auto& i : fc->instructions())
          if (std::find(order.begin(), order.end(), i.get()) == order.end()) order.push_back(i.get());
        return order;
      }());
      operands.push_back(o);
      params.push_back(p);
      it = param_of.emplace(o, p).first;
    }
    mapped.push_back(it->second);
  }
  Instruction* inner = CopyInto(*instr, fc, mapped, nullptr);
  fc->set_root(inner);
  auto f = std::make_unique<Instruction>(Opcode::kFusion, instr->shape(), m->UniqueName("fusion"));
  f->set_fusion_kind(kind);
  f->SetCalled("calls", fc);
  f->metadata() = instr->metadata();
  for (Instruction* o : operands) f->AppendOperand(o);
  Instruction* fusion = parent->AddInstructionBefore(std::move(f), instr);
  fc->fusion_instruction = fusion;
  for (Instruction* p : instr->control_predecessors()) p->AddControlDependencyTo(fusion);
  for (Instruction* s : instr->control_successors()) fusion->AddControlDependencyTo(s);
  instr->ReplaceAllUsesWith(fusion);
  int64_t id = instr->id();
  parent->RemoveInstruction(instr);
  inner->set_id(id);  // the instruction moved into the fusion: same identity
  return fusion;
}

Instruction* FuseProducerInto(Instruction* consumer, Instruction* producer) {
  Computation* fc = consumer->fused_computation();
  std::vector<Instruction*> operands(consumer->operands().begin(), consumer->operands().end());
  std::vector<Instruction*> params;
  for (size_t k = 0; k < operands.size(); ++k) params.push_back(fc->parameter(static_cast<int>(k)));
  auto input_for = [&](Instruction* o) -> Instruction* {
    for (size_t k = 0; k < operands.size(); ++k)
      if (operands[k] == o) return params[k];
    Instruction* p = NewParameter(fc, static_cast<int64_t>(operands.size()), o->shape());
    operands.push_back(o);
    params.push_back(p);
    return p;
  };
  std::vector<Instruction*> outs = Inline(producer, fc, input_for);
  bool tuple_valued = producer->opcode() == Opcode::kFusion && producer->shape().IsTuple();
  Instruction* value = outs.size() == 1 && !tuple_valued ? outs[0] : nullptr;
  if (!value) {
    // A tuple-shaped producer: rebuild the tuple inside.
    auto t = std::make_unique<Instruction>(Opcode::kTuple, producer->shape(),
                                           fc->parent()->UniqueName(producer->name() + "_tuple"));
    for (Instruction* o : outs) t->AppendOperand(o);
    value = fc->AddInstructionBefore(std::move(t), nullptr);
  }
  std::vector<Instruction*> keep_ops, keep_params;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (operands[k] == producer) {
      params[k]->ReplaceAllUsesWith(value);
      fc->RemoveInstruction(params[k]);
    } else {
      keep_ops.push_back(operands[k]);
      keep_params.push_back(params[k]);
    }
  }
  Renumber(consumer, fc, keep_ops, keep_params);
  fc->SortTopologically();
  int64_t pid = producer->id();
  bool fusion_producer = producer->opcode() == Opcode::kFusion;
  bool removed = producer->users().empty() && !producer->IsRoot();
  RemoveIfDead(producer);
  // When the producer moved entirely, its copy keeps its identity.
  if (removed && !fusion_producer && value->id() != pid) value->set_id(pid);
  return value;
}

Instruction* FuseAsExtraOutput(Instruction* consumer, Instruction* producer, bool parent_sorted) {
  Computation* parent = consumer->parent();
  Computation* fc = consumer->fused_computation();
  // Users of the producer other than the consumer get the extra output.
  std::vector<Instruction*> others;
  for (Instruction* u : producer->users())
    if (u != consumer) others.push_back(u);
  bool was_root = producer->IsRoot();
  // Inline the producer and keep a handle on its value inside.
  Instruction* inner = FuseProducerInto(consumer, producer);  // producer stays (other users)
  if (!inner) return consumer;
  // The consumer was its only reader: the producer is gone, fused as in
  // any fusion, with nothing more to write.
  if (others.empty() && !was_root) return consumer;
  // Make the root a tuple that also returns `inner`.
  Instruction* root = fc->root();
  std::vector<Instruction*> outs;
  bool was_tuple = root->opcode() == Opcode::kTuple;
  if (was_tuple) outs.assign(root->operands().begin(), root->operands().end());
  else outs.push_back(root);
  outs.push_back(inner);
  std::vector<Shape> shapes;
  for (Instruction* o : outs) shapes.push_back(o->shape());
  auto t = std::make_unique<Instruction>(Opcode::kTuple, Shape::Tuple(shapes), fc->parent()->UniqueName("tuple"));
  for (Instruction* o : outs) t->AppendOperand(o);
  Instruction* new_root = fc->AddInstructionBefore(std::move(t), nullptr);
  fc->set_root(new_root);
  if (was_tuple && root->users().empty()) fc->RemoveInstruction(root);
  *consumer->mutable_shape() = new_root->shape();
  Instruction* after = nullptr;
  {
    auto it = consumer->self_it;
    ++it;
    after = it == parent->instructions().end() ? nullptr : it->get();
  }
  if (!was_tuple) {
    // Old users read element 0.
    std::vector<Instruction*> users(consumer->users().begin(), consumer->users().end());
    bool consumer_root = consumer->IsRoot();
    Instruction* g0 = AddGte(parent, consumer, 0, after);
    for (Instruction* u : users)
      for (int k = 0; k < u->operand_count(); ++k)
        if (u->operand(k) == consumer) u->ReplaceOperand(k, g0);
    if (consumer_root) parent->set_root(g0);
  }
  Instruction* gp = AddGte(parent, consumer, static_cast<int64_t>(outs.size()) - 1, after);
  for (Instruction* u : others)
    for (int k = 0; k < u->operand_count(); ++k)
      if (u->operand(k) == producer) u->ReplaceOperand(k, gp);
  if (was_root) parent->set_root(gp);
  RemoveIfDead(producer);
  if (parent_sorted) RestoreOrder(parent, WithUsers(consumer));
  else SortByPostOrder(parent);
  return consumer;
}

Instruction* MergeSiblingFusions(Instruction* a, Instruction* b, bool parent_sorted) {
  Computation* parent = a->parent();
  Module* m = parent->parent();
  auto comp = std::make_unique<Computation>(m->UniqueComputationName("fused_computation"));
  Computation* fc = m->AddComputationBefore(std::move(comp), parent);
  std::vector<Instruction*> operands, params;
  auto input_for = [&](Instruction* o) -> Instruction* {
    for (size_t k = 0; k < operands.size(); ++k)
      if (operands[k] == o) return params[k];
    Instruction* p = NewParameter(fc, static_cast<int64_t>(operands.size()), o->shape());
    operands.push_back(o);
    params.push_back(p);
    return p;
  };
  std::vector<Instruction*> outs_a = Inline(a, fc, input_for);
  std::vector<Instruction*> outs_b = Inline(b, fc, input_for);
  std::vector<Instruction*> outs = outs_a;
  outs.insert(outs.end(), outs_b.begin(), outs_b.end());
  std::vector<Shape> shapes;
  for (Instruction* o : outs) shapes.push_back(o->shape());
  auto t = std::make_unique<Instruction>(Opcode::kTuple, Shape::Tuple(shapes), m->UniqueName("tuple"));
  for (Instruction* o : outs) t->AppendOperand(o);
  Instruction* root = fc->AddInstructionBefore(std::move(t), nullptr);
  fc->set_root(root);
  // Parameters first, in number order.
  fc->SortTopologically();
  bool input = FusionHasReduceRoot(*a) || FusionHasReduceRoot(*b);
  auto f = std::make_unique<Instruction>(Opcode::kFusion, root->shape(), m->UniqueName("fusion"));
  f->set_fusion_kind(input ? FusionKind::kInput : FusionKind::kLoop);
  f->SetCalled("calls", fc);
  f->metadata() = a->metadata();
  for (Instruction* o : operands) f->AppendOperand(o);
  Instruction* merged = parent->AddInstructionBefore(std::move(f), nullptr);
  fc->fusion_instruction = merged;
  auto redirect = [&](Instruction* old, size_t first, size_t count) {
    Instruction* replacement;
    if (!old->shape().IsTuple()) {
      replacement = AddGte(parent, merged, static_cast<int64_t>(first), nullptr);
    } else {
      std::vector<Instruction*> gtes;
      for (size_t k = 0; k < count; ++k) gtes.push_back(AddGte(parent, merged, static_cast<int64_t>(first + k), nullptr));
      auto tt = std::make_unique<Instruction>(Opcode::kTuple, old->shape(), m->UniqueName("tuple"));
      for (Instruction* g : gtes) tt->AppendOperand(g);
      replacement = parent->AddInstructionBefore(std::move(tt), nullptr);
    }
    for (Instruction* p : old->control_predecessors()) p->AddControlDependencyTo(merged);
    for (Instruction* s : old->control_successors()) merged->AddControlDependencyTo(s);
    old->ReplaceAllUsesWith(replacement);
    old->DropAllControlDeps();
    RemoveIfDead(old);
  };
  redirect(a, 0, outs_a.size());
  redirect(b, outs_a.size(), outs_b.size());
  if (parent_sorted) RestoreOrder(parent, WithUsers(merged));
  else SortByPostOrder(parent);
  return merged;
}

bool ListIsTopological(const Computation& c) {
  std::unordered_set<const Instruction*> seen;
  seen.reserve(c.instructions().size());
  for (const auto& i : c.instructions()) {
    for (const Instruction* d : i->operands())
      if (d->parent() == &c && !seen.count(d)) return false;
    for (const Instruction* d : i->control_predecessors())
      if (d->parent() == &c && !seen.count(d)) return false;
    seen.insert(i.get());
  }
  return true;
}

std::vector<std::string> FusionMembers(const Instruction& fusion) {
  std::vector<std::string> out;
  if (const Computation* c = fusion.fused_computation())
    for (const auto& i : c->instructions())
      if (i->opcode() != Opcode::kParameter && !(i.get() == c->root() && i->opcode() == Opcode::kTuple))
        out.push_back(i->name());
  return out;
}

std::vector<const Instruction*> FusionRoots(const Instruction& fusion) {
  const Computation* c = fusion.fused_computation();
  if (!c || !c->root()) return {};
  if (c->root()->opcode() == Opcode::kTuple)
    return std::vector<const Instruction*>(c->root()->operands().begin(), c->root()->operands().end());
  return {c->root()};
}

bool FusionHasReduceRoot(const Instruction& fusion) {
  for (const Instruction* r : FusionRoots(fusion))
    if (ReductionHero(r)) return true;  // a reduce, or a reduction epilogue over one
  return false;
}

}  // namespace hloscope
