// copy_insertion: XLA's CopyInsertion for donated parameters. An output that
// input_output_alias puts in a parameter's bytes is written there by the
// instruction that computes it; when the parameter may still be read after
// that write (under some schedule the dependencies allow), the output is
// computed elsewhere and a copy, ordered after every such read by control
// edges, writes it into the parameter's bytes at the end. Each copy is
// logged with its reason. Outputs that are other parameters or constants
// get a copy too (their bytes are not the output's to hand over).
//
// While loops, as XLA's copy insertion leaves them: buffer assignment gives
// a loop's state, its body's and condition's parameter and its result one
// set of buffers. An element the body changes is written there, so its
// initial value gets a copy when that value's bytes are not the loop's to
// overwrite: a parameter of the computation, a constant, a value something
// else reads, or one that starts two elements. Elements the body passes
// through unchanged, and values made for the loop alone, need none (XLA's
// IndicesToCopyForWhile, then the copies RemoveUnnecessaryCopies keeps).
// The runtime writes a body's root into the state buffers after the body,
// in an order that never overwrites a value still to be copied
// (core/codegen/kernel_plan.cc, ParallelCopies).
#include "core/memory/io_alias.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite_helpers.h"

namespace hloscope {
namespace {

// A root that is a multi-output instruction (a fusion returning a tuple)
// becomes tuple(get-tuple-element 0, 1, ...) of it, so that one element can
// be replaced by a copy. True if it did so.
bool SplitRoot(Computation& entry, const IoAlias& alias) {
  Instruction* root = entry.root();
  if (alias.output_index.empty() || !root->shape().IsTuple() || root->opcode() == Opcode::kTuple) return false;
  std::vector<Instruction*> elements;
  for (int k = 0; k < root->shape().tuple_size(); ++k) {
    Instruction* gte = AddNew(&entry, nullptr, Opcode::kGetTupleElement, root->shape().tuple_shapes()[k], {root});
    gte->attrs().index = k;
    gte->attrs().mark(Attr::kIndex);
    elements.push_back(gte);
  }
  Instruction* tuple = AddNew(&entry, nullptr, Opcode::kTuple, root->shape(), elements);
  entry.set_root(tuple);
  return true;
}

// The instruction whose bytes `v` is (through bitcasts and tuple elements).
const Instruction* StorageOf(const Instruction* v) {
  for (int guard = 0; v && guard < 64; ++guard) {
    if (v->opcode() == Opcode::kBitcast) {
      v = v->operand(0);
    } else if (v->opcode() == Opcode::kGetTupleElement && v->operand(0)->opcode() == Opcode::kTuple &&
               v->tuple_index() < v->operand(0)->operand_count()) {
      v = v->operand(0)->operand(static_cast<int>(v->tuple_index()));
    } else {
      break;
    }
  }
  return v;
}

// Why the initial value of state element `k` of `w` needs a copy (empty
// when it needs none).
std::string WhileInitCopyReason(const Instruction& w, const Instruction& init, int k, const std::vector<IoAlias>& donated) {
  const Computation* body = w.called("body");
  if (!body || body->num_parameters() != 1) return "";
  const Instruction* root = body->root();
  if (root && root->opcode() == Opcode::kTuple && k < root->operand_count()) {
    const Instruction* next = root->operand(k);
    if (next->opcode() == Opcode::kGetTupleElement && next->tuple_index() == k &&
        next->operand(0) == body->parameter(0))
      return "";  // passed through unchanged: the state keeps the value's bytes
  }
  const Instruction* v = init.operand(k);
  if (!v->shape().IsArray()) return "";
  const Instruction* s = StorageOf(v);
  if (s->opcode() == Opcode::kParameter) {
    // A donated entry parameter read by the loop alone is the program's to
    // overwrite (input_output_alias hands its bytes to an output).
    bool is_donated = false;
    if (s->parent() && s->parent()->is_entry() && s == v && s->user_count() == 1)
      for (const IoAlias& a : donated) is_donated |= a.parameter == s->parameter_number() && a.parameter_index.empty();
    if (!is_donated) return "the loop changes it and it is a parameter";
    return "";
  }
  if (s->opcode() == Opcode::kConstant) return "the loop changes it and it is a constant";
  const Computation* comp = w.parent();
  if (comp && (comp->root() == v || comp->root() == s)) return "the loop changes it and it is also an output";
  for (int j = 0; j < init.operand_count(); ++j)
    if (j != k && StorageOf(init.operand(j)) == s) return "the loop changes it and it also starts element " + std::to_string(j);
  for (const Instruction* u : v->users())
    if (u != &init) return "the loop changes it and %" + u->name() + " reads it too";
  if (s != v && s->user_count() > 1) return "the loop changes it and it is a view of %" + s->name() + ", which is read elsewhere";
  return "";
}

// XLA's while copies: a copy for each initial state element the loop may
// not overwrite in place. Returns true if it added any.
bool AddWhileInitCopies(Module& module, PassLog& log) {
  bool changed = false;
  const std::vector<IoAlias> donated = ParseInputOutputAlias(module);
  for (const auto& comp : module.computations()) {
    std::vector<Instruction*> whiles;
    for (const auto& i : comp->instructions())
      if (i->opcode() == Opcode::kWhile && i->operand_count() == 1 && i->operand(0)->opcode() == Opcode::kTuple)
        whiles.push_back(i.get());
    for (Instruction* w : whiles) {
      Instruction* init = w->operand(0);
      // A tuple that something else reads too is the loop's own once copied.
      if (init->user_count() != 1) continue;
      for (int k = 0; k < init->operand_count(); ++k) {
        std::string why = WhileInitCopyReason(*w, *init, k, donated);
        if (why.empty()) continue;
        Instruction* v = init->operand(k);
        Instruction* copy = AddNew(comp.get(), init, Opcode::kCopy, v->shape(), {v});
        CopyMetadataIfMissing(*v, *copy);
        init->ReplaceOperand(k, copy);
        log.rewrites.push_back({"copy of %" + v->name() + " for state element " + std::to_string(k) + " of while %" +
                                    w->name() + ": " + why,
                                copy->name(), copy->id()});
        log.Count("while state copies inserted");
        changed = true;
      }
    }
  }
  return changed;
}

class CopyInsertionPass : public Pass {
 public:
  std::string_view name() const override { return "copy_insertion"; }
  std::string_view description() const override {
    return "Copy insertion: where input_output_alias makes an output share a donated parameter's bytes but the "
           "parameter may still be read after the output is computed, adds a copy of the output that runs after "
           "the last read.";
  }

