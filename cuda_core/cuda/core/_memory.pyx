"""cuda.core memory: Buffer, the MemoryResource interface, the driver's resources (stream-ordered
device pools, pinned host memory, managed memory) and DLPack export of a Buffer's bytes."""

from collections.abc import Iterable, MutableSet

cimport cython
cimport cuda.bindings.cydriver as cydriver
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
from cpython.ref cimport PyObject, Py_XDECREF, Py_XINCREF
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc

from cuda.core._stream cimport Stream, as_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, device_count, ensure_driver

# compat_mem_prefetch, compat_mem_advise: a CUmemLocation on 13, a device ordinal on 12.
include "driver_compat.pxi"


# ---------------------------------------------------------------------------------------------
# DLPack, declared here from the DLPack specification (https://dmlc.github.io/dlpack/latest/).

# DLDeviceType values this module exports, and DLDataTypeCode kDLInt.
cdef enum:
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLCUDAManaged = 13
    kDLInt = 0


cdef struct DLDevice:
    int32_t device_type  # a DLDeviceType: a C enum, int-sized
    int32_t device_id


cdef struct DLDataType:
    uint8_t code
    uint8_t bits
    uint16_t lanes


cdef struct DLTensor:
    void* data
    DLDevice device
    int32_t ndim
    DLDataType dtype
    int64_t* shape
    int64_t* strides
    uint64_t byte_offset


cdef struct DLManagedTensor:
    DLTensor dl_tensor
    void* manager_ctx
    void (*deleter)(DLManagedTensor*) noexcept nogil


cdef struct DLPackVersion:
    uint32_t major
    uint32_t minor


cdef struct DLManagedTensorVersioned:
    DLPackVersion version
    void* manager_ctx
    void (*deleter)(DLManagedTensorVersioned*) noexcept nogil
    uint64_t flags
    DLTensor dl_tensor


# One allocation per export: the managed tensor first (so its address is the block's), then
# the 1-D shape and strides it points to.
cdef struct _LegacyExport:
    DLManagedTensor tensor
    int64_t shape
    int64_t stride


cdef struct _VersionedExport:
    DLManagedTensorVersioned tensor
    int64_t shape
    int64_t stride


cdef void _release_legacy(DLManagedTensor* tensor) noexcept nogil:
    # The consumer is done (from any thread, GIL held or not): let go of the Buffer, free the block.
    if tensor == NULL:
        return
    with gil:
        Py_XDECREF(<PyObject*>tensor.manager_ctx)
    free(tensor)


cdef void _release_versioned(DLManagedTensorVersioned* tensor) noexcept nogil:
    if tensor == NULL:
        return
    with gil:
        Py_XDECREF(<PyObject*>tensor.manager_ctx)
    free(tensor)


