#include "core/codegen/line_info.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <string_view>

#include "core/codegen/kernel_emitter.h"
#include "core/ir/computation.h"
#include "core/printer/printer.h"

namespace hloscope::codegen {

int HloLineTable::LineOf(const Instruction* i) const {
  auto it = lines.find(i);
  return it == lines.end() ? 0 : it->second;
}

HloLineTable MakeHloLineTable(const Module& module) {
  HloLineTable t;
  t.file = module.name() + ".hlo";
  std::vector<InstructionLine> at;
  const std::string text = PrintModuleWithLines(module, &at);
  // Offsets come in module order, so lines are counted in one pass.
  size_t k = 0, pos = 0;
  int line = 1;
  for (const auto& c : module.computations())
    for (const auto& i : c->instructions()) {
      if (k >= at.size()) return t;
      for (; pos < at[k].offset && pos < text.size(); ++pos) line += text[pos] == '\n';
      t.lines[i.get()] = line;
      ++k;
    }
  return t;
}

namespace {

// The subprogram of the function the builder is in, or null.
llvm::DISubprogram* ScopeOf(llvm::IRBuilderBase& b) {
  llvm::BasicBlock* bb = b.GetInsertBlock();
  return bb && bb->getParent() ? bb->getParent()->getSubprogram() : nullptr;
}

}  // namespace

void AttachKernelDebugInfo(llvm::Function& f, const KernelSpec& spec, llvm::IRBuilderBase& b) {
  if (!spec.lines) return;
  llvm::Module& m = *f.getParent();
  llvm::DIBuilder dib(m);
  llvm::DICompileUnit* cu =
      m.debug_compile_units_begin() == m.debug_compile_units_end() ? nullptr : *m.debug_compile_units_begin();
  llvm::DIFile* file = nullptr;
  if (!cu) {
    file = dib.createFile(spec.lines->file, "");
    cu = dib.createCompileUnit(llvm::dwarf::DW_LANG_C, file, "hloscope", /*isOptimized=*/true, "", 0, "",
                               llvm::DICompileUnit::DebugDirectivesOnly);
    if (!m.getModuleFlag("Debug Info Version"))
      m.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
  } else {
    file = cu->getFile();
  }
  const int line = spec.lines->LineOf(spec.instr);
  llvm::DISubroutineType* type = dib.createSubroutineType(dib.getOrCreateTypeArray({}));
  llvm::DISubprogram* sp = dib.createFunction(
      file, f.getName(), f.getName(), file, static_cast<unsigned>(line), type, static_cast<unsigned>(line),
      llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized);
  f.setSubprogram(sp);
  dib.finalizeSubprogram(sp);
  dib.finalize();
  b.SetCurrentDebugLocation(llvm::DILocation::get(f.getContext(), static_cast<unsigned>(line), 0, sp));
}

ScopedHloLocation::ScopedHloLocation(llvm::IRBuilderBase& b, const KernelSpec& spec, const Instruction* instr)
    : b_(b) {
  if (!spec.lines) return;
  llvm::DISubprogram* sp = ScopeOf(b);
  const int line = spec.lines->LineOf(instr);
  if (!sp || line <= 0) return;
  saved_ = b.getCurrentDebugLocation().get();
  set_ = true;
  b.SetCurrentDebugLocation(llvm::DILocation::get(b.getContext(), static_cast<unsigned>(line), 0, sp));
}

ScopedHloLocation::~ScopedHloLocation() {
  if (set_) b_.SetCurrentDebugLocation(llvm::DebugLoc(saved_));
}

namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A line of PTX code inside a function body: not a directive, declaration,
// label, brace or comment.
bool IsPtxCode(const std::string& line) {
  size_t a = line.find_first_not_of(" \t");
  if (a == std::string::npos) return false;
  const char c = line[a];
  if (c == '.' || c == '/' || c == '{' || c == '}' || c == '(' || c == ')') return false;
  size_t z = line.find_last_not_of(" \t\r");
  return line[z] != ':';
}

// "  /*0a70*/  ..." : an instruction with its address.
bool IsSassCode(const std::string& line) {
  size_t a = line.find_first_not_of(" \t");
  if (a == std::string::npos || line.compare(a, 2, "/*") != 0) return false;
  size_t z = a + 2;
  while (z < line.size() && std::isxdigit(static_cast<unsigned char>(line[z]))) ++z;
  return z > a + 2 && line.compare(z, 2, "*/") == 0;
}

}  // namespace

