#include "core/report/ptx_stats.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace hloscope::report {
namespace {

constexpr const char* kClassNames[] = {"ld.global", "st.global", "atomic", "ld.shared", "st.shared", "cp.async",
                                       "mem.other", "f32",       "f16",    "bf16",      "f64",       "int",
                                       "cvt",       "special",   "mma",    "shuffle",   "barrier",   "control",
                                       "other"};
static_assert(sizeof(kClassNames) / sizeof(kClassNames[0]) == static_cast<size_t>(PtxClass::kCount));

std::vector<std::string_view> Words(std::string_view opcode) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= opcode.size()) {
    size_t dot = opcode.find('.', start);
    if (dot == std::string_view::npos) dot = opcode.size();
    parts.push_back(opcode.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Bits of a PTX type word ("b32" → 32, "f16x2" → 32, "pred" → 1), 0 if it is not one.
int TypeBits(std::string_view w) {
  if (w == "pred") return 1;
  if (w == "bf16") return 16;
  if (w == "bf16x2" || w == "f16x2") return 32;
  if (w == "tf32") return 32;
  if (w.size() < 2 || !OneOf(w.substr(0, 1), {"b", "s", "u", "f"})) return 0;
  std::string_view n = w.substr(1);
  if (n == "8") return 8;
  if (n == "16") return 16;
  if (n == "32") return 32;
  if (n == "64") return 64;
  if (n == "128") return 128;
  return 0;
}

// The last type word of an opcode ("" if none): the operand type.
std::string_view LastType(const std::vector<std::string_view>& parts) {
  for (size_t k = parts.size(); k-- > 1;)
    if (TypeBits(parts[k]) > 0) return parts[k];
  return {};
}

// Where a load or store goes: "global", "shared", "param", ... or "" (generic).
std::string_view Space(const std::vector<std::string_view>& parts) {
  for (size_t k = 1; k < parts.size(); ++k)
    for (std::string_view s : {"global", "shared", "local", "param", "const", "tex"})
      if (StartsWith(parts[k], s)) return s;
  return {};
}

// Comments (// and /* */) replaced by spaces, quoted strings kept: positions stay.
std::string MaskComments(std::string_view text) {
  std::string out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"') {
      size_t end = out.find('"', i + 1);
      i = end == std::string::npos ? out.size() : end;
    } else if (out.compare(i, 2, "//") == 0) {
      for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
      --i;
    }
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsOpcodeChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':'; }

struct SharedDecl {
  size_t pos;
  std::string name;
  int64_t bytes;
  bool dynamic;
};

// `.shared [.align N] .TYPE name[N]...;` declarations of a (masked) module.
std::vector<SharedDecl> SharedDecls(const std::string& masked) {
  static const std::regex decl(R"(\.shared\s+((?:\.\w+(?:\s+\d+)?\s+)*)([A-Za-z_$%][\w$]*)((?:\s*\[\s*\d*\s*\])*)\s*;)");
  std::vector<SharedDecl> out;
  for (auto it = std::sregex_iterator(masked.begin(), masked.end(), decl); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    int bits = 8;
    static const std::regex word(R"(\.(\w+))");
    const std::string attrs = m[1];
    for (auto w = std::sregex_iterator(attrs.begin(), attrs.end(), word); w != std::sregex_iterator(); ++w)
      if (int b = TypeBits((*w)[1].str()); b > 1) bits = b;
    int64_t elems = 1;
    bool dynamic = false;
    static const std::regex dim(R"(\[\s*(\d*)\s*\])");
    const std::string dims = m[3];
    for (auto d = std::sregex_iterator(dims.begin(), dims.end(), dim); d != std::sregex_iterator(); ++d) {
      if ((*d)[1].length() == 0) dynamic = true;
      else elems *= std::stoll((*d)[1].str());
    }
    out.push_back({static_cast<size_t>(m.position(0)), m[2], dynamic ? 0 : elems * bits / 8, dynamic});
  }
  return out;
}

bool NamesWord(std::string_view body, const std::string& name) {
  for (size_t at = body.find(name); at != std::string_view::npos; at = body.find(name, at + 1)) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
    bool left = at == 0 || !word(body[at - 1]);
    bool right = at + name.size() >= body.size() || !word(body[at + name.size()]);
    if (left && right) return true;
  }
  return false;
}

}  // namespace

