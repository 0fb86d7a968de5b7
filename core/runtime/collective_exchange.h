// Collective thunks on several devices: what each device of a group receives
// from what its members bring (ExchangeInGroup), and the meeting point where
// the threads that run one device each wait for their groups
// (DeviceRendezvous). Written for the runtime from the collectives' HLO
// semantics (all-reduce, all-gather, reduce-scatter, all-to-all in its array
// and tuple forms, collective-permute, collective-broadcast and their -start
// forms), apart from the interpreter's own (core/eval/eval_devices.cc), so
// that a run of the kernels on every device checks the interpreter rather
// than repeating it. Only the device groups are read by the same code
// (core/ir/collectives.h, at plan time).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "core/ir/literal.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

// Why thunk `c` cannot run on several devices ("" when it can): its groups,
// reducer or leaf shapes were not read at plan time, or its op has no
// data movement here.
std::string CollectiveUnsupportedOnDevices(const CollectiveThunk& c);

// The group of device `d` in `c` (the devices whose operands make its
// result), in combining order, and `d`'s place in it. collective-permute:
// every device (anyone may send to anyone).
StatusOr<std::vector<int64_t>> GroupOfDevice(const CollectiveThunk& c, int64_t d, int64_t devices, size_t* place);

// What every member of a group receives: `members[m]` are the operand
// leaves (logical, row-major literals) of the group's m-th device;
// `devices[m]` its id (for collective-permute's sources). The result is one
// list of result leaves per member, shaped as c.result_shapes.
StatusOr<std::vector<std::vector<Literal>>> ExchangeInGroup(const CollectiveThunk& c,
                                                            const std::vector<int64_t>& devices,
                                                            const std::vector<std::vector<Literal>>& members);

// Where the device threads of one run meet at each collective. A device
// arrives with its operands, waits until every member of its group (for the
// same thunk, the same time round) has arrived, and leaves with its results.
// A member that ended without coming, or a state where every device waits
// and no group can complete, fails the waiting devices with the place each
// one waits at.
class DeviceRendezvous {
 public:
  explicit DeviceRendezvous(int64_t devices);

  StatusOr<std::vector<Literal>> Arrive(int64_t device, const CollectiveThunk& c, std::vector<Literal> operands);
  // `device` comes to no more collectives (it finished, or failed: `why`).
  void Leave(int64_t device, const std::string& why);

 private:
  struct Meeting {
    std::vector<int64_t> group;
    std::vector<std::vector<Literal>> operands;  // per member
    std::vector<bool> came;
    size_t arrived = 0, taken = 0;
    bool done = false;
    std::string error;
    std::vector<std::vector<Literal>> results;
  };
  using Key = std::tuple<const CollectiveThunk*, int64_t, int64_t>;  // thunk, round, group's first device

  void FailStuck();  // holds mu_

  int64_t devices_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<Key, Meeting> meetings_;
  std::vector<std::map<const CollectiveThunk*, int64_t>> rounds_;  // per device
  std::vector<std::string> waiting_at_;                             // per device, "" when not waiting
  std::vector<std::string> left_;                                   // per device: why it left, "" while running
  int64_t waiting_ = 0, gone_ = 0;
};

}  // namespace hloscope::runtime
