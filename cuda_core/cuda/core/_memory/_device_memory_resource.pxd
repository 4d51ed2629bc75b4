from cuda.core._memory._memory_pool cimport _MemPool


cdef class DeviceMemoryResource(_MemPool):
    cdef int _dev_id
