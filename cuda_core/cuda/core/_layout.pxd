# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cython
from libc.stdint cimport int64_t, uint64_t

cdef enum:
    # Axes are numbered in a 64-bit mask (flattened_axis_mask), which bounds ndim.
    LAYOUT_MAX_NDIM = 64
    # Layouts of up to this many axes keep shape and strides inside the object (no malloc).
    LAYOUT_INLINE_NDIM = 8


@cython.final
cdef class _StridedLayout:
    cdef readonly int itemsize          # bytes per element
    cdef readonly int64_t slice_offset  # elements from the base to the element at (0,) * ndim
    cdef int _ndim
    # Whether strides were given (or produced by a transformation). When not, the layout is
    # C-contiguous and ``strides`` says None; _strides still holds the C strides, so the
    # algorithms read one representation.
    cdef bint _explicit
    cdef int64_t* _shape                # ndim extents
    cdef int64_t* _strides              # ndim strides, in elements
    cdef int64_t* _heap                 # owned storage when ndim > LAYOUT_INLINE_NDIM
    cdef int64_t _inline[2 * LAYOUT_INLINE_NDIM]
    # Lazily computed properties: _known says which bits of _flags (and which numbers) are set.
    cdef unsigned int _known
    cdef unsigned int _flags
    cdef int64_t _volume
    cdef int64_t _min_offset
    cdef int64_t _max_offset
    cdef object _shape_tuple
    cdef object _strides_tuple

    # The C view that StridedMemoryView and other modules read.
    cdef int _allocate(self, int ndim) except -1

    cdef int get_ndim(self)
    cdef const int64_t* get_shape(self)
    # NULL when the layout is implicitly C-contiguous (created without strides).
    cdef const int64_t* get_strides(self)
    cdef int64_t get_slice_offset(self)

    cdef int64_t _get_volume(self) except? -1
    cdef int _compute_bounds(self) except -1
    cdef bint _contiguous_c(self)
    cdef bint _contiguous_f(self)
    cdef bint _contiguous_any(self)
    cdef bint _unique(self)
    cdef void _fill_stride_order(self, int* order)
    cdef uint64_t _mergeable_mask(self)


# A layout over ndim extents and strides (in elements; strides NULL means C-contiguous).
cdef _StridedLayout layout_from_arrays(int ndim, const int64_t* shape, const int64_t* strides, int itemsize)
