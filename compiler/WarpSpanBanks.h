// A model of how often a warp-row kernel's lanes meet in shared memory's
// banks: the planner's choice between two warp-row plans of narrow rows.
#pragma once

#include <cstdint>

namespace scanjit::planning {

// The wavefronts one of a warp-row kernel's shared-memory accesses takes on
// average (1 at best, 32 at worst): the warp holds 32 / lanes rows of L
// elements of `elemBytes`, each in `lanes` lanes of `items`, at their rows'
// places in its span (load_lifted_warp_span, templates/scanjit/warp_span.cuh)
// and its scratch; at item j every lane touches slot r L + i items + j (row
// r of the warp, lane i of its row). Averaged over the items and over the
// span's start 0-3 bytes into a word (where the warp's first row lies in
// its word). A bank serves one 4-byte word a wavefront.
double warpSpanBankWays(int64_t L, int lanes, int items, int elemBytes);

} // namespace scanjit::planning
