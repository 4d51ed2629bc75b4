# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Sharing pool memory with other processes (IPC), over the driver's POSIX file descriptors.

An IPC-enabled pool exports a shareable handle (``allocation_handle``, a file descriptor); a
process that receives it maps the pool (``from_allocation_handle``: a "mapped" resource,
which imports buffers and cannot allocate) and registers it under the exporter's UUID.
Buffers travel as ``IPCBufferDescriptor``s (the driver's export data and the size).

Pickling: plain ``pickle`` sends a resource as its UUID (the receiver must have mapped it),
and a Buffer as (resource, descriptor). ``multiprocessing`` pickles through its own
reducers, registered here at the first IPC-enabled pool: it sends a resource as its
handle, whose file descriptor it passes to the other process itself.
"""

import os
import weakref

cimport cuda.bindings.cydriver as cydriver
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.string cimport memcpy

from cuda.core._memory._buffer cimport Buffer, new_buffer, required_stream
from cuda.core._memory._memory_pool cimport _MemPool, pool_import
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver

from cuda.core._utils.cuda_utils import check_multiprocessing_start_method

__all__ = ['IPCAllocationHandle', 'IPCBufferDescriptor']

NOT_IPC_ENABLED = "Memory resource is not IPC-enabled"

# The mapped resources of this process by the UUID of the resource they map. Weak: a mapping
# nobody uses is unmapped, and a later import maps the pool again.
cdef object _registry = weakref.WeakValueDictionary()


cdef class IPCBufferDescriptor:
    """What another process needs to import a buffer: the driver's export data of the
    allocation and the buffer's size. It pickles. Both come from the exporting process:
    import only descriptors of trusted peers, through ``Buffer.from_ipc_descriptor``."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("IPCBufferDescriptor objects come from Buffer.ipc_descriptor of a buffer of an "
                           "IPC-enabled memory resource")

    @staticmethod
    def _init(reserved, size) -> IPCBufferDescriptor:
        if size < 0:
            raise ValueError(f"an IPC buffer descriptor's size is a byte count (>= 0), got {size}")
        cdef IPCBufferDescriptor descriptor = IPCBufferDescriptor.__new__(IPCBufferDescriptor)
        descriptor._payload = bytes(reserved)
        descriptor._size = size
        return descriptor

    def __reduce__(self):
        return IPCBufferDescriptor._init, (self._payload, self._size)

    @property
    def size(self) -> int:
        """The size of the described buffer, in bytes."""
        return self._size

    def __repr__(self) -> str:
        return f"<IPCBufferDescriptor size={self._size}>"


cdef class IPCAllocationHandle:
    """The shareable handle of an IPC-enabled pool: a POSIX file descriptor this object owns
    and closes, and the UUID of the exporting resource. ``multiprocessing`` passes the
    descriptor itself to the receiving process; plain pickle cannot."""

    def __cinit__(self):
        self._fd = -1

    def __init__(self, *args, **kwargs):
        raise RuntimeError("IPCAllocationHandle objects come from the allocation_handle of an IPC-enabled "
                           "memory resource")

    @classmethod
    def _init(cls, handle, uuid) -> IPCAllocationHandle:
        if handle < 0:
            raise ValueError(f"Invalid allocation handle (fd) {handle}: must be non-negative")
        cdef IPCAllocationHandle self = cls.__new__(cls)
        self._fd = handle
        self._uuid = uuid
        return self

    def __dealloc__(self):
        if self._fd >= 0:
            try:
                os.close(self._fd)
            except OSError:
                pass  # closed behind our back: nothing left to release
            self._fd = -1

    def close(self) -> None:
        """Close the file descriptor; a second close does nothing."""
        cdef int fd = self._fd
        self._fd = -1
        if fd >= 0:
            os.close(fd)

    @property
    def is_closed(self) -> bool:
        """Whether the handle was closed."""
        return self._fd < 0

    def __int__(self) -> int:
        if self._fd < 0:
            raise ValueError(f"Cannot convert IPCAllocationHandle to int: the handle (id={id(self)}) is closed")
        return self._fd

    @property
    def handle(self) -> int:
        """The file descriptor (-1 once closed)."""
        return self._fd

    @property
    def uuid(self):
        """The UUID of the resource that exported the pool (None: not known)."""
        return self._uuid

    def __reduce__(self):
        raise TypeError("an IPCAllocationHandle is a file descriptor, which pickle cannot carry: send it "
                        "through multiprocessing (a Queue, Pipe or Process argument), which passes the "
                        "descriptor to the other process")

    def __repr__(self) -> str:
        state = "closed" if self._fd < 0 else f"fd={self._fd}"
        return f"<IPCAllocationHandle {state} uuid={self._uuid}>"


