"""cuda.core memory: Buffer and the memory resources (placeholder, being written)."""

cimport cuda.bindings.cydriver as cydriver


cdef class Buffer:
    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0:
        if self._closed:
            raise RuntimeError("this Buffer is closed")
        return self._ptr
