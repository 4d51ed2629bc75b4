# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


cdef class Event:
    cdef cydriver.CUevent _handle      # NULL once closed
    cdef size_t _address               # the handle's address, kept after close for __eq__/__hash__
    cdef cydriver.CUcontext _context   # the context current when the event was made
    cdef int _device_id
    cdef bint _timing
    cdef bint _blocking
    cdef bint _ipc
    cdef object _ipc_descriptor        # made on first use of ipc_descriptor
    cdef object __weakref__

    # The CUevent, or a RuntimeError once the event is closed.
    cdef cydriver.CUevent _live_handle(self) except? NULL


# A new event on the current context, made with ``options`` (an EventOptions, a dict of its
# fields, or None for the defaults) for device ``device_id``.
cdef Event new_event(object options, int device_id)
