from cuda.core._memory._ipc cimport _IPCMemPool


cdef class DeviceMemoryResource(_IPCMemPool):
    cdef int _dev_id
