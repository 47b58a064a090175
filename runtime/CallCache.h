// The kernel for a scan() call's tensors, found without building,
// validating, planning or hashing a spec: a map keyed by every field of the
// call that its spec is made of (the pointers aside) and the device's arch.
// A miss takes the full path once; the key then leads to the same entry.
#pragma once

#include "runtime/KernelRegistry.h"
#include "scanjit/Scan.h"

#include <cstdint>

namespace scanjit::detail {

struct CallKey {
  // Sizes and strides of in, out and mask (unused dims zero), then dim, sm,
  // rank, op, the three dtypes (mask: -1 when none) and the flags.
  static constexpr size_t kDims = 6 * kMaxRank * sizeof(int64_t);
  uint8_t bytes[kDims + 8 * sizeof(int32_t)];
};

/// The key of a call on a device of compute capability `sm`; false (and
/// no key) when the call cannot be keyed (a rank out of range: the full
/// path then says what is wrong).
bool callKey(ScanOp op, const TensorRef &out, const TensorRef &in, int dim, const ScanOptions &options, int sm,
             CallKey &key);

/// The entry found for a key (null if none), and remembering one (the
/// cache forgets everything when it holds too many).
KernelEntryPtr findByCall(const CallKey &key);
void rememberCall(const CallKey &key, KernelEntryPtr entry);

} // namespace scanjit::detail
