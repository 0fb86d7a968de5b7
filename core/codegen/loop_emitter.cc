// Loop kernels: one thread per output element with a grid-stride loop, for
// loop fusions (multi-output ones included), unfused elementwise and
// data-movement instructions, copies and concatenations. Elements are
// visited in the physical order of the (first) output, so that neighbouring
// threads write neighbouring bytes.
#include <algorithm>
#include <map>

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/emitters.h"
#include "core/codegen/ir_util.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

std::vector<int64_t> MinorToMajor(const Shape& s) {
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank())
    return s.layout().minor_to_major;
  return Shape::DefaultLayout(s.rank()).minor_to_major;
}

Status KernelError(const KernelSpec& spec, const std::string& why) {
  return Status::Error("codegen: kernel " + spec.name + " (" + std::string(OpcodeName(spec.instr->opcode())) + " %" +
                       spec.instr->name() + "): " + why);
}

}  // namespace

runtime::LaunchDims LoopLaunchDims(int64_t elements, const DeviceSpec* device) {
  runtime::LaunchDims dims;
  int64_t block = 256;
  int max_block = device && device->max_threads_per_block > 0 ? device->max_threads_per_block : 1024;
  block = std::min<int64_t>(block, max_block);
  if (elements < block) block = std::max<int64_t>(32, (elements + 31) / 32 * 32);
  int64_t grid = std::max<int64_t>(1, (elements + block - 1) / block);
  // Enough blocks to fill every SM many times over; the grid-stride loop
  // covers the rest.
  int sms = device && device->sm_count > 0 ? device->sm_count : 132;
  grid = std::min<int64_t>(grid, int64_t(sms) * 64);
  dims.block[0] = static_cast<uint32_t>(block);
  dims.grid[0] = static_cast<uint32_t>(grid);
  return dims;
}

