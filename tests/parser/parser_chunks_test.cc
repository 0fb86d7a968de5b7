// The parallel parse (text cut into chunks parsed by worker threads) gives
// exactly the module of the serial parse: printed text, ids, operand and
// user order, control edges, called computations — and, for bad input,
// exactly the serial parse's error message, wherever the error lies
// relative to the chunk boundaries.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

// Everything about a parse result that a caller can observe.
std::string Describe(const StatusOr<std::unique_ptr<Module>>& m) {
  if (!m.ok()) return "ERROR " + m.status().message();
  std::ostringstream out;
  out << PrintModule(**m);
  for (const auto& c : (*m)->computations()) {
    out << "# " << c->name() << " entry=" << c->is_entry() << " root=" << c->root()->name() << "\n";
    for (const auto& i : c->instructions()) {
      out << i->id() << " " << i->name() << " @" << i->loc().line << ":" << i->loc().col << " users:";
      for (const Instruction* u : i->users()) out << " " << u->name();
      out << " preds:";
      for (const Instruction* p : i->control_predecessors()) out << " " << p->name();
      out << " succs:";
      for (const Instruction* s : i->control_successors()) out << " " << s->name();
      out << " calls:";
      for (const auto& ref : i->called_refs())
        for (const Computation* cc : ref.comps) out << " " << ref.attr << "=" << cc->name();
      out << "\n";
    }
  }
  return out.str();
}

// Cut into about a dozen chunks. Unless `claim`, workers parse every chunk
// (which thread parses what does not depend on timing); with `claim` the
// calling thread parses those no worker has started when it gets there.
StatusOr<std::unique_ptr<Module>> Parse(std::string_view text, int threads, int* chunks = nullptr,
                                        bool claim = false) {
  ParseOptions o;
  o.threads = threads;
  o.parallel_min_bytes = 0;  // cut even small inputs
  o.chunk_bytes = text.size() / 12;
  o.claim_unstarted_chunks = claim;
  o.chunks_taken = chunks;
  return ParseHloModule(text, "t.hlo", o);
}

