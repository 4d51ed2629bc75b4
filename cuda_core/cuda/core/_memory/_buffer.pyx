"""cuda.core Buffer and the MemoryResource interface: memory that goes back to its resource once.

The resources themselves live beside this module (_device_memory_resource, _legacy,
_managed_memory_resource); what they share with Buffer is declared in _buffer.pxd.
"""

cimport cython
cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t

from cuda.core._dlpack cimport export_bytes, kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged
from cuda.core._stream cimport Stream, as_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver

__all__ = ['Buffer', 'MemoryResource']


# ---------------------------------------------------------------------------------------------
# Helpers shared by the buffers and the resources.

cdef int require_context(int device_hint) except -1:
    """Load the driver, then refuse clearly when this thread has no current context."""
    ensure_driver()
    if current_device() < 0:
        raise RuntimeError(f"no CUDA context is current on this thread: call "
                           f"Device({max(device_hint, 0)}).set_current() first")
    return 0


cdef Stream optional_stream(object stream):
    """None for None (the legacy default stream), else the Stream for a Stream or a
    ``__cuda_stream__`` object."""
    if stream is None:
        return None
    return as_stream(stream)


cdef Stream required_stream(object stream):
    if stream is None:
        raise TypeError("stream is required: pass a Stream (e.g. Device.create_stream()) "
                        "or an object with __cuda_stream__")
    return as_stream(stream)


cdef cydriver.CUstream stream_handle(Stream stream) except? <cydriver.CUstream>1:
    if stream is None:
        return NULL
    return stream._live_handle()


cdef cydriver.CUdeviceptr pointer_value(object ptr) except? 0:
    """The address of an int or of an object that converts to one (e.g. driver.CUdeviceptr)."""
    if ptr is None:
        return 0
    return <cydriver.CUdeviceptr>int(ptr)


cdef int _pointer_device_type(cydriver.CUdeviceptr ptr) except -1:
    """The DLPack device type of memory the driver is asked about; kDLCPU for memory it does
    not know (ordinary pageable host memory)."""
    cdef unsigned long long memory_type = 0  # wider than the attribute, zeroed: any width reads right
    cdef unsigned long long managed = 0
    cdef cydriver.CUresult result
    require_context(0)
    with nogil:
        result = cydriver.cuPointerGetAttribute(&memory_type, cydriver.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr)
    if result == cydriver.CUDA_ERROR_INVALID_VALUE:
        return kDLCPU
    HANDLE_RETURN(result)
    with nogil:
        HANDLE_RETURN(cydriver.cuPointerGetAttribute(&managed, cydriver.CU_POINTER_ATTRIBUTE_IS_MANAGED, ptr))
    if managed:
        return kDLCUDAManaged
    return kDLCUDAHost if memory_type == cydriver.CU_MEMORYTYPE_HOST else kDLCUDA


cdef int _pointer_device_id(cydriver.CUdeviceptr ptr) except -2:
    """The device of device memory the driver knows; -1 for host, pinned and managed memory."""
    cdef int ordinal = -1
    if _pointer_device_type(ptr) != kDLCUDA:
        return -1
    with nogil:
        HANDLE_RETURN(cydriver.cuPointerGetAttribute(&ordinal, cydriver.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr))
    return ordinal


cdef int _dlpack_device_type(Buffer buffer) except -1:
    mr = buffer._memory_resource
    if mr is None:
        return _pointer_device_type(buffer._ptr)
    if not mr.is_device_accessible:
        return kDLCPU
    if not mr.is_host_accessible:
        return kDLCUDA
    # Reachable from both sides: the driver tells pinned from managed.
    return kDLCUDAManaged if _pointer_device_type(buffer._ptr) == kDLCUDAManaged else kDLCUDAHost


cdef Buffer new_buffer(type cls, cydriver.CUdeviceptr ptr, size_t size, object mr, Stream stream):
    cdef Buffer buffer = <Buffer>cls.__new__(cls)
    buffer._ptr = ptr
    buffer._size = size
    buffer._memory_resource = mr
    buffer._dealloc_stream = stream
    buffer._closed = False
    return buffer


cdef int _release(Buffer buffer, Stream stream) except -1:
    """Give the memory back to its resource, once: the Buffer is closed before the call."""
    mr = buffer._memory_resource
    buffer._closed = True
    buffer._dealloc_stream = None
    if mr is None:
        return 0
    if stream is not None and stream._closed:
        # The stream that ordered this memory is gone, and with it the order: wait for all
        # work of the current context instead, then free unordered.
        ensure_driver()
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxSynchronize())
        stream = None
    mr.deallocate(<uintptr_t>buffer._ptr, buffer._size, stream)
    return 0


