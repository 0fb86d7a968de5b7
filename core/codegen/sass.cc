#include "core/codegen/sass.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

#include "core/codegen/nvptx_backend.h"

namespace hloscope::codegen {
namespace fs = std::filesystem;

namespace {

bool IsExecutable(const std::string& p) {
  struct stat st;
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

std::string OnPath(const char* tool) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && IsExecutable(dir + "/" + tool)) return dir + "/" + tool;
  return "";
}

// Runs `cmd` (a shell command line), returning its exit status and output.
int Run(const std::string& cmd, std::string* out) {
  out->clear();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[1 << 15];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  return pclose(p);
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int64_t FirstNumberBefore(const std::string& line, const std::string& unit) {
  std::smatch m;
  if (std::regex_search(line, m, std::regex("([0-9]+) " + unit))) return std::stoll(m[1]);
  return 0;
}

}  // namespace

std::string NvdisasmPath() {
  if (const char* e = std::getenv("HLOSCOPE_NVDISASM"); e && *e) return IsExecutable(e) ? e : "";
  if (std::string p = OnPath("nvdisasm"); !p.empty()) return p;
  if (std::string ptxas = PtxasPath(); !ptxas.empty()) {
    std::string beside = (fs::path(ptxas).parent_path() / "nvdisasm").string();
    if (IsExecutable(beside)) return beside;
  }
#ifdef HLOSCOPE_TOOLS_DIR
  // tools/install_deps.sh unpacks PyPI's nvidia-cuda-nvdisasm wheel here.
  for (const char* sub : {"nvdisasm/nvidia/cu13/bin/nvdisasm", "nvdisasm/nvidia/cuda_nvdisasm/bin/nvdisasm",
                          "nvdisasm/bin/nvdisasm"}) {
    std::string p = std::string(HLOSCOPE_TOOLS_DIR) + "/" + sub;
    if (IsExecutable(p)) return p;
  }
#endif
  return "";
}

std::string MissingSassTools() {
  std::string missing;
  if (PtxasPath().empty())
    missing = "ptxas not found (the CUDA toolkit's; set HLOSCOPE_PTXAS or put it on PATH)";
  if (NvdisasmPath().empty())
    missing += std::string(missing.empty() ? "" : "; ") +
               "nvdisasm not found (tools/install_deps.sh fetches PyPI's nvidia-cuda-nvdisasm wheel into .tools/; "
               "or set HLOSCOPE_NVDISASM, or put it on PATH)";
  return missing;
}

StatusOr<KernelResources> ParsePtxasInfo(const std::string& log, const std::string& entry) {
  // ptxas info    : Compiling entry function 'k' for 'sm_90'
  // ptxas info    : Function properties for k
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 4 registers, used 0 barriers, 1024 bytes smem, 384 bytes cmem[0]
  std::istringstream in(log);
  std::string line;
  bool in_entry = false, found = false;
  KernelResources r;
  while (std::getline(in, line)) {
    if (line.find("Compiling entry function '") != std::string::npos) {
      in_entry = line.find("'" + entry + "'") != std::string::npos;
      found |= in_entry;
      continue;
    }
    if (!in_entry) continue;
    if (line.find("stack frame") != std::string::npos) {
      r.stack_bytes = FirstNumberBefore(line, "bytes stack frame");
      r.spill_stores = FirstNumberBefore(line, "bytes spill stores");
      r.spill_loads = FirstNumberBefore(line, "bytes spill loads");
    } else if (line.find("Used ") != std::string::npos && line.find("registers") != std::string::npos) {
      r.registers = static_cast<int>(FirstNumberBefore(line, "registers"));
      r.barriers = static_cast<int>(FirstNumberBefore(line, "barriers"));
      r.shared_bytes = FirstNumberBefore(line, "bytes smem");
      r.constant_bytes = FirstNumberBefore(line, "bytes cmem\\[0\\]");
    }
  }
  if (!found) return Status::Error("codegen: ptxas -v did not report entry function '" + entry + "'");
  return r;
}

std::map<std::string, int64_t> ConstantBankSizes(const std::string& elf) {
  std::map<std::string, int64_t> sizes;
  auto u = [&](uint64_t at, int bytes, uint64_t* v) {
    if (at + static_cast<uint64_t>(bytes) > elf.size()) return false;
    *v = 0;
    for (int i = bytes - 1; i >= 0; --i) *v = (*v << 8) | static_cast<uint8_t>(elf[at + static_cast<uint64_t>(i)]);
    return true;
  };
  // e_ident: magic, ELFCLASS64 (2), ELFDATA2LSB (1).
  if (elf.size() < 64 || elf.compare(0, 4, "\x7f" "ELF") != 0 || elf[4] != 2 || elf[5] != 1) return sizes;
  uint64_t shoff = 0, shentsize = 0, shnum = 0, shstrndx = 0;
  if (!u(0x28, 8, &shoff) || !u(0x3A, 2, &shentsize) || !u(0x3C, 2, &shnum) || !u(0x3E, 2, &shstrndx)) return sizes;
  if (shentsize < 64 || shstrndx >= shnum) return sizes;
  uint64_t str_off = 0, str_size = 0;
  if (!u(shoff + shstrndx * shentsize + 24, 8, &str_off) || !u(shoff + shstrndx * shentsize + 32, 8, &str_size) ||
      str_off + str_size > elf.size())
    return sizes;
  static const std::string kPrefix = ".nv.constant0.";
  for (uint64_t i = 0; i < shnum; ++i) {
    const uint64_t h = shoff + i * shentsize;
    uint64_t name = 0, size = 0;
    if (!u(h, 4, &name) || !u(h + 32, 8, &size)) return sizes;
    if (name >= str_size) continue;
    const char* begin = elf.data() + str_off + name;
    const size_t len = strnlen(begin, static_cast<size_t>(str_size - name));
    std::string_view n(begin, len);
    if (n.size() > kPrefix.size() && n.substr(0, kPrefix.size()) == kPrefix)
      sizes[std::string(n.substr(kPrefix.size()))] = static_cast<int64_t>(size);
  }
  return sizes;
}

namespace {

std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Constant bank 0 from the cubin where ptxas's log had no cmem[0].
void FillConstantBytes(KernelResources& r, const std::map<std::string, int64_t>& banks, const std::string& entry) {
  if (r.constant_bytes > 0) return;
  if (auto it = banks.find(entry); it != banks.end()) r.constant_bytes = it->second;
}

}  // namespace

Occupancy ComputeOccupancy(const KernelResources& r, int64_t block_threads, int64_t dynamic_shared,
                           const DeviceSpec& d) {
  Occupancy o;
  const int warp = d.warp_size > 0 ? d.warp_size : 32;
  o.max_warps_per_sm = d.max_threads_per_sm / warp;
  if (block_threads <= 0) return o;
  const int64_t warps_per_block = (block_threads + warp - 1) / warp;
  struct Limit {
    int64_t blocks;
    const char* what;
  };
  std::vector<Limit> limits;
  limits.push_back({o.max_warps_per_sm / warps_per_block, "warps"});
  limits.push_back({d.max_blocks_per_sm, "blocks"});
  if (r.registers > 0 && d.registers_per_sm > 0) {
    // Registers are allocated per warp, in units of 256.
    const int64_t per_warp = (static_cast<int64_t>(r.registers) * warp + 255) / 256 * 256;
    const int64_t warps = d.registers_per_sm / per_warp;
    limits.push_back({warps / warps_per_block, "registers"});
  }
  const int64_t shared = r.shared_bytes + dynamic_shared;
  if (shared > 0 && d.smem_per_sm_bytes > 0) {
    const int64_t per_block = shared + (d.sm_version >= 80 ? 1024 : 0);  // 1 KiB reserved per block
    limits.push_back({d.smem_per_sm_bytes / per_block, "shared memory"});
  }
  const Limit* least = &limits.front();
  for (const Limit& l : limits)
    if (l.blocks < least->blocks) least = &l;
  o.blocks_per_sm = static_cast<int>(std::max<int64_t>(least->blocks, 0));
  o.active_warps_per_sm = static_cast<int>(o.blocks_per_sm * warps_per_block);
  o.limited_by = least->what;
  return o;
}

SassStats ClassifySass(const std::string& sass) {
  // "        /*0010*/                   @!P0 LDG.E R2, desc[UR4][R2.64] ;"
  static const std::regex instr(R"(^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*))");
  auto starts = [](const std::string& op, std::initializer_list<const char*> prefixes) {
    for (const char* p : prefixes)
      if (op.rfind(p, 0) == 0) return true;
    return false;
  };
  SassStats s;
  std::istringstream in(sass);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, m, instr)) continue;
    const std::string op = m[1];
    ++s.total;
    if (starts(op, {"HMMA", "IMMA", "DMMA", "HGMMA", "IGMMA", "QGMMA", "BMMA", "UTMA", "WARPGROUP"}))
      ++s.tensor;
    else if (starts(op, {"LD", "ST", "ATOM", "RED", "CCTL", "MEMBAR", "ULDC", "LDC", "SHFL", "SUST", "SULD", "TEX",
                         "TLD", "FENCE"}))
      ++s.memory;
    else if (starts(op, {"BRA", "BRX", "JMP", "EXIT", "RET", "CALL", "BAR", "BSSY", "BSYNC", "WARPSYNC", "YIELD",
                         "BPT", "KILL", "NANOSLEEP", "ERRBAR", "DEPBAR", "VOTE", "MATCH", "ELECT"}))
      ++s.control;
    else if (starts(op, {"MOV", "UMOV", "S2R", "S2UR", "CS2R", "NOP", "PRMT", "SEL", "USEL", "R2UR", "P2R", "R2P",
                         "PLOP3", "UPLOP3", "ISETP", "FSETP", "DSETP", "HSETP", "UISETP"}))
      ++s.other;
    else
      ++s.fma_alu;  // FFMA, FADD, FMUL, IMAD, IADD3, LOP3, SHF, MUFU, F2F, I2F, ...
  }
  return s;
}