cdef void _legacy_capsule_gone(object capsule) noexcept:
    # A capsule still named "dltensor" was never consumed: deleting its tensor is still ours to do.
    if PyCapsule_IsValid(capsule, b"dltensor"):
        _release_legacy(<DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor"))


cdef void _versioned_capsule_gone(object capsule) noexcept:
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        _release_versioned(<DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned"))


cdef void _describe(DLTensor* tensor, Buffer buffer, int64_t* shape, int64_t* stride,
                    int device_type, int device_id) noexcept:
    # The Buffer's bytes as a 1-D, contiguous int8 tensor of length size.
    tensor.data = <void*><uintptr_t>buffer._ptr
    tensor.device.device_type = device_type
    tensor.device.device_id = device_id
    tensor.ndim = 1
    tensor.dtype.code = kDLInt
    tensor.dtype.bits = 8
    tensor.dtype.lanes = 1
    shape[0] = <int64_t>buffer._size
    stride[0] = 1
    tensor.shape = shape
    tensor.strides = stride
    tensor.byte_offset = 0


cdef object _export(Buffer buffer, bint versioned, int device_type, int device_id):
    """A DLPack capsule over the Buffer's bytes; the tensor holds a reference to the Buffer."""
    cdef _VersionedExport* new_block
    cdef _LegacyExport* old_block
    if versioned:
        new_block = <_VersionedExport*>malloc(sizeof(_VersionedExport))
        if new_block == NULL:
            raise MemoryError("no host memory left for a DLPack tensor descriptor")
        new_block.tensor.version.major = 1
        new_block.tensor.version.minor = 0
        new_block.tensor.flags = 0  # writable, and not a copy
        new_block.tensor.manager_ctx = <void*>buffer
        new_block.tensor.deleter = _release_versioned
        _describe(&new_block.tensor.dl_tensor, buffer, &new_block.shape, &new_block.stride,
                  device_type, device_id)
        Py_XINCREF(<PyObject*>buffer)
        try:
            return PyCapsule_New(new_block, b"dltensor_versioned", _versioned_capsule_gone)
        except BaseException:
            _release_versioned(&new_block.tensor)
            raise
    old_block = <_LegacyExport*>malloc(sizeof(_LegacyExport))
    if old_block == NULL:
        raise MemoryError("no host memory left for a DLPack tensor descriptor")
    old_block.tensor.manager_ctx = <void*>buffer
    old_block.tensor.deleter = _release_legacy
    _describe(&old_block.tensor.dl_tensor, buffer, &old_block.shape, &old_block.stride,
              device_type, device_id)
    Py_XINCREF(<PyObject*>buffer)
    try:
        return PyCapsule_New(old_block, b"dltensor", _legacy_capsule_gone)
    except BaseException:
        _release_legacy(&old_block.tensor)
        raise


# ---------------------------------------------------------------------------------------------
# Helpers shared by the buffers and the resources.

cdef int _require_context(int device_hint) except -1:
    """Load the driver, then refuse clearly when this thread has no current context."""
    ensure_driver()
    if current_device() < 0:
        raise RuntimeError(f"no CUDA context is current on this thread: call "
                           f"Device({max(device_hint, 0)}).set_current() first")
    return 0


cdef Stream _optional_stream(object stream):
    """None for None (the legacy default stream), else the Stream for a Stream or a
    ``__cuda_stream__`` object."""
    if stream is None:
        return None
    return as_stream(stream)


cdef Stream _required_stream(object stream):
    if stream is None:
        raise TypeError("stream is required: pass a Stream (e.g. Device.create_stream()) "
                        "or an object with __cuda_stream__")
    return as_stream(stream)


cdef cydriver.CUstream _handle_of(Stream stream) except? <cydriver.CUstream>1:
    if stream is None:
        return NULL
    return stream._live_handle()


cdef cydriver.CUdeviceptr _pointer_value(object ptr) except? 0:
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
    _require_context(0)
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
    if isinstance(mr, DeviceMemoryResource):
        return kDLCUDA
    if isinstance(mr, LegacyPinnedMemoryResource):
        return kDLCUDAHost
    if isinstance(mr, ManagedMemoryResource):
        return kDLCUDAManaged
    if not mr.is_device_accessible:
        return kDLCPU
    if not mr.is_host_accessible:
        return kDLCUDA
    # Reachable from both sides through someone else's resource: the driver tells pinned from managed.
    return kDLCUDAManaged if _pointer_device_type(buffer._ptr) == kDLCUDAManaged else kDLCUDAHost


cdef Buffer _new_buffer(type cls, cydriver.CUdeviceptr ptr, size_t size, object mr, Stream stream):
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
        return _new_buffer(cls, _pointer_value(ptr), size, mr, None)

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
        _require_context(0)
        cdef Stream ordered = _required_stream(stream)
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
        _require_context(0)
        _copy(self, src, _required_stream(stream))

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
        return _export(self, versioned, device_type, device_id)

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
# Memory resources

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


cdef int _device_ordinal(object device) except -1:
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


cdef class DeviceMemoryResource(MemoryResource):
    """Device memory from the device's default stream-ordered memory pool
    (cuMemAllocFromPoolAsync / cuMemFreeAsync). ``stream=None`` orders on the legacy default stream."""

    cdef int _device_id
    cdef cydriver.CUmemoryPool _pool

    def __init__(self, device_id, options=None):
        if options is not None:
            raise NotImplementedError("DeviceMemoryResource options (a new memory pool owned by the "
                                      "resource) are not supported: pass options=None for the default pool")
        cdef int ordinal = _device_ordinal(device_id)
        cdef cydriver.CUmemoryPool pool = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGetDefaultMemPool(&pool, ordinal))
        self._device_id = ordinal
        self._pool = pool

    def allocate(self, size_t size, stream=None) -> Buffer:
        """``size`` bytes of device memory, usable in the order of ``stream`` and freed on it."""
        _require_context(self._device_id)
        cdef Stream ordered = _optional_stream(stream)
        cdef cydriver.CUstream handle = _handle_of(ordered)
        cdef cydriver.CUdeviceptr ptr = 0
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocFromPoolAsync(&ptr, size, self._pool, handle))
        return _new_buffer(Buffer, ptr, size, self, ordered)

    def deallocate(self, ptr, size_t size, stream=None) -> None:
        """Free ``ptr`` back to the pool in the order of ``stream``."""
        cdef cydriver.CUdeviceptr address = _pointer_value(ptr)
        if address == 0:
            return
        _require_context(self._device_id)
        cdef cydriver.CUstream handle = _handle_of(_optional_stream(stream))
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFreeAsync(address, handle))

    @property
    def device_id(self) -> int:
        return self._device_id

    @property
    def is_device_accessible(self) -> bool:
        return True

    @property
    def is_host_accessible(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<DeviceMemoryResource of device {self._device_id}>"


cdef int _sync_stream(object stream) except -1:
    """Wait for ``stream`` (nothing for None): memory freed unordered must be idle first."""
    cdef cydriver.CUstream handle = _handle_of(_optional_stream(stream))
    if handle != NULL:
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamSynchronize(handle))
    return 0


