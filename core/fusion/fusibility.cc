#include "core/fusion/fusibility.h"

#include <algorithm>
#include <unordered_set>

#include "core/cost/cost_model.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/triton_fusibility.h"
#include "core/memory/io_alias.h"

namespace hloscope {
namespace {

std::string Op(const Instruction& i) { return std::string(OpcodeName(i.opcode())); }

bool IsLoopFusibleOp(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kDynamicSlice: case Opcode::kConcatenate: case Opcode::kPad:
    case Opcode::kIota: case Opcode::kReverse: case Opcode::kGather: case Opcode::kConstant:
    case Opcode::kSelect: case Opcode::kClamp: case Opcode::kReducePrecision: case Opcode::kReduceWindow:
      return true;
    default:
      return IsElementwise(op);
  }
}

// A copy whose result has another physical layout than its operand: it
// transposes memory.
bool ChangesLayout(const Instruction& i) {
  if (i.opcode() != Opcode::kCopy || i.operand_count() != 1) return false;
  const Shape& a = i.operand(0)->shape();
  const Shape& b = i.shape();
  return a.IsArray() && b.IsArray() && a.has_layout() && b.has_layout() && !(a.layout() == b.layout());
}

// The producer's result is made by a layout-changing copy (XLA:
// LayoutsAreReduceInputFusionFriendly): a reduction reading it would read
// memory in transposed order.
bool ProducesTransposedLayout(const Instruction& p) {
  if (p.opcode() == Opcode::kFusion && p.fused_computation()) return ChangesLayout(*p.fused_computation()->root());
  return ChangesLayout(p);
}

// The operand a scatter consumer (unfused, or a fusion rooted at a scatter)
// updates in place, or nullptr when `c` is no such scatter.
const Instruction* ScatterInPlaceOperand(const Instruction& c) {
  if (c.opcode() == Opcode::kScatter) return c.operand_count() > 0 ? c.operand(0) : nullptr;
  if (c.opcode() != Opcode::kFusion || !c.fused_computation()) return nullptr;
  const Instruction* root = c.fused_computation()->root();
  if (root->opcode() != Opcode::kScatter || root->operand_count() == 0) return nullptr;
  const Instruction* p = root->operand(0);
  if (p->opcode() != Opcode::kParameter) return nullptr;
  int64_t k = p->parameter_number();
  return k >= 0 && k < c.operand_count() ? c.operand(static_cast<int>(k)) : nullptr;
}

}  // namespace

bool ContainsReduce(const Instruction& i) {
  if (i.opcode() == Opcode::kReduce) return true;
  if (i.opcode() != Opcode::kFusion || !i.fused_computation()) return false;
  for (const auto& m : i.fused_computation()->instructions())
    if (m->opcode() == Opcode::kReduce) return true;
  return false;
}

namespace {

// XLA's IsIntermediate with one operand: one-operand elementwise ops of
// unchanged shape (a layout-changing copy is not one), and bitcasts that keep
// the element type.
bool IsEpilogueOp(const Instruction& i) {
  if (i.operand_count() != 1 || i.HasSideEffect() || !i.shape().IsArray() || !i.operand(0)->shape().IsArray())
    return false;
  const Shape& o = i.operand(0)->shape();
  if (i.opcode() == Opcode::kBitcast)
    return o.element_type() == i.shape().element_type() && o.num_elements() == i.shape().num_elements();
  // A reshape that keeps the bytes in place, as XLA's IsIntermediate takes it.
  if (i.opcode() == Opcode::kReshape) return ReshapeIsBitcast(i) && o.num_elements() == i.shape().num_elements();
  // Any elementwise op that writes another layout than it reads changes the
  // layout, not only a copy: the reduction kernel writes its epilogue in the
  // reduce's order (hloscope-diffuzz seed 103006: negate{0,1} of a row
  // reduce{1,0} came out transposed).
  const bool same_layout = !o.has_layout() || !i.shape().has_layout() || o.layout() == i.shape().layout();
  return IsElementwise(i.opcode()) && o.SameDims(i.shape()) && !ChangesLayout(i) && same_layout;
}

}  // namespace

const Instruction* ReductionHero(const Instruction* root) {
  const Instruction* i = root;
  while (i) {
    if (i->opcode() == Opcode::kReduce) return i;
    if (!IsEpilogueOp(*i)) return nullptr;
    i = i->operand(0);
  }
  return nullptr;
}

