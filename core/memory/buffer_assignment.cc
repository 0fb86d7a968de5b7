#include "core/memory/buffer_assignment.h"

#include <algorithm>
#include <unordered_map>

#include "core/memory/heap_packing.h"
#include "core/memory/schedule.h"
#include "core/support/str_util.h"

namespace hloscope {

namespace {

BufferAnalysis Analyze(const Module& m, const Sequence& seq, const MemoryOptions& opts) {
  BufferOptions bo;
  bo.allow_sharing = opts.allow_sharing;
  return AnalyzeBuffers(m, seq, bo);
}

int64_t PeakOf(const BufferAnalysis& a, const MemoryOptions& opts) {
  auto live = LiveBytes(a, opts.alignment, /*include_outputs=*/false);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

}  // namespace

StatusOr<std::shared_ptr<const BufferAssignment>> AssignBuffers(const Module& m, const MemoryOptions& opts) {
  if (!m.entry() || !m.entry()->root()) return Status::Error("module has no entry computation");
  const Computation& entry = *m.entry();
  auto ba = std::make_shared<BufferAssignment>();
  ba->module = m.name();
  ba->alignment = opts.alignment;

  // 1. Schedule; 2. buffers and live ranges (of the schedule that wins).
  Sequence seq;
  BufferAnalysis a;
  SchedulerChoice choice = opts.scheduler;
  if (opts.keep_schedule && m.is_scheduled()) choice = SchedulerChoice::kKeep;
  if (choice == SchedulerChoice::kKeep) {
    seq = TextOrderSchedule(entry);
    ba->scheduler = "keep";
    a = Analyze(m, seq, opts);
    ba->scheduler_peaks["keep"] = PeakOf(a, opts);
  } else {
    std::vector<std::pair<std::string, Sequence>> candidates;
    if (choice == SchedulerChoice::kAuto || choice == SchedulerChoice::kDfs)
      candidates.push_back({"dfs", DfsSchedule(entry)});
    if (choice == SchedulerChoice::kAuto || choice == SchedulerChoice::kList)
      candidates.push_back({"list", ListSchedule(entry)});
    if (choice == SchedulerChoice::kAuto || choice == SchedulerChoice::kPostorder)
      candidates.push_back({"postorder", PostorderBySizeSchedule(entry)});
    int64_t best = INT64_MAX;
    for (auto& [name, s] : candidates) {
      BufferAnalysis candidate = Analyze(m, s, opts);
      int64_t peak = PeakOf(candidate, opts);
      ba->scheduler_peaks[name] = peak;
      if (peak < best) {
        best = peak;
        ba->scheduler = name;
        seq = std::move(s);
        a = std::move(candidate);
      }
    }
  }
  for (const Instruction* i : seq) {
    ba->sequence.push_back(i->name());
    ba->sequence_ids.push_back(i->id());
  }


  // 3. Allocations: one per parameter leaf, per constant leaf, per output
  // storage; all temporaries packed into one temp allocation.
  const size_t nb = a.buffers.size();
  std::vector<int> storage_alloc(nb, -1);
  std::vector<int64_t> storage_offset(nb, 0);
  std::vector<std::vector<int>> members(nb);
  for (const auto& b : a.buffers) members[b.storage].push_back(b.id);
  std::vector<char> is_root_leaf(nb, 0);
  for (int out : a.root_leaves) is_root_leaf[out] = 1;
  std::vector<int> storages;
  for (const auto& b : a.buffers)
    if (b.storage == b.id) storages.push_back(b.id);

  std::vector<HeapItem> heap_items;
  std::vector<int> heap_storage;
  for (int s : storages) {
    const auto& ms = members[s];
    BufferKind kind = a.buffers[s].kind;
    int64_t bytes = 0, start = INT64_MAX, end = 0;
    for (int id : ms) {
      bytes = std::max(bytes, a.buffers[id].bytes);
      start = std::min(start, a.buffers[id].start);
      end = std::max(end, a.buffers[id].end);
    }
    if (kind == BufferKind::kTemp) {
      heap_items.push_back({start, end, bytes});
      heap_storage.push_back(s);
      continue;
    }
    AllocationInfo alloc;
    alloc.index = static_cast<int>(ba->allocations.size());
    alloc.kind = kind;
    alloc.size = bytes;
    alloc.maybe_live_out = kind == BufferKind::kOutput;
    for (int id : ms) {
      const LogicalBuffer& lb = a.buffers[id];
      if (lb.instr && lb.instr->opcode() == Opcode::kParameter && lb.instr->parent() == &entry) {
        alloc.parameter_number = lb.instr->parameter_number();
        alloc.parameter_index = lb.index;
      }
      if (is_root_leaf[id]) alloc.maybe_live_out = true;
    }
    if (kind == BufferKind::kParameter) ba->parameter_bytes += bytes;
    if (kind == BufferKind::kConstant) ba->constant_bytes += bytes;
    if (kind == BufferKind::kOutput) ba->output_bytes += bytes;
    storage_alloc[s] = alloc.index;
    storage_offset[s] = 0;
    ba->allocations.push_back(std::move(alloc));
  }
  HeapResult packed = PackHeap(heap_items, opts.alignment);
  if (!heap_items.empty()) {
    AllocationInfo temp;
    temp.index = static_cast<int>(ba->allocations.size());
    temp.kind = BufferKind::kTemp;
    temp.size = packed.heap_bytes;
    for (size_t k = 0; k < heap_storage.size(); ++k) {
      storage_alloc[heap_storage[k]] = temp.index;
      storage_offset[heap_storage[k]] = packed.offsets[k];
    }
    ba->allocations.push_back(std::move(temp));
  }
  ba->packing = packed.order;
  ba->peak_bytes = packed.heap_bytes;
  ba->lower_bound_bytes = HeapLowerBound(heap_items, opts.alignment);
  ba->live_bytes = LiveBytes(a, opts.alignment, /*include_outputs=*/false);
  ba->peak_position = ba->live_bytes.empty()
                          ? 0
                          : std::max_element(ba->live_bytes.begin(), ba->live_bytes.end()) - ba->live_bytes.begin();
  ba->total_bytes = ba->parameter_bytes + ba->constant_bytes + ba->output_bytes + ba->peak_bytes;

  // 4. Per-buffer records.
  for (const auto& b : a.buffers) {
    AssignedBuffer ab;
    ab.id = b.id;
    ab.instruction_id = b.instr ? b.instr->id() : -1;
    ab.instruction = b.instr ? b.instr->name() : "";
    ab.index = b.index;
    ab.shape = b.shape.ToString();
    ab.bytes = b.bytes;
    ab.allocation = storage_alloc[b.storage];
    ab.offset = storage_offset[b.storage];
    ab.kind = b.kind;
    ab.start = b.start;
    ab.end = b.end;
    for (int id : members[b.storage])
      if (id != b.id) ab.aliases.push_back(id);
    ab.share_reason = b.share_reason;
    ba->buffers.push_back(std::move(ab));
    if (storage_alloc[b.storage] >= 0) ba->allocations[storage_alloc[b.storage]].buffers.push_back(b.id);
  }
  ba->io_aliases = a.io_aliases;
  return std::shared_ptr<const BufferAssignment>(std::move(ba));
}

std::string CheckBufferAssignment(const BufferAssignment& ba) {
  // Group buffers by allocation; within one, overlapping lifetimes must not
  // overlap in bytes unless they share storage.
  std::unordered_map<int, std::vector<const AssignedBuffer*>> by_alloc;
  for (const auto& b : ba.buffers) {
    if (b.allocation < 0) return "buffer " + std::to_string(b.id) + " (" + b.instruction + ") has no allocation";
    if (b.offset % ba.alignment != 0 && ba.allocations[b.allocation].kind == BufferKind::kTemp)
      return "buffer " + std::to_string(b.id) + " offset " + std::to_string(b.offset) + " is not aligned";
    by_alloc[b.allocation].push_back(&b);
  }
  for (auto& [alloc, bufs] : by_alloc) {
    std::sort(bufs.begin(), bufs.end(), [](auto* x, auto* y) { return x->start < y->start; });
    for (size_t i = 0; i < bufs.size(); ++i) {
      for (size_t j = i + 1; j < bufs.size() && bufs[j]->start <= bufs[i]->end; ++j) {
        const AssignedBuffer& x = *bufs[i];
        const AssignedBuffer& y = *bufs[j];
        if (std::find(x.aliases.begin(), x.aliases.end(), y.id) != x.aliases.end()) continue;
        if (x.bytes == 0 || y.bytes == 0) continue;
        bool bytes_overlap = x.offset < y.offset + y.bytes && y.offset < x.offset + x.bytes;
        if (bytes_overlap)
          return "buffers " + std::to_string(x.id) + " (" + x.instruction + ") and " + std::to_string(y.id) + " (" +
                 y.instruction + ") are live together and overlap in allocation " + std::to_string(alloc);
      }
    }
  }
  return "";
}

}  // namespace hloscope
