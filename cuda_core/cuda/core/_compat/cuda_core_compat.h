/* Compile-time guard: the major Meson configured must be the major of cuda.h.
 * Included by every Cython module through cuda/core/_utils/cuda_utils.pxd. */
#pragma once

#include <cuda.h>

#ifndef CUDA_CORE_BUILD_MAJOR
#error "CUDA_CORE_BUILD_MAJOR is not defined: build cuda.core through meson, which sets it from tools/cuda_probe.py"
#endif

#if CUDA_VERSION / 1000 != CUDA_CORE_BUILD_MAJOR
#error "cuda.h is not of the CUDA major this build directory was configured for: reconfigure with meson setup --wipe"
#endif
