// The differential driver (diff_driver.h): the checks of one module, the
// forked child that makes crashes and hangs findings, and the loop over
// seeds that shrinks and saves what it finds.
#include "core/fuzz/diff_driver.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/fuzz/shrink.h"
#include "core/memory/assignment_checker.h"
#include "core/memory/buffer_assignment.h"
#include "core/parser/parser.h"
#include "core/passes/differential_checker.h"
#include "core/passes/pass_registry.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/printer/printer.h"
#include "core/runtime/plan_io.h"
#include "core/verify/verifier.h"

namespace hloscope::fuzz {
namespace {

// The first few lines of a message (findings are printed one per line).
std::string Brief(const std::string& m, size_t max_lines = 3) {
  std::string out;
  size_t lines = 0, pos = 0;
  while (pos < m.size() && lines < max_lines) {
    size_t nl = m.find('\n', pos);
    std::string line = m.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    out += (out.empty() ? "" : " | ") + line;
    ++lines;
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out.size() > 600 ? out.substr(0, 600) + "..." : out;
}

// Counts pass runs and remembers the last pass (the one a failure is in).
class PassCounter : public PassInstrumentation {
 public:
  Status BeforePass(const Module&, const PassRunInfo& info) override {
    ++runs;
    last = info.pass ? info.pass->name() : "";
    return Status::Ok();
  }
  int64_t runs = 0;
  std::string last;
};

}  // namespace

bool IsDocumentedRefusal(const std::string& m) {
  return m.find("is not supported") != std::string::npos || m.find("are not supported") != std::string::npos ||
         m.find("is not implemented for") != std::string::npos || m.find("cannot evaluate") != std::string::npos;
}

CheckResult CheckModuleText(const std::string& text, const CheckOptions& opts) {
  CheckResult r;
  auto fail = [&](std::string kind, std::string stage, const std::string& msg) {
    r.finding = Finding{std::move(kind), std::move(stage), Brief(msg)};
    return r;
  };
  auto refuse = [&](const std::string& msg) { r.refusals.push_back(Brief(msg, 1)); };

  auto parsed = ParseHloModule(text, "<generated>");
  if (!parsed.ok()) return fail("parse", "", parsed.status().message());
  Module& original = **parsed;
  if (Status s = VerifyModule(original); !s.ok()) return fail("verify", "", s.message());
  const std::string printed = PrintModule(original);
  auto reparsed = ParseHloModule(printed, "<printed>");
  if (!reparsed.ok()) return fail("roundtrip", "reparse", reparsed.status().message());
  if (std::string again = PrintModule(**reparsed); again != printed) {
    size_t at = 0;
    while (at < again.size() && at < printed.size() && again[at] == printed[at]) ++at;
    size_t line = static_cast<size_t>(std::count(printed.begin(), printed.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    return fail("roundtrip", "print", "printing the parsed print differs at line " + std::to_string(line + 1));
  }

  // One device, or all of a module's whose collectives exchange data (each on
  // inputs of its own, as the differential checker gives them).
  const int64_t devices = DevicesToEvaluate(original);
  r.devices = devices;
  const std::vector<std::vector<Literal>> device_inputs =
      MakeRandomDeviceInputs(*original.entry(), opts.input_seed, devices);
  const std::vector<Literal>& inputs = device_inputs[0];
  auto reference = EvaluateOnDevices(original, devices, device_inputs);
  if (!reference.ok()) {
    if (IsDocumentedRefusal(reference.status().message())) {
      refuse(reference.status().message());
      return r;
    }
    return fail("interpreter", "original", reference.status().message());
  }

  // One pipeline with the verifier and the differential checker; "" when it
  // agrees with the original (a finding is returned through `fail`). With
  // signed_zeros false, -0 and +0 are one value (EvalOptions::signed_zeros).
  std::unique_ptr<Module> gpu;
  std::vector<Literal> gpu_outs;  // one per device
  struct Outcome {
    bool refused = false;
    std::string kind, stage, message;  // kind "" : agreed
    std::unique_ptr<Module> module;
    std::vector<Literal> outs;  // one per device
  };
  std::optional<std::vector<Literal>> reference_nsz;
  auto run_pipeline = [&](const std::string& name, bool signed_zeros) -> Outcome {
    Outcome o;
    auto bad = [&](std::string kind, std::string stage, std::string msg) {
      o.kind = std::move(kind);
      o.stage = std::move(stage);
      o.message = std::move(msg);
      return std::move(o);
    };
    auto m = ParseHloModule(text, "<generated>");
    if (!m.ok()) return bad("parse", name, m.status().message());
    auto pipeline = PassRegistry::Global().BuildPipeline(name);
    if (!pipeline.ok()) return bad("pipeline", name, pipeline.status().message());
    DifferentialOptions dopts;
    dopts.first_seed = opts.input_seed;
    dopts.eval.signed_zeros = signed_zeros;
    DifferentialChecker checker(dopts);
    VerifierInstrumentation verifier;
    PassCounter counter;
    (*pipeline)->AddInstrumentation(&counter);
    (*pipeline)->AddInstrumentation(&verifier);
    (*pipeline)->AddInstrumentation(&checker);
    auto ran = (*pipeline)->Run(**m);
    if (signed_zeros) r.passes += counter.runs;
    if (!ran.ok()) {
      if (checker.mismatch())
        return bad("mismatch", name + ":" + checker.mismatch()->pass, checker.mismatch()->ToString());
      if (IsDocumentedRefusal(ran.status().message())) {
        refuse(ran.status().message());
        o.refused = true;
        return o;
      }
      return bad("pipeline", name + ":" + counter.last, ran.status().message());
    }
    // The end result against the original, on the original's inputs.
    EvalOptions eo;
    eo.signed_zeros = signed_zeros;
    auto out = EvaluateOnDevices(**m, devices, device_inputs, eo);
    if (!out.ok()) {
      if (IsDocumentedRefusal(out.status().message())) {
        refuse(out.status().message());
        o.refused = true;
        return o;
      }
      return bad("interpreter", name + ":optimized", out.status().message());
    }
    const std::vector<Literal>* want = &*reference;
    if (!signed_zeros) {
      if (!reference_nsz) {
        auto ref = EvaluateOnDevices(original, devices, device_inputs, eo);
        if (!ref.ok()) return bad("interpreter", "original", ref.status().message());
        reference_nsz = std::move(*ref);
      }
      want = &*reference_nsz;
    }
    for (size_t d = 0; d < out->size(); ++d)
      if (std::string diff = DifferentialChecker::Compare((*want)[d], (*out)[d]); !diff.empty())
        return bad("mismatch", name + ":end-to-end", (devices > 1 ? "device " + std::to_string(d) + ": " : "") + diff);
    o.module = std::move(*m);
    o.outs = std::move(*out);
    return o;
  };
  for (const std::string& name : opts.pipelines) {
    Outcome o = run_pipeline(name, true);
    if (o.refused) continue;
    if (o.kind == "mismatch") {
      // A difference in the sign of a zero only (a rewrite XLA makes too, such
      // as x + 0 → x) is counted, not a finding; the module is not run further.
      // Constant folding inside the pipeline folds as the re-check
      // evaluates: rsqrt(-0) → -inf baked into a constant would otherwise
      // still differ (campaign seed 288951769).
      UnsignedZerosScope unsigned_zeros;
      Outcome again = run_pipeline(name, false);
      if (again.kind.empty() && !again.refused) {
        r.signed_zero = true;
        continue;
      }
    }
    if (!o.kind.empty()) return fail(o.kind, o.stage, o.message);
    if (name == "gpu") {
      gpu = std::move(o.module);
      gpu_outs = std::move(o.outs);
    }
  }
  if (!gpu) return r;

  auto ba = AssignBuffers(*gpu);
  if (!ba.ok()) {
    if (IsDocumentedRefusal(ba.status().message())) {
      refuse(ba.status().message());
      return r;
    }
    return fail("memory", "assign", ba.status().message());
  }
  if (std::string p = CheckBufferAssignment(**ba); !p.empty()) return fail("memory", "overlap", p);
  ClobberReport clobbers = FindClobbers(*gpu, **ba);
  if (clobbers.clobbered_values > 0)
    return fail("memory", "clobber", std::to_string(clobbers.clobbered_values) + " values overwritten while live: " +
                                         clobbers.clobbers[0].ToString());
  if (!opts.cpu_run) return r;

  codegen::CodegenOptions co;
  co.emit_ptx = false;
  co.threads = 1;
  auto code = codegen::GenerateKernels(*gpu, **ba, co);
  if (!code.ok()) {
    if (IsDocumentedRefusal(code.status().message())) {
      refuse(code.status().message());
      return r;
    }
    return fail("codegen", "generate", code.status().message());
  }
  for (const codegen::KernelCode& k : code->kernels) {
    if (k.missing.empty()) continue;
    if (IsDocumentedRefusal(k.missing)) {
      refuse(k.missing);
      return r;
    }
    return fail("codegen", k.kind, k.instruction + ": " + k.missing);
  }
  // A module whose collectives exchange data runs on every device, each on
  // its own inputs, meeting at the collectives.
  std::vector<runtime::RunResult> runs;
  if (devices > 1) {
    auto ran = codegen::RunOnCpuDevices(*code, device_inputs);
    if (!ran.ok()) {
      if (IsDocumentedRefusal(ran.status().message())) {
        refuse(ran.status().message());
        return r;
      }
      return fail("cpu-run", "devices", ran.status().message());
    }
    runs = std::move(*ran);
  } else {
    auto ran = codegen::RunOnCpu(*code, inputs);
    if (!ran.ok()) {
      if (IsDocumentedRefusal(ran.status().message())) {
        refuse(ran.status().message());
        return r;
      }
      return fail("cpu-run", "run", ran.status().message());
    }
    runs.push_back(std::move(*ran));
  }
  for (const runtime::RunResult& ran : runs)
    for (const runtime::KernelTiming& t : ran.kernels) r.kernels += static_cast<int64_t>(t.us.size());
  // The kernels run the optimized module: its own result is what they must
  // give (step 3 compared it with the original's).
  for (size_t dev = 0; dev < runs.size() && dev < gpu_outs.size(); ++dev) {
    std::vector<Literal> want = FlattenTuple(gpu_outs[dev]);
    std::string d = runtime::CompareOutputs(code->plan, want, runs[dev].outputs);
    if (d.empty()) continue;
    // The stage names the kind of kernel that wrote the element, and whether
    // it was exact, NaN or out of tolerance: one signature per kind of bug.
    static const std::regex kKernel(R"(\(([a-z-]+), [^)]*\)\s*$)");
    std::smatch km;
    std::string stage = std::regex_search(d, km, kKernel) ? km[1].str() : "run";
    stage += d.find("exact match") != std::string::npos ? ":exact"
             : d.find("NaN") != std::string::npos       ? ":nan"
                                                        : ":float";
    return fail("cpu-mismatch", stage, (devices > 1 ? "device " + std::to_string(dev) + ": " : "") + d);
  }
  r.cpu_ran = true;
  return r;
}

// --- the forked child ------------------------------------------------------

namespace {

std::string Escape(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '\n' ? ' ' : c == '\t' ? ' ' : c;
  return o;
}

std::string Serialize(const CheckResult& r) {
  std::string s = "passes\t" + std::to_string(r.passes) + "\nkernels\t" + std::to_string(r.kernels) + "\ncpu\t" +
                  (r.cpu_ran ? "1" : "0") + "\nsignedzero\t" + (r.signed_zero ? "1" : "0") + "\ndevices\t" +
                  std::to_string(r.devices) + "\n";
  for (const std::string& x : r.refusals) s += "refusal\t" + Escape(x) + "\n";
  if (r.finding)
    s += "finding\t" + Escape(r.finding->kind) + "\t" + Escape(r.finding->stage) + "\t" + Escape(r.finding->message) +
         "\n";
  return s;
}

CheckResult Deserialize(const std::string& s) {
  CheckResult r;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    size_t pos = 0;
    for (size_t tab; (tab = line.find('\t', pos)) != std::string::npos; pos = tab + 1)
      f.push_back(line.substr(pos, tab - pos));
    f.push_back(line.substr(pos));
    if (f[0] == "passes" && f.size() > 1) r.passes = std::stoll(f[1]);
    else if (f[0] == "kernels" && f.size() > 1) r.kernels = std::stoll(f[1]);
    else if (f[0] == "cpu" && f.size() > 1) r.cpu_ran = f[1] == "1";
    else if (f[0] == "signedzero" && f.size() > 1) r.signed_zero = f[1] == "1";
    else if (f[0] == "devices" && f.size() > 1) r.devices = std::stoll(f[1]);
    else if (f[0] == "refusal" && f.size() > 1) r.refusals.push_back(f[1]);
    else if (f[0] == "finding" && f.size() > 3) r.finding = Finding{f[1], f[2], f[3]};
  }
  return r;
}

std::string TailOf(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (s.size() > bytes) s = s.substr(s.size() - bytes);
  return s;
}

}  // namespace

CheckResult CheckIsolated(const std::string& text, const CheckOptions& opts) {
  int fds[2];
  if (pipe(fds) != 0) return CheckModuleText(text, opts);
  const std::string err_path = "/tmp/hloscope-diffuzz." + std::to_string(getpid()) + ".stderr";
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return CheckModuleText(text, opts);
  }
  if (pid == 0) {
    close(fds[0]);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err >= 0) dup2(err, 2);
    alarm(static_cast<unsigned>(opts.timeout_s));
    std::string s = Serialize(CheckModuleText(text, opts));
    for (size_t off = 0; off < s.size();) {
      ssize_t w = write(fds[1], s.data() + off, s.size() - off);
      if (w <= 0) break;
      off += static_cast<size_t>(w);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CheckResult r = Deserialize(out);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::string tail = TailOf(err_path, 400);
    r.finding = sig == SIGALRM ? Finding{"hang", "", "still running after " + std::to_string(opts.timeout_s) + " s"}
                               : Finding{"crash", strsignal(sig), Brief(tail, 4)};
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    r.finding = Finding{"crash", "exit " + std::to_string(WEXITSTATUS(status)), Brief(TailOf(err_path, 400), 4)};
  }
  unlink(err_path.c_str());
  return r;
}

// --- shrinking and saving --------------------------------------------------

std::string ShrinkFinding(uint64_t seed, const GenOptions& gen, const std::string& text, const Finding& f,
                          const CheckOptions& opts, bool isolate) {
  const std::string want = f.Signature();
  auto still_fails = [&](const std::string& t) {
    CheckResult r = isolate ? CheckIsolated(t, opts) : CheckModuleText(t, opts);
    return r.finding && r.finding->Signature() == want;
  };
  std::string best = text;
  // Smaller shapes: the same seed with a lower cap on every dimension.
  for (int cap : {1, 2, 3, 4, 8, 16}) {
    if (cap >= gen.max_dim) break;
    GenOptions g = gen;
    g.max_dim = cap;
    std::string t = GenerateModuleText(seed, g);
    if (t.size() < best.size() * 2 && still_fails(t)) {
      best = t;
      break;
    }
  }
  return ShrinkModuleText(best, still_fails);
}

std::string RegressionFileText(uint64_t seed, const GenOptions& gen, const Finding& f,
                               const std::string& module_text) {
  // The generator's options that differ from the defaults, so that the seed
  // replays as the same module.
  const GenOptions d;
  std::string flags;
  if (gen.max_ops != d.max_ops) flags += " --max-ops " + std::to_string(gen.max_ops);
  if (gen.max_dim != d.max_dim) flags += " --max-dim " + std::to_string(gen.max_dim);
  if (gen.max_elements != d.max_elements) flags += " --max-elements " + std::to_string(gen.max_elements);
  std::string s =
      "// Found by hloscope-diffuzz --seed " + std::to_string(seed) + flags + " --count 1, then shrunk.\n";
  s += "// finding: " + f.kind + " " + f.stage + ": " + f.message + "\n";
  return s + module_text;
}

std::string DriverStats::Summary() const {
  return "modules=" + std::to_string(modules) + " passes=" + std::to_string(passes) +
         " kernels=" + std::to_string(kernels) + " findings=" + std::to_string(findings);
}

DriverStats RunDriver(const DriverOptions& o) {
  DriverStats st;
  auto print = [&](const std::string& s) {
    if (o.print) o.print(s);
  };
  std::map<std::string, int64_t> kinds;
  std::set<std::string> shrunk;  // signatures already shrunk and saved
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0;; ++i) {
    if (o.seconds > 0) {
      double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (el >= o.seconds) break;
    } else if (i >= o.count) {
      break;
    }
    const uint64_t seed = o.seed + static_cast<uint64_t>(i);
    const std::string text = GenerateModuleText(seed, o.gen);
    CheckOptions co = o.check;
    co.cpu_run = co.cpu_run && o.cpu_every > 0 && i % o.cpu_every == 0;
    CheckResult r = o.isolate ? CheckIsolated(text, co) : CheckModuleText(text, co);
    ++st.modules;
    st.passes += r.passes;
    st.kernels += r.kernels;
    st.cpu_modules += r.cpu_ran;
    st.signed_zero += r.signed_zero;
    st.multi_device += r.devices > 1;
    st.cpu_multi_device += r.devices > 1 && r.cpu_ran;
    st.refusals += static_cast<int64_t>(!r.refusals.empty());
    if (!r.finding) continue;
    const Finding& f = *r.finding;
    ++st.findings;
    ++kinds[f.kind];
    std::string line = "finding seed=" + std::to_string(seed) + " kind=" + f.kind + " stage=" + f.stage;
    if (o.shrink && !o.out_dir.empty() && shrunk.insert(f.Signature()).second) {
      std::string small = ShrinkFinding(seed, o.gen, text, f, co, o.isolate);
      std::string stage = f.stage;
      for (char& c : stage)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      std::filesystem::create_directories(o.out_dir);
      std::string path = o.out_dir + "/" + f.kind + "_" + stage + "_seed" + std::to_string(seed) + ".hlo";
      std::ofstream(path) << RegressionFileText(seed, o.gen, f, small);
      st.saved.push_back(path);
      line += " saved=" + path;
    }
    print(line + ": " + f.message);
  }
  for (const auto& [k, n] : kinds) st.by_kind.emplace_back(k, n);
  return st;
}

}  // namespace hloscope::fuzz
