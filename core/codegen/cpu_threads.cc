// Emulated GPU threads for the CPU execution of kernels (cpu_runtime.h):
// blocks run one after another; inside a block, a kernel without barriers or
// shuffles runs its threads as a loop, one with them runs them as ucontext
// coroutines that yield at every barrier, shuffle, mma and ldmatrix (wgmma
// needs no meeting: each thread computes its share from shared memory).
#include <sys/mman.h>
#include <ucontext.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/codegen/cpu_runtime.h"

namespace hloscope::codegen::cpu {
namespace {

ThreadState g_state;

enum class Wait { kRun, kBarrier, kShuffle, kMma, kLdmatrix, kDone };

struct EmuThread {
  ucontext_t ctx;
  Wait wait = Wait::kRun;
  uint32_t tid[3] = {0, 0, 0};
  uint32_t shfl_value = 0;
  uint32_t shfl_src = 0;  // source lane (own lane when out of range)
  uint32_t shfl_result = 0;
  uint32_t* mma_frag = nullptr;  // the lane's fragments (kMmaFragWords)
  int32_t mma_kind = 0;
  const uint8_t* ldm_row = nullptr;  // ldmatrix: the lane's row address
  uint32_t* ldm_out = nullptr;       // and its 4 result words
  bool ldm_trans = false;            // .trans
  // cp.async: copies issued and not yet landed, with their commit group
  // (`open_group` for those issued since the last commit).
  struct PendingCopy {
    uint8_t* dst;
    uint8_t data[16];
    int64_t group;
  };
  std::vector<PendingCopy> copies;
  int64_t open_group = 0;
  // wgmma: ops issued and not yet retired by a wait, with their commit group
  // and the digest of the operands they read.
  struct PendingWgmma {
    int32_t flags, n;
    uint64_t da, db;
    const uint8_t* window;
    uint64_t window_bytes;
    WgmmaReads reads;
    int64_t group;
  };
  std::vector<PendingWgmma> wgmmas;
  int64_t wgmma_group = 0;
};

constexpr size_t kStackBytes = 128 * 1024;

struct Scheduler {
  ucontext_t main;
  std::vector<EmuThread> threads;
  char* stacks = nullptr;
  size_t stack_count = 0;
  int current = -1;
  KernelEntry entry = nullptr;
  void* const* args = nullptr;
  std::string fault;  // a contract violation found inside a thread (the first)
  // The shared byte ranges wgmma ops in flight read (any thread of the
  // block), with how many ops read each: a cp.async into one is a race.
  std::map<std::pair<const uint8_t*, const uint8_t*>, int> wgmma_reads;

