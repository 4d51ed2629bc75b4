# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Context: a CUDA context as cuda.core hands it out (Device.context, Stream.context).
cimport cuda.bindings.cydriver as cydriver


# ---- Green contexts (device resources) ----

# The owner of one CUgreenCtx, destroyed when the last holder lets go: every Context over
# it and every stream made on it holds this, so closing a Context leaves them working.
cdef class GreenContext:
    cdef:
        cydriver.CUgreenCtx _handle
        cydriver.CUcontext _context    # the green context as a CUcontext (cuCtxFromGreenCtx)
        int _device_id
        object __weakref__


# A new owning Context over the green context ``handle`` of device ``device_id``.
cdef Context green_context_from_handle(cydriver.CUgreenCtx handle, int device_id)

# ---- end of green contexts ----


cdef class Context:
    cdef:
        # The CUcontext, kept after close() so that hash() stays stable.
        size_t _address
        int _device_id
        bint _closed
        bint _is_green
        # A green context's GreenContext (what owns its CUgreenCtx); None for other contexts.
        GreenContext _green
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
