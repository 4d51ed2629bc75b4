# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""NVIDIA's rule for which cuda-bindings have the NVML bindings its cuda.core 1.2.2 uses
(cuda.core.system.CUDA_BINDINGS_NVML_IS_COMPATIBLE there), written apart from the package so
that the package tests check ours against it: cuda-bindings 13.2.0 or newer, or 12.9.6 or newer
of 12.x; and cuda.bindings.nvml importable. Decided without importing NVML."""

from __future__ import annotations

import importlib.metadata
import importlib.util

MINIMUM_13 = (13, 2, 0)
MINIMUM_12 = (9, 6)  # (minor, patch) within 12.x

# The cuda-bindings of the matrix (requirements/matrix.ini) and whether they pass the rule.
MATRIX_BINDINGS_NVML = {
    "12.8.0": False,
    "12.9.10": True,
    "13.0.3": False,
    "13.1.1": False,
    "13.2.0": True,
    "13.3.1": True,
    "13.4.4": True,
    "13.5.0": True,
}


def version_tuple(text: str) -> tuple[int, ...]:
    """(13, 0, 3) from "13.0.3"; a part after the numbers (rc1, post1, dev0) ends it."""
    numbers = []
    for part in text.split("."):
        if not part.isdigit():
            break
        numbers.append(int(part))
    return tuple(numbers)


def version_passes(version: tuple[int, ...]) -> bool:
    """The version half of the rule."""
    return version >= MINIMUM_13 or (version[:1] == (12,) and version[1:3] >= MINIMUM_12)


def installed_bindings_version() -> str:
    return importlib.metadata.version("cuda-bindings")


def nvml_compatible_here() -> bool:
    """The rule for the cuda-bindings installed here."""
    if not version_passes(version_tuple(installed_bindings_version())):
        return False
    return importlib.util.find_spec("cuda.bindings.nvml") is not None
