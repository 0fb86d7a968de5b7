// InstrList (operands and users, two in place) and Metadata (fields packed
// in one string) behave like the std::vector they replaced, across the
// switch from in-place to heap storage, and the IR's operand/user mutators
// keep operands and users mirrored through it.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/ir/computation.h"
#include "core/ir/instr_list.h"
#include "core/ir/instruction.h"
#include "core/ir/metadata.h"
#include "core/ir/module.h"

namespace hloscope {
namespace {

// Fake pointers: the list never dereferences its elements.
Instruction* P(uintptr_t k) { return reinterpret_cast<Instruction*>(k * 16); }

std::vector<Instruction*> AsVector(const InstrList& l) { return {l.begin(), l.end()}; }

TEST(InstrListTest, MatchesStdVectorUnderRandomEdits) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    InstrList l;
    std::vector<Instruction*> v;
    for (int step = 0; step < 40; ++step) {
      const int op = static_cast<int>(rng() % 6);
      const uintptr_t x = rng() % 1000 + 1;
      if (op <= 1) {
        l.push_back(P(x));
        v.push_back(P(x));
      } else if (op == 2) {
        const size_t at = v.empty() ? 0 : rng() % (v.size() + 1);
        EXPECT_EQ(*l.insert(l.begin() + at, P(x)), P(x));
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(at), P(x));
      } else if (op == 3 && !v.empty()) {
        const size_t at = rng() % v.size();
        l.erase(l.begin() + at);
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(at));
      } else if (op == 4) {
        InstrList copy = l;  // copies and moves keep the elements
        InstrList moved = std::move(copy);
        EXPECT_TRUE(copy.empty());
        EXPECT_EQ(AsVector(moved), v);
        l = moved;
        EXPECT_TRUE(l == moved);
      } else if (op == 5 && step % 13 == 0) {
        l.clear();
        v.clear();
      }
      ASSERT_EQ(l.size(), v.size());
      ASSERT_EQ(AsVector(l), v);
      if (!v.empty()) {
        EXPECT_EQ(l.front(), v.front());
        EXPECT_EQ(l.back(), v.back());
      }
    }
  }
}

TEST(InstrListTest, KeepsTwoInPlaceAndGrowsPastThem) {
  InstrList l;
  EXPECT_EQ(l.capacity(), 2u);
  l.push_back(P(1));
  l.push_back(P(2));
  EXPECT_EQ(l.capacity(), 2u);  // no allocation for two
  l.push_back(P(3));
  EXPECT_GE(l.capacity(), 3u);
  EXPECT_EQ(AsVector(l), (std::vector<Instruction*>{P(1), P(2), P(3)}));
  l.resize(5, P(9));
  EXPECT_EQ(AsVector(l), (std::vector<Instruction*>{P(1), P(2), P(3), P(9), P(9)}));
  l.erase(l.begin() + 1, l.begin() + 4);
  EXPECT_EQ(AsVector(l), (std::vector<Instruction*>{P(1), P(9)}));
  InstrList small;
  small.push_back(P(4));
  l = std::move(small);  // a heap list takes an in-place one
  EXPECT_EQ(AsVector(l), (std::vector<Instruction*>{P(4)}));
  const std::vector<Instruction*> four{P(5), P(6), P(7), P(8)};
  l.assign(four.begin(), four.end());
  EXPECT_EQ(AsVector(l), four);
}

TEST(InstrListTest, OperandsAndUsersStayMirrored) {
  Module m("m");
  Computation* c = m.AddComputation(std::make_unique<Computation>("e"));
  auto add = [&](Opcode op, const std::string& name) {
    return c->AddInstruction(std::make_unique<Instruction>(op, Shape::Scalar(PrimitiveType::kF32), name));
  };
  Instruction* a = add(Opcode::kParameter, "a");
  Instruction* b = add(Opcode::kParameter, "b");
  std::vector<Instruction*> users;
  for (int k = 0; k < 5; ++k) {  // a gets five users: past the two in place
    Instruction* u = add(Opcode::kAdd, "u" + std::to_string(k));
    u->AppendOperand(a);
    u->AppendOperand(k % 2 ? a : b);
    users.push_back(u);
  }
  EXPECT_EQ(AsVector(a->users()), users);
  EXPECT_EQ(b->user_count(), 3);
  users[1]->ReplaceOperand(0, b);  // still uses a through operand 1
  EXPECT_EQ(a->user_count(), 5);
  users[1]->ReplaceOperand(1, b);
  EXPECT_EQ(a->user_count(), 4);
  EXPECT_EQ(b->user_count(), 4);
  a->ReplaceAllUsesWith(b);
  EXPECT_EQ(a->user_count(), 0);
  EXPECT_EQ(b->user_count(), 5);
  for (Instruction* u : users) {
    EXPECT_EQ(u->operand(0), b);
    EXPECT_EQ(u->operand(1), b);
  }
  users[4]->DetachOperands();
  EXPECT_EQ(b->user_count(), 4);
  EXPECT_TRUE(users[4]->operands().empty());
}

TEST(MetadataTest, KeepsFieldsInOrderVerbatim) {
  Metadata md;
  EXPECT_TRUE(md.empty());
  EXPECT_EQ(md.begin(), md.end());
  const std::string long_value = "\"" + std::string(70000, 'x') + "\"";  // past 16 bits
  ASSERT_TRUE(md.Add("op_name", "\"jit(f)/mul\""));
  ASSERT_TRUE(md.Add("source_line", "12"));
  ASSERT_TRUE(md.Add("x", long_value));
  ASSERT_TRUE(md.Add("empty", ""));
  EXPECT_FALSE(md.Add(std::string(Metadata::kMaxNameSize + 1, 'n'), "1"));
  std::vector<std::pair<std::string, std::string>> got;
  for (const MetadataField& f : md) got.push_back({std::string(f.name), std::string(f.value)});
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::string>>{
                     {"op_name", "\"jit(f)/mul\""}, {"source_line", "12"}, {"x", long_value}, {"empty", ""}}));
  EXPECT_EQ(md.size(), 4u);
  Metadata copy = md;
  EXPECT_TRUE(copy == md);
  copy.clear();
  EXPECT_TRUE(copy.empty());
  EXPECT_FALSE(copy == md);

  Instruction i(Opcode::kNegate, Shape::Scalar(PrimitiveType::kF32), "n");
  i.metadata() = md;
  EXPECT_EQ(i.MetadataValue("op_name"), "jit(f)/mul");  // quotes removed
  EXPECT_EQ(i.MetadataValue("source_line"), "12");
  EXPECT_EQ(i.MetadataValue("missing"), "");
}

}  // namespace
}  // namespace hloscope
