// Every module of the shared corpus of real XLA HLO and every sample: those
// that parse must verify. Parse failures are reported separately (they are
// the parser's business, not the verifier's).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"
#include "tests/verify/verify_test_util.h"

namespace hloscope::testing {
namespace {

// Corpus modules that XLA's own HloVerifier rejects: the XLA tests they come
// from parse them without verification. Each must keep failing with this
// message; if one starts to verify, the entry is stale.
struct KnownInvalid {
  const char* file;
  const char* message;
};
constexpr KnownInvalid kKnownInvalid[] = {
    // recv-done's data (f32[128,21]) differs from its recv's (f32[128,32]);
    // XLA's HandleRecvDone compares them.
    {"_deleted_upstream/xla/hlo/translate/hlo_to_mhlo/tests/import_async2.hlo",
     "recv-done: has shape (f32[128,21], token[]) but its operands and attributes give (f32[128,32], "
     "token[])"},
    // all-reduce-start of one operand declared as a pair: XLA's
    // HandleAllReduceStart checks InferAllReduceStartShape, which is the
    // all-reduce's own shape (the operand's, a tuple only for several).
    {"xla/hlo/translate/hlo_to_mhlo/tests/import_async-11.hlo",
     "ar-start: has shape (f32[128,32], f32[128,32]) but its operands and attributes give f32[128,32]"},
    // A batched dot of f32[1,3,4] and f32[1,4,5] gives f32[1,3,5], not f32[1,4,5].
    {"_deleted_upstream/xla/service/gpu/tests/elemental_ir_emitter-1.hlo",
     "dot: has shape f32[1,4,5] but its operands and attributes give f32[1,3,5]"},
    // broadcast f32[1] -> f32[10] with dimensions={0}: XLA's HandleBroadcast
    // requires mapped dimensions to keep their size (no degenerate expansion).
    {"_deleted_upstream/xla/service/gpu/tests/elemental_ir_emitter-6.hlo",
     "broadcast: operand dimension 0 of f32[1] has size 1 but result dimension 0 of f32[10] has size 10"},
    {"xla/hlo/translate/hlo_to_mhlo/tests/while-3.hlo",
     "broadcast.1: operand dimension 0 of f32[1] has size 1 but result dimension 0 of f32[3] has size 3"},
    // call passes f32[4] to a computation taking f32[] (XLA's HandleCall).
    {"xla/hlo/tools/tests/generate_hlo_test_checks_test_output-5.hlo",
     "call-foo.bar.baz.0: operand 0 ('constant.0') has shape f32[4] but parameter 0 of called computation "
     "'foo.bar.baz.0' is f32[]"},
    // fusion passes s32[1024] to a fused parameter s32[] (XLA's HandleFusion).
    {"xla/tools/print_indexing_test.hlo",
     "fusion: operand 1 ('b') has shape s32[1024] but parameter 1 of fused computation 'fused_computation' "
     "is "
     "s32[]"},
};

const KnownInvalid* FindKnownInvalid(const std::string& file) {
  for (const auto& k : kKnownInvalid)
    if (file == k.file) return &k;
  return nullptr;
}

std::vector<std::string> CorpusFiles(const std::string& shared) {
  std::ifstream index(shared + "/corpus/INDEX.tsv");
  std::vector<std::string> files;
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::string file = line.substr(0, line.find('\t'));
    if (!file.empty()) files.push_back(file);
  }
  return files;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += "  " + s + "\n";
  return out;
}

TEST(VerifierCorpus, EveryParsedModuleVerifies) {
  const std::string shared = SharedDir();
  if (shared.empty()) GTEST_SKIP() << "no shared corpus";
  const std::vector<std::string> files = CorpusFiles(shared);
  ASSERT_FALSE(files.empty());
  std::vector<std::string> parse_failures, structure_failures, verify_failures, stale;
  int verified = 0, known = 0;
  VerifyOptions structure_only;
  structure_only.check_shapes = false;
  for (const std::string& file : files) {
    auto m = ParseHloFile(shared + "/corpus/" + file);
    if (!m.ok()) {
      parse_failures.push_back(m.status().message());
      continue;
    }
    Status st = VerifyModule(**m, structure_only);
    if (!st.ok()) structure_failures.push_back(st.message());
    Status full = VerifyModule(**m);
    const KnownInvalid* k = FindKnownInvalid(file);
    if (full.ok()) {
      ++verified;
      if (k) stale.push_back(file);
    } else if (k && full.message().find(k->message) != std::string::npos) {
      ++known;
    } else {
      verify_failures.push_back(full.message());
    }
  }
  std::printf(
      "corpus: %zu modules, %zu parse failures, %d verified, %d known invalid (XLA rejects them too), "
      "%zu verify failures\n",
      files.size(), parse_failures.size(), verified, known, verify_failures.size());
  if (!parse_failures.empty())
    std::printf("parse failures (not the verifier's):\n%s", Join(parse_failures).c_str());
  EXPECT_TRUE(structure_failures.empty()) << "structural verification failed:\n" << Join(structure_failures);
  EXPECT_TRUE(verify_failures.empty()) << "verification failed:\n" << Join(verify_failures);
  EXPECT_TRUE(stale.empty()) << "known-invalid entries that now verify (remove them):\n" << Join(stale);
}

TEST(VerifierCorpus, SamplesVerify) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir())) {
    if (e.path().extension() != ".hlo") continue;
    ++n;
    auto m = ParseHloFile(e.path().string());
    ASSERT_TRUE(m.ok()) << m.status().message();
    Status s = VerifyModule(**m);
    EXPECT_TRUE(s.ok()) << s.message();
    VerifyOptions strict;
    strict.allow_mixed_precision = false;
    Status t = VerifyModule(**m, strict);
    // JAX output converts explicitly, so even XLA's strict mode accepts it.
    EXPECT_TRUE(t.ok()) << t.message();
  }
  EXPECT_GE(n, 2) << "no samples found in " << SamplesDir();
}

}  // namespace
}  // namespace hloscope::testing
