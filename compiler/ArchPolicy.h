// ArchPolicy: what the planner must know of the architecture it plans for
// (shared memory, threads per SM, L2, whether the copy engine's bulk copies
// exist), as one table row per arch family. Only sm_90 is timed here
// (H100/H200); the other rows come from occupancy arithmetic on each arch's
// published limits, and `inspect --emit plan` says so.
#pragma once

#include "compiler/Target.h"

#include <cstdint>

namespace scanjit {

struct ArchPolicy {
  int minSm;                      // the row applies from this compute capability up to the next row's
  const char *family;             // printed in the plan: "sm_90", "sm_80/86/89", ...
  bool bulkCopy;                  // cp.async.bulk with mbarrier transaction counts: the staged kernels
  bool asyncCopy;                 // cp.async and mbarriers: the column pipeline by word copies
  int64_t maxDynamicSharedBytes;  // a block's opt-in limit
  int64_t sharedBytesPerSm;       // what the blocks of an SM share
  int maxThreadsPerSm;
  int64_t l2Bytes;                // the evict-first L2 policy pays only for inputs larger than this
  bool timed;                     // policy values measured on this arch (else occupancy arithmetic)
};

/// The row for `target` (sm_75 for anything older, the newest row for
/// anything newer).
const ArchPolicy &archPolicy(const Target &target);

} // namespace scanjit
