# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Memory resources over the driver's synchronous allocators: LegacyPinnedMemoryResource
(cuMemAllocHost) and the internal _SynchronousMemoryResource (cuMemAlloc)."""

cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t

from cuda.core._memory._buffer cimport (Buffer, MemoryResource, new_buffer, optional_stream, pointer_value)
from cuda.core._memory._memory_pool cimport device_ordinal
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver

__all__ = ['LegacyPinnedMemoryResource']


cdef int _sync(Stream stream) except -1:
    """Wait for ``stream`` (nothing for None): memory freed unordered must be idle first."""
    cdef cydriver.CUstream handle
    if stream is not None:
        handle = stream._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamSynchronize(handle))
    return 0


cdef class _SynchronousResource(MemoryResource):
    """What the synchronous resources share: allocation ignores the stream (after checking
    it), freeing first waits for the stream it is given."""

    def __cinit__(self, *args, **kwargs):
        self._exact_kind = True

    cdef cydriver.CUdeviceptr _alloc(self, size_t size) except? 0:
        raise NotImplementedError

    cdef int _free(self, cydriver.CUdeviceptr ptr) except -1:
        raise NotImplementedError

    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
        if type(self).deallocate is not _SynchronousResource.deallocate:
            # A Python subclass took over deallocate.
            return MemoryResource._deallocate(self, ptr, size, stream)
        _sync(stream)
        if ptr != 0:
            self._free(ptr)
        return 0

    def allocate(self, size, *, stream=None) -> Buffer:
        """``size`` bytes, allocated at once; ``stream`` (optional) is checked, then unused."""
        cdef size_t nbytes = size
        optional_stream(stream)
        cdef cydriver.CUdeviceptr ptr = 0
        if nbytes:
            ensure_driver()
            ptr = self._alloc(nbytes)
        return new_buffer(Buffer, ptr, nbytes, self, None)

    def deallocate(self, ptr, size, *, stream=None) -> None:
        """Free ``ptr``, after waiting for ``stream`` if one is given."""
        cdef cydriver.CUdeviceptr address = pointer_value(ptr)
        _sync(optional_stream(stream))
        if address != 0 and size:
            ensure_driver()
            self._free(address)


cdef class LegacyPinnedMemoryResource(_SynchronousResource):
    """Page-locked host memory from cuMemAllocHost, reachable from the host and every device.
    Allocation is not stream-ordered; freeing waits for the buffer's stream, if any."""

    def __init__(self):
        pass

    cdef cydriver.CUdeviceptr _alloc(self, size_t size) except? 0:
        cdef void* ptr = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuMemAllocHost(&ptr, size))
        return <cydriver.CUdeviceptr><uintptr_t>ptr

    cdef int _free(self, cydriver.CUdeviceptr ptr) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFreeHost(<void*><uintptr_t>ptr))
        return 0

    @property
    def is_device_accessible(self) -> bool:
        """True: every device reaches pinned memory."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """True: it is host memory."""
        return True

    @property
    def device_id(self) -> int:
        """Pinned memory is bound to no GPU: RuntimeError."""
        raise RuntimeError("a pinned memory resource is not bound to any GPU")

    def __repr__(self) -> str:
        return "<LegacyPinnedMemoryResource>"


cdef class _SynchronousMemoryResource(_SynchronousResource):
    """Device memory from cuMemAlloc (not stream-ordered), for one device."""

    cdef int _device_id

    def __init__(self, device_id):
        self._device_id = device_ordinal(device_id)

    cdef cydriver.CUdeviceptr _alloc(self, size_t size) except? 0:
        cdef cydriver.CUdeviceptr ptr = 0
        with nogil:
            HANDLE_RETURN(cydriver.cuMemAlloc(&ptr, size))
        return ptr

    cdef int _free(self, cydriver.CUdeviceptr ptr) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFree(ptr))
        return 0

    @property
    def is_device_accessible(self) -> bool:
        return True

    @property
    def is_host_accessible(self) -> bool:
        return False

    @property
    def device_id(self) -> int:
        return self._device_id
