#include "core/runtime/bundle.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/runtime/manifest.h"
#include "core/support/str_util.h"

namespace hloscope::runtime {
namespace fs = std::filesystem;
namespace {

Status WriteFileAtomic(const fs::path& path, const std::string& bytes) {
  fs::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) return Error(path.string() + ": error: cannot open for writing");
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) return Error(path.string() + ": error: write failed");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error(path.string() + ": error: cannot rename into place");
  }
  return Status::Ok();
}

StatusOr<std::string> ReadFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error(path.string() + ": error: cannot open: " + OpenFailureReason(path.string()));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return Error(path.string() + ": error: read failed");
  return ss.str();
}

Status WriteData(const fs::path& path, const DataFile& d) {
  fs::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  RETURN_IF_ERROR(WriteDataFile(tmp.string(), d));
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Error(path.string() + ": error: cannot rename into place");
  return Status::Ok();
}

}  // namespace

Status WriteBundle(const std::string& dir_name, const Bundle& b, bool force) {
  fs::path dir(dir_name);
  std::error_code ec;
  if (fs::exists(dir / "manifest.json", ec) && !force)
    return Error(dir_name + ": error: already holds a bundle (manifest.json); use --force to replace it");
  RETURN_IF_ERROR(ValidatePlan(b.plan, dir_name));
  fs::create_directories(dir, ec);
  if (ec) return Error(dir_name + ": error: cannot create directory: " + ec.message());
  std::set<std::string> have;
  for (const BundleKernel& k : b.kernels) {
    if (!k.ll.empty()) RETURN_IF_ERROR(WriteFileAtomic(dir / (k.name + ".ll"), k.ll));
    if (!k.ptx.empty()) RETURN_IF_ERROR(WriteFileAtomic(dir / (k.name + ".ptx"), k.ptx));
    if (!k.sass.empty()) RETURN_IF_ERROR(WriteFileAtomic(dir / (k.name + ".sass"), k.sass));
    have.insert(k.name);
  }
  for (const KernelThunk* k : AllKernels(b.plan))
    if (!have.count(KernelFunction(*k)) && k->missing.empty())
      return Error(dir_name + ": error: no code given for kernel '" + KernelFunction(*k) + "'");
  bool constants = false;
  for (const PlanAllocation& a : b.plan.allocations) {
    if (a.kind != "constant") continue;
    if (static_cast<int64_t>(a.init.size()) != a.size)
      return Error(dir_name + ": error: constant allocation " + std::to_string(a.index) + " has " +
                   std::to_string(a.init.size()) + " initial bytes for " + std::to_string(a.size));
    if (!constants) fs::create_directories(dir / "constants", ec);
    constants = true;
    RETURN_IF_ERROR(WriteFileAtomic(dir / "constants" / ("alloc" + std::to_string(a.index) + ".bin"),
                                    std::string(a.init.begin(), a.init.end())));
  }
  if (b.input_seed) {
    // Random inputs: the seed and the module, a few KB instead of the values.
    if (b.module_text.empty()) return Error(dir_name + ": error: random inputs need the module they are drawn for");
    RETURN_IF_ERROR(WriteFileAtomic(dir / "module.hlo", b.module_text));
    RETURN_IF_ERROR(WriteFileAtomic(dir / "inputs.random.json",
                                    "{\"format\": \"hloscope-random-inputs-v1\", \"seed\": " +
                                        std::to_string(*b.input_seed) + ", \"module\": \"module.hlo\"}\n"));
    fs::remove(dir / "inputs.data.json", ec);
  } else {
    DataFile in;
    in.inputs = b.inputs;
    RETURN_IF_ERROR(WriteData(dir / "inputs.data.json", in));
    fs::remove(dir / "inputs.random.json", ec);
  }
  if (!b.expected.empty()) {
    DataFile ex;
    ex.outputs = b.expected;
    RETURN_IF_ERROR(WriteData(dir / "expected.data.json", ex));
  } else {
    fs::remove(dir / "expected.data.json", ec);
  }
  // The manifest last: a directory with a manifest is a complete bundle.
  return WriteFileAtomic(dir / "manifest.json", ManifestToString(b.plan));
}

StatusOr<Bundle> ReadBundle(const std::string& dir_name, const BundleReadOptions& opts) {
  fs::path dir(dir_name);
  Bundle b;
  std::string mpath = (dir / "manifest.json").string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error(dir_name + ": error: not a directory");
  ASSIGN_OR_RETURN(std::string text, ReadFile(mpath));
  ASSIGN_OR_RETURN(b.plan, ManifestFromString(text, mpath));
  for (PlanAllocation& a : b.plan.allocations) {
    if (a.kind != "constant") continue;
    fs::path cp = dir / "constants" / ("alloc" + std::to_string(a.index) + ".bin");
    ASSIGN_OR_RETURN(std::string bytes, ReadFile(cp));
    if (static_cast<int64_t>(bytes.size()) != a.size)
      return Error(cp.string() + ": error: holds " + std::to_string(bytes.size()) + " bytes, but allocation " +
                   std::to_string(a.index) + " has " + std::to_string(a.size));
    a.init.assign(bytes.begin(), bytes.end());
  }
  for (const KernelThunk* k : AllKernels(b.plan)) {
    if (!k->missing.empty()) {  // no code: the runners refuse the plan
      BundleKernel bk;
      bk.name = k->name;
      b.kernels.push_back(std::move(bk));
    }
  }
  for (const KernelThunk* k : DistinctKernels(b.plan)) {  // one file per kernel, however many launch it
    BundleKernel bk;
    bk.name = KernelFunction(*k);
    if (opts.load_ll) {
      ASSIGN_OR_RETURN(bk.ll, ReadFile(dir / (bk.name + ".ll")));
    }
    if (opts.load_ptx) {
      ASSIGN_OR_RETURN(bk.ptx, ReadFile(dir / (bk.name + ".ptx")));
    }
    b.kernels.push_back(std::move(bk));
  }
  if (fs::exists(dir / "inputs.data.json", ec) || !fs::exists(dir / "inputs.random.json", ec)) {
    ASSIGN_OR_RETURN(DataFile in, ReadDataFile((dir / "inputs.data.json").string()));
    b.inputs = std::move(in.inputs);
  } else {
    const std::string rpath = (dir / "inputs.random.json").string();
    ASSIGN_OR_RETURN(std::string rtext, ReadFile(rpath));
    nlohmann::json r = nlohmann::json::parse(rtext, nullptr, /*allow_exceptions=*/false);
    if (!r.is_object() || r.value("format", "") != "hloscope-random-inputs-v1" || !r.contains("seed") ||
        !r["seed"].is_number_unsigned())
      return Error(rpath + ": error: expected {\"format\": \"hloscope-random-inputs-v1\", \"seed\": N, \"module\": F}");
    const std::string mfile = r.value("module", "module.hlo");
    ASSIGN_OR_RETURN(b.module_text, ReadFile(dir / mfile));
    ASSIGN_OR_RETURN(std::unique_ptr<Module> m, ParseHloModule(b.module_text, (dir / mfile).string()));
    if (!m->entry()) return Error((dir / mfile).string() + ": error: the module has no entry computation");
    b.input_seed = r["seed"].get<uint64_t>();
    b.inputs = MakeRandomInputs(*m->entry(), *b.input_seed);
  }
  if (fs::exists(dir / "expected.data.json", ec)) {
    ASSIGN_OR_RETURN(DataFile ex, ReadDataFile((dir / "expected.data.json").string()));
    b.expected = std::move(ex.outputs);
  }
  return b;
}

}  // namespace hloscope::runtime
