# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Buffer and the MemoryResource interface: memory that goes back to its resource once.

The resources live beside this module (_memory_pool and the resources built on it, _legacy);
what they share with Buffer is declared in _buffer.pxd.
"""

import sys

cimport cython
cimport cuda.bindings.cydriver as cydriver
from cpython.buffer cimport PyBuffer_FillInfo
from libc.stdint cimport uintptr_t

from cuda.core._dlpack cimport export_bytes, kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged
from cuda.core._stream cimport Stream, as_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver

__all__ = ['Buffer', 'MemoryResource']


def __getattr__(name: str):
    # cuda.core.typing's DevicePointerType, the very object, made there at first use.
    if name == "DevicePointerType":
        from cuda.core import typing
        return typing.DevicePointerType
    raise AttributeError(f"module 'cuda.core._memory._buffer' has no attribute {name!r}")


cdef object _ipc = None


cdef object _ipc_module():
    # _ipc cimports this module, so it is imported at first use, not at load.
    global _ipc
    if _ipc is None:
        from cuda.core._memory import _ipc as module
        _ipc = module
    return _ipc


# ---------------------------------------------------------------------------------------------
# Streams and pointers, as the resources and buffers take them.

cdef Stream required_stream(object stream):
    if stream is None:
        raise TypeError("stream is required: pass a Stream (e.g. device.default_stream or "
                        "Device.create_stream()) or an object with __cuda_stream__")
    return as_stream(stream)


cdef Stream optional_stream(object stream):
    if stream is None:
        return None
    return as_stream(stream)


class _LegacyDefaultStream:
    """The legacy default stream through the stream protocol (CU_STREAM_LEGACY)."""

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, <uintptr_t>cydriver.CU_STREAM_LEGACY)


cdef object _default_stream_factory = None


cdef Stream default_stream_object():
    global _default_stream_factory
    if _default_stream_factory is None:
        try:
            from cuda.core._stream import default_stream
        except ImportError:
            # A cuda.core._stream without default_stream(): the legacy default stream.
            default_stream = _LegacyDefaultStream
        _default_stream_factory = default_stream
    return as_stream(_default_stream_factory())


cdef cydriver.CUdeviceptr pointer_value(object ptr) except? 0:
    if ptr is None:
        return 0
    try:
        return <cydriver.CUdeviceptr><uintptr_t>int(ptr)
    except (TypeError, ValueError):
        raise TypeError(f"a pointer is an int, a driver.CUdeviceptr or None, got {type(ptr).__name__}") from None


cdef bint _stream_is_open(Stream stream):
    try:
        stream._live_handle()
    except RuntimeError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# What kind of memory a Buffer holds: its resource says, or else the driver does.

cdef int _ask_driver(Buffer buffer) except -1:
    """Fill ``buffer._kind`` from the driver, once. Memory the driver does not know (pageable
    host memory) is host-only and bound to no device."""
    if buffer._kind.known:
        return 0
    cdef cydriver.CUdeviceptr ptr = buffer._ptr
    # Zeroed and wider than any of the attributes: each reads right whatever its width.
    cdef unsigned long long memory_type = 0
    cdef unsigned long long managed = 0
    cdef int ordinal = -1
    cdef cydriver.CUpointer_attribute attributes[3]
    cdef void* values[3]
    if ptr != 0:
        ensure_driver()
        attributes[0] = cydriver.CU_POINTER_ATTRIBUTE_MEMORY_TYPE
        attributes[1] = cydriver.CU_POINTER_ATTRIBUTE_IS_MANAGED
        attributes[2] = cydriver.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        values[0] = &memory_type
        values[1] = &managed
        values[2] = &ordinal
        with nogil:
            HANDLE_RETURN(cydriver.cuPointerGetAttributes(3, attributes, values, ptr))
    buffer._kind.driver_memory = memory_type != 0
    buffer._kind.host_memory = memory_type == cydriver.CU_MEMORYTYPE_HOST
    buffer._kind.managed = managed != 0
    buffer._kind.device_ordinal = ordinal if memory_type != 0 else -1
    buffer._kind.known = True
    return 0


cdef bint _is_device_accessible(Buffer buffer) except -1:
    mr = buffer._memory_resource
    if mr is not None:
        return bool(mr.is_device_accessible)
    _ask_driver(buffer)
    return buffer._kind.driver_memory


cdef bint _is_host_accessible(Buffer buffer) except -1:
    mr = buffer._memory_resource
    if mr is not None:
        return bool(mr.is_host_accessible)
    _ask_driver(buffer)
    return not buffer._kind.driver_memory or buffer._kind.host_memory or buffer._kind.managed


cdef bint buffer_is_managed(Buffer buffer) except -1:
    cdef MemoryResource mr = buffer._memory_resource
    if mr is not None:
        if mr.is_managed:
            return True
        # A resource of ours is exact; a user's may hand out managed memory without saying so
        # (cuMemAllocManaged behind a MemoryResource), which only the driver can tell.
        if mr._exact_kind or not (mr.is_device_accessible and mr.is_host_accessible):
            return False
    _ask_driver(buffer)
    return buffer._kind.managed


cdef tuple _dlpack_device(Buffer buffer):
    buffer._live_ptr()
    cdef bint on_device = _is_device_accessible(buffer)
    cdef bint on_host = _is_host_accessible(buffer)
    if on_device and not on_host:
        return (kDLCUDA, buffer.device_id)
    if on_device:
        return (kDLCUDAManaged if buffer_is_managed(buffer) else kDLCUDAHost, 0)
    if on_host:
        return (kDLCPU, 0)
    raise BufferError("buffer is neither device-accessible nor host-accessible")


# ---------------------------------------------------------------------------------------------
# Making and releasing buffers

cdef Buffer new_buffer(type cls, cydriver.CUdeviceptr ptr, size_t size, MemoryResource mr, Stream stream):
    cdef Buffer buffer = <Buffer>cls.__new__(cls)
    buffer._ptr = ptr
    buffer._size = size
    buffer._memory_resource = mr
    buffer._dealloc_stream = stream
    return buffer


cdef int _release(Buffer buffer, Stream stream) except -1:
    """Close ``buffer`` and give its memory back to its resource, once: the Buffer is closed
    before the resource is called, so a failing deallocate is never retried."""
    cdef MemoryResource mr = buffer._memory_resource
    cdef cydriver.CUdeviceptr ptr = buffer._ptr
    cdef size_t size = buffer._size
    buffer._closed = True
    buffer._ptr = 0
    buffer._size = 0
    buffer._memory_resource = None
    buffer._owner = None
    buffer._dealloc_stream = None
    buffer._kind.known = False
    if mr is None:
        return 0
    if buffer._holds > 0:  # a graph still uses the memory: the last _AllocationHold gives it back
        buffer._pending_release = (mr, ptr, size, stream)
        return 0
    return _give_back(mr, ptr, size, stream)


cdef int _give_back(MemoryResource mr, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
    if stream is not None and not _stream_is_open(stream):
        # The stream that ordered this memory was closed, and with it the order: wait for
        # all work of the current context, then free on the default stream.
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxSynchronize())
        stream = None
    if stream is None and not mr._exact_kind and mr.is_device_accessible:
        # A user's resource that reaches the device always gets a stream to order on.
        stream = default_stream_object()
    mr._deallocate(ptr, size, stream)
    return 0


cdef int _check_copy(Buffer src, Buffer dst) except -1:
    src._live_ptr()
    dst._live_ptr()
    if src._size != dst._size:
        raise ValueError(f"buffer sizes mismatch: cannot copy {src._size} bytes into a buffer of {dst._size}")
    return 0


cdef int _copy(Buffer dst, Buffer src, Stream stream) except -1:
    cdef cydriver.CUdeviceptr to = dst._live_ptr()
    cdef cydriver.CUdeviceptr source = src._live_ptr()
    cdef size_t size = src._size
    cdef cydriver.CUstream handle = stream._live_handle()
    if size:
        ensure_driver()
        with nogil:
            HANDLE_RETURN(cydriver.cuMemcpyAsync(to, source, size, handle))
    return 0


cdef int _refuse_copy_options(object options) except -1:
    if options is not None:
        raise NotImplementedError("copy options (CopyOptions transfer hints) are not supported by this "
                                  "cuda.core yet: pass options=None")
    return 0


cdef int _fill_host_view(Buffer buffer, Py_buffer* view, int flags, object exporter) except -1:
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    if not _is_host_accessible(buffer):
        raise BufferError("this Buffer's memory is not host-accessible: copy it to host memory first")
    PyBuffer_FillInfo(view, exporter, <void*><uintptr_t>ptr, <Py_ssize_t>buffer._size, 0, flags)
    return 0


@cython.final
cdef class _HostBytes:
    """The buffer-protocol exporter behind ``Buffer.__buffer__``: the Buffer's host bytes."""

    cdef Buffer _buffer

    def __getbuffer__(self, Py_buffer* view, int flags):
        _fill_host_view(self._buffer, view, flags, self)

    def __releasebuffer__(self, Py_buffer* view):
        pass


