# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What the stream-ordered pool resources share (DeviceMemoryResource, PinnedMemoryResource,
ManagedMemoryResource): the pool handle, allocation and freeing in C, close, and the pool's
attributes."""

import uuid

cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport UINT64_MAX, uintptr_t
from libc.string cimport memset

from cuda.core._memory._buffer cimport (Buffer, MemoryResource, default_stream_object, new_buffer, pointer_value,
                                        required_stream)
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

__all__ = []


cdef class _PoolHandle:
    def __dealloc__(self):
        cdef cydriver.CUmemoryPool pool = self.pool
        if self.owned and pool != NULL:
            # Outstanding allocations keep the pool's memory until they are freed (the driver
            # defers the release); at interpreter exit the driver may be gone, nothing to do.
            self.pool = NULL
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuMemPoolDestroy(pool)


cdef int _raise_release_threshold(cydriver.CUmemoryPool pool) except -1:
    """Keep freed memory in the pool (threshold: no limit) unless someone set a threshold:
    with the driver's 0, every synchronization hands the pool's memory back to the OS."""
    cdef cydriver.cuuint64_t threshold = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolGetAttribute(pool, cydriver.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold))
        if threshold == 0:
            threshold = UINT64_MAX
            HANDLE_RETURN(cydriver.cuMemPoolSetAttribute(pool, cydriver.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold))
    return 0


cdef _PoolHandle _new_handle(cydriver.CUmemoryPool pool, bint owned):
    cdef _PoolHandle handle = _PoolHandle.__new__(_PoolHandle)
    handle.pool = pool
    handle.owned = owned
    return handle


cdef int pool_create(_MemPool self, cydriver.CUmemLocationType loc_type, int loc_id,
                     cydriver.CUmemAllocationType allocation_type, bint ipc_enabled, size_t max_size) except -1:
    cdef cydriver.CUmemPoolProps props
    cdef cydriver.CUmemoryPool pool = NULL
    memset(&props, 0, sizeof(props))
    props.allocType = allocation_type
    props.handleTypes = (cydriver.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR if ipc_enabled
                         else cydriver.CU_MEM_HANDLE_TYPE_NONE)
    props.location.type = loc_type
    props.location.id = loc_id
    props.maxSize = max_size
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolCreate(&pool, &props))
    self._handle = _new_handle(pool, True)  # owned from here on, even if the next call fails
    self._owned = True
    self._ipc_enabled = ipc_enabled
    self._uuid = uuid.uuid4() if ipc_enabled else None
    _raise_release_threshold(pool)
    if ipc_enabled:  # multiprocessing then sends the resource as its shareable handle
        from cuda.core._memory._ipc import ensure_reducers
        ensure_reducers()
    return 0


cdef int pool_import(_MemPool self, int fd) except -1:
    # The importer owns its mapping of the pool (cuMemPoolDestroy ends it); the exporter's
    # release threshold is the exporter's business.
    cdef cydriver.CUmemoryPool pool = NULL
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolImportFromShareableHandle(
            &pool, <void*><uintptr_t>fd, cydriver.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
    self._handle = _new_handle(pool, True)
    self._owned = True
    self._ipc_enabled = True
    self._imports = {}
    self._import_ptrs = {}
    return 0


cdef int pool_use(_MemPool self, cydriver.CUmemoryPool pool) except -1:
    self._handle = _new_handle(pool, False)
    self._owned = False
    self._ipc_enabled = False
    self._uuid = None
    _raise_release_threshold(pool)
    return 0


cdef object options_of(type options_class, object options):
    if options is None or isinstance(options, options_class):
        return options
    if isinstance(options, dict):
        return options_class(**options)
    raise TypeError(f"options must be a {options_class.__name__}, a dict of its fields, or None; "
                    f"got {type(options).__name__}")


cdef int device_ordinal(object device) except -1:
    """The ordinal of a Device or an int, checked against the driver's device count."""
    if isinstance(device, int) and not isinstance(device, bool):
        ordinal = device
    elif hasattr(device, "device_id"):
        ordinal = device.device_id
    else:
        raise TypeError(f"device_id must be a Device or an int, got {type(device).__name__}")
    count = device_count()
    if not 0 <= ordinal < count:
        raise ValueError(f"device_id must be in [0, {count}), got {ordinal}")
    return ordinal


