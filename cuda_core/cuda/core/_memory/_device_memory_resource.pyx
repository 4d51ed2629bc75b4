"""cuda.core DeviceMemoryResource: device memory from a device's stream-ordered memory pool."""

cimport cuda.bindings.cydriver as cydriver

from cuda.core._memory._buffer cimport (Buffer, MemoryResource, new_buffer, optional_stream, pointer_value,
                                        require_context, stream_handle)
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count

__all__ = ['DeviceMemoryResource']


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
        require_context(self._device_id)
        cdef Stream ordered = optional_stream(stream)
        cdef cydriver.CUstream handle = stream_handle(ordered)
        cdef cydriver.CUdeviceptr ptr = 0
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocFromPoolAsync(&ptr, size, self._pool, handle))
        return new_buffer(Buffer, ptr, size, self, ordered)

    def deallocate(self, ptr, size_t size, stream=None) -> None:
        """Free ``ptr`` back to the pool in the order of ``stream``."""
        cdef cydriver.CUdeviceptr address = pointer_value(ptr)
        if address == 0:
            return
        require_context(self._device_id)
        cdef cydriver.CUstream handle = stream_handle(optional_stream(stream))
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