StatusOr<SassCode> CompileToSass(const std::string& ptx, const std::string& entry, const NvptxTarget& target) {
  const std::string ptxas = PtxasPath(), nvdisasm = NvdisasmPath();
  if (ptxas.empty() || nvdisasm.empty()) return Status::Error("codegen: " + MissingSassTools());
  char tmpl[] = "/tmp/hloscope_sass_XXXXXX";
  if (!mkdtemp(tmpl)) return Status::Error("codegen: cannot create a temporary folder for ptxas");
  const fs::path dir = tmpl;
  const std::string in = (dir / "k.ptx").string(), cubin = (dir / "k.cubin").string();
  {
    std::ofstream f(in, std::ios::binary);
    f << ptx;
  }
  SassCode out;
  out.sm = std::string(target.sm);
  std::string log;
  int rc = Run(Quote(ptxas) + " -v -lineinfo -arch=" + out.sm + " -o " + Quote(cubin) + " " + Quote(in) + " 2>&1", &log);
  std::string sass;
  int rc2 = rc == 0 ? Run(Quote(nvdisasm) + " -c -g -gp " + Quote(cubin) + " 2>&1", &sass) : -1;
  const std::map<std::string, int64_t> banks = rc == 0 ? ConstantBankSizes(ReadFileBytes(cubin))
                                                       : std::map<std::string, int64_t>{};
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (rc != 0) return Status::Error("codegen: ptxas -arch=" + out.sm + " rejected the PTX: " + log);
  if (rc2 != 0) return Status::Error("codegen: nvdisasm failed on the cubin: " + sass);
  out.ptxas_log = std::move(log);
  ASSIGN_OR_RETURN(out.resources, ParsePtxasInfo(out.ptxas_log, entry));
  FillConstantBytes(out.resources, banks, entry);
  out.sass = std::move(sass);
  out.stats = ClassifySass(out.sass);
  return out;
}