bool IsReductionProducer(const Instruction& p) {
  if (p.shape().IsTuple()) return false;
  if (p.opcode() == Opcode::kReduce) return true;
  if (p.opcode() != Opcode::kFusion || !p.fused_computation() || p.fusion_kind() != FusionKind::kInput) return false;
  return ReductionHero(p.fused_computation()->root()) != nullptr;
}

bool HasDefaultLayout(const Shape& s) {
  if (!s.IsArray() || !s.has_layout()) return true;
  const auto& m2m = s.layout().minor_to_major;
  if (static_cast<int>(m2m.size()) != s.rank()) return true;
  for (int k = 0; k < s.rank(); ++k)
    if (m2m[static_cast<size_t>(k)] != s.rank() - 1 - k) return false;
  return true;
}

bool ReductionRaceFree(const Instruction& reduce) {
  const Shape& in = reduce.operand(0)->shape();
  if (!in.IsArray()) return true;
  std::vector<int64_t> m2m;
  if (in.has_layout() && static_cast<int>(in.layout().minor_to_major.size()) == in.rank()) {
    m2m = in.layout().minor_to_major;
  } else {
    for (int d = in.rank() - 1; d >= 0; --d) m2m.push_back(d);
  }
  std::vector<int64_t> red = reduce.dimensions();
  auto reduced = [&](int64_t d) { return std::find(red.begin(), red.end(), d) != red.end(); };
  int64_t reduced_elements = 1, inner_kept = 1;
  bool seen_reduced = false;
  // Physical order, minor to major: kept dims minor to every reduced one make
  // it a column reduction.
  for (int64_t d : m2m) {
    if (reduced(d)) {
      reduced_elements *= in.dim(static_cast<int>(d));
      seen_reduced = true;
    } else if (!seen_reduced) {
      inner_kept *= in.dim(static_cast<int>(d));
    }
  }
  return inner_kept == 1 ? reduced_elements <= 1024 * 16 : reduced_elements <= 32 * 128;
}

bool IsElementalReduceProducer(const Instruction& p) {
  if (p.opcode() == Opcode::kReduce) return ReductionPrefersElemental(p);
  if (p.opcode() != Opcode::kFusion || p.fusion_kind() != FusionKind::kLoop || p.shape().IsTuple() ||
      !p.fused_computation())
    return false;
  bool any = false;
  for (const auto& m : p.fused_computation()->instructions()) {
    if (m->opcode() != Opcode::kReduce) continue;
    if (!ReductionPrefersElemental(*m)) return false;
    any = true;
  }
  return any;
}

// XLA's CreatesHeavyComputation walks the users of the parameter that stands
// for the producer; a reduction of the consumer that reads only other values
// does not count.
bool ReducesValueOf(const Instruction& producer, const Instruction& consumer) {
  if (consumer.opcode() != Opcode::kFusion || !consumer.fused_computation()) return consumer.opcode() == Opcode::kReduce;
  const Computation* fc = consumer.fused_computation();
  std::vector<const Instruction*> todo;
  std::unordered_set<const Instruction*> seen;
  for (int k = 0; k < consumer.operand_count(); ++k)
    if (consumer.operand(k) == &producer && fc->parameter(k)) todo.push_back(fc->parameter(k));
  while (!todo.empty()) {
    const Instruction* x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second) continue;
    if (x->opcode() == Opcode::kReduce) return true;
    for (const Instruction* u : x->users()) todo.push_back(u);
  }
  return false;
}

namespace {
// Ops the elemental emitter emits with loops or branches of their own (XLA's
// ElementalIrEmitter::OpInvalidatesCache).
bool SplitsBasicBlocks(Opcode op) {
  switch (op) {
    case Opcode::kConcatenate: case Opcode::kDot: case Opcode::kDynamicUpdateSlice: case Opcode::kPad:
    case Opcode::kReduce: case Opcode::kReduceWindow:
      return true;
    default:
      return false;
  }
}

// A reduce the reduction emitter would take (a real reduction hero).
bool ContainsRealReduce(const Instruction& i) {
  if (i.opcode() == Opcode::kReduce) return !ReductionPrefersElemental(i);
  if (i.opcode() != Opcode::kFusion || !i.fused_computation()) return false;
  for (const auto& m : i.fused_computation()->instructions())
    if (m->opcode() == Opcode::kReduce && !ReductionPrefersElemental(*m)) return true;
  return false;
}
}  // namespace

int BasicBlockSplitCount(const Instruction& i) {
  if (i.opcode() != Opcode::kFusion || !i.fused_computation()) return SplitsBasicBlocks(i.opcode()) ? 1 : 0;
  int n = 0;
  for (const auto& m : i.fused_computation()->instructions()) n += SplitsBasicBlocks(m->opcode());
  return n;
}

