cimport cuda.bindings.cydriver as cydriver
from cuda.core._stream cimport Stream


cdef class Buffer:
    cdef cydriver.CUdeviceptr _ptr
    cdef size_t _size
    cdef object _memory_resource  # None for a Buffer.from_handle() that owns nothing
    cdef object _dealloc_stream   # the Stream whose order frees it, or None
    cdef bint _closed

    # The pointer, or an error when the buffer is closed.
    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0


cdef class MemoryResource:
    pass


# What pinned and managed memory share: reachable from the host and every device, bound to
# no device, freed unordered once the Buffer's stream (if any) is idle. Subclasses free in _free.
cdef class HostVisibleResource(MemoryResource):
    cdef int _free(self, cydriver.CUdeviceptr address) except -1


# A new Buffer (of class ``cls``) over ``size`` bytes at ``ptr``, given back to ``mr`` in the
# order of ``stream`` (None: unordered).
cdef Buffer new_buffer(type cls, cydriver.CUdeviceptr ptr, size_t size, object mr, Stream stream)

# Load the driver, then refuse clearly when this thread has no current context.
cdef int require_context(int device_hint) except -1

# None for None (the legacy default stream), else the Stream for a Stream or a __cuda_stream__ object.
cdef Stream optional_stream(object stream)

# The Stream for a Stream or a __cuda_stream__ object; a TypeError naming the fix for None.
cdef Stream required_stream(object stream)

# The CUstream of a Stream, NULL (the legacy default stream) for None.
cdef cydriver.CUstream stream_handle(Stream stream) except? <cydriver.CUstream>1

# The address of an int or of an object that converts to one (e.g. driver.CUdeviceptr).
cdef cydriver.CUdeviceptr pointer_value(object ptr) except? 0