cdef class IPCDataForBuffer:
    """How a Buffer takes part in IPC: its descriptor, and whether it was imported."""

    def __init__(self, IPCBufferDescriptor ipc_descriptor, bint is_mapped, mr=None):
        self._ipc_descriptor = ipc_descriptor
        self._is_mapped = is_mapped
        self._mr = mr

    @property
    def ipc_descriptor(self) -> IPCBufferDescriptor:
        return self._ipc_descriptor

    @property
    def is_mapped(self) -> bool:
        return self._is_mapped


cdef class IPCDataForMR:
    """How a pool resource takes part in IPC: its shareable handle, and whether it maps
    another process's pool."""

    def __init__(self, IPCAllocationHandle alloc_handle, bint is_mapped):
        self._alloc_handle = alloc_handle
        self._is_mapped = is_mapped

    @property
    def alloc_handle(self) -> IPCAllocationHandle:
        return self._alloc_handle

    @property
    def is_mapped(self) -> bool:
        return self._is_mapped

    @property
    def uuid(self):
        return self._alloc_handle._uuid


# ---------------------------------------------------------------------------------------------
# Pools

def export_pool(_MemPool mr, str options_class) -> IPCAllocationHandle:
    """``mr.allocation_handle``: exported once, then cached and owned by ``mr``."""
    cdef cydriver.CUmemoryPool pool = mr._live_pool()
    if not mr._ipc_enabled:
        raise RuntimeError(f"{NOT_IPC_ENABLED}: create it with {options_class}(ipc_enabled=True)")
    cdef int fd = -1
    if mr._ipc_data is None:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemPoolExportToShareableHandle(
                &fd, pool, cydriver.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
        # The GIL was released for the export: another thread (multiprocessing's queue feeder,
        # pickling a Buffer of this pool) may have exported and cached a handle meanwhile, and
        # handed its descriptor to a process being spawned. The first handle stays; ours goes.
        if mr._ipc_data is None:
            mr._ipc_data = IPCDataForMR(IPCAllocationHandle._init(fd, mr._uuid), False)
        else:
            os.close(fd)
    return (<IPCDataForMR>mr._ipc_data)._alloc_handle


def registered(type cls, alloc_handle):
    """The mapped resource already registered for ``alloc_handle``'s UUID, or None. A
    resource of another class there is a TypeError: the handle is not a ``cls`` pool."""
    uuid = (<IPCAllocationHandle>alloc_handle)._uuid if isinstance(alloc_handle, IPCAllocationHandle) else None
    existing = None if uuid is None else _registry.get(uuid)
    if existing is not None and not isinstance(existing, cls):
        raise TypeError(f"Registry contains a {type(existing).__name__} for uuid {uuid}, but {cls.__name__} "
                        f"was requested: the allocation handle belongs to a {type(existing).__name__}")
    return existing


def map_pool(_MemPool mr, alloc_handle) -> _MemPool:
    """Make the new ``mr`` map the pool of ``alloc_handle`` (an IPCAllocationHandle, kept, or
    a file descriptor, duplicated: the caller keeps it), registered under its UUID."""
    cdef IPCAllocationHandle handle
    if isinstance(alloc_handle, IPCAllocationHandle):
        handle = alloc_handle
    elif isinstance(alloc_handle, int) and not isinstance(alloc_handle, bool):
        if alloc_handle < 0:
            raise ValueError(f"Invalid allocation handle (fd) {alloc_handle}: must be non-negative")
        handle = IPCAllocationHandle._init(os.dup(alloc_handle), None)
    else:
        raise TypeError(f"alloc_handle must be an IPCAllocationHandle or a file descriptor (int), "
                        f"got {type(alloc_handle).__name__}")
    pool_import(mr, int(handle))
    mr._uuid = handle._uuid
    mr._ipc_data = IPCDataForMR(handle, True)
    ensure_reducers()
    if handle._uuid is not None:
        _registry[handle._uuid] = mr
    return mr


def register(_MemPool mr, uuid) -> _MemPool:
    """``mr.register(uuid)``: the resource registered under ``uuid``, ``mr`` if none was."""
    existing = _registry.get(uuid)
    if existing is not None:
        return existing
    if mr._uuid is not None and mr._uuid != uuid:
        raise ValueError(f"this resource maps the pool of resource {mr._uuid}; it cannot be registered "
                         f"under {uuid}")
    _registry[uuid] = mr
    mr._uuid = uuid
    if mr._ipc_data is not None:
        (<IPCDataForMR>mr._ipc_data)._alloc_handle._uuid = uuid
    return mr


def from_registry(uuid) -> _MemPool:
    """The mapped resource registered under ``uuid``."""
    try:
        return _registry[uuid]
    except KeyError:
        raise RuntimeError(f"Memory resource {uuid} was not found in this process's registry: map it first "
                           f"(from_allocation_handle, or send the resource through multiprocessing)") from None


def unregister(_MemPool mr) -> None:
    """Take a closed mapped resource out of the registry."""
    if mr._uuid is not None and _registry.get(mr._uuid) is mr:
        del _registry[mr._uuid]


cdef class _IPCMemPool(_MemPool):
    """The pools another process can map: DeviceMemoryResource's and PinnedMemoryResource's, not
    ManagedMemoryResource's. What they share of IPC is written here once; each names its
    options class (``_options_name``) for the errors that say how to make a pool shareable."""

    _options_name = "the resource's options"

    def __reduce__(self):
        # Plain pickle sends the UUID; the receiving process must have mapped the resource
        # (multiprocessing sends the shareable handle instead: see ensure_reducers).
        if self._uuid is None:
            raise TypeError(f"{type(self).__name__} is not IPC-enabled, so it cannot travel to another process: "
                            f"create it with {self._options_name}(ipc_enabled=True)")
        return _IPCMemPool.from_registry, (self._uuid,)

    @staticmethod
    def from_registry(uuid) -> _IPCMemPool:
        """The mapped resource registered in this process under ``uuid`` (the UUID of the
        resource it maps); RuntimeError when there is none."""
        return from_registry(uuid)  # the module's function: a method body does not see the class's names

    def register(self, uuid) -> _IPCMemPool:
        """Register this mapped resource under ``uuid``, so that Buffers pickled with that
        UUID find it. Returns the resource registered already under ``uuid`` if there is one."""
        return register(self, uuid)

    @property
    def allocation_handle(self):
        """The shareable handle of this IPC-enabled pool (a file descriptor), made once and
        owned by the resource; send it to another process to map the pool there."""
        return export_pool(self, self._options_name)


# ---------------------------------------------------------------------------------------------
# Buffers

def export_buffer(Buffer buffer) -> IPCBufferDescriptor:
    """``buffer.ipc_descriptor``: exported once, then cached (an imported buffer has the
    descriptor it came with, so it can be sent on)."""
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    if buffer._ipc_data is None:
        mr = buffer._memory_resource
        if not getattr(mr, "is_ipc_enabled", False):
            raise RuntimeError(f"{NOT_IPC_ENABLED}: its buffers cannot be shared with other processes")
        if (<_MemPool>mr)._ipc_data is None:
            # The driver exports no pointer of a pool it has not exported (CUDA_ERROR_INVALID_VALUE).
            export_pool(mr, "")
        buffer._ipc_data = IPCDataForBuffer(_export_pointer(ptr, buffer._size), False, mr)
    return (<IPCDataForBuffer>buffer._ipc_data)._ipc_descriptor


cdef IPCBufferDescriptor _export_pointer(cydriver.CUdeviceptr ptr, size_t size):
    cdef cydriver.CUmemPoolPtrExportData data
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolExportPointer(&data, ptr))
    return IPCBufferDescriptor._init(PyBytes_FromStringAndSize(<char*>data.reserved, sizeof(data.reserved)), size)


