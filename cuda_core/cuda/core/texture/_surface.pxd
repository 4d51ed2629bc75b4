cimport cuda.bindings.cydriver as cydriver


cdef class SurfaceObject:
    cdef:
        cydriver.CUsurfObject _handle  # 0 once closed
        cydriver.CUcontext _context    # current at creation; made current again to destroy
        object _source_ref             # the ResourceDescriptor, for introspection
        object _keepalive              # the backing array's storage
        int _device_id

    cpdef close(self)
