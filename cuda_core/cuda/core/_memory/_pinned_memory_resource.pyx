# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core PinnedMemoryResource: page-locked host memory from a stream-ordered memory pool."""

from dataclasses import dataclass

cimport cuda.bindings.cydriver as cydriver

from cuda.core._memory._ipc cimport _IPCMemPool
from cuda.core._memory._memory_pool cimport checked_max_size, options_of, pool_create, pool_use
from cuda.core._memory import _ipc
from cuda.core._utils.cuda_utils import check_multiprocessing_start_method
from cuda.core._memory._memory_pool import current_host_numa_id
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver

# COMPAT_HAS_LOCATION_POOLS, compat_mem_get_mem_pool: the current pool of a host location (13).
include "driver_compat.pxi"

__all__ = ['PinnedMemoryResource', 'PinnedMemoryResourceOptions']


@dataclass
class PinnedMemoryResourceOptions:
    """How ``PinnedMemoryResource`` creates a pool of its own.

    ipc_enabled : the pool can be shared with other processes; such a pool lives on one host
        NUMA node (``numa_id``, or the current device's ``host_numa_id``).
    max_size : the pool's maximum size in bytes; 0 lets the driver choose.
    numa_id : the host NUMA node of the pool's memory; None lets the OS place it (or, with
        ``ipc_enabled``, takes the current device's NUMA node).
    """

    ipc_enabled: bool = False
    max_size: int = 0
    numa_id: int | None = None


cdef int _numa_node(object opts) except -2:
    """The NUMA node the options ask for, or -1 for OS-managed placement."""
    numa_id = opts.numa_id
    if numa_id is not None:
        if isinstance(numa_id, bool) or not isinstance(numa_id, int) or numa_id < 0:
            raise ValueError(f"numa_id must be >= 0 (a host NUMA node) or None, got {numa_id!r}")
        return numa_id
    if not opts.ipc_enabled:
        return -1
    numa_id = current_host_numa_id()
    if numa_id < 0:
        raise RuntimeError("Cannot determine host NUMA ID for an IPC-enabled pinned memory pool: the system "
                           "reports no NUMA node for the current device (or no device is current). Pass "
                           "PinnedMemoryResourceOptions(numa_id=...) or call Device.set_current() first.")
    return numa_id


cdef int _require_host_pools() except -1:
    """Pools of OS-placed host memory (CU_MEM_LOCATION_TYPE_HOST) came with CUDA 13 drivers; a
    12.x driver refuses them with a bare CUDA_ERROR_INVALID_VALUE, so say what works instead."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    if version < 13000:
        raise RuntimeError(f"a PinnedMemoryResource pool of OS-placed host memory needs a CUDA 13 driver; this "
                           f"driver is CUDA {version // 1000}.{version % 1000 // 10}. Pass "
                           f"PinnedMemoryResourceOptions(numa_id=N) for a pool on host NUMA node N, or use "
                           f"LegacyPinnedMemoryResource.")
    return 0


cdef class PinnedMemoryResource(_IPCMemPool):
    """Page-locked (pinned) host memory from a stream-ordered memory pool, reachable from the
    host and from every device.

    With ``options`` None the resource uses the driver's current pool of pinned host memory
    (CUDA 13) and does not own it. With ``PinnedMemoryResourceOptions`` (or a dict of its
    fields) it creates a pool of its own. Host memory pools need a driver and device that
    support them (``Device.properties.host_memory_pools_supported``); where they are missing,
    ``LegacyPinnedMemoryResource`` gives pinned memory without stream ordering."""

    _options_name = "PinnedMemoryResourceOptions"  # named by the IPC errors (_ipc._IPCMemPool)

    def __init__(self, options=None):
        opts = options_of(PinnedMemoryResourceOptions, options)
        cdef int numa_id = -1 if opts is None else _numa_node(opts)
        cdef cydriver.CUmemLocation location
        cdef cydriver.CUmemoryPool pool = NULL
        location.type = cydriver.CU_MEM_LOCATION_TYPE_HOST_NUMA if numa_id >= 0 else cydriver.CU_MEM_LOCATION_TYPE_HOST
        location.id = numa_id if numa_id >= 0 else 0
        self._numa_id = numa_id
        if numa_id < 0 and (opts is not None or COMPAT_HAS_LOCATION_POOLS):
            _require_host_pools()
        if opts is not None:
            pool_create(self, location.type, location.id, cydriver.CU_MEM_ALLOCATION_TYPE_PINNED,
                        bool(opts.ipc_enabled), checked_max_size(opts.max_size))
            return
        if not COMPAT_HAS_LOCATION_POOLS:
            raise RuntimeError("PinnedMemoryResource() with no options uses the driver's current pinned memory "
                               "pool, which requires CUDA 13.0 or later; this cuda.core is built for CUDA 12. Pass "
                               "PinnedMemoryResourceOptions() for a pool of its own, or use "
                               "LegacyPinnedMemoryResource.")
        ensure_driver()
        with nogil:
            HANDLE_RETURN(compat_mem_get_mem_pool(&pool, &location, cydriver.CU_MEM_ALLOCATION_TYPE_PINNED))
        pool_use(self, pool)

    @classmethod
    def from_allocation_handle(cls, alloc_handle) -> PinnedMemoryResource:
        """Map the pool another process shared as ``alloc_handle`` (its ``allocation_handle``,
        or that file descriptor as an int, which stays the caller's to close) in this process.
        The mapping imports that process's buffers (``Buffer.from_ipc_descriptor``) and
        cannot allocate. A handle whose resource is mapped already gives that resource."""
        ensure_driver()  # a child process may not have touched CUDA yet
        existing = _ipc.registered(cls, alloc_handle)
        if existing is not None:
            return existing
        cdef PinnedMemoryResource mr = cls.__new__(cls)
        mr._numa_id = -1  # the exporter's node; the mapping does not say which
        return _ipc.map_pool(mr, alloc_handle)

    @property
    def device_id(self) -> int:
        """-1: pinned memory is host memory, bound to no device."""
        return -1

    @property
    def numa_id(self) -> int:
        """The host NUMA node of the pool's memory, or -1 where the OS places it."""
        return self._numa_id

    @property
    def is_device_accessible(self) -> bool:
        """True: every device reaches pinned memory."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """True: it is host memory."""
        return True

    def __repr__(self) -> str:
        where = f"NUMA node {self._numa_id}" if self._numa_id >= 0 else "OS-placed"
        kind = "mapped" if self._imports is not None else "own" if self._owned else "current"
        return f"<PinnedMemoryResource ({where}, {kind} pool)>"


def _deep_reduce_pinned_memory_resource(mr) -> tuple:
    """multiprocessing's reducer for this class (registered by _ipc.ensure_reducers): the
    receiver maps the pool from its shareable handle, which travels as a duplicated fd."""
    check_multiprocessing_start_method()
    return type(mr).from_allocation_handle, (mr.allocation_handle,)