StatusOr<std::map<std::string, KernelResources>> PtxasResources(const std::string& ptx,
                                                                const std::vector<std::string>& entries,
                                                                const NvptxTarget& target) {
  const std::string ptxas = PtxasPath();
  if (ptxas.empty()) return Status::Error("codegen: ptxas not found (the CUDA toolkit's; set HLOSCOPE_PTXAS or put it on PATH)");
  char tmpl[] = "/tmp/hloscope_ptxas_XXXXXX";
  if (!mkdtemp(tmpl)) return Status::Error("codegen: cannot create a temporary folder for ptxas");
  const fs::path dir = tmpl;
  const std::string in = (dir / "k.ptx").string(), cubin = (dir / "k.cubin").string();
  {
    std::ofstream f(in, std::ios::binary);
    f << ptx;
  }
  std::string log;
  const std::string sm(target.sm);
  int rc = Run(Quote(ptxas) + " -v -arch=" + sm + " -o " + Quote(cubin) + " " + Quote(in) + " 2>&1", &log);
  const std::map<std::string, int64_t> banks = rc == 0 ? ConstantBankSizes(ReadFileBytes(cubin))
                                                       : std::map<std::string, int64_t>{};
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (rc != 0) return Status::Error("codegen: ptxas -arch=" + sm + " rejected the PTX: " + log);
  std::map<std::string, KernelResources> out;
  for (const std::string& e : entries) {
    ASSIGN_OR_RETURN(KernelResources r, ParsePtxasInfo(log, e));
    FillConstantBytes(r, banks, e);
    out[e] = r;
  }
  return out;
}

