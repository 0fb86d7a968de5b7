// Order keys: Computation::Precedes agrees with the list order after
// insertions, moves, removals and reorders, including many insertions at one
// place (which exhaust the gap between two keys and renumber the list).
#include <gtest/gtest.h>

#include <random>

#include "core/ir/computation.h"
#include "core/ir/module.h"

namespace hloscope {
namespace {

Instruction* Add(Computation* c, const std::string& name, Instruction* before = nullptr) {
  return c->AddInstructionBefore(std::make_unique<Instruction>(Opcode::kConstant, Shape::Scalar(PrimitiveType::kF32), name),
                                 before);
}

// Every pair of instructions: Precedes(a, b) exactly when a is listed first.
void ExpectKeysMatchList(const Computation& c) {
  std::vector<const Instruction*> list;
  for (const auto& i : c.instructions()) list.push_back(i.get());
  for (size_t a = 0; a < list.size(); ++a)
    for (size_t b = 0; b < list.size(); ++b)
      ASSERT_EQ(c.Precedes(list[a], list[b]), a < b) << list[a]->name() << " vs " << list[b]->name();
}

TEST(ComputationOrderTest, AppendsAndInsertsKeepTheListOrder) {
  Module m("m");
  Computation* c = m.AddComputation(std::make_unique<Computation>("e"));
  Instruction* a = Add(c, "a");
  Instruction* d = Add(c, "d");
  Instruction* b = Add(c, "b", d);
  Add(c, "front", a);
  Add(c, "c", d);
  ExpectKeysMatchList(*c);
  EXPECT_TRUE(c->Precedes(a, b));
  EXPECT_TRUE(c->Precedes(b, d));
  EXPECT_FALSE(c->Precedes(d, a));
}

TEST(ComputationOrderTest, ManyInsertionsAtOnePlaceRenumber) {
  Module m("m");
  Computation* c = m.AddComputation(std::make_unique<Computation>("e"));
  Add(c, "first");
  Instruction* last = Add(c, "last");
  // Each insertion halves the room before `last`: well past the gap.
  for (int k = 0; k < 100; ++k) Add(c, "x" + std::to_string(k), last);
  // And as many before the first instruction.
  Instruction* head = &*c->instructions().front();
  for (int k = 0; k < 100; ++k) head = Add(c, "h" + std::to_string(k), head);
  ExpectKeysMatchList(*c);
}

TEST(ComputationOrderTest, MovesRemovalsAndReordersKeepTheListOrder) {
  Module m("m");
  Computation* c = m.AddComputation(std::make_unique<Computation>("e"));
  std::vector<Instruction*> all;
  for (int k = 0; k < 40; ++k) all.push_back(Add(c, "i" + std::to_string(k)));
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    Instruction* x = all[rng() % all.size()];
    Instruction* before = rng() % 5 == 0 ? nullptr : all[rng() % all.size()];
    if (before == x) continue;
    c->MoveBefore(x, before);
  }
  ExpectKeysMatchList(*c);
  c->RemoveInstruction(all[3]);
  all.erase(all.begin() + 3);
  ExpectKeysMatchList(*c);
  std::vector<Instruction*> reversed(all.rbegin(), all.rend());
  c->Reorder(reversed);
  ExpectKeysMatchList(*c);
  EXPECT_TRUE(c->Precedes(all.back(), all.front()));
}

}  // namespace
}  // namespace hloscope
