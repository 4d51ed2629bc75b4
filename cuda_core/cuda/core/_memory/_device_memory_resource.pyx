# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core DeviceMemoryResource: device memory from a stream-ordered memory pool, the device's
current pool or one the resource creates (DeviceMemoryResourceOptions)."""

from dataclasses import dataclass

cimport cuda.bindings.cydriver as cydriver
from libc.stdlib cimport free, malloc

from cuda.core._memory._ipc cimport _IPCMemPool
from cuda.core._memory._memory_pool cimport checked_max_size, device_ordinal, options_of, pool_create, pool_use
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

from cuda.core._memory import _ipc, _peer_access_utils
from cuda.core._utils.cuda_utils import check_multiprocessing_start_method

__all__ = ['DeviceMemoryResource', 'DeviceMemoryResourceOptions']


@dataclass
class DeviceMemoryResourceOptions:
    """How ``DeviceMemoryResource`` creates a pool of its own.

    ipc_enabled : the pool can be shared with other processes (POSIX file descriptors).
    max_size : the pool's maximum size in bytes; 0 lets the driver choose.
    """

    ipc_enabled: bool = False
    max_size: int = 0


cdef str _access_of(cydriver.CUmemoryPool pool, int device):
    cdef cydriver.CUmemLocation location
    cdef cydriver.CUmemAccess_flags flags = cydriver.CU_MEM_ACCESS_FLAGS_PROT_NONE
    location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE
    location.id = device
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolGetAccess(&flags, pool, &location))
    if flags == cydriver.CU_MEM_ACCESS_FLAGS_PROT_READWRITE:
        return "rw"
    if flags == cydriver.CU_MEM_ACCESS_FLAGS_PROT_READ:
        return "r"
    return ""


cdef class DeviceMemoryResource(_IPCMemPool):
    """Device memory from a stream-ordered memory pool of one device.

    With ``options`` None the resource uses the driver's current pool of the device (its
    default pool unless someone set another) and does not own it: ``close`` does nothing.
    With ``DeviceMemoryResourceOptions`` (or a dict of its fields) it creates a pool of its
    own, destroyed once the resource is closed and its buffers are freed.

    ``peer_accessible_by`` is the live set of other devices that may access the pool's memory.

    An IPC-enabled pool (``ipc_enabled=True``) can be shared with other processes: there,
    ``from_allocation_handle`` maps it (a "mapped" resource: it imports this process's
    buffers through ``Buffer.from_ipc_descriptor`` and cannot allocate) and registers the
    mapping under this resource's ``uuid``. Sent through ``multiprocessing``, resources and
    Buffers do all of that by themselves; plain pickle sends a resource as its UUID and a
    Buffer as its descriptor, for a process that mapped the resource already."""

    _options_name = "DeviceMemoryResourceOptions"  # named by the IPC errors (_ipc._IPCMemPool)

    def __init__(self, device_id, options=None):
        cdef int ordinal = device_ordinal(device_id)
        opts = options_of(DeviceMemoryResourceOptions, options)
        cdef cydriver.CUmemoryPool pool = NULL
        self._dev_id = ordinal
        if opts is None:
            with nogil:
                HANDLE_RETURN(cydriver.cuDeviceGetMemPool(&pool, ordinal))
            pool_use(self, pool)
        else:
            pool_create(self, cydriver.CU_MEM_LOCATION_TYPE_DEVICE, ordinal, cydriver.CU_MEM_ALLOCATION_TYPE_PINNED,
                        bool(opts.ipc_enabled), checked_max_size(opts.max_size))

    @classmethod
    def from_allocation_handle(cls, device_id, alloc_handle) -> DeviceMemoryResource:
        """Map the pool another process shared as ``alloc_handle`` (its ``allocation_handle``,
        or that file descriptor as an int, which stays the caller's to close) on device ``device_id`` (a Device or an ordinal).
        The mapping imports that process's buffers (``Buffer.from_ipc_descriptor``) and
        cannot allocate. A handle whose resource is mapped already gives that resource."""
        cdef int ordinal = device_ordinal(device_id)
        existing = _ipc.registered(cls, alloc_handle)
        if existing is not None:
            return existing
        cdef DeviceMemoryResource mr = cls.__new__(cls)
        mr._dev_id = ordinal
        return _ipc.map_pool(mr, alloc_handle)

    @property
    def device_id(self) -> int:
        """The device whose memory this is."""
        return self._dev_id

    @property
    def peer_accessible_by(self):
        """The live set of other devices granted access to the pool's memory (read from the
        driver at each use). Assign an iterable of Devices or ordinals to replace it, or
        ``add``/``discard`` one; the owning device is never listed and is ignored if given."""
        self._live_pool()
        return _peer_access_utils.PeerAccessibleBySetProxy(self)

    @peer_accessible_by.setter
    def peer_accessible_by(self, devices) -> None:
        self._live_pool()
        _peer_access_utils.replace_peer_accessible_by(self, devices)

    def _peer_ids(self) -> tuple:
        """The ordinals of the other devices that can access the pool now, ascending."""
        cdef cydriver.CUmemoryPool pool = self._live_pool()
        return tuple(device for device in range(device_count())
                     if device != self._dev_id and _access_of(pool, device))

    def _can_access_peer(self, int peer) -> bool:
        """Whether device ``peer`` can access this device's memory at all (cuDeviceCanAccessPeer)."""
        cdef int answer = 0
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceCanAccessPeer(&answer, peer, self._dev_id))
        return answer != 0

    def _set_peer_access(self, to_add, to_remove) -> None:
        """Grant read-write access to the devices ``to_add`` and revoke it from ``to_remove``,
        in one cuMemPoolSetAccess (each change remaps every allocation of the pool)."""
        cdef cydriver.CUmemoryPool pool = self._live_pool()
        changes = [(device, True) for device in to_add] + [(device, False) for device in to_remove]
        cdef size_t count = len(changes)
        if count == 0:
            return
        cdef cydriver.CUmemAccessDesc* descriptors = <cydriver.CUmemAccessDesc*>malloc(
            count * sizeof(cydriver.CUmemAccessDesc))
        if descriptors == NULL:
            raise MemoryError("no host memory left for the peer-access descriptors")
        try:
            for i, (device, granted) in enumerate(changes):
                descriptors[i].location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE
                descriptors[i].location.id = device
                descriptors[i].flags = (cydriver.CU_MEM_ACCESS_FLAGS_PROT_READWRITE if granted
                                        else cydriver.CU_MEM_ACCESS_FLAGS_PROT_NONE)
            with nogil:
                HANDLE_RETURN(cydriver.cuMemPoolSetAccess(pool, descriptors, count))
        finally:
            free(descriptors)

    @property
    def is_device_accessible(self) -> bool:
        """True: kernels on the device (and its granted peers) reach this memory."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """False: device memory is not reachable from the host."""
        return False

    def __repr__(self) -> str:
        owned = "mapped pool" if self._imports is not None else "own pool" if self._owned else "current pool"
        return f"<DeviceMemoryResource device={self._dev_id} ({owned})>"


def DMR_mempool_get_access(dmr: DeviceMemoryResource, device_id) -> str:
    """The access ``device_id`` (an ordinal or a Device) has to ``dmr``'s pool, from
    cuMemPoolGetAccess: "rw" read-write, "r" read-only, "" none."""
    ordinal = device_id.device_id if hasattr(device_id, "device_id") else device_id
    ensure_driver()
    return _access_of((<DeviceMemoryResource?>dmr)._live_pool(), ordinal)


def _deep_reduce_device_memory_resource(mr) -> tuple:
    """multiprocessing's reducer for this class (registered by _ipc.ensure_reducers): the
    receiver maps the pool from its shareable handle, which travels as a duplicated fd."""
    check_multiprocessing_start_method()
    return type(mr).from_allocation_handle, (mr.device_id, mr.allocation_handle)
