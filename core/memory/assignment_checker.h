// An independent check of a buffer assignment: no value's bytes are written
// by another value while the first is still to be read. It recomputes every
// value's live interval from the module and the schedule alone (definition
// to last read, reads through bitcast / tuple / get-tuple-element views
// counted as reads of the value underneath, values used inside loop, branch
// and call bodies counted at their caller, entry outputs read at the end)
// and looks only at where the assignment put each value's bytes. It never
// reads the assignment's alias sets, live ranges or sharing reasons: a bug
// in those cannot hide a clobber from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/memory/buffer_assignment.h"

namespace hloscope {

struct Clobber {
  std::string victim;          // instruction{index} whose bytes are overwritten
  std::string writer;          // instruction{index} that writes them
  int64_t victim_defined = 0;  // schedule positions
  int64_t victim_last_read = 0;
  int64_t written_at = 0;
  int allocation = 0;
  int64_t offset = 0, bytes = 0;  // the overlapping bytes
  std::string ToString() const;
};

struct ClobberReport {
  int64_t values = 0;            // values with a buffer and at least one read
  int64_t clobbered_values = 0;  // victims (each counted once)
  std::vector<Clobber> clobbers;  // the first `max_reported`
};

// `ba` must be AssignBuffers(m, ...) of this very module.
ClobberReport FindClobbers(const Module& m, const BufferAssignment& ba, size_t max_reported = 20);

}  // namespace hloscope
