# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Versions of what cuda.core runs against: the cuda-bindings package and the CUDA driver."""

import functools

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver


def _parse_version_triple(version_str: str) -> tuple[int, int, int]:
    """(major, minor, patch) of a PEP 440 version string: a local part (``+...``) is dropped,
    and of each release segment only its leading digits count (``0rc1`` -> 0)."""
    parts = []
    for segment in version_str.split("+", 1)[0].split(".")[:3]:
        digits = ""
        for character in segment:
            if not character.isdigit():
                break
            digits += character
        parts.append(int(digits) if digits else 0)
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


@functools.cache
def binding_version() -> tuple[int, int, int]:
    """The installed cuda-bindings version, as (major, minor, patch)."""
    from cuda.bindings._version import __version__
    return _parse_version_triple(__version__)


@functools.cache
def driver_version() -> tuple[int, int, int]:
    """The CUDA version the installed driver supports, as (major, minor, patch), e.g. (13, 0, 0)."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return (version // 1000, version % 1000 // 10, version % 10)


cdef tuple cy_binding_version():
    return binding_version()


cdef tuple cy_driver_version():
    return driver_version()
