from cuda.core._memory._memory_pool cimport _MemPool


cdef class PinnedMemoryResource(_MemPool):
    cdef int _numa_id  # the host NUMA node of the pool's memory; -1: placed by the OS, or unknown