cdef class _HostVisibleResource(MemoryResource):
    """What pinned and managed memory share: reachable from the host and every device, bound
    to no device (device_id -1), freed unordered once the Buffer's stream (if any) is idle."""

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        raise NotImplementedError

    def deallocate(self, ptr, size_t size, stream=None) -> None:
        """Wait for ``stream`` (if any), then free ``ptr``."""
        cdef cydriver.CUdeviceptr address = _pointer_value(ptr)
        if address == 0:
            return
        _require_context(0)
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


cdef class LegacyPinnedMemoryResource(_HostVisibleResource):
    """Page-locked host memory (cuMemAllocHost / cuMemFreeHost), reachable from host and devices.
    Freeing first waits for the Buffer's stream, if it has one."""

    def __init__(self):
        pass

    def allocate(self, size_t size, stream=None) -> Buffer:
        """``size`` bytes of pinned host memory; ``stream`` is the one waited for before freeing."""
        _require_context(0)
        cdef Stream ordered = _optional_stream(stream)
        cdef void* ptr = NULL
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocHost(&ptr, size))
        return _new_buffer(Buffer, <cydriver.CUdeviceptr><uintptr_t>ptr, size, self, ordered)

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFreeHost(<void*><uintptr_t>address))
        return 0


cdef class ManagedMemoryResource(_HostVisibleResource):
    """Managed (unified) memory, migrated between host and devices on demand
    (cuMemAllocManaged with CU_MEM_ATTACH_GLOBAL / cuMemFree). ``allocate`` returns
    ManagedBuffers. Freeing first waits for the Buffer's stream, if it has one."""

    def __init__(self, options=None):
        if options is not None:
            raise NotImplementedError("ManagedMemoryResource options (a managed memory pool) are not "
                                      "supported: pass options=None for cuMemAllocManaged memory")

    def allocate(self, size_t size, stream=None) -> ManagedBuffer:
        """``size`` bytes of managed memory; ``stream`` is the one waited for before freeing."""
        _require_context(0)
        cdef Stream ordered = _optional_stream(stream)
        cdef cydriver.CUdeviceptr ptr = 0
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocManaged(&ptr, size, cydriver.CU_MEM_ATTACH_GLOBAL))
        return _new_buffer(ManagedBuffer, ptr, size, self, ordered)

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFree(address))
        return 0


# ---------------------------------------------------------------------------------------------
# Managed memory: locations and advice

class Host:
    """The host (CPU) as a managed-memory location, the counterpart of ``Device``.

    ``Host()`` is the host as a whole (any NUMA node), one instance: ``Host() is Host()``.
    NUMA-specific hosts are not supported by this build."""

    __slots__ = ()

    def __new__(cls, numa_id: int | None = None, *, is_numa_current: bool = False) -> "Host":
        if numa_id is not None or is_numa_current:
            raise NotImplementedError(
                "Host(numa_id=...) and Host.numa_current() are not supported: CUDA 12's cuMemPrefetchAsync "
                "and cuMemAdvise name the host only as a whole (CU_DEVICE_CPU), and both majors share one "
                "API here, so use Host()")
        return _THE_HOST

    @classmethod
    def numa_current(cls) -> "Host":
        """The calling thread's NUMA node: not supported (see ``Host``)."""
        return cls(is_numa_current=True)

    @property
    def numa_id(self) -> int | None:
        """None: the host as a whole."""
        return None

    @property
    def is_numa_current(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "Host()"


_THE_HOST = object.__new__(Host)


cdef int _location_ordinal(object location) except -3:
    """-1 for Host(), the ordinal for a Device (or a device-ordinal int, -1 meaning the host)."""
    if isinstance(location, Host):
        return -1
    from cuda.core._device import Device
    if isinstance(location, Device):
        return location.device_id
    if isinstance(location, int) and not isinstance(location, bool) and location >= -1:
        return location
    raise TypeError(f"a managed-memory location is a Device or Host(), got {location!r}")


cdef object _location_of(int ordinal):
    """Device(n) for n >= 0, Host() for CU_DEVICE_CPU, None for CU_DEVICE_INVALID."""
    if ordinal == cydriver.CU_DEVICE_CPU:
        return _THE_HOST
    if ordinal < 0:
        return None
    from cuda.core._device import Device
    return Device(ordinal)


cdef int _range_attribute(Buffer buffer, cydriver.CUmem_range_attribute attribute) except? -3:
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    cdef int value = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(&value, sizeof(int), attribute, ptr, size))
    return value


