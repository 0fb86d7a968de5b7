// KernelCostCache (fusion_cost.h) remembers a kernel's own numbers by id and
// its instruction and operand counts. Its answers must always equal the
// uncached ones: before and after a producer is fused into the kernel (the
// counts move, so the entry is recomputed), and after the kernel's operand is
// replaced by another instruction of the same shape (the bytes are kept, the
// operands are read afresh).
#include <gtest/gtest.h>

#include "core/fusion/fusion_builder.h"
#include "core/cost/device.h"
#include "core/fusion/fusion_cost.h"
#include "core/parser/parser.h"

namespace hloscope {
namespace {

Instruction* Named(Module& m, const std::string& name) {
  for (const auto& i : m.entry()->instructions())
    if (i->name() == name) return i.get();
  return nullptr;
}

void ExpectSameAsUncached(KernelCostCache& cache, const Instruction& k, const DeviceSpec& d) {
  const Cost cached = cache.CostOf(k), fresh = KernelCost(k, d);
  EXPECT_EQ(cached.bytes(), fresh.bytes()) << k.name();
  EXPECT_DOUBLE_EQ(cached.time_us, fresh.time_us) << k.name();
  EXPECT_DOUBLE_EQ(cache.FlopsOf(k), InstructionFlops(k)) << k.name();
  EXPECT_EQ(cache.InputsOf(k), KernelInputs(k)) << k.name();
}

TEST(KernelCostCache, AnswersAsUncachedAcrossFusionsAndOperandChanges) {
  auto parsed = ParseHloModule(R"(
HloModule m
ENTRY main {
  x = f32[64,32] parameter(0)
  y = f32[64,32] parameter(1)
  e = f32[64,32] exponential(x)
  s = f32[64,16] slice(y), slice={[0:64], [0:16]}
  n = f32[64,16] negate(s)
  a = f32[64,32] add(e, y)
  ROOT t = (f32[64,32], f32[64,16]) tuple(a, n)
})", "test.hlo");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  Module& m = **parsed;
  for (const auto& i : m.entry()->instructions()) i->set_id(m.NewId());
  auto device = LoadDevice("h200");
  ASSERT_TRUE(device.ok());
  KernelCostCache cache(*device);

  Instruction* a = WrapInFusion(Named(m, "a"), FusionKind::kLoop);
  if (a->id() < 0) a->set_id(m.NewId());
  ExpectSameAsUncached(cache, *a, *device);
  // Fusing `e` in: the fusion now reads x instead of e, and computes exp.
  FuseProducerInto(a, Named(m, "e"));
  ExpectSameAsUncached(cache, *a, *device);

  // A kernel reading a slice of y: its bytes read are the slice's.
  Instruction* n = WrapInFusion(Named(m, "n"), FusionKind::kLoop);
  if (n->id() < 0) n->set_id(m.NewId());
  FuseProducerInto(n, Named(m, "s"));
  ExpectSameAsUncached(cache, *n, *device);
  // Its operand replaced by another of the same shape: the answer still
  // names the operand it reads now.
  Instruction* y2 = m.entry()->AddInstructionBefore(
      std::make_unique<Instruction>(Opcode::kNegate, Named(m, "y")->shape(), "y2"), n);
  y2->AppendOperand(Named(m, "y"));
  y2->set_id(m.NewId());
  n->ReplaceOperand(0, y2);
  ExpectSameAsUncached(cache, *n, *device);
}

}  // namespace
}  // namespace hloscope