int UnnestedReductionCount(const Instruction& i) {
  if (i.opcode() == Opcode::kReduce) return ReductionPrefersElemental(i) ? 0 : 1;
  if (i.opcode() != Opcode::kFusion || !i.fused_computation()) return 0;
  int n = 0;
  for (const auto& m : i.fused_computation()->instructions())
    n += m->opcode() == Opcode::kReduce && !ReductionPrefersElemental(*m);
  return n;
}

Refusal EpilogueFusible(const Instruction& producer, const Instruction& consumer, bool single_user) {
  const Instruction* reduce = producer.opcode() == Opcode::kReduce
                                  ? &producer
                                  : ReductionHero(producer.fused_computation()->root());
  if (single_user && producer.user_count() > 1)
    return "a reduction's result is fused into its consumer only when that is its single user (XLA: reduction "
           "epilogue fusion needs a single user)";
  if (!ReductionRaceFree(*reduce))
    return "the reduction is too long to be emitted without atomics; only race-free reductions take an epilogue";
  if (consumer.opcode() == Opcode::kFusion) {
    if (consumer.fusion_kind() != FusionKind::kLoop || !consumer.fused_computation() || consumer.operand_count() != 1)
      return "the consumer fusion is not a chain of one-operand elementwise ops on the reduced values";
    for (const auto& m : consumer.fused_computation()->instructions())
      if (m->opcode() != Opcode::kParameter && !IsEpilogueOp(*m))
        return "the consumer fusion holds " + Op(*m) + "; a reduction epilogue may only apply one-operand "
               "elementwise ops to the reduced values";
    return "";
  }
  if (!IsEpilogueOp(consumer))
    return "the consumer " + Op(consumer) + " is not a one-operand elementwise op on the reduced values; the reduce "
           "ends its kernel (a reduction epilogue may only apply such ops)";
  return "";
}

int FusedInstructionCount(const Instruction& i) {
  if (i.opcode() != Opcode::kFusion || !i.fused_computation()) return 1;
  int n = 0;
  for (const auto& m : i.fused_computation()->instructions())
    if (m->opcode() != Opcode::kParameter) ++n;
  return n;
}

Refusal ProducerFusible(const Instruction& p) {
  if (p.HasSideEffect()) return "the producer " + Op(p) + " has side effects";
  switch (p.opcode()) {
    case Opcode::kParameter: return "the producer is a parameter: it is read, not computed";
    case Opcode::kReduce:
      return "the producer is a reduce: its result is complete only after all elements are combined, so it "
             "ends a kernel";
    case Opcode::kDot: case Opcode::kConvolution:
      return "the producer " + Op(p) + " runs as its own library-style kernel (cuBLAS/cuDNN in XLA) and stays unfused";
    case Opcode::kTuple: case Opcode::kGetTupleElement:
      return "the producer " + Op(p) + " only rearranges buffers; there is nothing to compute";
    case Opcode::kFusion:
      if (IsTritonGemmFusion(p))
        return "the producer is a Triton GEMM fusion (a dot with its prologue and epilogue); its result is written "
               "by the GEMM kernel, which takes no more consumers";
      if (ContainsReduce(p)) return "the producer fusion ends in a reduction";
      if (p.fusion_kind() != FusionKind::kLoop) return "only loop fusions are merged into consumers";
      if (p.shape().IsTuple()) return "the producer fusion has several outputs";
      return "";
    default:
      break;
  }
  if (p.shape().IsTuple()) return "the producer " + Op(p) + " returns a tuple";
  if (p.opcode() == Opcode::kConstant && p.shape().num_elements() > 1)
    return "the producer is a non-scalar constant: it stays a buffer the kernel reads (XLA fuses only scalar "
           "constants)";
  if (!IsLoopFusibleOp(p.opcode())) return "the producer " + Op(p) + " is not an elementwise or data-movement op";
  return "";
}