namespace {

bool IsHeaderLine(const std::string& l) {
  return l.rfind(".version", 0) == 0 || l.rfind(".target", 0) == 0 || l.rfind(".address_size", 0) == 0;
}

// A PTX module taken apart for merging: its header, its module-scope data
// declarations (`.global`/`.const` tables such as libdevice's
// __cudart_i2opi_f, one line each), its line-info files (`.file N "name"`),
// and the rest, each line with its line number in the module.
struct PtxParts {
  std::string header;
  std::vector<std::string> globals;
  std::map<int, std::string> files;  // .file index → name
  bool debug_section = false;        // the backend's empty `.section .debug_loc { }`
  std::vector<std::string> body;
  std::vector<int> body_line;        // 1-based, per body line
};

// "\t.file\t1 \"m.hlo\"" → 1, m.hlo; false for other lines.
bool ParseFileLine(const std::string& line, int* index, std::string* name) {
  static const std::regex file(R"(^\s*\.file\s+([0-9]+)\s+"([^"]*)\")");
  std::smatch m;
  if (line.find(".file") == std::string::npos || !std::regex_search(line, m, file)) return false;
  *index = std::stoi(m[1]);
  *name = m[2];
  return true;
}

// False when the module declares anything else at module scope (functions,
// multi-line declarations), which could clash in a merged module.
bool SplitPtx(const std::string& ptx, PtxParts* out) {
  std::istringstream in(ptx);
  std::string line;
  int depth = 0, number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (depth == 0 && IsHeaderLine(line)) {
      out->header += line + "\n";
      continue;
    }
    if (depth == 0) {
      int index = 0;
      std::string name;
      if (ParseFileLine(line, &index, &name)) {
        out->files[index] = name;
        continue;
      }
      const size_t a = line.find_first_not_of(" \t");
      if (a != std::string::npos && line.compare(a, 15, ".section\t.debug") == 0) {
        out->debug_section = true;
        continue;
      }
    }
    if (depth == 0 && !line.empty() && line[0] == '.' && line.rfind(".visible .entry", 0) != 0 &&
        line.rfind(".entry", 0) != 0 && line.rfind(".maxntid", 0) != 0 && line.rfind(".reqntid", 0) != 0 &&
        line.rfind(".minnctapersm", 0) != 0 && line.rfind(".maxnreg", 0) != 0) {
      const bool data = (line.rfind(".global ", 0) == 0 || line.rfind(".const ", 0) == 0) && line.back() == ';' &&
                        line.find('{') == line.rfind('{');
      if (!data) return false;
      out->globals.push_back(line);
      continue;
    }
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    out->body.push_back(line);
    out->body_line.push_back(number);
  }
  return true;
}

// `.loc F L C` with F renumbered by `ids` (a line unchanged otherwise).
std::string RenumberLoc(const std::string& line, const std::map<int, int>& ids) {
  static const std::regex loc(R"(^(\s*\.loc\s+)([0-9]+)(.*)$)");
  std::smatch m;
  if (line.find(".loc") == std::string::npos || !std::regex_match(line, m, loc)) return line;
  auto it = ids.find(std::stoi(m[2]));
  if (it == ids.end() || it->first == it->second) return line;
  return m[1].str() + std::to_string(it->second) + m[3].str();
}

// nvdisasm -gp names the PTX line of each instruction in the merged module;
// `origin` maps those (1-based) to (job, line in the job's own PTX). Lines of
// other jobs' PTX, which a kernel's listing cannot show, are dropped.
std::string RemapPtxLines(const std::string& sass, const std::vector<std::pair<int, int>>& origin, int job) {
  static const std::string key = ".nv_debug_ptx_txt\", line ";
  if (sass.find(key) == std::string::npos) return sass;
  std::istringstream in(sass);
  std::string out, line;
  while (std::getline(in, line)) {
    const size_t at = line.find(key);
    if (at != std::string::npos && line.find("//##") != std::string::npos) {
      const size_t from = at + key.size();
      const size_t to = line.find_first_not_of("0123456789", from);
      const int merged = to == from ? 0 : std::stoi(line.substr(from, to - from));
      if (merged <= 0 || merged > static_cast<int>(origin.size()) || origin[merged - 1].first != job) continue;
      line = line.substr(0, from) + std::to_string(origin[merged - 1].second) +
             (to == std::string::npos ? std::string() : line.substr(to));
    }
    out += line + "\n";
  }
  return out;
}

// The symbol a module-scope data declaration defines ("" if not found).
std::string DeclaredSymbol(const std::string& line) {
  static const std::regex name(R"(([A-Za-z_$%][A-Za-z0-9_$]*)\s*(\[[0-9]*\])?\s*(=|;))");
  std::smatch m;
  return std::regex_search(line, m, name) ? std::string(m[1]) : "";
}

// The code sections of nvdisasm's text by function name.
std::map<std::string, std::string> SectionsByFunction(const std::string& sass) {
  std::map<std::string, std::string> out;
  std::istringstream in(sass);
  std::string line, current;
  static const std::regex header(R"(^\s*\.section\s+\.text\.([^,\s]+),)");
  static const std::regex section_start(R"(^\s*\.section\s)");  // not .sectioninfo/.sectionflags
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, header)) {
      current = m[1];
    } else if (line.rfind("//----", 0) == 0 || std::regex_search(line, section_start)) {
      current.clear();
      continue;
    }
    if (!current.empty()) out[current] += line + "\n";
  }
  return out;
}

