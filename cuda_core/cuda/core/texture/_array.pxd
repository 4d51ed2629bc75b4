# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


# Owns (or borrows) one CUarray. OpaqueArray, and each TextureObject or SurfaceObject bound to
# it, hold a reference: the array is destroyed when the last of them goes, so closing an
# OpaqueArray never leaves a texture reading freed storage.
cdef class _ArrayStorage:
    cdef cydriver.CUarray handle
    cdef cydriver.CUcontext context   # current at creation; made current again to destroy
    cdef bint owning                  # False: a mipmap level or a graphics-interop array
    cdef object parent                # for a mipmap level: the mipmap's storage, kept alive


cdef class OpaqueArray:
    cdef:
        _ArrayStorage _storage        # None once closed
        tuple _shape                  # (w,), (w, h) or (w, h, d)
        cydriver.CUarray_format _format
        unsigned int _num_channels    # 1, 2 or 4
        int _device_id
        bint _surface_load_store

    cpdef close(self)


cdef inline int OpaqueArray_check_open(OpaqueArray self) except -1:
    if self._storage is None:
        raise RuntimeError("OpaqueArray has been closed")
    return 0


# An OpaqueArray over ``storage``, its shape, format and channels read from the driver.
# ``surface_flag`` says whether it may back a SurfaceObject; -1 reads that from the driver too.
cdef OpaqueArray _array_from_storage(_ArrayStorage storage, int device_id, int surface_flag)

# Bytes per channel of a CUarray_format (one of the eight ArrayFormatType has), 0 for others.
cdef size_t _format_size(cydriver.CUarray_format fmt) noexcept

# A storage over ``handle``; ``owning`` destroys it (in ``context``) with the storage, and
# ``parent`` is kept alive as long (a mipmap level's mipmap).
cdef _ArrayStorage _new_storage(cydriver.CUarray handle, cydriver.CUcontext context, bint owning, object parent)
