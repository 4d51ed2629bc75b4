# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.checkpoint: lock, checkpoint, restore and unlock the CUDA state of a process.

A thin layer over the driver's cuCheckpointProcess* API (driver 12.8+), used by
checkpoint/restore tools (such as CRIU with cuda-checkpoint): ``lock()`` stops the process's
CUDA calls, ``checkpoint()`` moves its GPU memory to host memory and releases the GPUs,
``restore()`` brings it back (optionally onto other GPUs) and ``unlock()`` lets it run on.

Not a hot path: plain Python over ``cuda.bindings.driver``, imported at first use.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping
from typing import Any

from cuda.core._utils.version import binding_version as _binding_version
from cuda.core._utils.version import driver_version as _driver_version
from cuda.core.typing import ProcessStateType as _ProcessStateType

__all__ = ["Process"]

# The messages callers (and NVIDIA's tests) tell apart: what is missing, the driver or the bindings.
_DRIVER_UNSUPPORTED = (
    "CUDA checkpointing is not supported by the installed NVIDIA driver. "
    "Upgrade to a driver version with CUDA checkpoint API support."
)
_BINDINGS_UNSUPPORTED = "CUDA checkpointing requires cuda.bindings with CUDA checkpoint API support."

# The driver API's first release with cuCheckpointProcess*.
_MIN_DRIVER = (12, 8, 0)
# What a process's state calls need from cuda.bindings.driver; migration also needs CUcheckpointGpuPair.
_BASE_NAMES = (
    "cuCheckpointProcessGetState",
    "cuCheckpointProcessGetRestoreThreadId",
    "cuCheckpointProcessLock",
    "cuCheckpointProcessCheckpoint",
    "cuCheckpointProcessRestore",
    "cuCheckpointProcessUnlock",
    "CUcheckpointLockArgs",
    "CUcheckpointRestoreArgs",
    "CUprocessState",
)
_MIGRATION_NAMES = ("CUcheckpointGpuPair",)

# CUprocessState member name -> the state string Process.state returns.
_STATES: dict[str, _ProcessStateType] = {
    "CU_PROCESS_STATE_RUNNING": "running",
    "CU_PROCESS_STATE_LOCKED": "locked",
    "CU_PROCESS_STATE_CHECKPOINTED": "checkpointed",
    "CU_PROCESS_STATE_FAILED": "failed",
}

_checked_driver: Any = None


def _bindings_support_checkpoint(version: tuple[int, ...]) -> bool:
    """Whether a cuda-bindings release has the checkpoint API: 12.8+ of CUDA 12, 13.0.2+ of 13."""
    major, minor, patch = version[:3]
    if major == 12:
        return (minor, patch) >= (8, 0)
    return (major, minor, patch) >= (13, 0, 2)


def _get_driver() -> Any:
    """``cuda.bindings.driver``, once it is known to carry the checkpoint API and the driver
    to support it; else a RuntimeError saying which of the two lacks it."""
    global _checked_driver
    if _checked_driver is not None:
        return _checked_driver
    found = _binding_version()
    if not _bindings_support_checkpoint(found):
        raise RuntimeError(
            f"{_BINDINGS_UNSUPPORTED} Found cuda.bindings {'.'.join(map(str, found[:3]))}; "
            "install cuda-bindings 12.8+ (CUDA 12) or 13.0.2+ (CUDA 13)."
        )
    from cuda.bindings import driver

    missing = [name for name in _BASE_NAMES if not hasattr(driver, name)]
    if missing:
        raise RuntimeError(f"{_BINDINGS_UNSUPPORTED} Missing: {', '.join(missing)}")
    from cuda.core._utils.cuda_utils import DriverNotFoundError

    try:
        found_driver = _driver_version()
    except DriverNotFoundError as err:
        raise RuntimeError(f"{_DRIVER_UNSUPPORTED} ({err})") from err
    if found_driver < _MIN_DRIVER:
        raise RuntimeError(
            f"{_DRIVER_UNSUPPORTED} (found a driver of CUDA {'.'.join(map(str, found_driver))}, "
            f"the API came with {'.'.join(map(str, _MIN_DRIVER))})"
        )
    _checked_driver = driver
    return driver


def _call(function_name: str, *args: Any) -> Any:
    """Call a cuCheckpointProcess* function; a driver without it is a RuntimeError that says so,
    another error a CUDAError. Returns the call's value (None where it has none)."""
    from cuda.core._utils.cuda_utils import handle_return

    driver = _get_driver()
    try:
        result = getattr(driver, function_name)(*args)
    except RuntimeError as err:
        # cuda.bindings raises this when the loaded libcuda lacks the entry point.
        if "not found" in str(err):
            raise RuntimeError(_DRIVER_UNSUPPORTED) from err
        raise
    if result[0] in (driver.CUresult.CUDA_ERROR_NOT_SUPPORTED, driver.CUresult.CUDA_ERROR_NOT_FOUND):
        raise RuntimeError(f"{_DRIVER_UNSUPPORTED} ({function_name} returned {result[0].name})")
    return handle_return(result)


