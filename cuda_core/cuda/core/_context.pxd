# Context: a CUDA context as cuda.core hands it out (Device.context, Stream.context).
cimport cuda.bindings.cydriver as cydriver


cdef class Context:
    cdef:
        # The CUcontext, kept after close() so that hash() stays stable.
        size_t _address
        int _device_id
        bint _closed
        bint _is_green
        object __weakref__

    cpdef close(self)


# A non-owning Context over ``context`` of device ``device_id``.
cdef Context context_from_address(size_t context, int device_id)


cdef inline int Context_check_open(Context self) except -1:
    if self._closed:
        raise RuntimeError("Context has been closed")
    return 0


cdef inline cydriver.CUcontext Context_handle(Context self) noexcept nogil:
    return <cydriver.CUcontext>self._address
