// The corpus index (../shared/corpus/INDEX.tsv) and a cost estimate, for the
// tests that sweep the corpus (they skip cleanly when it is absent).
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/ir/computation.h"
#include "core/ir/module.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {

struct CorpusEntry {
  std::string file;  // relative to ../shared/corpus
  int64_t instructions = 0;
};

// Every module of INDEX.tsv, in its order; empty when the corpus is absent.
inline std::vector<CorpusEntry> CorpusEntries() {
  std::vector<CorpusEntry> out;
  std::string shared = SharedDir();
  if (shared.empty()) return out;
  std::ifstream index(shared + "/corpus/INDEX.tsv");
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::vector<std::string> cols;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      cols.push_back(line.substr(start, tab - start));
    cols.push_back(line.substr(start));
    if (!cols.empty() && !cols[0].empty())
      out.push_back({cols[0], cols.size() >= 3 ? std::atoll(cols[2].c_str()) : 0});
  }
  return out;
}

// A rough count of the element operations one evaluation of `m` does
// (while bodies counted 100 times), to keep interpreter runs in CI time.
inline double EvalWork(const Module& m) {
  double total = 0;
  for (const auto& c : m.computations()) {
    double factor = 1;
    for (const auto& other : m.computations())
      for (const auto& i : other->instructions())
        if (i->opcode() == Opcode::kWhile)
          for (Computation* callee : i->called_computations())
            if (callee == c.get()) factor = 100;
    for (const auto& i : c->instructions()) {
      const Shape& s = i->shape();
      double n = s.IsArray() && !s.IsDynamic() ? static_cast<double>(s.num_elements()) : 1;
      if (i->opcode() == Opcode::kDot || i->opcode() == Opcode::kConvolution)
        n *= i->operand_count() > 1 && i->operand(1)->shape().IsArray() ? i->operand(1)->shape().num_elements() : 1;
      if (i->opcode() == Opcode::kSort) n *= 64;
      total += n * factor;
    }
  }
  return total;
}

}  // namespace hloscope::testing