def _checked_int(value: object, name: str, minimum: int) -> int:
    """``value`` if it is an int (not a bool) of at least ``minimum``; else TypeError or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(
            f"{name} must be a positive int, got {value}"
            if minimum == 1
            else f"{name} must be >= {minimum}, got {value}"
        )
    return value


def _uuid(driver: Any, value: object) -> Any:
    """A CUuuid from a CUuuid, or from Device.uuid's text form (32 hex digits, hyphens optional)."""
    if isinstance(value, driver.CUuuid):
        return value
    if not isinstance(value, str):
        raise TypeError(f"GPU UUIDs in gpu_mapping must be CUuuid objects or UUID strings, got {type(value).__name__}")
    try:
        raw = bytes.fromhex(value.replace("-", ""))
    except ValueError:
        raw = b""
    if len(raw) != 16:
        raise ValueError(
            f"a GPU UUID is 16 bytes written as 32 hex digits (hyphens allowed, as in Device.uuid), got {value!r}"
        )
    uuid = driver.CUuuid()
    ctypes.memmove(uuid.getPtr(), raw, 16)  # CUuuid.bytes is read-only: fill the struct in place
    return uuid


def _restore_args(gpu_mapping: Mapping[Any, Any] | None) -> Any:
    """The CUcheckpointRestoreArgs of a GPU UUID remapping, or None for none."""
    if gpu_mapping is None:
        return None
    if not isinstance(gpu_mapping, Mapping):
        raise TypeError(
            "gpu_mapping must be a mapping from checkpointed GPU UUID to restore GPU UUID, "
            f"got {type(gpu_mapping).__name__}"
        )
    if not gpu_mapping:
        return None
    driver = _get_driver()
    missing = [name for name in _MIGRATION_NAMES if not hasattr(driver, name)]
    if missing:
        raise RuntimeError(
            f"{_BINDINGS_UNSUPPORTED} Missing: {', '.join(missing)} (GPU migration needs cuda-bindings 13.0.2+)"
        )
    pairs = []
    for old, new in gpu_mapping.items():
        pair = driver.CUcheckpointGpuPair()
        pair.oldUuid = _uuid(driver, old)
        pair.newUuid = _uuid(driver, new)
        pairs.append(pair)
    args = driver.CUcheckpointRestoreArgs()
    args.gpuPairs = pairs
    args.gpuPairsCount = len(pairs)
    return args


class Process:
    """The CUDA state of a process, to lock, checkpoint, restore and unlock.

    Parameters
    ----------
    pid : int
        Process ID of the CUDA process (this one or another of the same user).
    """

    __slots__ = ("_pid",)

    def __init__(self, pid: int):
        self._pid = _checked_int(pid, "pid", 1)

    @property
    def pid(self) -> int:
        """Process ID of the CUDA process."""
        return self._pid

    @property
    def state(self) -> _ProcessStateType:
        """The process's checkpoint state: 'running', 'locked', 'checkpointed' or 'failed'."""
        value = _call("cuCheckpointProcessGetState", self._pid)
        name = _STATES.get(getattr(value, "name", ""))
        if name is None:
            raise RuntimeError(f"Unknown CUDA checkpoint process state: {int(value)}")
        return name

    @property
    def restore_thread_id(self) -> int:
        """The ID of the thread that restore() runs the process's CUDA restore on."""
        return int(_call("cuCheckpointProcessGetRestoreThreadId", self._pid))

    def lock(self, timeout_ms: int = 0) -> None:
        """Lock the process: its CUDA calls block, and its submitted work completes.

        Parameters
        ----------
        timeout_ms : int, optional
            How long to wait for the lock, in milliseconds; 0 (the default) waits without limit.
        """
        timeout_ms = _checked_int(timeout_ms, "timeout_ms", 0)
        args = _get_driver().CUcheckpointLockArgs()
        args.timeoutMs = timeout_ms
        _call("cuCheckpointProcessLock", self._pid, args)

    def checkpoint(self) -> None:
        """Checkpoint a locked process: copy its GPU memory to host memory and release its GPUs."""
        _call("cuCheckpointProcessCheckpoint", self._pid, None)

    def restore(self, gpu_mapping: Mapping[Any, Any] | None = None) -> None:
        """Restore a checkpointed process; it stays locked until unlock().

        Parameters
        ----------
        gpu_mapping : mapping, optional
            To migrate: each checkpointed GPU's UUID (a CUuuid, or a string as Device.uuid
            gives) to the UUID of the GPU to restore onto. The driver needs an entry for
            every GPU it sees (CUDA_VISIBLE_DEVICES does not narrow that).
        """
        args = _restore_args(gpu_mapping)
        _call("cuCheckpointProcessRestore", self._pid, args)

    def unlock(self) -> None:
        """Unlock a locked process: its CUDA calls go on."""
        _call("cuCheckpointProcessUnlock", self._pid, None)
