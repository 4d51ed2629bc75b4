# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


# Owns one CUmipmappedArray. MipmappedArray, each level's OpaqueArray (through its storage's
# parent) and each texture bound to the mipmap hold a reference: it is destroyed with the last.
cdef class _MipmapStorage:
    cdef cydriver.CUmipmappedArray handle
    cdef cydriver.CUcontext context   # current at creation; made current again to destroy


cdef class MipmappedArray:
    cdef:
        _MipmapStorage _storage       # None once closed
        tuple _shape                  # level 0: (w,), (w, h) or (w, h, d)
        cydriver.CUarray_format _format
        unsigned int _num_channels    # 1, 2 or 4
        unsigned int _num_levels
        int _device_id
        bint _surface_load_store

    cpdef close(self)


cdef inline int MipmappedArray_check_open(MipmappedArray self) except -1:
    if self._storage is None:
        raise RuntimeError("MipmappedArray has been closed")
    return 0
