// Every family's kernel at once: what the host side includes for the
// templates' constexpr sizes (a generated kernel includes only its own
// family's header: Emitter.cpp, which cut NVRTC's front end by 3-7 ms).
#pragma once

#include "scanjit/column_scan.cuh"
#include "scanjit/indexed_scan.cuh"
#include "scanjit/launch_bounds.cuh"
#include "scanjit/lookback_kernel.cuh"
#include "scanjit/row_scan.cuh"
#include "scanjit/segmented_scan.cuh"
#include "scanjit/strided_scan.cuh"
