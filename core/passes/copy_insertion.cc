// copy_insertion: XLA's CopyInsertion for donated parameters. An output that
// input_output_alias puts in a parameter's bytes is written there by the
// instruction that computes it; when the parameter may still be read after
// that write (under some schedule the dependencies allow), the output is
// computed elsewhere and a copy, ordered after every such read by control
// edges, writes it into the parameter's bytes at the end. Each copy is
// logged with its reason. Outputs that are other parameters or constants
// get a copy too (their bytes are not the output's to hand over).
//
// Loop state needs no copies here: the runtime writes a while body's root
// into the state buffers after the body, in an order that never overwrites
// a value still to be copied (core/codegen/kernel_plan.cc, ParallelCopies).
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
    bool changed = false;
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