Refusal ConsumerFusible(const Instruction& c) {
  if (c.HasSideEffect()) return "the consumer " + Op(c) + " has side effects";
  switch (c.opcode()) {
    case Opcode::kReduce:
      if (c.shape().IsTuple() && c.operand_count() > 2) return "";  // variadic reduce: input fusion too
      return "";
    case Opcode::kFusion:
      if (IsTritonGemmFusion(c))
        return "the consumer is a Triton GEMM fusion; its prologue was chosen when it was formed "
               "(triton-gemm-rewriter), and priority fusion adds no producers to it";
      return c.fusion_kind() == FusionKind::kLoop || c.fusion_kind() == FusionKind::kInput
                 ? ""
                 : "the consumer fusion is of kind " + std::string(FusionKindName(c.fusion_kind()));
    case Opcode::kDynamicUpdateSlice:
      return "";
    case Opcode::kScatter:
      // XLA: a scatter roots an input fusion; its indices and updates may be
      // computed inside (single-operand scatters; our emitter's form).
      if (c.operand_count() != 3 || c.shape().IsTuple())
        return "the consumer is a variadic scatter; only single-operand scatters take fused producers";
      return "";
    case Opcode::kDot: case Opcode::kConvolution:
      return "the consumer " + Op(c) + " stays an unfused library-style kernel";
    case Opcode::kTuple: return "the consumer is a tuple: it only groups the program's outputs";
    case Opcode::kGetTupleElement: return "the consumer is a get-tuple-element";
    default:
      break;
  }
  if (c.shape().IsTuple()) return "the consumer " + Op(c) + " returns a tuple";
  if (!IsLoopFusibleOp(c.opcode()) || c.opcode() == Opcode::kConstant)
    return "the consumer " + Op(c) + " cannot host fused producers";
  return "";
}

double ReuseFactor(const Instruction& producer, const Instruction& consumer) {
  int64_t pe = producer.shape().IsArray() ? producer.shape().num_elements() : 1;
  if (pe == 0) return 1;
  auto reads_many = [&](const Instruction& user) -> double {
    switch (user.opcode()) {
      case Opcode::kBroadcast: case Opcode::kReduceWindow: case Opcode::kGather: case Opcode::kPad:
      case Opcode::kConcatenate: {
        int64_t ue = user.shape().IsArray() ? user.shape().num_elements() : 1;
        return std::max(1.0, double(ue) / double(pe));
      }
      default:
        return 1.0;
    }
  };
  if (consumer.opcode() != Opcode::kFusion) return reads_many(consumer);
  // Inside a fusion: the users of the parameter that stands for `producer`.
  const Computation* fc = consumer.fused_computation();
  double f = 1.0;
  for (int k = 0; k < consumer.operand_count(); ++k) {
    if (consumer.operand(k) != &producer || !fc->parameter(k)) continue;
    for (const Instruction* u : fc->parameter(k)->users()) f = std::max(f, reads_many(*u));
  }
  return f;
}

int FusedOperandsAndOutputs(const Instruction& producer, const Instruction& consumer) {
  std::unordered_set<const Instruction*> ops;
  for (const Instruction* o : consumer.operands())
    if (o != &producer) ops.insert(o);
  for (const Instruction* o : producer.operands()) ops.insert(o);
  return static_cast<int>(ops.size()) + static_cast<int>(consumer.shape().leaf_count());
}

namespace {


// The size limit of a producer–consumer fusion ("" = within it).
Refusal SizeRefusal(const Instruction& producer, const Instruction& consumer, bool ir_size_limit) {
  if (!ir_size_limit) {
    const int p = FusedInstructionCount(producer), c = FusedInstructionCount(consumer);
    if (p + c > kMaxFusedInstructions)
      return "the fusion would hold more than " + std::to_string(kMaxFusedInstructions) + " instructions";
    return "";
  }
  // XLA multiplies the producer's numbers by the times the consumer emits
  // its value at different indices (non-elementwise reads); values read
  // elementwise are emitted once, and we count every read so.
  int p = 0, c = 0, splits = 0;
  for (const Instruction* x : {&producer, &consumer}) {
    int& n = x == &producer ? p : c;
    if (x->opcode() != Opcode::kFusion || !x->fused_computation()) {
      n = 1;
      splits += SplitsBasicBlocks(x->opcode());
      continue;
    }
    for (const auto& m : x->fused_computation()->instructions()) {
      if (m->opcode() == Opcode::kParameter) continue;
      ++n;
      splits += SplitsBasicBlocks(m->opcode());
    }
  }
  if (splits > kMaxBasicBlockSplitsPerFusion)
    return "the fusion would have " + std::to_string(splits) +
           " basic-block splits (reductions, concatenates, pads...), more than " +
           std::to_string(kMaxBasicBlockSplitsPerFusion) + " (XLA: overly large code duplication)";
  if (p + c > kMaxIrSize)
    return "the fusion would emit more than " + std::to_string(kMaxIrSize) + " instructions (" + std::to_string(p) +
           " + " + std::to_string(c) + "; XLA: overly large code duplication)";
  return "";
}

}  // namespace

