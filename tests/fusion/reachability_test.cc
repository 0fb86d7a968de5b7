// Reachability (bitset, updated incrementally after merges) against a map
// built from scratch, and the decision log's "once per candidate and
// reason" rule in multi-output fusion.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "core/fusion/fusion_builder.h"
#include "core/fusion/reachability.h"
#include "core/ir/module.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/passes/pass_registry.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

std::unique_ptr<Module> LoadSample(const std::string& name) {
  auto text = ReadFileToString(testing::SamplesDir() + "/" + name);
  EXPECT_TRUE(text.ok());
  if (!text.ok()) return nullptr;
  auto m = ParseHloModule(*text, name);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

void RunPasses(Module& m, const std::vector<std::string>& passes) {
  auto p = PassRegistry::Global().BuildPassList(passes, "test");
  ASSERT_TRUE(p.ok()) << p.status().message();
  auto r = (*p)->Run(m);
  ASSERT_TRUE(r.ok()) << r.status().message();
}

// Every pair of instructions of `c`: `updated` answers as a fresh map does.
void ExpectSameAsFresh(const Reachability& updated, const Computation& c) {
  Reachability fresh(c);
  std::vector<const Instruction*> all;
  for (const auto& i : c.instructions()) all.push_back(i.get());
  int mismatches = 0;
  for (const Instruction* a : all)
    for (const Instruction* b : all)
      if (updated.Reaches(a, b) != fresh.Reaches(a, b) && ++mismatches <= 5)
        ADD_FAILURE() << a->name() << " -> " << b->name() << ": updated " << updated.Reaches(a, b) << ", fresh "
                      << fresh.Reaches(a, b);
  EXPECT_EQ(mismatches, 0);
}

TEST(Reachability, FollowsOperandsAndIsReflexive) {
  auto m = ParseHloModule(R"(HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] negate(p)
  b = f32[4] exponential(p)
  c = f32[4] add(a, b)
  ROOT d = f32[4] negate(c)
})");
  ASSERT_TRUE(m.ok());
  const Computation& e = *(*m)->entry();
  auto find = [&](const char* n) {
    for (const auto& i : e.instructions())
      if (i->name() == n) return static_cast<const Instruction*>(i.get());
    return static_cast<const Instruction*>(nullptr);
  };
  Reachability r(e);
  EXPECT_TRUE(r.Reaches(find("p"), find("d")));
  EXPECT_TRUE(r.Reaches(find("a"), find("c")));
  EXPECT_FALSE(r.Reaches(find("c"), find("a")));
  EXPECT_TRUE(r.Reaches(find("a"), find("a")));
  EXPECT_TRUE(r.Independent(find("a"), find("b")));
  EXPECT_FALSE(r.Independent(find("a"), find("d")));
}

// Sibling merges and extra outputs add paths; after each, the updated map
// equals one built from scratch.
TEST(Reachability, UpdateAfterMergesEqualsRecomputed) {
  auto m = LoadSample("transformer_block.hlo");
  ASSERT_NE(m, nullptr);
  RunPasses(*m, {"priority_fusion"});
  Computation* e = m->entry();
  Reachability reach(*e);
  int merges = 0;
  for (int round = 0; round < 6; ++round) {
    std::vector<Instruction*> loops;
    for (const auto& i : e->instructions())
      if (i->opcode() == Opcode::kFusion && i->fusion_kind() == FusionKind::kLoop && !i->shape().IsTuple())
        loops.push_back(i.get());
    bool merged = false;
    // A sibling merge of the first independent pair...
    for (size_t a = 0; a < loops.size() && !merged; ++a)
      for (size_t b = a + 1; b < loops.size() && !merged; ++b)
        if (reach.Independent(loops[a], loops[b])) {
          reach.Update({MergeSiblingFusions(loops[a], loops[b])});
          merged = true;
        }
    if (!merged) break;
    ++merges;
    ExpectSameAsFresh(reach, *e);
    // ...then an extra output: a loop fusion with two users, into the first
    // fusion user that no other user feeds.
    for (const auto& i : e->instructions()) {
      Instruction* p = i.get();
      if (p->opcode() != Opcode::kFusion || p->fusion_kind() != FusionKind::kLoop || p->shape().IsTuple() ||
          p->user_count() < 2)
        continue;
      Instruction* target = nullptr;
      for (Instruction* c : p->users()) {
        if (c->opcode() != Opcode::kFusion) continue;
        bool cycle = false;
        for (Instruction* u : p->users()) cycle |= u != c && reach.Reaches(u, c);
        if (!cycle) target = c;
        if (target) break;
      }
      if (!target) continue;
      FuseAsExtraOutput(target, p);
      reach.Update({target});
      ++merges;
      ExpectSameAsFresh(reach, *e);
      break;
    }
  }
  EXPECT_GE(merges, 3);
}