StatusOr<EmittedKernel> EmitLoopKernel(llvm::Module& m, const KernelSpec& spec) {
  const Instruction* instr = spec.instr;
  std::vector<const Instruction*> roots;
  if (instr->opcode() == Opcode::kFusion) {
    const Computation* c = instr->fused_computation();
    if (!c || !c->root()) return KernelError(spec, "fusion has no fused computation");
    if (c->root()->opcode() == Opcode::kTuple) roots.assign(c->root()->operands().begin(), c->root()->operands().end());
    else roots = {c->root()};
  } else {
    roots = {instr};
  }
  // One output per array leaf of the roots: a variadic reduce or
  // reduce-window root (a tuple of N results) gives N, computed together.
  struct Out {
    const Instruction* root;
    int leaf;  // -1: the root's value itself
  };
  std::vector<Out> outs;
  for (const Instruction* r : roots) {
    const bool variadic =
        r->shape().IsTuple() && (r->opcode() == Opcode::kReduce || r->opcode() == Opcode::kReduceWindow);
    if (!variadic) {
      outs.push_back({r, -1});
      continue;
    }
    for (int k = 0; k < r->shape().tuple_size(); ++k) outs.push_back({r, k});
  }
  std::vector<int> out_args;
  for (size_t i = 0; i < spec.args.size(); ++i)
    if (spec.args[i].is_output) out_args.push_back(static_cast<int>(i));
  if (out_args.size() != outs.size())
    return KernelError(spec, std::to_string(outs.size()) + " results but " + std::to_string(out_args.size()) +
                                 " output arguments");
  for (const KernelArg& a : spec.args) {
    if (!a.shape.IsArray()) return KernelError(spec, "argument of shape " + a.shape.ToString() + " is not an array");
    if (a.shape.has_layout() && !a.shape.layout().tiles.empty())
      return KernelError(spec, "tiled layouts are not supported (" + a.shape.ToString() + ")");
    if (!LlvmStorageType(a.shape.element_type(), m.getContext()))
      return KernelError(spec, "element type " + std::string(PrimitiveTypeName(a.shape.element_type())) +
                                   " is not supported by the kernel emitters");
  }
  // Outputs grouped by dimensions: one grid-stride loop per group (XLA's
  // multi-output loop fusions share one shape; horizontal fusion may not).
  std::vector<std::vector<size_t>> groups;
  int64_t n = 0;
  for (size_t k = 0; k < out_args.size(); ++k) {
    const Shape& s = spec.args[out_args[k]].shape;
    n = std::max(n, s.num_elements());
    bool placed = false;
    for (auto& g : groups)
      if (spec.args[out_args[g[0]]].shape.SameDims(s)) {
        g.push_back(k);
        placed = true;
        break;
      }
    if (!placed) groups.push_back({k});
  }
  EmittedKernel result;
  result.kind = instr->opcode() == Opcode::kCopy ? "copy" : instr->opcode() == Opcode::kConcatenate ? "concatenate" : "loop";
  result.dims = LoopLaunchDims(n, spec.device);

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  MarkKernel(f, result.dims.block[0]);
  std::vector<llvm::Value*> args = KernelArguments(f);
  ElementalEmitter el(b, spec, args);

  llvm::LLVMContext& ctx = m.getContext();
  llvm::Value* tid = b.CreateZExt(ThreadIdx(b, Dim::kX), b.getInt64Ty());
  llvm::Value* bid = b.CreateZExt(BlockIdx(b, Dim::kX), b.getInt64Ty());
  llvm::Value* ntid = b.CreateZExt(BlockDim(b, Dim::kX), b.getInt64Ty());
  llvm::Value* nctaid = b.CreateZExt(GridDim(b, Dim::kX), b.getInt64Ty());
  llvm::Value* start = b.CreateAdd(b.CreateMul(bid, ntid), tid);
  llvm::Value* stride = b.CreateMul(nctaid, ntid);
  for (const auto& group : groups) {
    const Shape& shape = spec.args[out_args[group[0]]].shape;
    llvm::BasicBlock* pre = b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx, "loop_header", f);
    auto* body = llvm::BasicBlock::Create(ctx, "loop_body", f);
    auto* exit = llvm::BasicBlock::Create(ctx, "loop_exit", f);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "linear");
    i->addIncoming(start, pre);
    b.CreateCondBr(b.CreateICmpULT(i, b.getInt64(shape.num_elements())), body, exit);
    b.SetInsertPoint(body);
    std::vector<int64_t> m2m = MinorToMajor(shape);
    std::vector<llvm::Value*> index(shape.rank());
    llvm::Value* rest = i;
    for (int64_t d : m2m) {
      llvm::Value* size = b.getInt64(shape.dim(static_cast<int>(d)));
      index[d] = b.CreateURem(rest, size);
      rest = b.CreateUDiv(rest, size);
    }
    // Every output's element first, then the stores: an output may be
    // written over a parameter that a sibling output also reads at this
    // index (a donated parameter, core/memory/io_alias.h).
    std::vector<llvm::Value*> values;
    std::map<const Instruction*, std::vector<llvm::Value*>> leaves;  // variadic roots, this element
    for (size_t k : group) {
      const Out& o = outs[k];
      if (o.leaf < 0) {
        ASSIGN_OR_RETURN(llvm::Value * v, el.Emit(o.root, index));
        values.push_back(v);
        continue;
      }
      if (!leaves.count(o.root)) {
        ASSIGN_OR_RETURN(leaves[o.root], el.EmitLeaves(o.root, index));
      }
      values.push_back(leaves[o.root][static_cast<size_t>(o.leaf)]);
    }
    for (size_t j = 0; j < group.size(); ++j) el.Store(out_args[group[j]], index, values[j]);
    el.ClearCache();
    i->addIncoming(b.CreateAdd(i, stride), b.GetInsertBlock());
    b.CreateBr(header);
    b.SetInsertPoint(exit);
  }
  b.CreateRetVoid();
  return result;
}

}  // namespace hloscope::codegen
