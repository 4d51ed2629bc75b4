"""cuda.core ObjectCode and Kernel (placeholder, being written)."""

cimport cuda.bindings.cydriver as cydriver


cdef class ObjectCode:
    cdef cydriver.CUlibrary _loaded(self) except NULL:
        raise NotImplementedError


cdef class Kernel:
    pass
