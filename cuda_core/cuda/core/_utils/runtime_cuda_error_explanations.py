# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""RUNTIME_CUDA_ERROR_EXPLANATIONS: cudaError_t code -> a readable explanation, for CUDAError messages."""

from cuda.bindings import runtime
from cuda.core._utils.enum_explanations_helpers import get_best_available_explanations


def _load_fallback_explanations() -> dict[int, str]:
    # Generated at build time from the CUDA headers' comments (driver_types.h): imported
    # only for a cuda-bindings whose enum members carry no docs.
    from cuda.core._utils.runtime_cuda_error_explanations_frozen import EXPLANATIONS

    return EXPLANATIONS


RUNTIME_CUDA_ERROR_EXPLANATIONS = get_best_available_explanations(runtime.cudaError_t, _load_fallback_explanations)