# ---------------------------------------------------------------------------------------------
# Buffer

@cython.no_gc_clear  # __dealloc__ needs _memory_resource: a cycle collection must not clear it first
cdef class Buffer:
    """Memory from a MemoryResource, or memory someone else owns (``Buffer.from_handle``).

    A Buffer gives its memory back to its resource exactly once: on ``close()``, at the end of
    a ``with`` block, or when it is garbage collected, ordered on its deallocation stream.
    Host-accessible memory is readable through the buffer protocol (``memoryview(buffer)``)
    and all of it through DLPack (``__dlpack__``)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Buffer objects are made by MemoryResource.allocate() or Buffer.from_handle()")

    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0:
        if self._closed:
            raise RuntimeError("Buffer has been closed")
        return self._ptr

    @classmethod
    def _init(cls, ptr, size_t size, mr=None, ipc_descriptor=None, owner=None, *, stream=None) -> Buffer:
        """A ``cls`` over ``size`` bytes at ``ptr``; see ``from_handle``."""
        if mr is not None and not isinstance(mr, MemoryResource):
            raise TypeError(f"mr must be a MemoryResource or None, got {type(mr).__name__}")
        if mr is not None and owner is not None:
            raise ValueError("mr and owner cannot be both specified together: mr frees the memory, "
                             "owner keeps someone else's alive")
        if ipc_descriptor is not None:
            # A pointer imported already; the descriptor lets the Buffer be sent on.
            ipc_data = _ipc_module().IPCDataForBuffer(ipc_descriptor, True, mr)
        cdef Stream ordered = None
        if stream is not None:
            ordered = as_stream(stream)
        elif mr is not None and mr.is_device_accessible:
            ordered = default_stream_object()
        cdef Buffer buffer = new_buffer(cls, pointer_value(ptr), size, mr, ordered)
        buffer._owner = owner
        if ipc_descriptor is not None:
            buffer._ipc_data = ipc_data
        return buffer

    @staticmethod
    def from_handle(ptr, size_t size, mr=None, owner=None, *, stream=None) -> Buffer:
        """A Buffer over ``size`` bytes at ``ptr`` (an int or driver.CUdeviceptr).

        With ``mr``, the Buffer owns the memory: ``mr.deallocate`` gets it back on close or
        collection, ordered on ``stream`` (default: the default stream, recorded now; none for
        a host-only ``mr``). With ``owner``, the Buffer keeps ``owner`` alive instead and frees
        nothing. With neither, it is a plain reference. ``mr`` and ``owner`` exclude each other."""
        return Buffer._init(ptr, size, mr, None, owner, stream=stream)

    @classmethod
    def from_ipc_descriptor(cls, mr, ipc_descriptor, *, stream) -> Buffer:
        """Import the buffer another process exported as ``ipc_descriptor``
        (``Buffer.ipc_descriptor``), through ``mr``, the resource that maps that process's
        pool here (``from_allocation_handle``). ``stream`` orders its release. The
        descriptor comes from the other process: import only those of trusted peers."""
        return _ipc_module().import_buffer(cls, mr, ipc_descriptor, stream)

    @staticmethod
    def _reduce_helper(mr, ipc_descriptor):
        return Buffer.from_ipc_descriptor(mr, ipc_descriptor, stream=default_stream_object())

    def __reduce__(self):
        # Only an IPC export travels: unpickling imports it (trusted peers only).
        return _ipc_module().reduce_buffer(self)

    @property
    def ipc_descriptor(self):
        """The descriptor that shares this buffer with other processes (buffers of
        IPC-enabled pools): ``Buffer.from_ipc_descriptor`` imports it there."""
        return _ipc_module().export_buffer(self)

    def close(self, stream=None) -> None:
        """Give the memory back to its resource, ordered on ``stream`` (None: the buffer's
        deallocation stream). A second close does nothing."""
        if self._closed:
            return
        cdef Stream ordered = self._dealloc_stream
        if stream is not None:
            ordered = as_stream(stream)
        _release(self, ordered)

    def set_deallocation_stream(self, stream) -> None:
        """Order the eventual deallocation on ``stream`` instead. Nothing is synchronized: the
        work that uses the buffer must be ordered before it on ``stream``."""
        self._live_ptr()
        self._dealloc_stream = required_stream(stream)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()

    def __dealloc__(self):
        if self._closed or self._memory_resource is None:
            return
        try:
            _release(self, self._dealloc_stream)
        except Exception:
            # At interpreter exit the driver may be gone, and a resource's error has nowhere to go.
            pass

    def copy_to(self, dst=None, *, stream, options=None) -> Buffer:
        """Copy these bytes into ``dst`` (None: a new buffer from this buffer's resource),
        ordered on ``stream``; returns ``dst``."""
        _refuse_copy_options(options)
        self._live_ptr()
        if dst is not None:
            if not isinstance(dst, Buffer):
                raise TypeError(f"dst must be a Buffer or None, got {type(dst).__name__}")
            _check_copy(self, dst)
        cdef Stream ordered = required_stream(stream)
        if dst is None:
            if self._memory_resource is None:
                raise ValueError("this Buffer has no memory resource to allocate the destination from: pass dst")
            dst = self._memory_resource.allocate(self._size, stream=ordered)
            if not isinstance(dst, Buffer):
                raise TypeError(f"{type(self._memory_resource).__name__}.allocate returned "
                                f"{type(dst).__name__}, not a Buffer")
            _check_copy(self, dst)
        _copy(dst, self, ordered)
        return dst

    def copy_from(self, src, *, stream, options=None) -> None:
        """Copy the bytes of ``src`` (a Buffer of the same size) into this one, ordered on ``stream``."""
        _refuse_copy_options(options)
        self._live_ptr()
        if not isinstance(src, Buffer):
            raise TypeError(f"src must be a Buffer, got {type(src).__name__}")
        _check_copy(src, self)
        _copy(self, src, required_stream(stream))

    def fill(self, value, *, stream) -> None:
        """Fill the buffer with ``value`` repeated, ordered on ``stream``: an int in [0, 256) is
        one byte; a buffer-protocol object of 1, 2 or 4 bytes (e.g. numpy.uint16(x),
        numpy.float32(x)) is that byte pattern, and the size must be a multiple of its width."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        cdef unsigned int pattern
        cdef size_t width
        if isinstance(value, int):
            if not 0 <= value < 256:
                raise OverflowError(f"an int fill value is one byte, in [0, 256): got {value}")
            pattern = value
            width = 1
        else:
            try:
                view = memoryview(value)
            except TypeError:
                raise TypeError(f"fill value must be an int or support the buffer protocol, "
                                f"got {type(value).__name__}") from None
            width = view.nbytes
            if width not in (1, 2, 4):
                raise ValueError(f"a fill pattern is 1, 2 or 4 bytes long, got {width}")
            pattern = int.from_bytes(view.tobytes(), sys.byteorder)
        if self._size % width:
            raise ValueError(f"buffer size {self._size} is not a multiple of the {width}-byte fill pattern")
        cdef size_t count = self._size // width
        cdef cydriver.CUstream handle = required_stream(stream)._live_handle()
        if count == 0:
            return
        ensure_driver()
        with nogil:
            if width == 1:
                HANDLE_RETURN(cydriver.cuMemsetD8Async(ptr, <unsigned char>pattern, count, handle))
            elif width == 2:
                HANDLE_RETURN(cydriver.cuMemsetD16Async(ptr, <unsigned short>pattern, count, handle))
            else:
                HANDLE_RETURN(cydriver.cuMemsetD32Async(ptr, pattern, count, handle))

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The bytes as a 1-D int8 DLPack tensor of ``size`` elements, never a copy.

        ``max_version`` >= (1, 0) gets a versioned capsule, else a legacy one. A Buffer holds
        no pending work of its own, so ``stream`` needs no synchronization."""
        self._live_ptr()
        if dl_device is not None:
            raise BufferError("Sorry, not supported: dl_device other than None")
        if copy is True:
            raise BufferError("Sorry, not supported: copy=True")
        cdef bint versioned = False
        if max_version is not None:
            if not (isinstance(max_version, tuple) and len(max_version) == 2):
                raise BufferError(f"Expected max_version tuple[int, int], got {max_version}")
            versioned = max_version[0] >= 1
        device_type, device_id = _dlpack_device(self)
        return export_bytes(self, <void*><uintptr_t>self._ptr, self._size, versioned, device_type, device_id)

    def __dlpack_device__(self) -> tuple[int, int]:
        """(DLPack device type, device id): kDLCUDA for device memory, kDLCUDAHost for pinned,
        kDLCUDAManaged for managed and kDLCPU for memory only the host reaches."""
        return _dlpack_device(self)

    def __getbuffer__(self, Py_buffer* view, int flags):
        _fill_host_view(self, view, flags, self)

    def __releasebuffer__(self, Py_buffer* view):
        pass

    def __buffer__(self, int flags, /) -> memoryview:
        """A writable memoryview of host-accessible memory (the buffer protocol)."""
        # Through a separate exporter: a Python subclass (ManagedBuffer) gets its buffer slot
        # from this method on Python 3.12+, so memoryview(self) here would call it again.
        cdef _HostBytes exporter = _HostBytes.__new__(_HostBytes)
        exporter._buffer = self
        return memoryview(exporter)

    def __release_buffer__(self, buffer: memoryview, /) -> None:
        """Release a view made by ``__buffer__``."""
        buffer.release()

    @property
    def device_id(self) -> int:
        """The device the memory belongs to: its resource's, else the driver's answer (-1 for
        memory the driver does not know)."""
        self._live_ptr()
        if self._memory_resource is not None:
            return self._memory_resource.device_id
        _ask_driver(self)
        return self._kind.device_ordinal

    @property
    def handle(self) -> int:
        """The address of the memory, as an int; 0 once the buffer is closed."""
        return <uintptr_t>self._ptr

    @property
    def is_closed(self) -> bool:
        """Whether the buffer was closed (its memory given back)."""
        return self._closed

    @property
    def is_device_accessible(self) -> bool:
        """Whether GPU kernels can reach the memory."""
        self._live_ptr()
        return _is_device_accessible(self)

    @property
    def is_host_accessible(self) -> bool:
        """Whether the CPU can reach the memory."""
        self._live_ptr()
        return _is_host_accessible(self)

    @property
    def is_managed(self) -> bool:
        """Whether the memory is CUDA managed (unified) memory."""
        self._live_ptr()
        return buffer_is_managed(self)

    @property
    def is_mapped(self) -> bool:
        """Whether the buffer was imported from another process (IPC)."""
        return self._ipc_data is not None and self._ipc_data.is_mapped

    @property
    def memory_resource(self) -> MemoryResource:
        """The resource the memory goes back to; None without one and once closed."""
        return self._memory_resource

    @property
    def size(self) -> int:
        """The size in bytes; 0 once closed."""
        return self._size

    @property
    def owner(self) -> object:
        """The object kept alive for ``Buffer.from_handle(..., owner=...)``; None otherwise."""
        return self._owner

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Buffer):
            return NotImplemented
        return self._ptr == (<Buffer>other)._ptr and self._size == (<Buffer>other)._size

    def __hash__(self) -> int:
        return hash((Buffer, <uintptr_t>self._ptr, self._size))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ptr={hex(<uintptr_t>self._ptr)} size={self._size}>"


# ---------------------------------------------------------------------------------------------
# The MemoryResource interface

cdef class MemoryResource:
    """The interface of memory resources: subclass it and define ``allocate``, ``deallocate``
    and the ``is_device_accessible``, ``is_host_accessible`` and ``device_id`` properties
    (``is_managed`` is False unless overridden).

    ``allocate`` makes its Buffers with ``Buffer.from_handle(ptr, size, mr=self)``; each such
    Buffer calls ``deallocate(ptr, size, stream=...)`` exactly once."""

    def __cinit__(self, *args, **kwargs):
        if type(self) is MemoryResource:
            raise TypeError("MemoryResource is abstract: subclass it and define allocate, deallocate, "
                            "is_device_accessible, is_host_accessible and device_id")

    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
        self.deallocate(<uintptr_t>ptr, size, stream=stream)
        return 0

    def allocate(self, size, *, stream) -> Buffer:
        """A Buffer of ``size`` bytes, allocated in the order of ``stream``."""
        raise NotImplementedError(f"{type(self).__name__} does not define allocate(size, *, stream)")

    def deallocate(self, ptr, size, *, stream) -> None:
        """Give back the ``size`` bytes at ``ptr``, in the order of ``stream``."""
        raise NotImplementedError(f"{type(self).__name__} does not define deallocate(ptr, size, *, stream)")

    @property
    def is_device_accessible(self) -> bool:
        """Whether its buffers are reachable from GPU kernels."""
        raise NotImplementedError(f"{type(self).__name__} does not define is_device_accessible")

    @property
    def is_host_accessible(self) -> bool:
        """Whether its buffers are reachable from the CPU."""
        raise NotImplementedError(f"{type(self).__name__} does not define is_host_accessible")

    @property
    def is_managed(self) -> bool:
        """Whether its buffers are CUDA managed (unified) memory: False unless overridden."""
        return False

    @property
    def device_id(self) -> int:
        """The device its memory belongs to, or -1 for none."""
        raise NotImplementedError(f"{type(self).__name__} does not define device_id")


def _allocation_is_live(Buffer buffer) -> bool:
    """Whether ``buffer``'s memory is still allocated: the Buffer is open, or it was closed
    while an _AllocationHold deferred giving the memory back (for _utils._weak_handles)."""
    return not buffer._closed or buffer._pending_release is not None


cdef class _AllocationHold:
    """Keeps a Buffer's memory allocated while this object lives: Buffer.close() meanwhile
    closes the Buffer but defers giving the memory back until the last hold goes."""

    def __cinit__(self, Buffer buffer):
        if buffer._closed:
            raise ValueError("the Buffer has no active allocation (it was closed)")
        buffer._holds += 1
        self._buffer = buffer

    def __dealloc__(self):
        cdef Buffer buffer = self._buffer
        if buffer is None:
            return
        self._buffer = None
        buffer._holds -= 1
        if buffer._holds > 0 or buffer._pending_release is None:
            return
        mr, ptr, size, stream = buffer._pending_release
        buffer._pending_release = None
        try:
            _give_back(mr, ptr, size, stream)
        except Exception:
            pass  # from a destructor (possibly at interpreter exit) an error has nowhere to go