// The sibling-merge update (one OR per former descendant) gives the map a
// fresh build gives, also when a merged, tuple-shaped fusion is merged again.
TEST(Reachability, SiblingMergeUpdateEqualsRecomputed) {
  for (const char* sample : {"transformer_block.hlo", "transformer_train_step.hlo"}) {
    auto m = LoadSample(sample);
    ASSERT_NE(m, nullptr);
    RunPasses(*m, {"priority_fusion"});
    Computation* e = m->entry();
    Reachability reach(*e);
    int merges = 0;
    for (int round = 0; round < 8; ++round) {
      std::vector<Instruction*> kernels;
      for (const auto& i : e->instructions())
        if (i->opcode() == Opcode::kFusion && i->fusion_kind() == FusionKind::kLoop) kernels.push_back(i.get());
      bool merged = false;
      // Prefer a pair with a tuple-shaped (already merged) fusion.
      for (int want_tuple = 1; want_tuple >= 0 && !merged; --want_tuple)
        for (size_t a = 0; a < kernels.size() && !merged; ++a)
          for (size_t b = a + 1; b < kernels.size() && !merged; ++b) {
            if ((kernels[a]->shape().IsTuple() || kernels[b]->shape().IsTuple()) != (want_tuple == 1)) continue;
            if (!reach.Independent(kernels[a], kernels[b])) continue;
            Reachability::SiblingMerge t = reach.BeforeSiblingMerge(kernels[a], kernels[b]);
            reach.AfterSiblingMerge(t, MergeSiblingFusions(kernels[a], kernels[b], /*parent_sorted=*/true));
            merged = true;
          }
      if (!merged) break;
      ++merges;
      ExpectSameAsFresh(reach, *e);
    }
    EXPECT_GE(merges, 3) << sample;
  }
}

// The extra-output update gives the map a fresh build gives, also when the
// consumer is an unfused reduce that gets wrapped first.
TEST(Reachability, ExtraOutputUpdateEqualsRecomputed) {
  int total = 0;
  for (const char* sample : {"transformer_block.hlo", "transformer_train_step.hlo", "layer_norm.hlo"}) {
    auto m = LoadSample(sample);
    ASSERT_NE(m, nullptr);
    RunPasses(*m, {"priority_fusion"});
    Computation* e = m->entry();
    Reachability reach(*e);
    for (int round = 0; round < 8; ++round) {
      bool merged = false;
      for (const auto& i : e->instructions()) {
        Instruction* p = i.get();
        if (p->opcode() != Opcode::kFusion || p->fusion_kind() != FusionKind::kLoop || p->shape().IsTuple() ||
            p->user_count() < 2)
          continue;
        Instruction* target = nullptr;
        for (Instruction* c : p->users()) {
          if (c->opcode() != Opcode::kFusion && c->opcode() != Opcode::kReduce) continue;
          if (c->shape().IsTuple() && c->opcode() != Opcode::kFusion) continue;
          bool cycle = false;
          for (Instruction* u : p->users()) cycle |= u != c && reach.Reaches(u, c);
          if (!cycle) target = c;
          if (target) break;
        }
        if (!target) continue;
        Reachability::ExtraOutput t = reach.BeforeExtraOutput(p, target);
        Instruction* c = target->opcode() == Opcode::kFusion ? target : WrapInFusion(target, FusionKind::kInput);
        FuseAsExtraOutput(c, p, /*parent_sorted=*/true);
        reach.AfterExtraOutput(t, c);
        merged = true;
        break;
      }
      if (!merged) break;
      ++total;
      ExpectSameAsFresh(reach, *e);
    }
  }
  EXPECT_GE(total, 2);
}