std::vector<int> PtxHloLines(const std::string& ptx) {
  static const std::regex file_re(R"(^\s*\.file\s+([0-9]+)\s+"([^"]*)\")");
  static const std::regex loc_re(R"(^\s*\.loc\s+([0-9]+)\s+([0-9]+))");
  const std::vector<std::string> lines = SplitLines(ptx);
  std::map<int, bool> hlo_file;  // .file index → names a .hlo file
  std::smatch m;
  for (const std::string& l : lines)
    if (l.find(".file") != std::string::npos && std::regex_search(l, m, file_re))
      hlo_file[std::atoi(m[1].str().c_str())] = EndsWith(m[2].str(), ".hlo");
  std::vector<int> out(lines.size(), 0);
  int depth = 0, current = 0;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (l.find(".loc") != std::string::npos && std::regex_search(l, m, loc_re)) {
      auto f = hlo_file.find(std::atoi(m[1].str().c_str()));
      current = f != hlo_file.end() && f->second ? std::atoi(m[2].str().c_str()) : 0;
      continue;
    }
    if (depth > 0 && IsPtxCode(l)) out[k] = current;
    const size_t comment = l.find("//");
    for (size_t i = 0; i < l.size() && i < comment; ++i) depth += l[i] == '{' ? 1 : l[i] == '}' ? -1 : 0;
    if (depth <= 0) {
      depth = 0;
      current = 0;  // a function's locations end with it
    }
  }
  return out;
}

namespace {

// Lines of nvdisasm's text, with the line of `//## File "F", line L`
// comments whose F `take` accepts (others of `reset`'s kind set 0) on the
// instruction lines that follow.
template <typename Take, typename Reset>
std::vector<int> SassLines(const std::string& sass, Take take, Reset reset) {
  // "        //## File "m.hlo", line 12"  (-gi adds " inlined at ...")
  // "        /*0010*/                   MOV R1, c[0x0][0x28] ;"
  static const std::regex file_re(R"(//##\s*File\s+"([^"]*)\",\s*line\s+([0-9]+))");
  const std::vector<std::string> lines = SplitLines(sass);
  std::vector<int> out(lines.size(), 0);
  int current = 0;
  std::smatch m;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (l.find("//##") != std::string::npos && std::regex_search(l, m, file_re)) {
      const std::string file = m[1];
      if (take(file))
        current = std::atoi(m[2].str().c_str());
      else if (reset(file))
        current = 0;
      continue;
    }
    if (l.find(".text.") != std::string::npos && l.find(".section") != std::string::npos) current = 0;
    if (IsSassCode(l)) out[k] = current;
  }
  return out;
}

constexpr const char* kPtxFile = ".nv_debug_ptx_txt";

}  // namespace

std::vector<int> SassHloLines(const std::string& sass) {
  return SassLines(
      sass, [](const std::string& f) { return EndsWith(f, ".hlo"); },
      [](const std::string& f) { return f != kPtxFile; });
}

std::vector<int> SassPtxLines(const std::string& sass) {
  return SassLines(
      sass, [](const std::string& f) { return f == kPtxFile; }, [](const std::string&) { return false; });
}

std::vector<int> TextLinesOf(const std::vector<int>& map, int hlo_line) {
  std::vector<int> out;
  if (hlo_line <= 0) return out;
  for (size_t k = 0; k < map.size(); ++k)
    if (map[k] == hlo_line) out.push_back(static_cast<int>(k) + 1);
  return out;
}

std::string IrWithoutDebugInfo(const std::string& ir) {
  // Plain scanning, no std::regex: the GUI calls this on the UI thread.
  std::string out;
  out.reserve(ir.size());
  size_t pos = 0;
  while (pos < ir.size()) {
    size_t end = ir.find('\n', pos);
    const bool newline = end != std::string::npos;
    if (!newline) end = ir.size();
    std::string_view line(ir.data() + pos, end - pos);
    pos = newline ? end + 1 : end;
    if (line.rfind("!llvm.dbg.", 0) == 0) continue;
    if (line.rfind('!', 0) == 0 &&
        (line.find("= !DI") != std::string_view::npos || line.find("= distinct !DI") != std::string_view::npos))
      continue;
    // Drop each ", !dbg !N" (or " !dbg !N" on a define line).
    for (size_t at; (at = line.find(" !dbg !")) != std::string_view::npos;) {
      size_t from = at > 0 && line[at - 1] == ',' ? at - 1 : at, to = at + 7;
      while (to < line.size() && std::isdigit(static_cast<unsigned char>(line[to]))) ++to;
      out.append(line.substr(0, from));
      line.remove_prefix(to);
    }
    out.append(line);
    if (newline) out += '\n';
  }
  return out;
}

}  // namespace hloscope::codegen
