// scanjit_host_bench's launch-path table (needs a GPU).
#pragma once

namespace scanjit::bench {

/// Prints per-call host and wall times of each launch entry point.
void printLaunchPathTable();

} // namespace scanjit::bench
