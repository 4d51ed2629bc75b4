# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""DRIVER_CU_RESULT_EXPLANATIONS: CUresult code -> a readable explanation, for CUDAError messages."""

from cuda.bindings import driver
from cuda.core._utils.enum_explanations_helpers import get_best_available_explanations


def _load_fallback_explanations() -> dict[int, str]:
    # Generated at build time from the CUDA headers' comments (cuda.h): imported only
    # for a cuda-bindings whose enum members carry no docs.
    from cuda.core._utils.driver_cu_result_explanations_frozen import EXPLANATIONS

    return EXPLANATIONS


DRIVER_CU_RESULT_EXPLANATIONS = get_best_available_explanations(driver.CUresult, _load_fallback_explanations)