const char* PtxClassName(PtxClass c) { return kClassNames[static_cast<size_t>(c)]; }

PtxClass ClassifyPtxOpcode(std::string_view opcode) {
  const std::vector<std::string_view> parts = Words(opcode);
  const std::string_view base = parts[0];
  if (base == "ld" || base == "ldu") {
    std::string_view s = Space(parts);
    return s == "global" ? PtxClass::kLdGlobal : s == "shared" ? PtxClass::kLdShared : PtxClass::kMemOther;
  }
  if (base == "st") {
    std::string_view s = Space(parts);
    return s == "global" ? PtxClass::kStGlobal : s == "shared" ? PtxClass::kStShared : PtxClass::kMemOther;
  }
  if (base == "ldmatrix") return PtxClass::kLdShared;
  if (base == "stmatrix") return PtxClass::kStShared;
  if (base == "atom" || base == "red") return PtxClass::kAtomic;
  if (base == "cp") return PtxClass::kAsyncCopy;
  if (OneOf(base, {"tex", "tld4", "suld", "sust", "sured", "prefetchu"})) return PtxClass::kMemOther;
  if (base == "mma" || base == "wgmma") return PtxClass::kMma;
  if (OneOf(base, {"shfl", "vote", "match", "redux", "activemask", "elect"})) return PtxClass::kShuffle;
  if (OneOf(base, {"bar", "barrier", "mbarrier", "membar", "fence", "griddepcontrol"})) return PtxClass::kBarrier;
  if (OneOf(base, {"bra", "brx", "ret", "exit", "call", "trap", "brkpt", "nanosleep"})) return PtxClass::kControl;
  if (base == "cvt") return PtxClass::kConvert;
  if (OneOf(base, {"mov", "cvta", "prefetch", "isspacep", "setmaxnreg", "tensormap", "applypriority", "discard",
                   "createpolicy", "getctarank", "pmevent"}))
    return PtxClass::kOther;
  const std::string_view type = LastType(parts);
  const bool is_float = StartsWith(type, "f") || StartsWith(type, "bf");
  if (OneOf(base, {"ex2", "lg2", "rsqrt", "sqrt", "rcp", "sin", "cos", "tanh"}) || (base == "div" && is_float))
    return PtxClass::kSpecial;
  if (type.empty()) return PtxClass::kOther;
  if (StartsWith(type, "bf16")) return PtxClass::kBf16;
  if (StartsWith(type, "f16")) return PtxClass::kF16;
  if (type == "f32") return PtxClass::kF32;
  if (type == "f64") return PtxClass::kF64;
  return PtxClass::kInt;
}

std::pair<int, int> PtxAccessWidth(std::string_view opcode) {
  const std::vector<std::string_view> parts = Words(opcode);
  int vec = 1;
  for (std::string_view p : parts)
    if (p == "v2" || p == "v4" || p == "v8") vec = p[1] - '0';
  const int bits = TypeBits(LastType(parts));
  return {vec, vec * bits / 8};
}

std::vector<std::string_view> SplitPtxModules(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t at = text.find(".version"); at != std::string_view::npos; at = text.find(".version", at + 1))
    if (at == 0 || text[at - 1] == '\n') starts.push_back(at);
  if (starts.empty()) return {text};
  starts.front() = 0;  // a header comment belongs to the first module
  std::vector<std::string_view> out;
  for (size_t k = 0; k < starts.size(); ++k)
    out.push_back(text.substr(starts[k], (k + 1 < starts.size() ? starts[k + 1] : text.size()) - starts[k]));
  return out;
}

