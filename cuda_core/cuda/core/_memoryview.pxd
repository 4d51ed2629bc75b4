# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# StridedMemoryView's C layout, for modules and downstream extensions that cimport it: the
# public read-only fields (ptr, device_id, is_device_accessible, readonly, exporting_obj)
# read as C fields there.
from libc.stdint cimport int64_t, intptr_t

from cuda.core._dlpack cimport ImportedTensor


cdef class StridedMemoryView:
    cdef readonly intptr_t ptr
    cdef readonly int device_id
    cdef readonly bint is_device_accessible
    cdef readonly bint readonly
    cdef readonly object exporting_obj
    cdef:
        tuple _shape
        tuple _strides        # in items; None: C-contiguous
        int _itemsize
        object _dtype         # a numpy dtype, None when unknown, _UNRESOLVED until read
        int _dl_code, _dl_bits, _dl_lanes
        int _dl_device_type   # the DLPack device type of the memory, 0 until known
        object _layout_obj    # a _StridedLayout once made
        object _keepalive     # a view whose imported tensor this one shares
        object _buffer        # the Buffer of from_buffer()
        ImportedTensor _imported
        int64_t* _dims        # shape then strides (in items), made for DLPack export; NULL until then
        bint _dims_pending    # _shape and _strides still to be read from the imported tensor
        object __weakref__

    # Back to an empty view (no memory, no shape).
    cdef void _reset(self)
    # Read shape and strides from the imported DLPack tensor, once, when first needed.
    cdef int _resolve_dims(self) except -1
    # Shape and strides as C arrays that live as long as the view.
    cdef int64_t* _c_dims(self) except NULL
