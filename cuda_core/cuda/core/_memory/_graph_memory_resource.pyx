# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core GraphMemoryResource: device memory allocated by CUDA graphs.

An allocation made while a stream is captured (cuMemAllocAsync on the capturing stream)
becomes a memory-allocation node of the graph: the memory exists while the graph runs, from
the device's graph memory pool. Its free is a free node when captured too, else
cuMemFreeAsync or cuMemFree after the graph ran. There is one resource per device.
"""

cimport cuda.bindings.cydriver as cydriver

from cuda.core._memory._buffer cimport Buffer, MemoryResource, new_buffer, pointer_value, required_stream
from cuda.core._memory._memory_pool cimport device_ordinal
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver

__all__ = ['GraphMemoryResource']


cdef cydriver.cuuint64_t _get(int device_id, cydriver.CUgraphMem_attribute attribute) except? 0:
    cdef cydriver.cuuint64_t value = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetGraphMemAttribute(device_id, attribute, &value))
    return value


cdef int _reset_high(int device_id, cydriver.CUgraphMem_attribute attribute, str name, object value) except -1:
    """Reset a high watermark to the current usage: the only value the driver accepts is 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value != 0:
        raise AttributeError(f"Attribute {name!r} may only be set to zero (got {value!r}).")
    cdef cydriver.cuuint64_t zero = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceSetGraphMemAttribute(device_id, attribute, &zero))
    return 0


cdef class GraphMemoryResourceAttributes:
    """How much graph memory a device has reserved and uses (now and at its high watermarks,
    which can be reset to the current value by setting them to 0)."""

    cdef int _device_id

    def __init__(self, *args, **kwargs):
        raise RuntimeError("GraphMemoryResourceAttributes cannot be instantiated directly: use "
                           "GraphMemoryResource.attributes")

    @classmethod
    def _init(cls, device_id: int) -> GraphMemoryResourceAttributes:
        cdef GraphMemoryResourceAttributes attributes = cls.__new__(cls)
        attributes._device_id = device_id
        return attributes

    def __repr__(self) -> str:
        return (f"GraphMemoryResourceAttributes(reserved_mem_current={self.reserved_mem_current}, "
                f"reserved_mem_high={self.reserved_mem_high}, used_mem_current={self.used_mem_current}, "
                f"used_mem_high={self.used_mem_high})")

    @property
    def reserved_mem_current(self) -> int:
        """Bytes of device memory reserved for graph allocations now."""
        return _get(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT)

    @property
    def reserved_mem_high(self) -> int:
        """The most bytes ever reserved for graph allocations; set to 0 to reset it."""
        return _get(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)

    @reserved_mem_high.setter
    def reserved_mem_high(self, value) -> None:
        _reset_high(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, "reserved_mem_high", value)

    @property
    def used_mem_current(self) -> int:
        """Bytes of graph memory in use now (allocated by graphs and not freed)."""
        return _get(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT)

    @property
    def used_mem_high(self) -> int:
        """The most bytes of graph memory ever in use; set to 0 to reset it."""
        return _get(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)

    @used_mem_high.setter
    def used_mem_high(self, value) -> None:
        _reset_high(self._device_id, cydriver.CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, "used_mem_high", value)


cdef int _check_capturing(Stream stream) except -1:
    cdef cydriver.CUstream handle = stream._live_handle()
    cdef cydriver.CUstreamCaptureStatus status = cydriver.CU_STREAM_CAPTURE_STATUS_NONE
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuStreamIsCapturing(handle, &status))
    if status != cydriver.CU_STREAM_CAPTURE_STATUS_ACTIVE:
        raise RuntimeError("GraphMemoryResource cannot perform memory operations on a non-capturing stream. "
                           "Allocate while building a graph: pass the GraphBuilder (or its stream) as stream.")
    return 0


cdef class cyGraphMemoryResource(MemoryResource):
    """The device's graph memory: allocations are captured into the graph being built."""

    def __cinit__(self, *args, **kwargs):
        self._exact_kind = True

    def __init__(self, device_id):
        self._device_id = device_ordinal(device_id)

    def allocate(self, size, *, stream) -> Buffer:
        """A Buffer of ``size`` bytes allocated by the graph being captured on ``stream`` (a
        GraphBuilder that is building, or its stream): the memory exists once the graph has
        run that allocation. A stream not capturing is a RuntimeError."""
        cdef size_t nbytes = size
        cdef Stream ordered = required_stream(stream)
        _check_capturing(ordered)
        cdef int stream_device = ordered._current_device_id()
        if stream_device != self._device_id:
            raise ValueError(f"GraphMemoryResource of device {self._device_id} cannot allocate in a capture on a "
                             f"stream of device {stream_device}: use GraphMemoryResource({stream_device})")
        cdef cydriver.CUstream handle = ordered._live_handle()
        cdef cydriver.CUdeviceptr ptr = 0
        if nbytes:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocAsync(&ptr, nbytes, handle))
        buffer = new_buffer(Buffer, ptr, nbytes, self, ordered)
        if ordered is not stream and hasattr(stream, "_keep_alive"):
            # A GraphBuilder: the buffer lives as long as its graphs, so that dropping it never
            # frees memory the graph has not allocated yet.
            stream._keep_alive(buffer)
        return buffer

    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
        cdef cydriver.CUstream handle
        if ptr == 0:
            return 0
        ensure_driver()
        if stream is None:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemFree(ptr))
            return 0
        handle = stream._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFreeAsync(ptr, handle))
        return 0

    def deallocate(self, ptr, size, *, stream) -> None:
        """Free ``ptr`` in the order of ``stream``: a free node when ``stream`` is capturing,
        else once the work queued on ``stream`` is done (the graph must have allocated it)."""
        self._deallocate(pointer_value(ptr), size, required_stream(stream))

    def close(self) -> None:
        """Nothing to close: the device's graph memory pool belongs to the driver."""

    def trim(self) -> None:
        """Give the graph memory the device has reserved but does not use back to the system."""
        cdef cydriver.CUdevice device = self._device_id
        ensure_driver()
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGraphMemTrim(device))

    @property
    def attributes(self) -> GraphMemoryResourceAttributes:
        """The device's graph memory usage (reserved and used, now and at their highs)."""
        return GraphMemoryResourceAttributes._init(self._device_id)

    @property
    def device_id(self) -> int:
        """The device whose graph memory this is."""
        return self._device_id

    @property
    def is_device_accessible(self) -> bool:
        """True: graph memory is device memory."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """False: graph memory is device memory only."""
        return False

    def __repr__(self) -> str:
        return f"<GraphMemoryResource device_id={self._device_id}>"


# One resource per device ordinal: GraphMemoryResource(device) is always the same object.
cdef dict _resources = {}


class GraphMemoryResource(cyGraphMemoryResource):
    """Device memory allocated inside CUDA graphs, one resource per device: allocate() while
    a GraphBuilder is building (``stream=gb``) adds an allocation node to its graph. Outside
    a capture it refuses (RuntimeError); conversely DeviceMemoryResource cannot allocate in
    a capture. ``device_id`` is a Device or an ordinal."""

    def __new__(cls, device_id):
        ordinal = device_ordinal(device_id)
        resource = _resources.get(ordinal)
        if resource is None:
            resource = cls._create(ordinal)
        return resource

    @classmethod
    def _create(cls, device_id: int) -> GraphMemoryResource:
        """The device's resource, made once."""
        resource = cyGraphMemoryResource.__new__(cls, device_id)
        (<cyGraphMemoryResource>resource)._device_id = device_id
        _resources[device_id] = resource
        return resource
