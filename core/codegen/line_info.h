// Line info: which HLO instruction each line of a kernel's PTX and SASS came
// from. The "source file" of every kernel is the optimized module as
// PrintModule prints it (named `<module name>.hlo`); an instruction's line is
// the 1-based line of its definition in that text (instructions of fused
// computations have lines of their own there).
//
//   IR:   the kernel function gets a DISubprogram in a DICompileUnit of kind
//         DebugDirectivesOnly (the NVPTX backend prints .file/.loc and no
//         DWARF sections); each instruction's IR carries its line as !dbg.
//   PTX:  `.file 1 "m.hlo"` and `.loc 1 <line> 0` before the code of a line.
//   SASS: ptxas -lineinfo keeps them in the cubin; nvdisasm -g prints
//         `//## File "m.hlo", line <line>` before the instructions of a line,
//         -gp `//## File ".nv_debug_ptx_txt", line <PTX line>`.
//
// Debug info does not change the generated code: only the .loc/.file lines
// of the PTX (and the !dbg metadata of the IR) differ from a module without.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class Function;
class IRBuilderBase;
class DILocation;
}  // namespace llvm

namespace hloscope {
class Instruction;
class Module;
}  // namespace hloscope

namespace hloscope::codegen {

struct KernelSpec;

// Where every instruction of a module is defined in PrintModule(module).
struct HloLineTable {
  std::string file;                                   // "<module name>.hlo"
  std::unordered_map<const Instruction*, int> lines;  // 1-based
  int LineOf(const Instruction* i) const;             // 0 when not in the table
};
HloLineTable MakeHloLineTable(const Module& module);

// IR side (the emitters). With spec.lines set, gives `f` its DISubprogram
// (and the module its compile unit and "Debug Info Version" flag) and sets
// the builder's location to spec.instr's line; without, does nothing.
void AttachKernelDebugInfo(llvm::Function& f, const KernelSpec& spec, llvm::IRBuilderBase& b);

// While alive, the code the builder makes is located at `instr`'s line
// (where it has one and the function has debug info); the previous location
// comes back at the end of the scope.
class ScopedHloLocation {
 public:
  ScopedHloLocation(llvm::IRBuilderBase& b, const KernelSpec& spec, const Instruction* instr);
  ~ScopedHloLocation();
  ScopedHloLocation(const ScopedHloLocation&) = delete;
  ScopedHloLocation& operator=(const ScopedHloLocation&) = delete;

 private:
  llvm::IRBuilderBase& b_;
  llvm::DILocation* saved_ = nullptr;
  bool set_ = false;
};

// Text side. For each line of the text (element k: line k + 1), the HLO line
// its code came from, 0 where none (directives, declarations, labels,
// comments, code of line 0, code of another file).
//
// PTX: instruction lines after a `.loc F L C` whose file F is a `.hlo` file.
std::vector<int> PtxHloLines(const std::string& ptx);
// SASS (nvdisasm -g): instruction lines after a `//## File "….hlo", line L`.
std::vector<int> SassHloLines(const std::string& sass);
// SASS (nvdisasm -gp): for each line, the line of the kernel's PTX its
// instruction came from (`//## File ".nv_debug_ptx_txt", line P`; in a
// batch, CompileToSassBatch maps the merged module's lines back), 0 none.
std::vector<int> SassPtxLines(const std::string& sass);
// The 1-based lines of a text that `map` (PtxHloLines/SassHloLines) maps to
// `hlo_line`, in order.
std::vector<int> TextLinesOf(const std::vector<int>& map, int hlo_line);

// LLVM IR text without its line info, for reading: the `!dbg !N`
// attachments and the debug metadata (`!N = …!DI…`, `!llvm.dbg.cu`) go;
// everything else stays as it was, line for line otherwise.
std::string IrWithoutDebugInfo(const std::string& ir);

}  // namespace hloscope::codegen
