"""cuda.core ManagedMemoryResource: managed (unified) memory from cuMemAllocManaged."""

cimport cuda.bindings.cydriver as cydriver

from cuda.core._memory._buffer cimport HostVisibleResource, new_buffer, optional_stream, require_context
from cuda.core._memory._managed_buffer cimport ManagedBuffer
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['ManagedMemoryResource']


cdef class ManagedMemoryResource(HostVisibleResource):
    """Managed (unified) memory, migrated between host and devices on demand
    (cuMemAllocManaged with CU_MEM_ATTACH_GLOBAL / cuMemFree). ``allocate`` returns
    ManagedBuffers. Freeing first waits for the Buffer's stream, if it has one."""

    def __init__(self, options=None):
        if options is not None:
            raise NotImplementedError("ManagedMemoryResource options (a managed memory pool) are not "
                                      "supported: pass options=None for cuMemAllocManaged memory")

    def allocate(self, size_t size, stream=None) -> ManagedBuffer:
        """``size`` bytes of managed memory; ``stream`` is the one waited for before freeing."""
        require_context(0)
        cdef Stream ordered = optional_stream(stream)
        cdef cydriver.CUdeviceptr ptr = 0
        if size:
            with nogil:
                HANDLE_RETURN(cydriver.cuMemAllocManaged(&ptr, size, cydriver.CU_MEM_ATTACH_GLOBAL))
        return new_buffer(ManagedBuffer, ptr, size, self, ordered)

    cdef int _free(self, cydriver.CUdeviceptr address) except -1:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemFree(address))
        return 0