  ~Scheduler() {
    if (stacks) munmap(stacks, stack_count * kStackBytes);
  }
  bool EnsureStacks(size_t n) {
    if (n <= stack_count) return true;
    if (stacks) munmap(stacks, stack_count * kStackBytes);
    void* p = mmap(nullptr, n * kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      stacks = nullptr;
      stack_count = 0;
      return false;
    }
    stacks = static_cast<char*>(p);
    stack_count = n;
    return true;
  }
};

Scheduler* g_sched = nullptr;     // set while a coroutine launch runs
bool g_sync_outside_coroutines = false;  // a barrier/shuffle ran in the loop path

void ThreadMain() {
  Scheduler& s = *g_sched;
  s.entry(s.args);
  s.threads[s.current].wait = Wait::kDone;
  // returning resumes uc_link (the scheduler)
}

void Yield(Wait w) {
  Scheduler& s = *g_sched;
  EmuThread& t = s.threads[s.current];
  t.wait = w;
  swapcontext(&t.ctx, &s.main);
}

extern "C" void HloscopeCpuBarrier() {
  if (!g_sched) {
    g_sync_outside_coroutines = true;
    return;
  }
  Yield(Wait::kBarrier);
}

// PTX shfl.sync semantics (ISA "shfl.sync"): c packs the clamp value (bits
// 0-4) and the segment mask (bits 8-12).
extern "C" uint32_t HloscopeCpuShuffle(int32_t mode, uint32_t mask, uint32_t value, uint32_t b, uint32_t c) {
  (void)mask;
  if (!g_sched) {
    g_sync_outside_coroutines = true;
    return value;
  }
  Scheduler& s = *g_sched;
  EmuThread& t = s.threads[s.current];
  uint32_t lane = static_cast<uint32_t>(s.current) & 31u;
  uint32_t bval = b & 31u, cval = c & 31u, segmask = (c >> 8) & 31u;
  uint32_t max_lane = (lane & segmask) | (cval & ~segmask);
  uint32_t min_lane = lane & segmask;
  int64_t j = lane;
  bool pval = true;
  switch (mode) {
    case kShflUp: j = int64_t(lane) - bval; pval = j >= int64_t(max_lane); break;
    case kShflDown: j = lane + bval; pval = j <= int64_t(max_lane); break;
    case kShflBfly: j = lane ^ bval; pval = j <= int64_t(max_lane); break;
    default: j = min_lane | (bval & ~segmask); pval = j <= int64_t(max_lane); break;
  }
  t.shfl_value = value;
  t.shfl_src = pval ? static_cast<uint32_t>(j) : lane;
  Yield(Wait::kShuffle);
  return s.threads[s.current].shfl_result;
}

// mma.sync: the warp's lanes meet, then one of them computes for all.
extern "C" void HloscopeCpuMma(int32_t kind, uint32_t* frag) {
  if (!g_sched) {
    g_sync_outside_coroutines = true;
    return;
  }
  EmuThread& t = g_sched->threads[g_sched->current];
  t.mma_frag = frag;
  t.mma_kind = kind;
  Yield(Wait::kMma);
}

// ldmatrix (plain or .trans): the warp's lanes meet with their row
// addresses, then one of them gathers the words for all.
void Ldmatrix(const uint8_t* row, uint32_t* out, bool trans) {
  if (!g_sched) {
    g_sync_outside_coroutines = true;
    return;
  }
  EmuThread& t = g_sched->threads[g_sched->current];
  t.ldm_row = row;
  t.ldm_out = out;
  t.ldm_trans = trans;
  Yield(Wait::kLdmatrix);
}

extern "C" void HloscopeCpuLdmatrix(const uint8_t* row, uint32_t* out) { Ldmatrix(row, out, false); }
extern "C" void HloscopeCpuLdmatrixTrans(const uint8_t* row, uint32_t* out) { Ldmatrix(row, out, true); }

// cp.async.cg 16 bytes, the first `n` from src and the rest zeros: read
// now, land at the wait for its group.
void CpAsync(uint8_t* dst, const uint8_t* src, uint32_t n) {
  if (n > 16) n = 16;
  if (!g_sched) {  // threads run one after another: nothing else reads it first
    if (n) std::memcpy(dst, src, n);
    std::memset(dst + n, 0, 16 - n);
    return;
  }
  Scheduler& s = *g_sched;
  for (const auto& [range, count] : s.wgmma_reads)
    if (count > 0 && dst < range.second && dst + 16 > range.first && s.fault.empty())
      s.fault = "thread " + std::to_string(s.current) +
                ": a cp.async writes shared memory that a wgmma in flight reads (retire it with wgmma.wait_group "
                "before the copy is issued)";
  EmuThread& t = s.threads[s.current];
  EmuThread::PendingCopy c;
  c.dst = dst;
  if (n) std::memcpy(c.data, src, n);
  std::memset(c.data + n, 0, 16 - n);
  c.group = t.open_group;
  t.copies.push_back(c);
}

extern "C" void HloscopeCpuCpAsync(uint8_t* dst, const uint8_t* src) { CpAsync(dst, src, 16); }
extern "C" void HloscopeCpuCpAsyncZeroFill(uint8_t* dst, const uint8_t* src, uint32_t n) { CpAsync(dst, src, n); }

extern "C" void HloscopeCpuCpAsyncCommit() {
  if (g_sched) ++g_sched->threads[g_sched->current].open_group;
}

// cp.async.wait_group n: every committed group but the n most recent lands.
extern "C" void HloscopeCpuCpAsyncWait(int32_t n) {
  if (!g_sched) return;
  EmuThread& t = g_sched->threads[g_sched->current];
  const int64_t done_below = t.open_group - n;  // groups [0, done_below) complete
  size_t kept = 0;
  for (size_t i = 0; i < t.copies.size(); ++i) {
    EmuThread::PendingCopy& c = t.copies[i];
    if (c.group < done_below) std::memcpy(c.dst, c.data, 16);
    else t.copies[kept++] = c;
  }
  t.copies.resize(kept);
}

// wgmma: computed for this thread when issued (its operands are in shared
// memory; cpu_wgmma.cc), remembered with a digest of what it read until a
// wait retires its group. The digest must not change in between: on the GPU
// the op reads shared memory asynchronously, so a kernel that overwrites its
// operands before the wait computes something else there.
extern "C" void HloscopeCpuWgmma(int32_t flags, int32_t n, uint64_t da, uint64_t db, float* acc,
                                 const uint8_t* window, uint64_t window_bytes) {
  std::string error;
  WgmmaReads reads;
  const int thread = g_sched ? g_sched->current % 128 : static_cast<int>(g_state.tid[0] % 128);
  if (!WgmmaM64K16Thread(flags, n, da, db, window, window_bytes, thread, acc, &reads, &error)) {
    if (g_sched && g_sched->fault.empty()) g_sched->fault = error;
    return;
  }
  if (!g_sched) return;
  Scheduler& s = *g_sched;
  EmuThread& t = s.threads[s.current];
  t.wgmmas.push_back({flags, n, da, db, window, window_bytes, reads, t.wgmma_group});
  ++s.wgmma_reads[{window + reads.a_lo, window + reads.a_hi}];
  ++s.wgmma_reads[{window + reads.b_lo, window + reads.b_hi}];
}

extern "C" void HloscopeCpuWgmmaCommit() {
  if (g_sched) ++g_sched->threads[g_sched->current].wgmma_group;
}

// wgmma.wait_group n: every committed group but the n most recent retires.
extern "C" void HloscopeCpuWgmmaWait(int32_t n) {
  if (!g_sched) return;
  Scheduler& s = *g_sched;
  EmuThread& t = s.threads[s.current];
  const int64_t done_below = t.wgmma_group - n;
  size_t kept = 0;
  for (size_t i = 0; i < t.wgmmas.size(); ++i) {
    const EmuThread::PendingWgmma& w = t.wgmmas[i];
    if (w.group >= done_below) {
      t.wgmmas[kept++] = w;
      continue;
    }
    WgmmaReads now;
    std::string error;
    const bool same = WgmmaOperandReads(w.flags, w.n, w.da, w.db, w.window, w.window_bytes, &now, &error) &&
                      now.hash == w.reads.hash;
    for (auto range : {std::pair(w.window + w.reads.a_lo, w.window + w.reads.a_hi),
                       std::pair(w.window + w.reads.b_lo, w.window + w.reads.b_hi)}) {
      auto it = s.wgmma_reads.find(range);
      if (it != s.wgmma_reads.end() && --it->second == 0) s.wgmma_reads.erase(it);
    }
    if (!same && s.fault.empty())
      s.fault = "thread " + std::to_string(s.current) +
                ": the shared memory a wgmma reads changed before the wgmma.wait_group that retires it" +
                (error.empty() ? "" : " (" + error + ")");
  }
  t.wgmmas.resize(kept);
}

void SetTid(const uint32_t tid[3]) {
  g_state.tid[0] = tid[0];
  g_state.tid[1] = tid[1];
  g_state.tid[2] = tid[2];
}

Status RunBlockCoroutines(Scheduler& s, const std::string& name) {
  const size_t n = s.threads.size();
  for (size_t i = 0; i < n; ++i) {
    EmuThread& t = s.threads[i];
    t.wait = Wait::kRun;
    t.copies.clear();
    t.open_group = 0;
    t.wgmmas.clear();
    t.wgmma_group = 0;
    getcontext(&t.ctx);
    t.ctx.uc_stack.ss_sp = s.stacks + i * kStackBytes;
    t.ctx.uc_stack.ss_size = kStackBytes;
    t.ctx.uc_link = &s.main;
    makecontext(&t.ctx, ThreadMain, 0);
  }
  s.fault.clear();
  s.wgmma_reads.clear();
  auto block = [&] {
    return "(" + std::to_string(g_state.ctaid[0]) + "," + std::to_string(g_state.ctaid[1]) + "," +
           std::to_string(g_state.ctaid[2]) + ")";
  };
  for (;;) {
    bool ran = false;
    for (size_t i = 0; i < n; ++i) {
      if (s.threads[i].wait != Wait::kRun) continue;
      s.current = static_cast<int>(i);
      SetTid(s.threads[i].tid);
      swapcontext(&s.main, &s.threads[i].ctx);
      ran = true;
      if (s.threads[i].wait == Wait::kDone && !s.threads[i].wgmmas.empty() && s.fault.empty())
        s.fault = "thread " + std::to_string(i) + " finished with a wgmma not retired by wgmma.wait_group";
    }
    if (!s.fault.empty()) return Error("kernel '" + name + "': block " + block() + ": " + s.fault);
    bool released = false;
    size_t live = 0, at_barrier = 0, at_shuffle = 0, at_mma = 0;
    for (size_t w = 0; w < n; w += 32) {
      size_t end = std::min(n, w + 32), wl = 0, ws = 0, wm = 0, wx = 0;
      for (size_t i = w; i < end; ++i) {
        wl += s.threads[i].wait != Wait::kDone;
        ws += s.threads[i].wait == Wait::kShuffle;
        wm += s.threads[i].wait == Wait::kMma;
        wx += s.threads[i].wait == Wait::kLdmatrix;
      }
      if (wl > 0 && wx == wl) {
        if (wx != 32)
          return Error("kernel '" + name + "': an ldmatrix of warp " + std::to_string(w / 32) + " ran with " +
                       std::to_string(wx) + " of 32 lanes");
        const uint8_t* rows[32];
        uint32_t* outs[32];
        bool same = true;
        for (size_t i = 0; i < 32; ++i) {
          rows[i] = s.threads[w + i].ldm_row;
          outs[i] = s.threads[w + i].ldm_out;
          same = same && s.threads[w + i].ldm_trans == s.threads[w].ldm_trans;
        }
        if (!same)
          return Error("kernel '" + name + "': the lanes of warp " + std::to_string(w / 32) +
                       " met at different ldmatrix forms (.trans and not)");
        if (s.threads[w].ldm_trans) WarpLdmatrixX4Trans(rows, outs);
        else WarpLdmatrixX4(rows, outs);
        for (size_t i = w; i < end; ++i) s.threads[i].wait = Wait::kRun;
        released = true;
        continue;
      }
      if (wl > 0 && wm == wl) {
        bool same = true;
        for (size_t i = w; i < end; ++i) same = same && s.threads[i].mma_kind == s.threads[w].mma_kind;
        if (wm != 32 || !same)
          return Error("kernel '" + name + "': an mma.sync of warp " + std::to_string(w / 32) + " ran with " +
                       std::to_string(wm) + " of 32 lanes" + (same ? "" : " and different operand types"));
        uint32_t* frags[32];
        for (size_t i = 0; i < 32; ++i) frags[i] = s.threads[w + i].mma_frag;
        WarpMmaM16N8K16(static_cast<MmaKind>(s.threads[w].mma_kind), frags);
        for (size_t i = w; i < end; ++i) s.threads[i].wait = Wait::kRun;
        released = true;
        continue;
      }
      if (wl == 0 || ws != wl) continue;
      for (size_t i = w; i < end; ++i) {
        EmuThread& t = s.threads[i];
        if (t.wait != Wait::kShuffle) continue;
        size_t src = w + t.shfl_src;
        bool ok = src < end && s.threads[src].wait == Wait::kShuffle;
        t.shfl_result = ok ? s.threads[src].shfl_value : t.shfl_value;
      }
      for (size_t i = w; i < end; ++i)
        if (s.threads[i].wait == Wait::kShuffle) s.threads[i].wait = Wait::kRun;
      released = true;
    }
    for (const EmuThread& t : s.threads) {
      live += t.wait != Wait::kDone;
      at_barrier += t.wait == Wait::kBarrier;
      at_shuffle += t.wait == Wait::kShuffle;
      at_mma += t.wait == Wait::kMma || t.wait == Wait::kLdmatrix;
    }
    if (live == 0) return Status::Ok();
    if (at_barrier == live) {
      for (EmuThread& t : s.threads)
        if (t.wait == Wait::kBarrier) t.wait = Wait::kRun;
      released = true;
    }
    if (!ran && !released)
      return Error("kernel '" + name + "': emulated threads of block (" + std::to_string(g_state.ctaid[0]) + "," +
                   std::to_string(g_state.ctaid[1]) + "," + std::to_string(g_state.ctaid[2]) + ") deadlocked: " +
                   std::to_string(at_barrier) + " at a barrier, " + std::to_string(at_shuffle) + " at a shuffle, " + std::to_string(at_mma) + " at an mma or ldmatrix, " +
                   std::to_string(n - live) + " finished");
  }
}

}  // namespace

std::vector<std::pair<std::string, void*>> LibdeviceSymbols();  // cpu_libdevice.cc

std::vector<std::pair<std::string, void*>> RuntimeSymbols() {
  std::vector<std::pair<std::string, void*>> out = LibdeviceSymbols();
  out.emplace_back(kStateSymbol, static_cast<void*>(&g_state));
  out.emplace_back(kBarrierSymbol, reinterpret_cast<void*>(&HloscopeCpuBarrier));
  out.emplace_back(kShuffleSymbol, reinterpret_cast<void*>(&HloscopeCpuShuffle));
  out.emplace_back(kMmaSymbol, reinterpret_cast<void*>(&HloscopeCpuMma));
  out.emplace_back(kLdmatrixSymbol, reinterpret_cast<void*>(&HloscopeCpuLdmatrix));
  out.emplace_back(kLdmatrixTransSymbol, reinterpret_cast<void*>(&HloscopeCpuLdmatrixTrans));
  out.emplace_back(kCpAsyncSymbol, reinterpret_cast<void*>(&HloscopeCpuCpAsync));
  out.emplace_back(kCpAsyncZeroFillSymbol, reinterpret_cast<void*>(&HloscopeCpuCpAsyncZeroFill));
  out.emplace_back(kCpAsyncCommitSymbol, reinterpret_cast<void*>(&HloscopeCpuCpAsyncCommit));
  out.emplace_back(kCpAsyncWaitSymbol, reinterpret_cast<void*>(&HloscopeCpuCpAsyncWait));
  out.emplace_back(kWgmmaSymbol, reinterpret_cast<void*>(&HloscopeCpuWgmma));
  out.emplace_back(kWgmmaCommitSymbol, reinterpret_cast<void*>(&HloscopeCpuWgmmaCommit));
  out.emplace_back(kWgmmaWaitSymbol, reinterpret_cast<void*>(&HloscopeCpuWgmmaWait));
  return out;
}

Status RunGrid(KernelEntry entry, void* const* args, const runtime::LaunchDims& dims, bool needs_sync,
               const std::string& name) {
  for (int d = 0; d < 3; ++d) {
    g_state.ntid[d] = dims.block[d];
    g_state.nctaid[d] = dims.grid[d];
  }
  const uint32_t* bd = dims.block;
  static Scheduler sched;  // stacks are kept between launches
  if (needs_sync) {
    size_t n = size_t(bd[0]) * bd[1] * bd[2];
    if (!sched.EnsureStacks(n)) return Error("kernel '" + name + "': cannot map stacks for " + std::to_string(n) + " emulated threads");
    sched.threads.assign(n, EmuThread{});
    size_t i = 0;
    for (uint32_t z = 0; z < bd[2]; ++z)
      for (uint32_t y = 0; y < bd[1]; ++y)
        for (uint32_t x = 0; x < bd[0]; ++x, ++i) {
          sched.threads[i].tid[0] = x;
          sched.threads[i].tid[1] = y;
          sched.threads[i].tid[2] = z;
        }
    sched.entry = entry;
    sched.args = args;
  }
  g_sync_outside_coroutines = false;
  for (uint32_t bz = 0; bz < dims.grid[2]; ++bz)
    for (uint32_t by = 0; by < dims.grid[1]; ++by)
      for (uint32_t bx = 0; bx < dims.grid[0]; ++bx) {
        g_state.ctaid[0] = bx;
        g_state.ctaid[1] = by;
        g_state.ctaid[2] = bz;
        if (needs_sync) {
          g_sched = &sched;
          Status st = RunBlockCoroutines(sched, name);
          g_sched = nullptr;
          RETURN_IF_ERROR(st);
          continue;
        }
        uint32_t tid[3];
        for (tid[2] = 0; tid[2] < bd[2]; ++tid[2])
          for (tid[1] = 0; tid[1] < bd[1]; ++tid[1])
            for (tid[0] = 0; tid[0] < bd[0]; ++tid[0]) {
              SetTid(tid);
              entry(args);
            }
      }
  if (g_sync_outside_coroutines)
    return Error("kernel '" + name + "': a barrier or shuffle ran although the kernel was not found to use one");
  return Status::Ok();
}

}  // namespace hloscope::codegen::cpu