// .L_x_N labels numbered from 0 in the order they appear in `text`.
std::string RenumberLabels(const std::string& text) {
  static const std::regex label(R"(\.L_x_([0-9]+))");
  std::map<std::string, int> ids;
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), label);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out.append(text, last, static_cast<size_t>(m.position()) - last);
    auto [e, fresh] = ids.emplace(m[1], static_cast<int>(ids.size()));
    out += ".L_x_" + std::to_string(e->second);
    last = static_cast<size_t>(m.position() + m.length());
  }
  out.append(text, last, std::string::npos);
  return out;
}

}  // namespace

std::vector<StatusOr<SassCode>> CompileToSassBatch(const std::vector<SassJob>& jobs, const NvptxTarget& target) {
  std::vector<StatusOr<SassCode>> out(jobs.size(), Status::Error("codegen: not compiled"));
  const std::string ptxas = PtxasPath(), nvdisasm = NvdisasmPath();
  if (ptxas.empty() || nvdisasm.empty()) {
    for (auto& o : out) o = Status::Error("codegen: " + MissingSassTools());
    return out;
  }
  std::string header, data, files;
  std::vector<std::string> bodies;                       // per batched job, its lines renumbered
  std::vector<std::vector<int>> body_lines;              // and their lines in its own PTX
  std::map<std::string, std::string> declared;           // symbol → its declaration in the merged module
  std::map<std::string, int> file_ids;                   // line-info file → its index in the merged module
  bool debug_section = false;
  std::vector<size_t> batch, alone;
  for (size_t i = 0; i < jobs.size(); ++i) {
    PtxParts parts;
    bool ok = jobs[i].ptx && SplitPtx(*jobs[i].ptx, &parts) && (header.empty() || parts.header == header);
    // The same table declared alike by several kernels is declared once;
    // one symbol declared differently keeps the kernel out of the batch.
    for (const std::string& g : parts.globals) {
      const std::string sym = DeclaredSymbol(g);
      auto it = declared.find(sym);
      ok = ok && !sym.empty() && (it == declared.end() || it->second == g);
    }
    if (!ok) {
      alone.push_back(i);
      continue;
    }
    for (const std::string& g : parts.globals)
      if (declared.emplace(DeclaredSymbol(g), g).second) data += g + "\n";
    // Line-info files are numbered once for the merged module; each
    // kernel's .loc lines follow (kernels of one module share one file).
    std::map<int, int> ids;
    for (const auto& [index, name] : parts.files) {
      auto [it, fresh] = file_ids.emplace(name, static_cast<int>(file_ids.size()) + 1);
      if (fresh) files += "\t.file\t" + std::to_string(it->second) + " \"" + name + "\"\n";
      ids[index] = it->second;
    }
    std::string body;
    for (const std::string& l : parts.body) body += (ids.empty() ? l : RenumberLoc(l, ids)) + "\n";
    bodies.push_back(std::move(body));
    body_lines.push_back(std::move(parts.body_line));
    debug_section |= parts.debug_section;
    header = parts.header;
    batch.push_back(i);
  }
  bool batched = false;
  if (batch.size() > 1) {
    char tmpl[] = "/tmp/hloscope_sass_XXXXXX";
    if (mkdtemp(tmpl)) {
      const fs::path dir = tmpl;
      const std::string in = (dir / "all.ptx").string(), cubin = (dir / "all.cubin").string();
      // Where each line of the merged module came from (-gp's PTX lines).
      std::vector<std::pair<int, int>> origin;
      {
        std::string merged = header + data + files;
        origin.assign(static_cast<size_t>(std::count(merged.begin(), merged.end(), '\n')), {-1, 0});
        for (size_t b = 0; b < batch.size(); ++b) {
          merged += bodies[b];
          for (int line : body_lines[b]) origin.push_back({static_cast<int>(batch[b]), line});
        }
        if (debug_section) merged += "\t.section\t.debug_loc\t{\t}\n";
        std::ofstream f(in, std::ios::binary);
        f << merged;
      }
      std::string log, sass;
      if (Run(Quote(ptxas) + " -v -lineinfo -arch=" + std::string(target.sm) + " -o " + Quote(cubin) + " " + Quote(in) + " 2>&1",
              &log) == 0 &&
          Run(Quote(nvdisasm) + " -c -g -gp " + Quote(cubin) + " 2>&1", &sass) == 0) {
        std::map<std::string, std::string> sections = SectionsByFunction(sass);
        const std::map<std::string, int64_t> banks = ConstantBankSizes(ReadFileBytes(cubin));
        std::string prologue = sass.substr(0, sass.find("//----"));  // .target, .elftype
        for (size_t i : batch) {
          auto res = ParsePtxasInfo(log, jobs[i].entry);
          auto sec = sections.find(jobs[i].entry);
          if (!res.ok() || sec == sections.end()) {
            out[i] = Status::Error("codegen: kernel " + jobs[i].entry + " missing from the batch's cubin");
            continue;
          }
          SassCode c;
          c.sm = std::string(target.sm);
          c.resources = *res;
          FillConstantBytes(c.resources, banks, jobs[i].entry);
          std::string text = prologue + sec->second;
          // The runtime helpers it calls, as in a cubin of its own.
          for (const auto& [name, body] : sections)
            if (name.rfind("__cuda", 0) == 0 && sec->second.find("(" + name + ")") != std::string::npos)
              text += body;
          c.sass = RenumberLabels(RemapPtxLines(text, origin, static_cast<int>(i)));
          c.stats = ClassifySass(c.sass);
          c.ptxas_log = log;
          out[i] = std::move(c);
        }
        batched = true;
      }
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  }
  if (!batched) alone.insert(alone.end(), batch.begin(), batch.end());
  for (size_t i : alone)
    out[i] = jobs[i].ptx ? CompileToSass(*jobs[i].ptx, jobs[i].entry, target)
                         : StatusOr<SassCode>(Status::Error("codegen: no PTX"));
  return out;
}

}  // namespace hloscope::codegen