// One ENTRY computation of `n` chained instructions plus a reducer, with
// metadata, control predecessors and called computations along the way.
std::string Chain(int n) {
  std::string s =
      "HloModule chain\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\nENTRY main {\n  p0 = f32[8,16]{1,0} parameter(0)\n"
      "  z = f32[] constant(0)\n";
  std::string prev = "p0";
  for (int i = 0; i < n; ++i) {
    std::string v = "v" + std::to_string(i);
    switch (i % 4) {
      case 0:
        s += "  " + v + " = f32[8,16]{1,0} multiply(" + prev + ", p0), metadata={op_name=\"m\"}\n";
        break;
      case 1:
        s += "  r" + std::to_string(i) + " = f32[8]{0} reduce(" + prev +
             ", z), dimensions={1}, to_apply=add\n";
        s += "  " + v + " = f32[8,16]{1,0} broadcast(r" + std::to_string(i) + "), dimensions={0}\n";
        break;
      case 2:
        s += "  " + v + " = f32[8,16]{1,0} add(" + prev + ", " + prev + "), control-predecessors={p0}\n";
        break;
      default:
        s += "  " + v + " = f32[8,16]{1,0} negate(" + prev + ")\n";
        break;
    }
    prev = v;
  }
  s += "  ROOT out = f32[8,16]{1,0} copy(" + prev + ")\n}\n";
  return s;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

TEST(ParallelParse, ChainIsIdenticalForEveryThreadCount) {
  const std::string text = Chain(300);
  const std::string serial = Describe(Parse(text, 1));
  ASSERT_EQ(serial.rfind("ERROR", 0), std::string::npos) << serial;
  for (int threads = 2; threads <= 8; ++threads) {
    int chunks = 0;
    EXPECT_EQ(Describe(Parse(text, threads, &chunks)), serial) << threads << " threads";
    EXPECT_GE(chunks, threads - 1) << "each worker's chunks should have been taken with " << threads
                                   << " threads";
  }
}

TEST(ParallelParse, SmallInputsAndOneThreadStaySerial) {
  const std::string text = Chain(50);
  int chunks = -1;
  ParseOptions o;
  o.chunks_taken = &chunks;
  ASSERT_TRUE(ParseHloModule(text, "t.hlo", o).ok());
  EXPECT_EQ(chunks, 0);  // below parallel_min_bytes
  ASSERT_TRUE(Parse(text, 1, &chunks).ok());
  EXPECT_EQ(chunks, 0);
}

// Each edit applied at every instruction line in turn: the parallel parse
// reports what the serial one does (an error, or the same module).
TEST(ParallelParse, EditsAtEveryLineMatchTheSerialParse) {
  const std::vector<std::string> base = Lines(Chain(60));
  struct Edit {
    const char* what;
    std::string (*apply)(const std::string& line);
  };
  const Edit edits[] = {
      {"undefined operand",
       [](const std::string& l) {
         auto p = l.find("(v");
         return p == std::string::npos ? l
                                       : l.substr(0, p + 1) + "nosuch" + l.substr(l.find_first_of(",)", p));
       }},
      {"duplicate name",
       [](const std::string& l) {
         auto p = l.find(" = ");
         return l.rfind("  v", 0) == 0 ? "  v3" + l.substr(p) : l;
       }},
      {"syntax error",
       [](const std::string& l) {
         auto p = l.find("]{");
         return p == std::string::npos ? l : l.substr(0, p) + l.substr(p + 1);
       }},
      {"second ROOT",
       [](const std::string& l) { return l.rfind("  v", 0) == 0 ? "  ROOT " + l.substr(2) : l; }},
      {"nested instruction",
       [](const std::string& l) {
         auto p = l.find("negate(");
         return p == std::string::npos ? l : l.substr(0, p) + "negate(f32[8,16]{1,0} abs(p0))";
       }},
      {"shapeless instruction",
       [](const std::string& l) {
         auto p = l.find("f32[8,16]{1,0} negate");
         return p == std::string::npos ? l : l.substr(0, p) + l.substr(p + 15);
       }},
      {"inline computation",
       [](const std::string& l) {
         auto p = l.find("to_apply=add");
         return p == std::string::npos ? l
                                       : l.substr(0, p) +
                                             "to_apply={ x = f32[] parameter(0)\n y = f32[] parameter(1)\n "
                                             "ROOT m = f32[] maximum(x, y) }";
       }},
      {"forward reference",
       [](const std::string& l) {
         auto p = l.find("p0)");
         return p == std::string::npos || l.find("multiply") == std::string::npos
                    ? l
                    : l.substr(0, p) + "out)" + l.substr(p + 3);
       }},
      {"undefined control predecessor",
       [](const std::string& l) {
         auto p = l.find("{p0}");
         return p == std::string::npos ? l : l.substr(0, p) + "{nope}";
       }},
      {"line cut in two",
       [](const std::string& l) {
         auto p = l.find(", ");
         return p == std::string::npos ? l : l.substr(0, p) + ",\n      " + l.substr(p + 2);
       }},
      {"comment line", [](const std::string& l) { return "  /* v9 = f32[] constant(0) */\n" + l; }},
  };
  int compared = 0, errors = 0;
  for (const Edit& e : edits) {
    for (size_t i = 0; i < base.size(); ++i) {
      std::vector<std::string> lines = base;
      lines[i] = e.apply(lines[i]);
      if (lines[i] == base[i]) continue;
      const std::string text = Join(lines);
      const std::string serial = Describe(Parse(text, 1));
      errors += serial.rfind("ERROR", 0) == 0;
      for (int threads : {2, 3, 5}) {
        EXPECT_EQ(Describe(Parse(text, threads)), serial)
            << e.what << " at line " << i + 1 << ", " << threads << " threads";
        ++compared;
      }
      EXPECT_EQ(Describe(Parse(text, 2, nullptr, /*claim=*/true)), serial)
          << e.what << " at line " << i + 1 << ", claiming";
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(errors, 200);  // the edits did produce errors to compare
}

TEST(ParallelParse, ForwardReferencesAcrossChunks) {
  // Instructions early in the text use ones defined at the very end.
  std::vector<std::string> lines = Lines(Chain(200));
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("v10 = ") != std::string::npos)
      lines[i] = "  early = f32[8,16]{1,0} add(late, late)\n" + lines[i];
  }
  lines.insert(lines.end() - 2, "  late = f32[8,16]{1,0} negate(p0)");
  const std::string text = Join(lines);
  const std::string serial = Describe(Parse(text, 1));
  ASSERT_EQ(serial.rfind("ERROR", 0), std::string::npos) << serial;
  for (int threads = 2; threads <= 4; ++threads) {
    int chunks = 0;
    EXPECT_EQ(Describe(Parse(text, threads, &chunks)), serial);
    EXPECT_GT(chunks, 0);
  }
}

TEST(ParallelParse, LargeGeneratedModuleUsesTheDefaultOptions) {
  const std::string text = Chain(20000);  // ~1 MB: above parallel_min_bytes
  ASSERT_GT(text.size(), ParseOptions().parallel_min_bytes);
  ParseOptions serial_opts;
  serial_opts.threads = 1;
  const std::string serial = Describe(ParseHloModule(text, "t.hlo", serial_opts));
  ParseOptions o;
  o.threads = 2;  // this machine may have one core: ask for two explicitly
  o.claim_unstarted_chunks = false;  // a busy machine may start the worker late
  int chunks = 0;
  o.chunks_taken = &chunks;
  EXPECT_EQ(Describe(ParseHloModule(text, "t.hlo", o)), serial);
  EXPECT_GE(chunks, 1);
}

TEST(ParallelParse, CorpusAndSamplesAreIdentical) {
  const std::vector<std::string> files = testing::SampleAndCorpusHloFiles();
  ASSERT_GE(files.size(), 10u);
  int chunks_total = 0;
  for (const auto& f : files) {
    auto text = ReadFileToString(f);
    ASSERT_TRUE(text.ok()) << f;
    const std::string serial = Describe(Parse(*text, 1));
    int chunks = 0;
    EXPECT_EQ(Describe(Parse(*text, 2, &chunks)), serial) << f;
    chunks_total += chunks;
  }
  EXPECT_GT(chunks_total, static_cast<int>(files.size()) / 4);
}

}  // namespace
}  // namespace hloscope
