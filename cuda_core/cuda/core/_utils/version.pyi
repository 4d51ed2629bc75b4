"""Versions of what cuda.core runs against: the cuda-bindings package and the CUDA driver."""

import functools

def _parse_version_triple(version_str: str) -> tuple[int, int, int]: ...
@functools.cache
def binding_version() -> tuple[int, int, int]:
    """The installed cuda-bindings version, as (major, minor, patch)."""
@functools.cache
def driver_version() -> tuple[int, int, int]:
    """The CUDA version the installed driver supports, as (major, minor, patch)."""