cdef int _advise(Buffer buffer, cydriver.CUmem_advise advice, int ordinal) except -1:
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    ensure_driver()
    with nogil:
        HANDLE_RETURN(compat_mem_advise(ptr, size, advice, ordinal))
    return 0


cdef list _accessed_by(Buffer buffer):
    """The locations advised to access the whole range (one slot per device, plus the host)."""
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    cdef size_t slots = device_count() + 1
    cdef int* ordinals = <int*>malloc(slots * sizeof(int))
    if ordinals == NULL:
        raise MemoryError("no host memory left to query accessed-by advice")
    try:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(
                ordinals, slots * sizeof(int), cydriver.CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr, size))
        return [_location_of(ordinals[i]) for i in range(slots) if ordinals[i] != cydriver.CU_DEVICE_INVALID]
    finally:
        free(ordinals)


class _AccessedBy(MutableSet):
    """The live set of locations advised to access a ManagedBuffer: ``add`` and ``discard``
    give the advice, reading asks the driver."""

    __slots__ = ("_buffer",)

    def __init__(self, buffer) -> None:
        self._buffer = buffer

    def __contains__(self, location) -> bool:
        return location in _accessed_by(self._buffer)

    def __iter__(self):
        return iter(_accessed_by(self._buffer))

    def __len__(self) -> int:
        return len(_accessed_by(self._buffer))

    def add(self, location) -> None:
        _advise(self._buffer, cydriver.CU_MEM_ADVISE_SET_ACCESSED_BY, _location_ordinal(location))

    def discard(self, location) -> None:
        _advise(self._buffer, cydriver.CU_MEM_ADVISE_UNSET_ACCESSED_BY, _location_ordinal(location))

    def __repr__(self) -> str:
        return f"accessed_by({_accessed_by(self._buffer)!r})"


@cython.no_gc_clear
cdef class ManagedBuffer(Buffer):
    """A Buffer of managed memory, with prefetching and the driver's usage advice as properties.
    Locations are a ``Device`` or ``Host()``."""

    def prefetch(self, location, *, stream) -> None:
        """Migrate the memory to ``location`` (a Device or Host()), ordered on ``stream``."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        cdef size_t size = self._size
        cdef int ordinal = _location_ordinal(location)
        _require_context(max(ordinal, 0))
        cdef cydriver.CUstream handle = _required_stream(stream)._live_handle()
        with nogil:
            HANDLE_RETURN(compat_mem_prefetch(ptr, size, ordinal, handle))

    @property
    def read_mostly(self) -> bool:
        """Whether the memory is advised as mostly read (read-only copies may be made per processor)."""
        return _range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY) != 0

    @read_mostly.setter
    def read_mostly(self, value: bool) -> None:
        advice = cydriver.CU_MEM_ADVISE_SET_READ_MOSTLY if value else cydriver.CU_MEM_ADVISE_UNSET_READ_MOSTLY
        _advise(self, advice, 0)  # the location is ignored for this advice

    @property
    def preferred_location(self):
        """The advised home of the memory: a Device, Host(), or None (no preference); None unsets."""
        return _location_of(_range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION))

    @preferred_location.setter
    def preferred_location(self, location) -> None:
        if location is None:
            _advise(self, cydriver.CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 0)
        else:
            _advise(self, cydriver.CU_MEM_ADVISE_SET_PREFERRED_LOCATION, _location_ordinal(location))

    @property
    def last_prefetch_location(self):
        """Where the last explicit prefetch of the whole range was sent (a Device or Host()), or
        None when some page never was. It names the request, not where pages are now."""
        return _location_of(_range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION))

    @property
    def accessed_by(self) -> _AccessedBy:
        """The live set of locations advised to access this memory (``add``/``discard``)."""
        self._live_ptr()
        return _AccessedBy(self)

    @accessed_by.setter
    def accessed_by(self, locations: Iterable) -> None:
        wanted = list(locations)
        view = _AccessedBy(self)
        for location in list(view):
            if location not in wanted:
                view.discard(location)
        for location in wanted:
            view.add(location)
