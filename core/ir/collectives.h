// What a collective's attributes say about the devices taking part: the
// module's device count (num_partitions × replica_count), the replica groups
// as lists of device ids (explicit `{{0,1},{2,3}}` or iota `[2,2]<=[4]`,
// `[2,2]<=[2,2]T(1,0)`), and the size of a group; and, as XLA defines them,
// the groups of devices that exchange data in each collective.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/instruction.h"
#include "core/support/status.h"

namespace hloscope {

class Module;

// num_partitions × replica_count of the module's header (1 where absent).
int64_t ModuleDeviceCount(const Module& m);
// num_partitions and replica_count of the module's header (1 where absent).
// A device's flattened id is replica × partitions + partition.
int64_t ModulePartitionCount(const Module& m);
int64_t ModuleReplicaCount(const Module& m);

// The replicas and partitions a module runs on: its header's; where the
// header names neither, the fewest that its collectives' replica_groups and
// source_target_pairs name (a module from XLA's tests, whose runner sets the
// count: `{{0,2,4,6},{1,3,5,7}}` with use_global_device_ids is 8 devices,
// taken as partitions, as SPMD partitioning writes flattened ids), or that
// an all-gather's or reduce-scatter's shapes imply when it names no groups.
struct DeviceGrid {
  int64_t replicas = 1, partitions = 1;
  int64_t devices() const { return replicas * partitions; }
};
DeviceGrid ModuleDeviceGrid(const Module& m);

// What the ids in a collective's replica_groups (or source_target_pairs)
// name, as XLA's CollectiveOpGroupMode derives it from channel_id and
// use_global_device_ids: replicas (no channel_id; each group is formed once
// per partition), partitions (a channel_id on all-to-all,
// collective-permute, collective-broadcast; once per replica), replicas
// across every partition (a channel_id, use_global_device_ids absent or
// false), or flattened device ids (use_global_device_ids=true).
enum class CollectiveGroupMode { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedId };
CollectiveGroupMode GroupModeOf(const Instruction& i);

// The groups of devices (flattened ids) that exchange data in collective `i`
// on a module of `replicas` × `partitions` devices, each in the order the
// collective combines its members (a group's first device is
// collective-broadcast's root). No replica_groups (or `{}`) is one group of
// every id. An error when the groups do not parse, name a device outside the
// module, or name one twice (the message does not name `i`).
StatusOr<std::vector<std::vector<int64_t>>> CollectiveDeviceGroups(const Instruction& i, int64_t replicas,
                                                                   int64_t partitions);

// collective-permute (and -start): for every device, the device whose
// operand it receives, or -1 for none (it receives zeros). An error when the
// pairs do not parse, name a device outside the module, or give a device two
// sources or two targets (the message does not name `i`).
StatusOr<std::vector<int64_t>> PermuteSources(const Instruction& i, int64_t replicas, int64_t partitions);

// Devices taking part in each group of a collective: the size of its first
// replica group; no groups (or `{}`) means every device of the module.
int64_t CollectiveParticipants(const Instruction& i, const Module& m);

// The replica groups written in `text` as lists of ids: `{{0,1},{2,3}}`, the
// iota form `[G,S]<=[d0,d1,...]` with an optional `T(perm)`, or the mesh form
// `mesh['a'=4,'b'=2] {'a'}` (whole axes). Empty for
// `{}` or no text; nullopt when the text is not one of these forms.
std::optional<std::vector<std::vector<int64_t>>> ParseReplicaGroups(std::string_view text);

}  // namespace hloscope