def import_buffer(type cls, mr, IPCBufferDescriptor ipc_descriptor, stream) -> Buffer:
    """``Buffer.from_ipc_descriptor``: a ``cls`` over the allocation ``ipc_descriptor``
    exports, from the mapped ``mr``, freed in the order of ``stream``."""
    if not getattr(mr, "is_ipc_enabled", False):
        raise RuntimeError(f"{NOT_IPC_ENABLED}: create it with ipc_enabled=True in its options")
    payload = ipc_descriptor._payload
    cdef cydriver.CUmemPoolPtrExportData data
    cdef Py_ssize_t expected = sizeof(data.reserved)  # signed, as len() is
    if len(payload) < expected:
        raise ValueError(f"IPC buffer descriptor payload is {len(payload)} bytes; expected at least "
                         f"{expected}: it is not an export of Buffer.ipc_descriptor")
    cdef _MemPool mapped = mr
    if mapped._imports is None:
        raise RuntimeError(f"{type(mr).__name__} {mapped._uuid} allocates its own buffers; buffers of another "
                           f"process are imported through the resource that maps its pool "
                           f"({type(mr).__name__}.from_allocation_handle)")
    cdef Stream ordered = required_stream(stream)
    cdef cydriver.CUdeviceptr ptr = _import_pointer(mapped, payload)
    cdef size_t extent = 0
    try:
        with nogil:
            HANDLE_RETURN(cydriver.cuPointerGetAttribute(&extent, cydriver.CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr))
        if ipc_descriptor._size > extent:
            raise ValueError(f"IPC buffer descriptor size ({ipc_descriptor._size}) exceeds the mapped allocation "
                             f"extent ({extent} bytes): the descriptor does not describe this allocation")
    except BaseException:
        mapped._deallocate(ptr, 0, ordered)  # this import only: an earlier one keeps the mapping
        raise
    cdef Buffer buffer = new_buffer(cls, ptr, ipc_descriptor._size, mapped, ordered)
    buffer._ipc_data = IPCDataForBuffer(ipc_descriptor, True, mapped)
    return buffer


