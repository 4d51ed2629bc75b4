cimport cuda.bindings.cydriver as cydriver


cdef class Buffer:
    cdef cydriver.CUdeviceptr _ptr
    cdef size_t _size
    cdef object _memory_resource  # None for a Buffer.from_handle() that owns nothing
    cdef object _dealloc_stream   # the Stream whose order frees it, or None
    cdef bint _closed

    # The pointer, or an error when the buffer is closed.
    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0
