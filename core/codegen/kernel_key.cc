#include "core/codegen/kernel_key.h"

#include <cctype>
#include <set>
#include <unordered_map>
#include <vector>

#include "core/ir/computation.h"
#include "core/printer/printer.h"

namespace hloscope::codegen {
namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}

// Computations `i` calls, then the ones they call, each once, in the order met.
void CollectCalled(const Instruction& i, std::set<const Computation*>& seen, std::vector<const Computation*>& out) {
  for (const Computation* c : i.called_computations()) {
    if (!c || !seen.insert(c).second) continue;
    out.push_back(c);
    for (const auto& inner : c->instructions()) CollectCalled(*inner, seen, out);
  }
}

}  // namespace

std::string CanonicalizeNames(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::unordered_map<std::string, int> ids;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '%') {
      out += text[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && IsNameChar(text[end])) ++end;
    auto [it, inserted] = ids.emplace(text.substr(i + 1, end - i - 1), static_cast<int>(ids.size()));
    out += '%';
    out += std::to_string(it->second);
    i = end;
  }
  return out;
}

std::string KernelKey(const KernelSpec& spec) {
  PrintOptions opts;
  opts.print_metadata = false;
  std::string text = PrintInstruction(*spec.instr, opts);
  // The instruction's own name is not part of what it computes.
  if (size_t eq = text.find(" = "); eq != std::string::npos && text[0] == '%') text = "%self" + text.substr(eq);
  text += '\n';
  std::set<const Computation*> seen;
  std::vector<const Computation*> called;
  CollectCalled(*spec.instr, seen, called);
  for (const Computation* c : called) {
    // Not the head line: it names the parameters, which parameter(N) lines
    // describe again; the body's references are renamed below.
    std::string body = PrintComputation(*c, opts);
    size_t nl = body.find('\n');
    text += "{\n";
    text += nl == std::string::npos ? body : body.substr(nl + 1);
  }
  text = CanonicalizeNames(text);
  text += "\nsignature:";
  for (const KernelArg& a : spec.args) {
    text += ' ';
    text += a.shape.ToString(/*print_layout=*/true);
    text += a.is_output ? " out" : " op" + std::to_string(a.operand);
    if (a.aliases >= 0) text += " aliases" + std::to_string(a.aliases);
    if (a.align != 16) text += " align" + std::to_string(a.align);
    text += ';';
  }
  return text;
}

}  // namespace hloscope::codegen
