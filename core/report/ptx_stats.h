// Static statistics of PTX text, per entry function: instructions by class,
// the widths of global loads and stores, static shared memory. Plain text
// scanning of each entry's body (no PTX parser): statements end at `;`,
// comments, directives (`.reg`, `.loc`, ...), labels, braces and guard
// predicates (`@%p1`, `@!%p1`) are skipped, and the class comes from the
// opcode's words (`ld.global.nc.v4.b32` → global load of 4 × 4 bytes). It
// reads LLVM's NVPTX output and XLA's Triton PTX (inline-asm loads
// `ld.global.v4.b32 { %r1, ... }, [ %rd1 + 0 ];`) alike. Used by the kernel
// comparison with XLA (ptx_compare.h, docs/codegen.md).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hloscope::report {

enum class PtxClass {
  kLdGlobal,     // ld.global, ldu.global (ld.global.nc included)
  kStGlobal,     // st.global
  kAtomic,       // atom, red (any state space)
  kLdShared,     // ld.shared, ldmatrix
  kStShared,     // st.shared, stmatrix
  kAsyncCopy,    // cp.async (global → shared), its bulk/tensor (TMA) forms
  kMemOther,     // ld/st of param, local, const or a generic address
  kF32,          // float arithmetic, compares and selects by type
  kF16,          // f16 and f16x2
  kBf16,         // bf16 and bf16x2
  kF64,
  kInt,          // integer, bit and predicate arithmetic
  kConvert,      // cvt (cvta, an address-space conversion, is "other")
  kSpecial,      // ex2, lg2, rsqrt, sqrt, rcp, sin, cos, tanh, float div
  kMma,          // tensor cores: mma, wgmma
  kShuffle,      // shfl, vote, match, redux, activemask
  kBarrier,      // bar, barrier, mbarrier, membar, fence, griddepcontrol
  kControl,      // bra, brx, ret, exit, call, trap
  kOther,        // mov, cvta, prefetch, ...
  kCount
};
const char* PtxClassName(PtxClass c);  // short name: "ld.global", "f32", "mma", ...

// The class of one opcode ("ld.global.nc.v4.b32", "mma.sync.aligned....").
PtxClass ClassifyPtxOpcode(std::string_view opcode);
// Elements per access (1, 2, 4, 8) and bytes per access of a load or store
// opcode; {1, 0} when its type has no size ("ld.global" alone).
std::pair<int, int> PtxAccessWidth(std::string_view opcode);

struct PtxStats {
  int64_t total = 0;  // instructions (statements that are not directives)
  std::array<int64_t, static_cast<size_t>(PtxClass::kCount)> by_class{};
  // Global loads and stores by bytes per access (4, 8, 16, ...) and by
  // vector length (1 = scalar, 2 = .v2, 4 = .v4).
  std::map<int, int64_t> ld_global_bytes, st_global_bytes;
  std::map<int, int64_t> ld_global_vector, st_global_vector;
  // Static shared memory the entry declares, or declared at module scope
  // and named in its body; an extern `.shared ... x[]` (dynamic shared
  // memory, sized at launch, as Triton's global_smem) sets `dynamic_shared`.
  int64_t shared_bytes = 0;
  bool dynamic_shared = false;
  int64_t count(PtxClass c) const { return by_class[static_cast<size_t>(c)]; }
};

// One `.entry` of a PTX text.
struct PtxEntry {
  std::string name;
  int module = 0;            // which PTX module of the text (each starts at `.version`)
  std::string_view module_text;
  size_t body_begin = 0, body_end = 0;  // the body, between its braces, in module_text
};

// The PTX modules of a text: one per `.version` line (kernels.ptx of a
// reference folder concatenates several; a text without `.version` is one).
std::vector<std::string_view> SplitPtxModules(std::string_view text);
// Every `.entry` of every module of `text` (views into `text`).
std::vector<PtxEntry> FindPtxEntries(std::string_view text);
// The statistics of one entry.
PtxStats CountPtx(const PtxEntry& entry);

// "4B×245 8B×38 16B×21" (ascending bytes); "-" when empty.
std::string FormatWidths(const std::map<int, int64_t>& bytes);

}  // namespace hloscope::report