cdef size_t checked_max_size(object max_size) except? 0:
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
        raise ValueError(f"max_size must be a non-negative int (0: the driver's default), got {max_size!r}")
    return max_size


def current_host_numa_id() -> int:
    """The host NUMA node of the current device (-1: none), as its properties report it."""
    from cuda.core._device import Device
    device = Device()
    numa_id = getattr(device.properties, "host_numa_id", None)
    if numa_id is None:  # a Device whose properties do not name it: ask the driver
        numa_id = _device_attribute(cydriver.CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, device.device_id)
    return numa_id


cdef int _device_attribute(cydriver.CUdevice_attribute attribute, int device) except? -1:
    cdef int value = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&value, attribute, device))
    return value


# ---------------------------------------------------------------------------------------------
# Pool attributes

cdef unsigned long long _pool_attribute(_PoolHandle handle, cydriver.CUmemPool_attribute attribute) except? 0:
    # Zeroed and 8 bytes wide: the int-sized reuse flags and the 64-bit sizes both read right.
    cdef unsigned long long value = 0
    cdef cydriver.CUmemoryPool pool = handle.pool
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolGetAttribute(pool, attribute, &value))
    return value


cdef class _MemPoolAttributes:
    """The attributes of a memory pool, read from the driver at each access. It keeps the pool
    alive, so it stays readable after its resource is closed."""

    cdef _PoolHandle _handle

    def __init__(self, *args, **kwargs):
        raise RuntimeError("pool attributes come from a memory resource's attributes property")

    @property
    def reuse_follow_event_dependencies(self) -> bool:
        """Whether freed memory is reused by a stream that waits (through events) on the free."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES) != 0

    @property
    def reuse_allow_opportunistic(self) -> bool:
        """Whether memory whose free has completed is reused by any stream."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC) != 0

    @property
    def reuse_allow_internal_dependencies(self) -> bool:
        """Whether the driver may add stream dependencies to reuse memory freed on another stream."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES) != 0

    @property
    def release_threshold(self) -> int:
        """Bytes of reserved memory the pool keeps before handing memory back to the OS."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)

    @property
    def reserved_mem_current(self) -> int:
        """Bytes of backing memory the pool holds now."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)

    @property
    def reserved_mem_high(self) -> int:
        """The most backing memory the pool has held."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)

    @property
    def used_mem_current(self) -> int:
        """Bytes allocated from the pool now."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_USED_MEM_CURRENT)

    @property
    def used_mem_high(self) -> int:
        """The most memory allocated from the pool at once."""
        return _pool_attribute(self._handle, cydriver.CU_MEMPOOL_ATTR_USED_MEM_HIGH)

    def __repr__(self) -> str:
        names = ("release_threshold", "reserved_mem_current", "reserved_mem_high",
                 "reuse_allow_internal_dependencies", "reuse_allow_opportunistic",
                 "reuse_follow_event_dependencies", "used_mem_current", "used_mem_high")
        fields = ", ".join(f"{name}={getattr(self, name)}" for name in names)
        return f"{type(self).__name__}({fields})"


cdef bint _last_import(_MemPool mapped, cydriver.CUdeviceptr ptr):
    """Count one import of ``ptr`` out of a mapped pool; True when it was the last. Every
    import of one allocation shares one address (see _ipc.import_buffer), and the driver
    unmaps it at the first free, so only the last Buffer over it may free it."""
    entry = mapped._imports.get(ptr)
    if entry is None:
        return True
    entry[0] -= 1
    if entry[0] > 0:
        return False
    del mapped._imports[ptr]
    mapped._import_ptrs.pop(entry[1], None)
    return True


# ---------------------------------------------------------------------------------------------
# The pool resource

cdef class _MemPool(MemoryResource):
    """A memory resource over a stream-ordered driver memory pool (cuMemAllocFromPoolAsync,
    cuMemFreeAsync). Subclasses choose or create the pool in their __init__."""

    def __cinit__(self, *args, **kwargs):
        self._exact_kind = True
        self._buffer_class = Buffer
        self._python_deallocate = type(self).deallocate is not _MemPool.deallocate

    def __init__(self):
        raise RuntimeError("_MemPool is the base of DeviceMemoryResource, PinnedMemoryResource and "
                           "ManagedMemoryResource: make one of those")

    cdef cydriver.CUmemoryPool _live_pool(self) except? NULL:
        if self._handle is None:
            raise RuntimeError(f"{type(self).__name__} has been closed")
        return self._handle.pool

    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
        if self._python_deallocate:
            self.deallocate(<uintptr_t>ptr, size, stream=stream if stream is not None else default_stream_object())
            return 0
        if self._imports is not None and not _last_import(self, ptr):
            return 0
        cdef cydriver.CUstream handle = NULL  # no stream: the legacy default stream
        if stream is not None:
            handle = stream._live_handle()
        if ptr != 0:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemFreeAsync(ptr, handle))
        return 0

    def close(self) -> None:
        """Let go of the pool. New allocations are refused from here on; ``deallocate`` keeps
        working for buffers still out. An owned pool is destroyed once nothing else holds it
        (the attributes object does), and its memory goes back once its allocations are freed.
        A pool the resource does not own (the driver's current pool) is left alone: then
        close does nothing."""
        if self._owned:
            self._handle = None
        if self._imports is not None:  # a closed mapping imports no more buffers
            from cuda.core._memory._ipc import unregister
            unregister(self)

    @property
    def is_closed(self) -> bool:
        """Whether the resource was closed."""
        return self._handle is None

    def allocate(self, size, *, stream) -> Buffer:
        """A buffer of ``size`` bytes from the pool, usable in the order of ``stream`` (required:
        pass ``device.default_stream`` for the default stream) and freed on it."""
        cdef cydriver.CUmemoryPool pool = self._live_pool()
        if self._imports is not None:
            # NVIDIA's message, which its tests compare whole. A mapping only imports the other
            # process's buffers (Buffer.from_ipc_descriptor).
            raise TypeError("Cannot allocate from a mapped IPC-enabled memory resource")
        cdef size_t nbytes = size
        cdef Stream ordered = required_stream(stream)
        cdef cydriver.CUstream handle = ordered._live_handle()
        cdef cydriver.CUdeviceptr ptr = 0
        cdef cydriver.CUstreamCaptureStatus capture = cydriver.CU_STREAM_CAPTURE_STATUS_NONE
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamIsCapturing(handle, &capture))
        if capture != cydriver.CU_STREAM_CAPTURE_STATUS_NONE:
            # A graph allocates from graph memory (GraphMemoryResource), not from a pool of ours.
            raise RuntimeError(f"{type(self).__name__} cannot perform memory operations on a capturing stream "
                               f"(consider using GraphMemoryResource).")
        if nbytes:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocFromPoolAsync(&ptr, nbytes, pool, handle))
        return new_buffer(self._buffer_class, ptr, nbytes, self, ordered)

    def deallocate(self, ptr, size, *, stream) -> None:
        """Free ``ptr`` back to its pool in the order of ``stream``; works after ``close``."""
        cdef cydriver.CUdeviceptr address = pointer_value(ptr)
        cdef cydriver.CUstream handle = required_stream(stream)._live_handle()
        if self._imports is not None and not _last_import(self, address):
            return
        if address != 0:
            ensure_driver()
            with nogil:
                HANDLE_RETURN(cydriver.cuMemFreeAsync(address, handle))

    @property
    def attributes(self) -> _MemPoolAttributes:
        """The pool's attributes (reuse policy, release threshold, memory in use)."""
        self._live_pool()
        cdef _MemPoolAttributes attributes
        if self._attributes is None:
            attributes = _MemPoolAttributes.__new__(_MemPoolAttributes)
            attributes._handle = self._handle
            self._attributes = attributes
        return self._attributes

    @property
    def handle(self) -> object:
        """The driver's CUmemoryPool."""
        from cuda.bindings import driver
        return driver.CUmemoryPool(<uintptr_t>self._live_pool())

    @property
    def is_handle_owned(self) -> bool:
        """Whether the resource created (owns) its pool; if not, ``close`` does nothing."""
        return self._owned

    @property
    def is_ipc_enabled(self) -> bool:
        """Whether the pool was created shareable with other processes (``ipc_enabled``)."""
        return self._ipc_enabled

    @property
    def is_mapped(self) -> bool:
        """Whether this resource maps another process's pool (``from_allocation_handle``): it
        then imports that process's buffers and cannot allocate."""
        return self._imports is not None

    @property
    def uuid(self) -> uuid.UUID | None:
        """An identifier for an IPC-enabled resource; None otherwise."""
        return self._uuid
