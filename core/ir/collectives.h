// What a collective's attributes say about the devices taking part: the
// module's device count (num_partitions × replica_count), the replica groups
// as lists of device ids (explicit `{{0,1},{2,3}}` or iota `[2,2]<=[4]`,
// `[2,2]<=[2,2]T(1,0)`), and the size of a group.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/instruction.h"

namespace hloscope {

class Module;

// num_partitions × replica_count of the module's header (1 where absent).
int64_t ModuleDeviceCount(const Module& m);

// Devices taking part in each group of a collective: the size of its first
// replica group; no groups (or `{}`) means every device of the module.
int64_t CollectiveParticipants(const Instruction& i, const Module& m);

// The replica groups written in `text` as lists of ids: `{{0,1},{2,3}}`, or
// the iota form `[G,S]<=[d0,d1,...]` with an optional `T(perm)`. Empty for
// `{}` or no text; nullopt when the text is not one of these forms.
std::optional<std::vector<std::vector<int64_t>>> ParseReplicaGroups(std::string_view text);

}  // namespace hloscope
