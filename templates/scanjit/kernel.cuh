// The one header a generated kernel includes.
#pragma once

#include "scanjit/column_scan.cuh"
#include "scanjit/lookback_scan.cuh"
#include "scanjit/row_scan.cuh"
#include "scanjit/segmented_scan.cuh"
#include "scanjit/strided_scan.cuh"
