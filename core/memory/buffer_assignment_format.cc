// Text (modelled on XLA's *-buffer-assignment.txt) and JSON forms of a
// buffer assignment.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/memory/buffer_assignment.h"
#include "core/support/str_util.h"

namespace hloscope {

namespace {
std::string IndexString(const std::vector<int64_t>& idx) { return "{" + JoinInts(idx) + "}"; }
}  // namespace

std::string BufferAssignmentToText(const BufferAssignment& ba) {
  std::string out;
  char line[512];
  for (const auto& a : ba.allocations) {
    std::snprintf(line, sizeof line, "allocation %d: size %lld", a.index, static_cast<long long>(a.size));
    out += line;
    if (a.kind == BufferKind::kParameter)
      out += ", parameter " + std::to_string(a.parameter_number) + ", shape |" +
             (a.buffers.empty() ? "" : ba.buffers[a.buffers[0]].shape) + "| at ShapeIndex " +
             IndexString(a.parameter_index);
    if (a.kind == BufferKind::kConstant) out += ", constant";
    if (a.kind == BufferKind::kTemp) out += ", preallocated-temp";
    if (a.maybe_live_out) out += ", maybe-live-out";
    out += ":\n";
    for (int id : a.buffers) {
      const AssignedBuffer& b = ba.buffers[id];
      std::snprintf(line, sizeof line, " value: <%d %s%s @0> (size=%lld,offset=%lld): %s  live=[%lld,%lld]%s%s\n", b.id,
                    b.instruction.c_str(), b.index.empty() ? "" : IndexString(b.index).c_str(),
                    static_cast<long long>(b.bytes), static_cast<long long>(b.offset), b.shape.c_str(),
                    static_cast<long long>(b.start), static_cast<long long>(b.end),
                    b.share_reason.empty() ? "" : "  shares: ", b.share_reason.c_str());
      out += line;
    }
  }
  if (!ba.io_aliases.empty()) {
    int64_t taken = 0, copies = 0;
    for (const auto& io : ba.io_aliases) {
      taken += io.taken;
      copies += !io.copy.empty();
    }
    out += "\ninput_output_alias: " + std::to_string(taken) + " of " + std::to_string(ba.io_aliases.size()) +
           " taken, " + std::to_string(copies) + " through a copy copy_insertion added\n";
    for (const auto& io : ba.io_aliases)
      out += " " + io.alias + ": " + io.reason + "\n";
  }
  out += "\nTotal bytes used: " + std::to_string(ba.total_bytes) + " (" + HumanBytes(ba.total_bytes) + ")\n";
  out += "  parameters " + std::to_string(ba.parameter_bytes) + ", constants " + std::to_string(ba.constant_bytes) +
         ", outputs " + std::to_string(ba.output_bytes) + ", temp heap " + std::to_string(ba.peak_bytes) + "\n";
  out += "scheduler=" + ba.scheduler + " (";
  bool first = true;
  for (const auto& [name, peak] : ba.scheduler_peaks) {
    if (!first) out += ", ";
    first = false;
    out += name + "=" + std::to_string(peak);
  }
  out += ") packing=" + ba.packing + "\n";
  std::snprintf(line, sizeof line, "peak=%lld lower_bound=%lld ratio=%.4f fragmentation=%.2f%%\n",
                static_cast<long long>(ba.peak_bytes), static_cast<long long>(ba.lower_bound_bytes), ba.ratio(),
                100.0 * ba.fragmentation());
  out += line;
  return out;
}

std::string BufferAssignmentToJson(const BufferAssignment& ba) {
  nlohmann::ordered_json j;
  j["module"] = ba.module;
  j["peak_bytes"] = ba.peak_bytes;
  j["lower_bound_bytes"] = ba.lower_bound_bytes;
  j["ratio"] = ba.ratio();
  j["fragmentation"] = ba.fragmentation();
  j["peak_position"] = ba.peak_position;
  j["scheduler"] = ba.scheduler;
  j["scheduler_peaks"] = ba.scheduler_peaks;
  j["packing"] = ba.packing;
  j["alignment"] = ba.alignment;
  j["parameter_bytes"] = ba.parameter_bytes;
  j["constant_bytes"] = ba.constant_bytes;
  j["output_bytes"] = ba.output_bytes;
  j["total_bytes"] = ba.total_bytes;
  j["sequence"] = ba.sequence;
  auto& allocs = j["allocations"] = nlohmann::ordered_json::array();
  for (const auto& a : ba.allocations) {
    nlohmann::ordered_json o;
    o["index"] = a.index;
    o["kind"] = std::string(BufferKindName(a.kind));
    o["size"] = a.size;
    o["maybe_live_out"] = a.maybe_live_out;
    if (a.parameter_number >= 0) o["parameter"] = a.parameter_number;
    o["buffers"] = a.buffers;
    allocs.push_back(std::move(o));
  }
  auto& bufs = j["buffers"] = nlohmann::ordered_json::array();
  for (const auto& b : ba.buffers) {
    nlohmann::ordered_json o;
    o["id"] = b.id;
    o["instruction"] = b.instruction;
    o["instruction_id"] = b.instruction_id;
    o["index"] = b.index;
    o["shape"] = b.shape;
    o["bytes"] = b.bytes;
    o["offset"] = b.offset;
    o["allocation"] = b.allocation;
    o["kind"] = std::string(BufferKindName(b.kind));
    o["start"] = b.start;
    o["end"] = b.end;
    if (!b.aliases.empty()) o["aliases"] = b.aliases;
    if (!b.share_reason.empty()) o["shares"] = b.share_reason;
    bufs.push_back(std::move(o));
  }
  if (!ba.io_aliases.empty()) {
    auto& ios = j["io_aliases"] = nlohmann::ordered_json::array();
    for (const auto& io : ba.io_aliases) {
      nlohmann::ordered_json o;
      o["alias"] = io.alias;
      o["output_buffer"] = io.output_buffer;
      o["parameter_buffer"] = io.parameter_buffer;
      o["taken"] = io.taken;
      if (!io.copy.empty()) o["copy"] = io.copy;
      o["reason"] = io.reason;
      ios.push_back(std::move(o));
    }
  }
  j["live_bytes"] = ba.live_bytes;
  return j.dump(1);
}

}  // namespace hloscope
