from cuda.core._memory._buffer cimport MemoryResource


cdef class cyGraphMemoryResource(MemoryResource):
    cdef int _device_id
