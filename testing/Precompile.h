// Compiling many kernels before they run: the GPU tests and the benchmark
// prepare every spec they will run on all the host's cores first, so that
// their cases then run one after another without waiting on NVRTC.
#pragma once

#include <string>
#include <vector>

namespace scanjit::detail {

/// Prepares each spec (warming the runtime's kernel registry) on all cores.
/// A spec that fails is skipped: its error comes back when it is prepared
/// again to run.
void precompile(const std::vector<std::string> &specs);

} // namespace scanjit::detail
