cimport cuda.bindings.cydriver as cydriver


cdef class Stream:
    cdef cydriver.CUstream _handle
    cdef bint _owned
    cdef bint _closed
    cdef int _device_id
    cdef object _foreign  # keeps a wrapped foreign stream's owner alive

    cdef cydriver.CUstream _live_handle(self) except? <cydriver.CUstream>1


# ``obj`` itself if it is a Stream, else a non-owning Stream over its ``__cuda_stream__``.
cpdef Stream as_stream(object obj, int device_id=*)