std::vector<PtxEntry> FindPtxEntries(std::string_view text) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$%][\w$]*)\s*\()");
  std::vector<PtxEntry> out;
  const std::vector<std::string_view> modules = SplitPtxModules(text);
  for (size_t mi = 0; mi < modules.size(); ++mi) {
    const std::string masked = MaskComments(modules[mi]);
    for (auto it = std::sregex_iterator(masked.begin(), masked.end(), entry); it != std::sregex_iterator(); ++it) {
      size_t close = masked.find(')', static_cast<size_t>(it->position(0) + it->length(0)));
      size_t open = close == std::string::npos ? close : masked.find_first_of("{;", close);
      if (open == std::string::npos || masked[open] != '{') continue;  // a declaration without a body
      int depth = 0;
      size_t end = open;
      for (; end < masked.size(); ++end) {
        if (masked[end] == '{') ++depth;
        if (masked[end] == '}' && --depth == 0) break;
      }
      PtxEntry e;
      e.name = (*it)[1];
      e.module = static_cast<int>(mi);
      e.module_text = modules[mi];
      e.body_begin = open + 1;
      e.body_end = std::min(end, masked.size());
      out.push_back(std::move(e));
    }
  }
  return out;
}

PtxStats CountPtx(const PtxEntry& entry) {
  PtxStats s;
  const std::string masked = MaskComments(entry.module_text);
  std::string body = masked.substr(entry.body_begin, entry.body_end - entry.body_begin);
  // Directives without a `;` (.loc, .pragma-less lines) would join the next statement: blank them.
  for (size_t line = 0; line < body.size();) {
    size_t eol = body.find('\n', line);
    if (eol == std::string::npos) eol = body.size();
    std::string_view l = Trim(std::string_view(body).substr(line, eol - line));
    if (!l.empty() && l.front() == '.' && l.find(';') == std::string_view::npos)
      std::fill(body.begin() + static_cast<long>(line), body.begin() + static_cast<long>(eol), ' ');
    line = eol + 1;
  }
  size_t start = 0;
  while (start < body.size()) {
    size_t semi = body.find(';', start);
    if (semi == std::string::npos) semi = body.size();
    std::string_view st = std::string_view(body).substr(start, semi - start);
    start = semi + 1;
    for (;;) {  // braces, labels and a guard predicate before the opcode
      st = Trim(st);
      if (!st.empty() && (st.front() == '{' || st.front() == '}')) {
        st.remove_prefix(1);
        continue;
      }
      size_t sp = 0;
      while (sp < st.size() && !std::isspace(static_cast<unsigned char>(st[sp]))) ++sp;
      std::string_view first = st.substr(0, sp);
      if (!first.empty() && (first.back() == ':' || first.front() == '@')) {
        st.remove_prefix(sp);
        continue;
      }
      break;
    }
    if (st.empty() || !std::isalpha(static_cast<unsigned char>(st.front()))) continue;  // directive, stray token
    size_t n = 0;
    while (n < st.size() && IsOpcodeChar(st[n])) ++n;
    const std::string_view op = st.substr(0, n);
    const PtxClass c = ClassifyPtxOpcode(op);
    ++s.by_class[static_cast<size_t>(c)];
    ++s.total;
    if (c == PtxClass::kLdGlobal || c == PtxClass::kStGlobal) {
      auto [vec, bytes] = PtxAccessWidth(op);
      ++(c == PtxClass::kLdGlobal ? s.ld_global_bytes : s.st_global_bytes)[bytes];
      ++(c == PtxClass::kLdGlobal ? s.ld_global_vector : s.st_global_vector)[vec];
    }
  }
  // Shared memory: declared in the body, or at module scope and used here.
  const std::vector<PtxEntry> all = FindPtxEntries(entry.module_text);
  const std::string_view used = std::string_view(masked).substr(entry.body_begin, entry.body_end - entry.body_begin);
  for (const SharedDecl& d : SharedDecls(masked)) {
    const bool inside = d.pos >= entry.body_begin && d.pos < entry.body_end;
    const bool other_entry = std::any_of(all.begin(), all.end(), [&](const PtxEntry& e) {
      return e.body_begin != entry.body_begin && d.pos >= e.body_begin && d.pos < e.body_end;
    });
    if (!inside && (other_entry || !NamesWord(used, d.name))) continue;
    s.shared_bytes += d.bytes;
    s.dynamic_shared |= d.dynamic;
  }
  return s;
}

std::string FormatWidths(const std::map<int, int64_t>& bytes) {
  std::string out;
  for (const auto& [b, n] : bytes) out += (out.empty() ? "" : " ") + std::to_string(b) + "B×" + std::to_string(n);
  return out.empty() ? "-" : out;
}

}  // namespace hloscope::report
