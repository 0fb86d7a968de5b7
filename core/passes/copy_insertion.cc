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
    for (const IoAlias& alias : ParseInputOutputAlias(module)) {
      AliasHazard h = AnalyzeAliasHazard(module, alias);
      if (!h.writer || h.passthrough) continue;
      if (h.why_not.empty()) {
        mutable_log().Count("aliases needing no copy");
        continue;
      }
      if (!h.copy_fixes || !h.leaf_value) {
        mutable_log().Count("aliases a copy cannot fix");
        mutable_log().rewrites.push_back({"no copy for output " + alias.ToString() + ": " + h.why_not +
                                              " (buffer assignment gives the output bytes of its own)",
                                          h.writer->name(), h.writer->id()});
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
          {"copy of %" + h.leaf_value->name() + " for output " + alias.ToString() + ": " + h.why_not, copy->name(),
           copy->id()});
      mutable_log().Count("copies inserted");
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeCopyInsertionPass() { return std::make_unique<CopyInsertionPass>(); }

}  // namespace hloscope