  StatusOr<bool> Run(Module& module) override {
    Computation* entry = module.entry();
    if (!entry || !entry->root()) return false;
    bool changed = AddWhileInitCopies(module, mutable_log());
    // Copying one output can resolve another (a parameter returned as a
    // second output no longer is once that output is a copy): go round
    // until nothing changes, logging what is left on the last round.
    std::vector<IoAlias> todo = ParseInputOutputAlias(module);
    for (int round = 0; round < 4 && !todo.empty(); ++round) {
      std::vector<IoAlias> left;
      bool progressed = false;
      std::vector<AliasHazard> hazards = AnalyzeAliasHazards(module, todo);
      bool root_split = false;
      for (size_t a = 0; a < todo.size(); ++a) {
        const IoAlias& alias = todo[a];
        if (root_split) {  // the analysis predates the new root: next round
          left.push_back(alias);
          continue;
        }
        AliasHazard& h = hazards[a];
        if (!h.writer || h.passthrough) continue;
        if (h.why_not.empty()) {
          mutable_log().Count("aliases needing no copy");
          continue;
        }
        if (h.copy_fixes && !h.leaf_value && SplitRoot(*entry, alias)) {
          progressed = changed = root_split = true;
          left.push_back(alias);
          continue;
        }
        if (!h.copy_fixes || !h.leaf_value) {
          left.push_back(alias);
          continue;
        }
        Instruction* before = h.leaf_tuple ? entry->root() : nullptr;
        Instruction* copy = AddNew(entry, before, Opcode::kCopy, h.leaf_value->shape(), {h.leaf_value});
        CopyMetadataIfMissing(*h.leaf_value, *copy);
        for (Instruction* r : h.late_readers)
          if (r != copy && r != h.leaf_value) r->AddControlDependencyTo(copy);
        if (h.leaf_tuple) h.leaf_tuple->ReplaceOperand(h.leaf_operand, copy);
        else entry->set_root(copy);
        mutable_log().rewrites.push_back(
            {"copy of %" + h.leaf_value->name() + " for output " + alias.ToString() + ": " + h.why_not,
             copy->name(), copy->id()});
        mutable_log().Count("copies inserted");
        progressed = changed = true;
      }
      todo = std::move(left);
      if (!progressed) break;
    }
    std::vector<AliasHazard> hazards = AnalyzeAliasHazards(module, todo);
    for (size_t a = 0; a < todo.size(); ++a) {
      const IoAlias& alias = todo[a];
      const AliasHazard& h = hazards[a];
      if (!h.writer || h.why_not.empty()) continue;
      mutable_log().Count("aliases a copy cannot fix");
      mutable_log().rewrites.push_back({"no copy for output " + alias.ToString() + ": " + h.why_not +
                                            " (buffer assignment gives the output bytes of its own)",
                                        h.writer->name(), h.writer->id()});
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeCopyInsertionPass() { return std::make_unique<CopyInsertionPass>(); }

}  // namespace hloscope