cdef cydriver.CUdeviceptr _import_pointer(_MemPool mapped, bytes payload) except? 0:
    """The address of the allocation ``payload`` exports, counted as one more import. A
    repeated import reuses the first one's address without asking the driver again: the
    driver refuses a second mapping of pinned memory (CUDA_ERROR_ALREADY_MAPPED), and of
    device memory it unmaps every import at the first free."""
    cdef cydriver.CUdeviceptr ptr = mapped._import_ptrs.get(payload, 0)
    cdef cydriver.CUmemPoolPtrExportData data
    cdef cydriver.CUmemoryPool pool = mapped._live_pool()
    if ptr != 0:
        mapped._imports[ptr][0] += 1
        return ptr
    memcpy(data.reserved, <const char*>payload, sizeof(data.reserved))
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemPoolImportPointer(&ptr, pool, &data))
    mapped._imports[ptr] = [1, payload]
    mapped._import_ptrs[payload] = ptr
    return ptr


# ---------------------------------------------------------------------------------------------
# multiprocessing

cdef bint _reducers_registered = False


cpdef int ensure_reducers() except -1:
    """Register the deep reducers with multiprocessing, once: at the first IPC-enabled pool,
    so that importing cuda.core does not import multiprocessing."""
    global _reducers_registered
    if _reducers_registered:
        return 0
    from multiprocessing import reduction

    from cuda.core._memory._device_memory_resource import (DeviceMemoryResource,
                                                           _deep_reduce_device_memory_resource)
    from cuda.core._memory._pinned_memory_resource import (PinnedMemoryResource,
                                                           _deep_reduce_pinned_memory_resource)
    reduction.register(IPCAllocationHandle, _reduce_allocation_handle)
    reduction.register(DeviceMemoryResource, _deep_reduce_device_memory_resource)
    reduction.register(PinnedMemoryResource, _deep_reduce_pinned_memory_resource)
    _reducers_registered = True
    return 0


def _reduce_allocation_handle(IPCAllocationHandle alloc_handle) -> tuple:
    check_multiprocessing_start_method()
    from multiprocessing.reduction import DupFd
    return _reconstruct_allocation_handle, (type(alloc_handle), DupFd(int(alloc_handle)), alloc_handle._uuid)


def _reconstruct_allocation_handle(cls, df, uuid) -> IPCAllocationHandle:
    return cls._init(df.detach(), uuid)


def reduce_buffer(Buffer buffer) -> tuple:
    """``Buffer.__reduce__``: (resource, descriptor), rebuilt by an IPC import. It holds after
    close, since multiprocessing may pickle a queued Buffer only after the sender closed it."""
    if buffer._ipc_data is None:
        export_buffer(buffer)
    cdef IPCDataForBuffer data = buffer._ipc_data
    return Buffer._reduce_helper, (data._mr, data._ipc_descriptor)
