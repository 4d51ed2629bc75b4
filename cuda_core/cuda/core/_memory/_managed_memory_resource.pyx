# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core ManagedMemoryResource: managed (unified) memory from a stream-ordered managed
memory pool (CUDA 13)."""

import warnings
from dataclasses import dataclass

cimport cuda.bindings.cydriver as cydriver

from cuda.core._memory._memory_pool cimport _MemPool, device_ordinal, options_of, pool_create, pool_use
from cuda.core._memory._memory_pool import current_host_numa_id
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver

from cuda.core._memory._managed_buffer import ManagedBuffer

# COMPAT_HAS_MANAGED_POOLS, compat_managed_allocation_type, compat_mem_get_mem_pool.
include "driver_compat.pxi"

__all__ = ['ManagedMemoryResource', 'ManagedMemoryResourceOptions']

_LOCATION_KINDS = ("device", "host", "host_numa")


@dataclass
class ManagedMemoryResourceOptions:
    """How ``ManagedMemoryResource`` creates a pool of its own: where its memory prefers to live.

    preferred_location_type : "device", "host", "host_numa" (a ManagedMemoryLocationType or its
        string), or None for the legacy reading of ``preferred_location``.
    preferred_location : with type None, a device ordinal, -1 for the host, or None for no
        preference; with "device", a device ordinal; with "host", None; with "host_numa", a NUMA
        node, or None for the current device's NUMA node.
    """

    preferred_location: int | None = None
    preferred_location_type: str | None = None


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _resolve_preferred_location(opts) -> tuple:
    """(kind, id) of the options' preferred location: kind "none", "device", "host" or "host_numa"."""
    if opts is None:
        return ("none", 0)
    location, kind = opts.preferred_location, opts.preferred_location_type
    if kind is None:
        if location is None:
            return ("none", 0)
        if _is_index(location) and location == -1:
            return ("host", 0)
        if _is_index(location) and location >= 0:
            return ("device", device_ordinal(location))
        raise ValueError(f"preferred_location must be a device ordinal (>= 0), -1 for the host, or None; "
                         f"got {location!r}")
    kind = str(kind.value if hasattr(kind, "value") else kind)
    if kind not in _LOCATION_KINDS:
        raise ValueError(f"{kind!r} is not a valid ManagedMemoryLocationType. Must be one of "
                         f"{', '.join(repr(k) for k in _LOCATION_KINDS)}")
    if kind == "device":
        if not (_is_index(location) and location >= 0):
            raise ValueError(f"with preferred_location_type='device', preferred_location must be a device "
                             f"ordinal (>= 0); got {location!r}")
        return ("device", device_ordinal(location))
    if kind == "host":
        if location is not None:
            raise ValueError(f"with preferred_location_type='host', preferred_location must be None "
                             f"(the host as a whole); got {location!r}")
        return ("host", 0)
    if location is None:
        numa_id = current_host_numa_id()
        if numa_id < 0:
            raise RuntimeError("Cannot determine host NUMA ID for preferred_location_type='host_numa': the "
                               "current device reports no host NUMA node. Pass preferred_location=<NUMA node>.")
        return ("host_numa", numa_id)
    if not (_is_index(location) and location >= 0):
        raise ValueError(f"with preferred_location_type='host_numa', preferred_location must be a NUMA node ID "
                         f"(>= 0) or None; got {location!r}")
    return ("host_numa", location)


_concurrent_access_warned = False


def reset_concurrent_access_warning() -> None:
    """Let the next ManagedMemoryResource warn again about missing concurrent managed access (tests)."""
    global _concurrent_access_warned
    _concurrent_access_warned = False


cdef bint _concurrent_managed_access(int device) except -1:
    cdef int value = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&value, cydriver.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                                                    device))
    return value != 0


cdef int _check_concurrent_access(int device, bint default_pool) except -1:
    """Managed pools on a device without concurrent managed access: the driver's default pool
    refuses managed allocations there; a pool of one's own works, with a warning (once)."""
    global _concurrent_access_warned
    if _concurrent_managed_access(device):
        return 0
    if default_pool:
        raise RuntimeError(f"device {device} lacks concurrent managed memory access, and the driver's default "
                           f"managed pool does not support managed allocations there: pass "
                           f"ManagedMemoryResourceOptions(...) for a pool of its own")
    if not _concurrent_access_warned:
        _concurrent_access_warned = True
        warnings.warn(f"device {device} lacks concurrent managed memory access: touching managed memory from "
                      f"the host while kernels run can segfault; synchronize before host access",
                      UserWarning, stacklevel=3)
    return 0


cdef class ManagedMemoryResource(_MemPool):
    """Managed (unified) memory from a stream-ordered managed memory pool: reachable from the host
    and every device, migrated on demand. ``allocate`` returns ManagedBuffers.

    With ``options`` None the resource uses the driver's current managed pool (no preferred
    location) and does not own it; with ``ManagedMemoryResourceOptions`` (or a dict of its
    fields) it creates a pool of its own with that preferred location. Managed pools need
    CUDA 13: a CUDA 12 build raises RuntimeError. IPC is not supported for managed pools."""

    def __init__(self, options=None):
        opts = options_of(ManagedMemoryResourceOptions, options)
        kind, location_id = _resolve_preferred_location(opts)
        if not COMPAT_HAS_MANAGED_POOLS:
            raise RuntimeError("ManagedMemoryResource requires CUDA 13.0 or later (managed memory pools); this "
                               "cuda.core is built for CUDA 12")
        ensure_driver()
        self._location_kind = kind
        self._location_id = location_id
        self._buffer_class = ManagedBuffer
        cdef int device = location_id if kind == "device" else max(current_device(), 0)
        _check_concurrent_access(device, opts is None)
        cdef cydriver.CUmemLocation location
        cdef cydriver.CUmemoryPool pool = NULL
        location.type = {"none": cydriver.CU_MEM_LOCATION_TYPE_INVALID,  # none: no preferred location
                         "device": cydriver.CU_MEM_LOCATION_TYPE_DEVICE,
                         "host": cydriver.CU_MEM_LOCATION_TYPE_HOST,
                         "host_numa": cydriver.CU_MEM_LOCATION_TYPE_HOST_NUMA}[kind]
        location.id = location_id
        if opts is not None:
            pool_create(self, location.type, location.id, compat_managed_allocation_type(), False, 0)
            return
        with nogil:
            HANDLE_RETURN(compat_mem_get_mem_pool(&pool, &location, compat_managed_allocation_type()))
        pool_use(self, pool)

    def allocate(self, size, *, stream) -> ManagedBuffer:
        """A ManagedBuffer of ``size`` bytes from the pool, ordered on ``stream`` (required)."""
        return _MemPool.allocate(self, size, stream=stream)

    @property
    def device_id(self) -> int:
        """The preferred device's ordinal, or -1 when the preferred location is not a device."""
        return self._location_id if self._location_kind == "device" else -1

    @property
    def preferred_location(self) -> tuple | None:
        """None (no preference), or (kind, id): ("device", ordinal), ("host", None) or
        ("host_numa", NUMA node)."""
        if self._location_kind == "none":
            return None
        if self._location_kind == "host":
            return ("host", None)
        return (self._location_kind, self._location_id)

    @property
    def is_device_accessible(self) -> bool:
        """True: every device with managed memory support reaches it."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """True: the host reaches it."""
        return True

    @property
    def is_managed(self) -> bool:
        """True: managed (unified) memory."""
        return True

    def __repr__(self) -> str:
        where = self.preferred_location
        return f"<ManagedMemoryResource preferred_location={where!r} ({'own' if self._owned else 'current'} pool)>"