// The builders' local re-sort after a merge (parent_sorted) leaves the list
// exactly as the full stable post order does.
TEST(FusionBuilder, LocalResortEqualsFullSort) {
  for (const char* sample : {"transformer_block.hlo", "transformer_train_step.hlo", "attention.hlo"}) {
    // Two identical fused modules (parsed from one printed module).
    auto fused = LoadSample(sample);
    ASSERT_NE(fused, nullptr);
    RunPasses(*fused, {"priority_fusion"});
    std::string text = PrintModule(*fused);
    auto local_or = ParseHloModule(text, sample);
    auto full_or = ParseHloModule(text, sample);
    ASSERT_TRUE(local_or.ok() && full_or.ok());
    std::unique_ptr<Module> local = std::move(*local_or), full = std::move(*full_or);
    auto names = [](const Computation& c) {
      std::vector<std::string> out;
      for (const auto& i : c.instructions()) out.push_back(i->name());
      return out;
    };
    ASSERT_EQ(names(*local->entry()), names(*full->entry()));
    auto find = [](Computation* c, const std::string& n) -> Instruction* {
      for (const auto& i : c->instructions())
        if (i->name() == n) return i.get();
      return nullptr;
    };
    int merges = 0;
    for (int round = 0; round < 10; ++round) {
      Reachability reach(*local->entry());
      // The last independent pair of loop fusions in list order, so that
      // the merged kernel lands far from its users; then an extra output.
      std::vector<Instruction*> kernels;
      for (const auto& i : local->entry()->instructions())
        if (i->opcode() == Opcode::kFusion && i->fusion_kind() == FusionKind::kLoop && !i->shape().IsTuple())
          kernels.push_back(i.get());
      std::string a, b;
      for (size_t x = 0; x < kernels.size() && a.empty(); ++x)
        for (size_t y = kernels.size(); y-- > x + 1 && a.empty();)
          if (reach.Independent(kernels[x], kernels[y])) {
            a = kernels[x]->name();
            b = kernels[y]->name();
          }
      if (a.empty()) break;
      MergeSiblingFusions(find(local->entry(), a), find(local->entry(), b), /*parent_sorted=*/true);
      MergeSiblingFusions(find(full->entry(), a), find(full->entry(), b), /*parent_sorted=*/false);
      ++merges;
      ASSERT_EQ(names(*local->entry()), names(*full->entry())) << sample << " after merging " << a << ", " << b;
      ASSERT_TRUE(ListIsTopological(*local->entry()));
      Reachability now(*local->entry());
      for (const auto& i : local->entry()->instructions()) {
        Instruction* p = i.get();
        if (p->opcode() != Opcode::kFusion || p->fusion_kind() != FusionKind::kLoop || p->shape().IsTuple() ||
            p->user_count() < 2)
          continue;
        Instruction* target = nullptr;
        for (Instruction* c : p->users()) {
          if (c->opcode() != Opcode::kFusion) continue;
          bool cycle = false;
          for (Instruction* u : p->users()) cycle |= u != c && now.Reaches(u, c);
          if (!cycle) target = c;
          if (target) break;
        }
        if (!target) continue;
        std::string pn = p->name(), cn = target->name();
        FuseAsExtraOutput(target, p, /*parent_sorted=*/true);
        FuseAsExtraOutput(find(full->entry(), cn), find(full->entry(), pn), /*parent_sorted=*/false);
        ++merges;
        ASSERT_EQ(names(*local->entry()), names(*full->entry())) << sample << " after extra output " << pn;
        break;
      }
    }
    EXPECT_GE(merges, 2) << sample;
  }
}

// Multi-output fusion rescans the computation after every merge; a
// candidate refused for the same reason is logged once per run.
TEST(MultiOutputFusionLog, EachDecisionLoggedOnce) {
  auto m = LoadSample("transformer_train_step.hlo");
  ASSERT_NE(m, nullptr);
  RunPasses(*m, {"priority_fusion"});
  auto pass = PassRegistry::Global().CreatePass("multi_output_fusion");
  ASSERT_TRUE(pass.ok());
  auto changed = (*pass)->Run(*m);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  std::set<std::tuple<int64_t, std::vector<int64_t>, int, std::string>> keys;
  for (const FusionDecision& d : (*pass)->log().decisions)
    EXPECT_TRUE(keys.insert({d.producer_id, d.consumer_ids, static_cast<int>(d.verdict), d.reason}).second)
        << "logged twice: " << d.producer << " " << d.reason;
  EXPECT_GT(keys.size(), 10u);
}

}  // namespace
}  // namespace hloscope
