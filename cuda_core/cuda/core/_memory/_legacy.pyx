"""cuda.core LegacyPinnedMemoryResource: page-locked host memory from cuMemAllocHost."""

cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t

from cuda.core._memory._buffer cimport Buffer, HostVisibleResource, new_buffer, optional_stream, require_context
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['LegacyPinnedMemoryResource']


cdef class LegacyPinnedMemoryResource(HostVisibleResource):
    """Page-locked host memory (cuMemAllocHost / cuMemFreeHost), reachable from host and devices.
    Freeing first waits for the Buffer's stream, if it has one."""

    def __init__(self):
        pass

    def allocate(self, size_t size, stream=None) -> Buffer:
        """``size`` bytes of pinned host memory; ``stream`` is the one waited for before freeing."""
        require_context(0)
        cdef Stream ordered = optional_stream(stream)
        cdef void* ptr = NULL
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocHost(&ptr, size))
        return new_buffer(Buffer, <cydriver.CUdeviceptr><uintptr_t>ptr, size, self, ordered)

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFreeHost(<void*><uintptr_t>address))
        return 0
