cdef class LaunchConfig:
    cdef readonly tuple grid
    cdef readonly tuple block
    cdef readonly unsigned int shmem_size
    cdef unsigned int dims[6]  # grid x, y, z, then block x, y, z, as cuLaunchKernel takes them
