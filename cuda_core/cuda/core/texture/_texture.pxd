cimport cuda.bindings.cydriver as cydriver


cdef class TextureObject:
    cdef:
        cydriver.CUtexObject _handle  # 0 once closed
        cydriver.CUcontext _context   # current at creation; made current again to destroy
        object _source_ref            # the ResourceDescriptor, for introspection
        object _keepalive             # what holds the backing memory: array storage or Buffer
        object _options               # the TextureObjectOptions, for introspection
        int _device_id

    cpdef close(self)


# Fill ``desc`` for ``resource`` (a ResourceDescriptor, checked to be one) and return what
# keeps its memory alive while a texture or surface object uses it.
cdef object _fill_resource_desc(object resource, cydriver.CUDA_RESOURCE_DESC* desc)

# Destroy a texture (or ``surface``) object with the context it was made in current; driver
# errors raised when ``checked``, ignored otherwise (collection).
cdef int destroy_in_context(cydriver.CUcontext context, unsigned long long handle, bint surface,
                            bint checked) except -1
