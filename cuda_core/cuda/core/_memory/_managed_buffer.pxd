from cuda.core._memory._buffer cimport Buffer


cdef class ManagedBuffer(Buffer):
    pass