Refusal PairFusible(const Instruction& producer, const Instruction& consumer, bool duplicate,
                    const PairRules& rules) {
  const bool epilogue = rules.epilogue, elemental_reductions = rules.elemental_reductions;
  // Today's XLA GPU: a Triton normalization fusion takes producers and
  // consumers as long as the whole stays tileable by rows.
  if (IsTritonFusion(producer) || IsTritonFusion(consumer)) return TritonPairFusible(producer, consumer);
  if (epilogue && IsReductionProducer(producer) && !producer.HasSideEffect()) {
    if (Refusal r = ConsumerFusible(consumer); !r.empty()) return r;
    if (Refusal r = EpilogueFusible(producer, consumer, rules.epilogue_single_user); !r.empty()) return r;
    if (FusedOperandsAndOutputs(producer, consumer) > kMaxOperandsAndOutputsPerFusion)
      return "the fusion would have more than " + std::to_string(kMaxOperandsAndOutputsPerFusion) +
             " operands and outputs";
    if (Refusal r = SizeRefusal(producer, consumer, rules.ir_size_limit); !r.empty()) return r;
    return "";
  }
  // A reduction too small for the reduction emitter is recomputed in its
  // consumers like any loop producer (today's XLA GPU).
  const bool elemental = elemental_reductions && IsElementalReduceProducer(producer);
  if (!elemental)
    if (Refusal r = ProducerFusible(producer); !r.empty()) return r;
  if (Refusal r = ConsumerFusible(consumer); !r.empty()) return r;
  if (elemental && ReducesValueOf(producer, consumer))
    return "the consumer reduces its value: each value it reduces would recompute the producer's whole reduction "
           "(nested reductions; XLA: CreatesHeavyComputation)";
  if (elemental_reductions ? ContainsRealReduce(producer) && ContainsRealReduce(consumer)
                           : ContainsReduce(producer) && ContainsReduce(consumer))
    return "both contain a reduction; XLA keeps two reductions in separate kernels";
  if (ContainsReduce(consumer) && ProducesTransposedLayout(producer))
    return "the producer's copy changes the physical layout; the reduction would read its input in transposed "
           "order (XLA: layouts not reduce-input-fusion friendly)";
  if (const Instruction* in_place = ScatterInPlaceOperand(consumer)) {
    if (in_place == &producer)
      return "the consumer scatter updates this operand in place; fusing it would lose the in-place buffer (XLA: "
             "do not fuse into the in-place operand of scatter)";
    for (const Instruction* o : producer.operands())
      if (o == in_place)
        return "the producer reads the operand the consumer scatter updates in place (XLA: producer uses the "
               "in-place operand of a scatter)";
  }
  if (consumer.opcode() == Opcode::kDynamicUpdateSlice && consumer.operand(0) == &producer)
    return "the consumer dynamic-update-slice updates this operand in place; fusing it would lose the in-place "
           "buffer";
  if (consumer.opcode() == Opcode::kFusion && consumer.fused_computation() &&
      consumer.fused_computation()->root()->opcode() == Opcode::kDynamicUpdateSlice) {
    const Computation* fc = consumer.fused_computation();
    const Instruction* dus = fc->root();
    for (int k = 0; k < consumer.operand_count(); ++k)
      if (consumer.operand(k) == &producer && fc->parameter(k) == dus->operand(0))
        return "the consumer updates this operand in place (dynamic-update-slice)";
  }
  double reuse = ReuseFactor(producer, consumer);
  if (elemental) {
    // Its cost (recomputing the short reduction per element read) is left
    // to the cost model, as in XLA's priority fusion.
  } else if (IsExpensive(producer) && reuse > 1.0 && !rules.cost_model_duplication)
    return "the producer " + Op(producer) + " is expensive and the consumer reads each of its elements about " +
           std::to_string(static_cast<int64_t>(reuse)) + " times; fusing would recompute it that often";
  if (duplicate && IsExpensive(producer) && !elemental && !rules.cost_model_duplication) {
    int64_t users = producer.user_count();
    return "the producer " + Op(producer) + " is expensive and has " + std::to_string(users) +
           " consumers; fusing would compute it " + std::to_string(users) + " times";
  }
  if (FusedOperandsAndOutputs(producer, consumer) > kMaxOperandsAndOutputsPerFusion)
    return "the fusion would have more than " + std::to_string(kMaxOperandsAndOutputsPerFusion) +
           " operands and outputs";
  return SizeRefusal(producer, consumer, rules.ir_size_limit);
}

}  // namespace hloscope
