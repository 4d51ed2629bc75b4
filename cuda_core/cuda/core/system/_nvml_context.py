# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""NVML's per-process initialisation: cuda.core.system initialises NVML once per process
(nvmlInit_v2), on the first NVML query, and again in a forked child, whose NVML state is not
its own. Without the NVML library (no NVIDIA driver) the state becomes
DISABLED_LIBRARY_NOT_FOUND and the queries raise the loader's error, which names the driver.
"""

from __future__ import annotations

import os
import threading
from typing import TypeAlias

from cuda.core.system._nvml_support import require_nvml

_NVMLState: TypeAlias = int

UNINITIALIZED: _NVMLState = 0
INITIALIZED: _NVMLState = 1
DISABLED_LIBRARY_NOT_FOUND: _NVMLState = 2

_nvml = require_nvml("cuda.core.system._nvml_context")
_lock = threading.Lock()
_state: _NVMLState = UNINITIALIZED
_owner_pid: int = 0


def _get_nvml_state() -> _NVMLState:
    """This process's NVML state: INITIALIZED only where this process initialised NVML."""
    if _state == INITIALIZED and _owner_pid != os.getpid():
        return UNINITIALIZED
    return _state


def _library_missing(error: BaseException) -> bool:
    """Whether ``error`` says that the NVML library itself could not be loaded."""
    return isinstance(error, _nvml.LibraryNotFoundError) or type(error).__name__ == "DynamicLibNotFoundError"


def _initialize() -> None:
    """Initializes NVML for this process (nvmlInit_v2), once, under a lock."""
    global _state, _owner_pid
    with _lock:
        if _get_nvml_state() != UNINITIALIZED:
            return
        try:
            _nvml.init_v2()
        except Exception as error:
            if not _library_missing(error):
                raise
            _state = DISABLED_LIBRARY_NOT_FOUND
            return
        _state, _owner_pid = INITIALIZED, os.getpid()


def initialize() -> None:
    """Initializes NVML once per process; a no-op when done or when the library is missing."""
    if _get_nvml_state() == UNINITIALIZED:
        _initialize()


def is_initialized() -> bool:
    """Whether NVML is initialized in this process."""
    return _get_nvml_state() == INITIALIZED


def _error(cls: type[Exception], status: int, message: str) -> Exception:
    """An NVML error of ``cls`` without asking the library for its text (it may be missing)."""
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.status = status  # type: ignore[attr-defined]
    return error


def validate() -> None:
    """Checks that NVML is initialized, usable and sees at least one GPU.

    Raises UninitializedError before initialize(), LibraryNotFoundError where NVML's library
    could not be loaded, GpuNotFoundError where it sees no GPU.
    """
    state = _get_nvml_state()
    if state == DISABLED_LIBRARY_NOT_FOUND:
        raise _error(
            _nvml.LibraryNotFoundError,
            12,
            "the NVML library (libnvidia-ml) was not found: install the NVIDIA driver, or run where it is installed",
        )
    if state != INITIALIZED:
        raise _error(
            _nvml.UninitializedError,
            1,
            "NVML is not initialized in this process: call cuda.core.system._nvml_context.initialize() first",
        )
    if _nvml.device_get_count_v2() == 0:
        raise _error(_nvml.GpuNotFoundError, 28, "NVML sees no GPU on this machine")
