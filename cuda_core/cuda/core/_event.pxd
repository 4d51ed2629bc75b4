cimport cuda.bindings.cydriver as cydriver


cdef class Event:
    cdef cydriver.CUevent _handle
    cdef bint _timing
    cdef int _device_id

    cdef cydriver.CUevent _live_handle(self) except? NULL


# A new event on the current context, with EventOptions (or None for the defaults).
cdef Event new_event(object options, int device_id)