cdef int _copy(Buffer dst, Buffer src, Stream stream) except -1:
    cdef cydriver.CUdeviceptr to = dst._live_ptr()
    cdef cydriver.CUdeviceptr source = src._live_ptr()
    cdef size_t size = src._size
    cdef cydriver.CUstream handle = stream._live_handle()
    if size:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemcpyAsync(to, source, size, handle))
    return 0


# ---------------------------------------------------------------------------------------------
# Buffer

@cython.no_gc_clear  # __dealloc__ needs _memory_resource: a cycle collection must not clear it first
cdef class Buffer:
    """Memory allocated by a MemoryResource (or wrapped with ``Buffer.from_handle``).

    The Buffer gives its memory back to the resource once: on ``close()``, or when it is
    garbage collected. Its bytes can be shared with DLPack consumers (``numpy.from_dlpack``
    for host-accessible memory)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Buffer objects are made by MemoryResource.allocate() or Buffer.from_handle()")

    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0:
        if self._closed:
            raise RuntimeError("this Buffer is closed")
        return self._ptr

    @classmethod
    def from_handle(cls, ptr, size_t size, mr=None) -> Buffer:
        """Wrap existing memory at ``ptr`` of ``size`` bytes. With ``mr`` None the Buffer owns
        nothing; otherwise it is given back through ``mr.deallocate`` when closed."""
        if mr is not None and not isinstance(mr, MemoryResource):
            raise TypeError(f"mr must be a MemoryResource or None, got {type(mr).__name__}")
        return new_buffer(cls, pointer_value(ptr), size, mr, None)

    @property
    def handle(self) -> int:
        """The address of the memory, as an int."""
        return <uintptr_t>self._live_ptr()

    @property
    def size(self) -> int:
        """The size in bytes."""
        self._live_ptr()
        return self._size

    @property
    def memory_resource(self) -> MemoryResource | None:
        """The resource this memory came from and goes back to; None for a wrapped handle."""
        self._live_ptr()
        return self._memory_resource

    @property
    def device_id(self) -> int:
        """The device the memory lives on; -1 when it is not bound to one device."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        if self._memory_resource is not None:
            return self._memory_resource.device_id
        return _pointer_device_id(ptr)

    @property
    def is_device_accessible(self) -> bool:
        """Whether kernels can read and write this memory."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        if self._memory_resource is not None:
            return bool(self._memory_resource.is_device_accessible)
        return _pointer_device_type(ptr) != kDLCPU

    @property
    def is_host_accessible(self) -> bool:
        """Whether the host (CPU) can read and write this memory."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        if self._memory_resource is not None:
            return bool(self._memory_resource.is_host_accessible)
        return _pointer_device_type(ptr) != kDLCUDA

    def copy_to(self, dst=None, *, stream) -> Buffer:
        """Copy these bytes into ``dst`` (a new Buffer from this Buffer's resource when None),
        ordered on ``stream``; returns ``dst``."""
        self._live_ptr()
        if dst is not None:
            if not isinstance(dst, Buffer):
                raise TypeError(f"dst must be a Buffer or None, got {type(dst).__name__}")
            _check_same_size(self, dst)
        require_context(0)
        cdef Stream ordered = required_stream(stream)
        if dst is None:
            if self._memory_resource is None:
                raise ValueError("this Buffer has no memory resource to allocate a destination from: pass dst")
            dst = self._memory_resource.allocate(self._size, ordered)
            if not isinstance(dst, Buffer):
                raise TypeError(f"{type(self._memory_resource).__name__}.allocate returned "
                                f"{type(dst).__name__}, not a Buffer")
            _check_same_size(self, dst)
        _copy(dst, self, ordered)
        return dst

    def copy_from(self, src, *, stream) -> None:
        """Copy the bytes of ``src`` (of the same size) into this Buffer, ordered on ``stream``."""
        self._live_ptr()
        if not isinstance(src, Buffer):
            raise TypeError(f"src must be a Buffer, got {type(src).__name__}")
        _check_same_size(src, self)
        require_context(0)
        _copy(self, src, required_stream(stream))

    def close(self, stream=None) -> None:
        """Give the memory back to its resource, ordered on ``stream`` (None: the stream it was
        allocated on); a second close does nothing."""
        if self._closed:
            return
        cdef Stream ordered = self._dealloc_stream
        if stream is not None and self._memory_resource is not None:
            ensure_driver()
            ordered = as_stream(stream)
        _release(self, ordered)

    def __dealloc__(self):
        if self._closed or self._memory_resource is None:
            return
        try:
            _release(self, self._dealloc_stream)
        except Exception:
            # At interpreter exit the driver may be gone: nothing useful can be done here.
            pass

    def __dlpack_device__(self) -> tuple[int, int]:
        """(DLPack device type, device id): kDLCUDA for device memory, kDLCUDAHost for pinned,
        kDLCUDAManaged for managed, kDLCPU for memory only the host can reach."""
        self._live_ptr()
        cdef int device_type = _dlpack_device_type(self)
        return (device_type, self.device_id if device_type == kDLCUDA else 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export the bytes as a 1-D int8 DLPack tensor of length ``size``, without a copy.

        ``max_version`` >= (1, 0) gets a versioned capsule, else a legacy one. A Buffer holds
        no pending work of its own, so ``stream`` needs no synchronization and is accepted
        as is. Pinned or managed memory is exported as kDLCPU when ``dl_device`` asks for it."""
        self._live_ptr()
        if copy:
            raise BufferError("copy=True is not supported: a Buffer exports its own memory, never a copy")
        device_type, device_id = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != (device_type, device_id):
            if tuple(dl_device) == (kDLCPU, 0) and device_type in (kDLCUDAHost, kDLCUDAManaged):
                device_type, device_id = kDLCPU, 0
            else:
                raise BufferError(f"this Buffer lives on DLPack device {(device_type, device_id)} and "
                                  f"cannot be exported to {tuple(dl_device)} without a copy")
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        return export_bytes(self, <void*><uintptr_t>self._ptr, self._size, versioned, device_type, device_id)

    def __repr__(self) -> str:
        if self._closed:
            return f"<{type(self).__name__} closed>"
        return f"<{type(self).__name__} of {self._size} bytes at {hex(<uintptr_t>self._ptr)}>"


cdef int _check_same_size(Buffer src, Buffer dst) except -1:
    src._live_ptr()
    dst._live_ptr()
    if src._size != dst._size:
        raise ValueError(f"buffer sizes differ: cannot copy {src._size} bytes into a buffer of {dst._size}")
    return 0


# ---------------------------------------------------------------------------------------------
# The MemoryResource interface, and the base of the host-visible resources

cdef class MemoryResource:
    """The interface of memory resources: subclass it and define ``allocate``, ``deallocate``
    and the ``is_device_accessible``, ``is_host_accessible`` and ``device_id`` properties.

    A subclass's ``allocate`` makes its Buffers with ``Buffer.from_handle(ptr, size, mr=self)``;
    each Buffer then calls ``deallocate(ptr, size, stream)`` exactly once."""

    def __cinit__(self, *args, **kwargs):
        if type(self) is MemoryResource:
            raise TypeError("MemoryResource is abstract: subclass it and define allocate, deallocate, "
                            "is_device_accessible, is_host_accessible and device_id")

    def allocate(self, size_t size, stream=None) -> Buffer:
        """A Buffer of ``size`` bytes, allocated in the order of ``stream``."""
        raise NotImplementedError(f"{type(self).__name__} does not define allocate(size, stream=None)")

    def deallocate(self, ptr, size_t size, stream=None) -> None:
        """Give back the ``size`` bytes at ``ptr``, in the order of ``stream``."""
        raise NotImplementedError(f"{type(self).__name__} does not define deallocate(ptr, size, stream=None)")

    @property
    def is_device_accessible(self) -> bool:
        raise NotImplementedError(f"{type(self).__name__} does not define is_device_accessible")

    @property
    def is_host_accessible(self) -> bool:
        raise NotImplementedError(f"{type(self).__name__} does not define is_host_accessible")

    @property
    def device_id(self) -> int:
        raise NotImplementedError(f"{type(self).__name__} does not define device_id")


cdef int _sync_stream(object stream) except -1:
    """Wait for ``stream`` (nothing for None): memory freed unordered must be idle first."""
    cdef cydriver.CUstream handle = stream_handle(optional_stream(stream))
    if handle != NULL:
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamSynchronize(handle))
    return 0


cdef class HostVisibleResource(MemoryResource):
    """What pinned and managed memory share: reachable from the host and every device, bound
    to no device (device_id -1), freed unordered once the Buffer's stream (if any) is idle."""

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        raise NotImplementedError

    def deallocate(self, ptr, size_t size, stream=None) -> None:
        """Wait for ``stream`` (if any), then free ``ptr``."""
        cdef cydriver.CUdeviceptr address = pointer_value(ptr)
        if address == 0:
            return
        require_context(0)
        _sync_stream(stream)
        self._free(address)

    @property
    def device_id(self) -> int:
        """-1: this memory is not bound to one device."""
        return -1

    @property
    def is_device_accessible(self) -> bool:
        return True

    @property
    def is_host_accessible(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"
