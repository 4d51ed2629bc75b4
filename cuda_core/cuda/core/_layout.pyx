# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# cython: infer_types=True
"""cuda.core _StridedLayout: the shape, strides (in elements), itemsize and slice offset of a
strided tensor, and the transformations of it that need no data movement.

Shape and strides live in C arrays of int64 (inside the object for up to
LAYOUT_INLINE_NDIM axes), so StridedMemoryView builds a layout from its DLPack or CAI arrays
without a Python object per axis. Derived properties (volume, offset bounds, contiguity,
uniqueness) are computed on first use and cached: a layout never changes once built.
"""

cimport cython
from libc.stdint cimport UINT64_MAX, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

__all__ = ['_StridedLayout']


cdef extern from "Python.h":
    int PySlice_Check(object obj)
    int PySlice_Unpack(object slc, Py_ssize_t* start, Py_ssize_t* stop, Py_ssize_t* step) except -1
    Py_ssize_t PySlice_AdjustIndices(Py_ssize_t length, Py_ssize_t* start, Py_ssize_t* stop, Py_ssize_t step)
    int PyIndex_Check(object obj)


cdef extern from *:
    # GCC/Clang builtin: the product, and whether it overflowed.
    bint _mul_overflows "__builtin_mul_overflow"(int64_t a, int64_t b, int64_t* out) noexcept nogil


# Bits of _known / _flags: which lazily computed properties are cached, and their values.
cdef enum:
    HAVE_VOLUME = 1 << 0
    HAVE_BOUNDS = 1 << 1
    HAVE_CONTIG_C = 1 << 2
    HAVE_CONTIG_F = 1 << 3
    HAVE_CONTIG_ANY = 1 << 4
    HAVE_UNIQUE = 1 << 5
    VOLUME_OVERFLOWS = 1 << 6

# How a stride_order argument was given.
cdef enum:
    ORDER_C = 0
    ORDER_F = 1
    ORDER_K = 2
    ORDER_PERM = 3


# ---------------------------------------------------------------------------------------------
# Small C helpers over shape and stride arrays.

cdef inline int64_t _abs(int64_t x) noexcept nogil:
    return -x if x < 0 else x


cdef inline bint _any_zero(int ndim, const int64_t* shape) noexcept nogil:
    for i in range(ndim):
        if shape[i] == 0:
            return True
    return False


cdef void _fill_c_strides(int ndim, const int64_t* shape, int64_t* out) noexcept nogil:
    """C-order strides; all zero for an empty shape, as every empty dense layout has."""
    # Unsigned so that an absurd shape wraps instead of invoking undefined behaviour; its
    # volume raises OverflowError when asked for.
    cdef uint64_t stride = 1
    if _any_zero(ndim, shape):
        for i in range(ndim):
            out[i] = 0
        return
    for i in range(ndim - 1, -1, -1):
        out[i] = <int64_t>stride
        stride *= <uint64_t>shape[i]


cdef void _fill_dense_strides(int ndim, const int64_t* shape, const int* order, int64_t* out) noexcept nogil:
    """Dense strides where ``order[ndim - 1]`` is the fastest axis and ``order[0]`` the slowest."""
    cdef uint64_t stride = 1
    if _any_zero(ndim, shape):
        for i in range(ndim):
            out[i] = 0
        return
    for k in range(ndim - 1, -1, -1):
        out[order[k]] = <int64_t>stride
        stride *= <uint64_t>shape[order[k]]


cdef inline void _zero(int ndim, int64_t* values) noexcept nogil:
    for i in range(ndim):
        values[i] = 0


cdef int64_t _gcd(int64_t a, int64_t b) noexcept nogil:
    a = _abs(a)
    b = _abs(b)
    while b:
        a, b = b, a % b
    return a


cdef inline bint _order_before(const int64_t* shape, const int64_t* strides, int a, int b) noexcept nogil:
    """Whether axis ``a`` comes before axis ``b`` in the stride order: larger magnitude of
    stride first, then the larger extent, then the lower axis."""
    cdef int64_t sa = _abs(strides[a]), sb = _abs(strides[b])
    if sa != sb:
        return sa > sb
    if shape[a] != shape[b]:
        return shape[a] > shape[b]
    return a < b


cdef int _check_ndim(Py_ssize_t ndim) except -1:
    if ndim > LAYOUT_MAX_NDIM:
        raise ValueError(f"A layout can have at most {LAYOUT_MAX_NDIM} dimensions; "
                         f"this one would have {ndim}")
    return 0


cdef int _normalize_axis(int64_t axis, int ndim, str what) except -1:
    """``axis`` in [-ndim, ndim) as an index in [0, ndim)."""
    if axis < -ndim or axis >= ndim:
        valid = f"valid axes are -{ndim} to {ndim - 1}" if ndim else "it has no axes"
        raise ValueError(f"Invalid {what}: {axis} out of range for a {ndim}D layout ({valid})")
    return <int>(axis + ndim if axis < 0 else axis)


cdef int _read_extents(object values, int64_t* out, Py_ssize_t n) except -1:
    """Copy ``n`` extents from a tuple of ints, checking they are not negative."""
    cdef int64_t extent
    for i in range(n):
        extent = values[i]
        if extent < 0:
            raise ValueError(f"Extents must be non-negative, got shape {values}")
        out[i] = extent
    return 0


cdef int _read_permutation(object axes, int ndim, int* out, str what) except -1:
    """A permutation of range(ndim), negative axes allowed, as ints in ``out``."""
    cdef uint64_t seen = 0
    cdef int axis
    if len(axes) != ndim:
        raise ValueError(f"{what} must have the same length as the number of dimensions ({ndim}), "
                         f"got {len(axes)} axes: {axes!r}")
    for i in range(ndim):
        value = axes[i]
        if not -ndim <= value < ndim:
            raise ValueError(f"Invalid {what}: axis {value} out of range for a {ndim}D layout")
        axis = value + ndim if value < 0 else value
        if seen & (1ULL << axis):
            raise ValueError(f"Invalid {what}: axis {value} appears multiple times in {axes!r}")
        seen |= 1ULL << axis
        out[i] = axis
    return 0


cdef int _read_order(object stride_order, int ndim, int* perm, bint allow_k) except -1:
    """Classify a stride_order argument ('C', 'F', 'K' or a permutation, read into ``perm``)."""
    if isinstance(stride_order, str):
        if stride_order == 'C':
            return ORDER_C
        if stride_order == 'F':
            return ORDER_F
        if stride_order == 'K' and allow_k:
            return ORDER_K
    elif isinstance(stride_order, (tuple, list)):
        _read_permutation(stride_order, ndim, perm, "stride_order")
        return ORDER_PERM
    accepted = "'K', 'C', 'F'" if allow_k else "'C', 'F'"
    raise ValueError(f"stride_order must be {accepted} or a permutation tuple of the axes, got {stride_order!r}")


cdef void _fill_order_for(int code, int ndim, int* perm) noexcept nogil:
    """The axis permutation for ORDER_C (identity) or ORDER_F (reversed)."""
    cdef int i
    for i in range(ndim):
        perm[i] = i if code == ORDER_C else ndim - 1 - i


# ---------------------------------------------------------------------------------------------
# Construction.

cdef _StridedLayout _blank(Py_ssize_t ndim, int itemsize, int64_t slice_offset):
    """A layout with storage for ``ndim`` axes and explicit strides, left for the caller to fill."""
    _check_ndim(ndim)
    cdef _StridedLayout layout = _StridedLayout.__new__(_StridedLayout)
    layout._allocate(<int>ndim)
    layout.itemsize = itemsize
    layout.slice_offset = slice_offset
    layout._explicit = True
    return layout


cdef _StridedLayout layout_from_arrays(int ndim, const int64_t* shape, const int64_t* strides, int itemsize):
    if ndim < 0:
        raise ValueError(f"ndim must be non-negative, got {ndim}")
    if itemsize <= 0:
        raise ValueError(f"itemsize must be positive, got {itemsize}")
    cdef _StridedLayout layout = _blank(ndim, itemsize, 0)
    memcpy(layout._shape, shape, ndim * sizeof(int64_t))
    if strides == NULL:
        layout._explicit = False
        _fill_c_strides(ndim, shape, layout._strides)
    else:
        memcpy(layout._strides, strides, ndim * sizeof(int64_t))
    return layout


cdef _StridedLayout _dense(tuple shape, int itemsize, int code, const int* perm):
    """A dense layout of ``shape`` in the order ``code`` (``perm`` for ORDER_PERM)."""
    cdef int ndim = len(shape)
    cdef int order[LAYOUT_MAX_NDIM]
    cdef _StridedLayout layout = _blank(ndim, itemsize, 0)
    _read_extents(shape, layout._shape, ndim)
    if code == ORDER_PERM:
        _fill_dense_strides(ndim, layout._shape, perm, layout._strides)
    else:
        _fill_order_for(code, ndim, order)
        _fill_dense_strides(ndim, layout._shape, order, layout._strides)
    return layout


@cython.final
cdef class _StridedLayout:
    """The layout of a strided tensor: ``shape``, ``strides`` (in elements, not bytes),
    ``itemsize`` (bytes per element) and ``slice_offset`` (elements from the start of the
    allocation to the element at index ``(0,) * ndim``).

    ``strides=None`` means C-contiguous; such a layout reports ``strides`` as None until a
    transformation gives it explicit ones. With ``divide_strides=True`` the strides are given
    in bytes and must be multiples of ``itemsize``. At most 64 dimensions.
    """

    def __cinit__(self):
        self._shape = self._inline
        self._strides = self._inline
        self._heap = NULL

    def __dealloc__(self):
        if self._heap != NULL:
            free(self._heap)
            self._heap = NULL

    cdef int _allocate(self, int ndim) except -1:
        """Point _shape and _strides at storage for ``ndim`` axes and drop the cached values."""
        if self._heap != NULL:
            free(self._heap)
            self._heap = NULL
        if ndim > LAYOUT_INLINE_NDIM:
            self._heap = <int64_t*>malloc(2 * ndim * sizeof(int64_t))
            if self._heap == NULL:
                raise MemoryError()
            self._shape = self._heap
        else:
            self._shape = self._inline
        self._strides = self._shape + ndim
        self._ndim = ndim
        self._known = 0
        self._flags = 0
        self._shape_tuple = None
        self._strides_tuple = None
        return 0

    def __init__(self, tuple shape not None, tuple strides, int itemsize, bint divide_strides=False):
        cdef Py_ssize_t ndim = len(shape)
        cdef int64_t stride
        if itemsize <= 0:
            raise ValueError(f"itemsize must be positive, got {itemsize}")
        if strides is not None and len(strides) != ndim:
            raise ValueError(f"strides must have one entry per axis: shape {shape} has {ndim} "
                             f"dimensions, strides {strides} has {len(strides)}")
        _check_ndim(ndim)
        self._allocate(<int>ndim)
        self.itemsize = itemsize
        self.slice_offset = 0
        _read_extents(shape, self._shape, ndim)
        if strides is None:
            self._explicit = False
            _fill_c_strides(self._ndim, self._shape, self._strides)
            return
        self._explicit = True
        for i in range(ndim):
            stride = strides[i]
            if divide_strides:
                if stride % itemsize:
                    raise ValueError(f"strides must be divisible by itemsize: the stride {stride} (bytes) "
                                     f"of axis {i} is not a multiple of {itemsize}")
                stride //= itemsize
            self._strides[i] = stride

    # -- the C view -------------------------------------------------------------------------

    cdef int get_ndim(self):
        return self._ndim

    cdef const int64_t* get_shape(self):
        return self._shape

    cdef const int64_t* get_strides(self):
        return self._strides if self._explicit else NULL

    cdef int64_t get_slice_offset(self):
        return self.slice_offset

    # -- constructors -----------------------------------------------------------------------

    @classmethod
    def dense(cls, tuple shape not None, int itemsize, stride_order='C'):
        """A dense layout of ``shape`` (no gaps, no slice offset) with strides in
        ``stride_order``: 'C' (last axis fastest), 'F' (first axis fastest), or a permutation of
        the axes listed from the slowest to the fastest."""
        cdef int perm[LAYOUT_MAX_NDIM]
        if itemsize <= 0:
            raise ValueError(f"itemsize must be positive, got {itemsize}")
        _check_ndim(len(shape))
        code = _read_order(stride_order, len(shape), perm, False)
        return _dense(shape, itemsize, code, perm)

    @classmethod
    def dense_like(cls, _StridedLayout other not None, stride_order='K'):
        """A dense layout with the shape and itemsize of ``other``; 'K' keeps the stride order
        of ``other`` (see :meth:`dense` for the others)."""
        return other.to_dense(stride_order)

    # -- plain properties -------------------------------------------------------------------

    @property
    def ndim(self):
        """The number of dimensions."""
        return self._ndim

    @property
    def shape(self):
        """The extents, a tuple of ints."""
        if self._shape_tuple is None:
            self._shape_tuple = tuple([self._shape[i] for i in range(self._ndim)])
        return self._shape_tuple

    @property
    def strides(self):
        """The strides in elements, or None for a layout made C-contiguous with strides=None."""
        if not self._explicit:
            return None
        if self._strides_tuple is None:
            self._strides_tuple = tuple([self._strides[i] for i in range(self._ndim)])
        return self._strides_tuple

    @property
    def strides_in_bytes(self):
        """The strides in bytes, or None like :attr:`strides`."""
        if not self._explicit:
            return None
        return tuple([self._strides[i] * self.itemsize for i in range(self._ndim)])

    @property
    def slice_offset_in_bytes(self):
        """:attr:`slice_offset` in bytes."""
        return self.slice_offset * self.itemsize

    @property
    def volume(self):
        """The number of elements (the product of the extents)."""
        return self._get_volume()

    cdef int64_t _get_volume(self) except? -1:
        cdef int64_t volume = 1
        if not self._known & HAVE_VOLUME:
            self._known |= HAVE_VOLUME
            if _any_zero(self._ndim, self._shape):
                volume = 0
            else:
                for i in range(self._ndim):
                    if _mul_overflows(volume, self._shape[i], &volume):
                        self._flags |= VOLUME_OVERFLOWS
                        break
            self._volume = volume
        if self._flags & VOLUME_OVERFLOWS:
            raise OverflowError(f"The volume of shape {self.shape} does not fit in 64 bits")
        return self._volume

    # -- the memory range -------------------------------------------------------------------

    cdef int _compute_bounds(self) except -1:
        cdef int64_t low = self.slice_offset, high = self.slice_offset, reach
        if self._known & HAVE_BOUNDS:
            return 0
        if _any_zero(self._ndim, self._shape):
            low, high = 0, -1
        else:
            for i in range(self._ndim):
                reach = self._strides[i] * (self._shape[i] - 1)
                if reach < 0:
                    low += reach
                else:
                    high += reach
        self._min_offset = low
        self._max_offset = high
        self._known |= HAVE_BOUNDS
        return 0

    @property
    def offset_bounds(self):
        """``(min_offset, max_offset)``: the element offsets (slice offset included) that the
        layout reaches; ``(0, -1)`` for an empty layout."""
        self._compute_bounds()
        return self._min_offset, self._max_offset

    @property
    def min_offset(self):
        """The lowest element offset reached; see :attr:`offset_bounds`."""
        self._compute_bounds()
        return self._min_offset

    @property
    def max_offset(self):
        """The highest element offset reached; see :attr:`offset_bounds`."""
        self._compute_bounds()
        return self._max_offset

    def required_size_in_bytes(self):
        """Bytes an allocation needs so that every element lies in it:
        ``(max_offset + 1) * itemsize``. Raises ValueError for layouts that reach below the
        start of the allocation (a negative ``min_offset``)."""
        self._compute_bounds()
        if self._min_offset < 0:
            raise ValueError(f"The layout reaches the negative element offset {self._min_offset}, so no "
                             f"allocation size starting at offset 0 fits it; slice it differently")
        return (self._max_offset + 1) * self.itemsize

    # -- contiguity and uniqueness ----------------------------------------------------------

    cdef bint _contiguous_c(self):
        cdef uint64_t expected = 1
        if self._known & HAVE_CONTIG_C:
            return self._flags & HAVE_CONTIG_C
        cdef bint result = True
        if not _any_zero(self._ndim, self._shape):
            # Extents of 1 never move the offset, so their strides do not matter.
            for i in range(self._ndim - 1, -1, -1):
                if self._shape[i] != 1:
                    if <uint64_t>self._strides[i] != expected:
                        result = False
                        break
                    expected *= <uint64_t>self._shape[i]
        self._known |= HAVE_CONTIG_C
        if result:
            self._flags |= HAVE_CONTIG_C
        return result

    cdef bint _contiguous_f(self):
        cdef uint64_t expected = 1
        if self._known & HAVE_CONTIG_F:
            return self._flags & HAVE_CONTIG_F
        cdef bint result = True
        if not _any_zero(self._ndim, self._shape):
            for i in range(self._ndim):
                if self._shape[i] != 1:
                    if <uint64_t>self._strides[i] != expected:
                        result = False
                        break
                    expected *= <uint64_t>self._shape[i]
        self._known |= HAVE_CONTIG_F
        if result:
            self._flags |= HAVE_CONTIG_F
        return result

    cdef bint _contiguous_any(self):
        cdef int order[LAYOUT_MAX_NDIM]
        cdef uint64_t expected = 1
        cdef int axis
        if self._known & HAVE_CONTIG_ANY:
            return self._flags & HAVE_CONTIG_ANY
        cdef bint result = True
        if not _any_zero(self._ndim, self._shape) and not self._contiguous_c():
            # Contiguous in some order iff C-contiguous after sorting the axes by stride.
            self._fill_stride_order(order)
            for k in range(self._ndim - 1, -1, -1):
                axis = order[k]
                if self._shape[axis] != 1:
                    if <uint64_t>self._strides[axis] != expected:
                        result = False
                        break
                    expected *= <uint64_t>self._shape[axis]
        self._known |= HAVE_CONTIG_ANY
        if result:
            self._flags |= HAVE_CONTIG_ANY
        return result

    cdef bint _unique(self):
        cdef int axes[LAYOUT_MAX_NDIM]
        cdef int count = 0, axis, k
        cdef uint64_t reach = 0, step
        if self._known & HAVE_UNIQUE:
            return self._flags & HAVE_UNIQUE
        cdef bint result = True
        if not _any_zero(self._ndim, self._shape) and not self._contiguous_any():
            # A sufficient test: with the moving axes sorted by |stride|, each stride must step
            # past everything the smaller ones reach. Exact uniqueness is a hard problem; a
            # layout that fails this may still be unique, and is reported as not.
            for i in range(self._ndim):
                if self._shape[i] == 1:
                    continue
                k = count
                while k > 0 and _abs(self._strides[axes[k - 1]]) > _abs(self._strides[i]):
                    axes[k] = axes[k - 1]
                    k -= 1
                axes[k] = i
                count += 1
            for k in range(count):
                axis = axes[k]
                step = <uint64_t>_abs(self._strides[axis])
                if step <= reach:
                    result = False
                    break
                reach += step * <uint64_t>(self._shape[axis] - 1)
        self._known |= HAVE_UNIQUE
        if result:
            self._flags |= HAVE_UNIQUE
        return result

    @property
    def is_contiguous_c(self):
        """Whether the elements fill a range without gaps in C order (extents of 1 and empty
        layouts do not count against it)."""
        return self._contiguous_c()

    @property
    def is_contiguous_f(self):
        """Whether the elements fill a range without gaps in Fortran order."""
        return self._contiguous_f()

    @property
    def is_contiguous_any(self):
        """Whether some order of the axes makes the layout C-contiguous: the elements map
        one-to-one onto ``[min_offset, max_offset]``."""
        return self._contiguous_any()

    @property
    def is_dense(self):
        """Contiguous in some order and with no slice offset: the elements map one-to-one
        onto ``[0, volume - 1]``."""
        return self.slice_offset == 0 and self._contiguous_any()

    @property
    def is_unique(self):
        """Whether no two elements share an offset. True for every layout made from a dense one
        by permuting, slicing, reshaping, flattening, squeezing or repacking; False for
        broadcast layouts, and possibly for hand-made strides that are in fact unique."""
        return self._unique()

    cdef void _fill_stride_order(self, int* order):
        cdef int k
        if not self._explicit:
            for i in range(self._ndim):
                order[i] = i
            return
        for i in range(self._ndim):
            k = i
            while k > 0 and _order_before(self._shape, self._strides, i, order[k - 1]):
                order[k] = order[k - 1]
                k -= 1
            order[k] = i

    @property
    def stride_order(self):
        """The axes from the largest stride (in magnitude) to the smallest; ties go to the larger
        extent, then to the lower axis. (0, 1, ..., ndim - 1) for C order."""
        cdef int order[LAYOUT_MAX_NDIM]
        self._fill_stride_order(order)
        return tuple([order[i] for i in range(self._ndim)])

    # -- transformations --------------------------------------------------------------------

    def to_dense(self, stride_order='K'):
        """A dense layout with this shape and itemsize, strides in ``stride_order`` ('K' keeps
        this layout's order). A layout already dense in that order is returned as it is."""
        cdef int perm[LAYOUT_MAX_NDIM]
        code = _read_order(stride_order, self._ndim, perm, True)
        if self.slice_offset == 0:
            if ((code == ORDER_K and self._contiguous_any()) or (code == ORDER_C and self._contiguous_c())
                    or (code == ORDER_F and self._contiguous_f())):
                return self
        cdef _StridedLayout layout = _blank(self._ndim, self.itemsize, 0)
        memcpy(layout._shape, self._shape, self._ndim * sizeof(int64_t))
        if code == ORDER_K:
            self._fill_stride_order(perm)
        elif code != ORDER_PERM:
            _fill_order_for(code, self._ndim, perm)
        _fill_dense_strides(self._ndim, layout._shape, perm, layout._strides)
        return layout

    def permuted(self, tuple axis_order not None):
        """The layout with its axes reordered: axis ``i`` of the result is axis
        ``axis_order[i]`` of this one."""
        cdef int perm[LAYOUT_MAX_NDIM]
        _read_permutation(axis_order, self._ndim, perm, "axis_order")
        cdef _StridedLayout layout = _blank(self._ndim, self.itemsize, self.slice_offset)
        for i in range(self._ndim):
            layout._shape[i] = self._shape[perm[i]]
            layout._strides[i] = self._strides[perm[i]]
        return layout

    def sliced(self, slices):
        """The layout of ``tensor[slices]``: an int, a slice, or a tuple of them for the leading
        axes. An int removes its axis; a slice that selects nothing zeroes all strides (and
        adds nothing to the offset)."""
        cdef tuple items = slices if isinstance(slices, tuple) else (slices,)
        cdef Py_ssize_t count = len(items)
        cdef int ndim = self._ndim, out = 0
        cdef int64_t shape[LAYOUT_MAX_NDIM]
        cdef int64_t strides[LAYOUT_MAX_NDIM]
        cdef int64_t offset = self.slice_offset, extent, stride
        cdef Py_ssize_t start, stop, step, index
        cdef bint emptied = False
        if count > ndim:
            raise ValueError(f"{count} indices is greater than the number of dimensions ({ndim}) "
                             f"of the layout")
        for i in range(ndim):
            extent = self._shape[i]
            stride = self._strides[i]
            if i >= count:
                shape[out], strides[out] = extent, stride
                out += 1
                continue
            item = items[i]
            if PySlice_Check(item):
                PySlice_Unpack(item, &start, &stop, &step)
                extent = PySlice_AdjustIndices(extent, &start, &stop, step)
                if extent:
                    offset += start * stride
                else:
                    emptied = True
                shape[out], strides[out] = extent, stride * step
                out += 1
            elif PyIndex_Check(item):
                index = item
                if index < -extent or index >= extent:
                    raise ValueError(f"Index {index} out of range for axis {i} with extent {extent}")
                offset += (index + extent if index < 0 else index) * stride
            else:
                raise TypeError(f"Cannot index a layout with {item!r} ({type(item).__name__}). "
                                f"Expected slice instance or integer.")
        cdef _StridedLayout layout = _blank(out, self.itemsize, offset)
        memcpy(layout._shape, shape, out * sizeof(int64_t))
        if emptied:
            # A slice that selects nothing leaves no stride meaningful.
            _zero(out, layout._strides)
        else:
            memcpy(layout._strides, strides, out * sizeof(int64_t))
        return layout

    def __getitem__(self, slices):
        return self.sliced(slices)

    def reshaped(self, tuple shape not None):
        """The layout with ``shape`` (one extent may be -1: inferred), when the elements in C
        order can be addressed with strides for it; ValueError when a copy would be needed."""
        cdef Py_ssize_t ndim = len(shape)
        cdef int64_t target[LAYOUT_MAX_NDIM]
        cdef int64_t volume = self._get_volume(), known = 1, extent
        cdef int inferred = -1
        _check_ndim(ndim)
        for i in range(ndim):
            target[i] = shape[i]
            if target[i] < -1:
                raise ValueError(f"Extents must be non-negative (or -1 for one inferred extent), "
                                 f"got {shape}")
        for i in range(ndim):
            extent = target[i]
            if extent == -1:
                if inferred >= 0:
                    raise ValueError(f"There can be at most one -1 extent in a shape, got {shape}")
                inferred = i
            elif _mul_overflows(known, extent, &known):
                raise OverflowError(f"The volume of shape {shape} does not fit in 64 bits")
        if inferred >= 0:
            if known == 0:
                raise ValueError(f"The -1 extent is ambiguous when the specified sub-volume is 0 "
                                 f"(shape {shape})")
            if volume % known:
                raise ValueError(f"The original volume {volume} must be divisible by the specified "
                                 f"sub-volume {known}.")
            target[inferred] = volume // known
            known = volume
        if known != volume:
            raise ValueError(f"The original volume {volume} and the new volume {known} must be equal.")
        cdef _StridedLayout layout = _blank(ndim, self.itemsize, self.slice_offset)
        memcpy(layout._shape, target, ndim * sizeof(int64_t))
        if volume == 0:
            _zero(<int>ndim, layout._strides)
        elif not _reshape_strides(self, <int>ndim, target, layout._strides):
            raise ValueError(f"Layout strides are incompatible with the new shape: {self!r} cannot be "
                             f"viewed with shape {shape} without a copy")
        return layout

    def flattened_axis_mask(self):
        """Bit ``i`` set when axis ``i`` can merge into axis ``i - 1``
        (``strides[i - 1] == strides[i] * shape[i]``). Masks of layouts with the same ndim
        combine with ``&``, for flattening them alike."""
        return self._mergeable_mask()

    cdef uint64_t _mergeable_mask(self):
        cdef uint64_t mask = 0
        for i in range(1, self._ndim):
            if self._strides[i - 1] == self._strides[i] * self._shape[i]:
                mask |= 1ULL << i
        return mask

    def flattened(self, int start_axis=0, int end_axis=-1, mask=None):
        """Merge neighbouring axes that one stride can address (see
        :meth:`flattened_axis_mask`), within the axes ``start_axis`` to ``end_axis``
        (inclusive) and, when ``mask`` is given, only the axes whose bit it sets."""
        cdef int ndim = self._ndim, out = 0
        cdef uint64_t allowed
        cdef _StridedLayout layout
        if ndim == 0:
            # A scalar flattens to one element; only the default axis range names no axis.
            if start_axis != 0 or end_axis != -1:
                raise ValueError(f"Invalid start axis: {start_axis} out of range for a 0D layout "
                                 f"(a scalar takes only the default axis range)")
            layout = _blank(1, self.itemsize, self.slice_offset)
            layout._shape[0] = 1
            layout._strides[0] = 1
            return layout
        cdef int start = _normalize_axis(start_axis, ndim, "start axis")
        cdef int end = _normalize_axis(end_axis, ndim, "end axis")
        allowed = self._mergeable_mask()
        if mask is not None:
            allowed &= <uint64_t>mask
        if end <= start:
            allowed = 0
        else:
            # Bits start + 1 ... end: the axes that may merge into their left neighbour.
            allowed &= (UINT64_MAX >> (63 - end)) & ~(UINT64_MAX >> (63 - start))
        cdef int64_t shape[LAYOUT_MAX_NDIM]
        cdef int64_t strides[LAYOUT_MAX_NDIM]
        for i in range(ndim):
            if i > 0 and allowed & (1ULL << i):
                shape[out - 1] *= self._shape[i]
                strides[out - 1] = self._strides[i]
            else:
                shape[out] = self._shape[i]
                strides[out] = self._strides[i]
                out += 1
        layout = _blank(out, self.itemsize, self.slice_offset)
        memcpy(layout._shape, shape, out * sizeof(int64_t))
        memcpy(layout._strides, strides, out * sizeof(int64_t))
        return layout

    def squeezed(self):
        """The layout without its extents of 1; an empty layout becomes shape (0,), strides (0,)."""
        cdef int out = 0
        cdef _StridedLayout layout
        if _any_zero(self._ndim, self._shape):
            layout = _blank(1, self.itemsize, self.slice_offset)
            layout._shape[0] = 0
            layout._strides[0] = 0
            return layout
        for i in range(self._ndim):
            out += self._shape[i] != 1
        layout = _blank(out, self.itemsize, self.slice_offset)
        out = 0
        for i in range(self._ndim):
            if self._shape[i] != 1:
                layout._shape[out] = self._shape[i]
                layout._strides[out] = self._strides[i]
                out += 1
        return layout

    def unsqueezed(self, axis):
        """The layout with extents of 1 inserted at ``axis`` (an int, or a sequence of distinct
        ints), positions in the result: each in ``[-(ndim + n), ndim + n)`` for n new axes."""
        cdef tuple axes = (axis,) if PyIndex_Check(axis) else tuple(axis)
        cdef Py_ssize_t count = len(axes)
        if count == 0:
            return self
        cdef Py_ssize_t ndim = self._ndim + count
        cdef uint64_t inserted = 0
        cdef int position, source
        cdef int64_t stride
        _check_ndim(ndim)
        for value in axes:
            position = _normalize_axis(value, <int>ndim, "axis")
            if inserted & (1ULL << position):
                raise ValueError(f"Axis {value} appears multiple times in {axis!r}")
            inserted |= 1ULL << position
        cdef _StridedLayout layout = _blank(ndim, self.itemsize, self.slice_offset)
        source = self._ndim - 1
        for k in range(ndim - 1, -1, -1):
            if not inserted & (1ULL << k):
                layout._shape[k] = self._shape[source]
                layout._strides[k] = self._strides[source]
                source -= 1
                continue
            # A new axis takes the stride that would step over its right neighbour (a valid
            # C-order stride); the last axis, with no neighbour, reuses the innermost stride.
            if k + 1 < ndim:
                stride = layout._strides[k + 1] * layout._shape[k + 1]
            elif self._ndim > 0:
                stride = self._strides[self._ndim - 1]
            else:
                stride = 1
            layout._shape[k] = 1
            layout._strides[k] = stride
        return layout

    def broadcast_to(self, tuple shape not None):
        """The layout broadcast to ``shape``: matching extents from the right must be equal or
        1 here; new leading axes and stretched extents of 1 get stride 0."""
        cdef Py_ssize_t ndim = len(shape)
        cdef Py_ssize_t lead = ndim - self._ndim
        cdef int64_t extent, old
        if lead < 0:
            raise ValueError(f"The broadcast shape ndim ({ndim}) must be greater than or equal to the "
                             f"layout's ndim ({self._ndim})")
        _check_ndim(ndim)
        cdef _StridedLayout layout = _blank(ndim, self.itemsize, self.slice_offset)
        _read_extents(shape, layout._shape, ndim)
        for i in range(ndim):
            extent = layout._shape[i]
            if i < lead:
                layout._strides[i] = 0
                continue
            old = self._shape[i - lead]
            if old == extent:
                layout._strides[i] = self._strides[i - lead]
            elif old == 1:
                layout._strides[i] = 0
            else:
                raise ValueError(f"Shapes cannot be broadcast together: the extent {old} of axis "
                                 f"{i - lead} must be 1 or equal to the broadcast extent {extent}")
        return layout

    def repacked(self, int itemsize, data_ptr=0, int axis=-1, bint keep_dim=True):
        """The same bytes seen with elements of ``itemsize`` bytes: a smaller itemsize splits
        each element along ``axis`` (extent times ``self.itemsize // itemsize``), a larger one
        joins consecutive elements (extent divided by ``itemsize // self.itemsize``). The
        axis must have stride 1 and a non-zero extent; joining also needs the extent, the other
        strides, the slice offset and ``data_ptr`` to divide evenly. With ``keep_dim=False``
        an axis joined down to extent 1 is dropped."""
        if itemsize <= 0:
            raise ValueError(f"new itemsize must be greater than zero, got {itemsize}.")
        if itemsize == self.itemsize:
            return self
        cdef int position = _normalize_axis(axis, self._ndim, "axis")
        cdef int64_t stride = self._strides[position], extent = self._shape[position], factor
        if stride != 1:
            raise ValueError(f"The axis {position} stride must be 1 to repack along it, got {stride}.")
        if extent == 0:
            raise ValueError(f"The axis {position} extent must be non-zero to repack along it, got 0.")
        cdef _StridedLayout layout
        if itemsize < self.itemsize:
            factor = self.itemsize // itemsize
            layout = _blank(self._ndim, itemsize, self.slice_offset * factor)
            for i in range(self._ndim):
                layout._shape[i] = self._shape[i]
                layout._strides[i] = self._strides[i] * factor
            layout._shape[position] = extent * factor
            layout._strides[position] = 1
            return layout
        factor = itemsize // self.itemsize
        if extent % factor:
            raise ValueError(f"The axis {position} extent ({extent}) must be divisible by {factor} "
                             f"to pack {factor} elements into one.")
        for i in range(self._ndim):
            if i != position and self._strides[i] % factor:
                raise ValueError(f"The axis {i} stride ({self._strides[i]}) must be divisible by {factor} "
                                 f"to pack {factor} elements into one.")
        if self.slice_offset % factor:
            raise ValueError(f"The slice offset ({self.slice_offset}) must be divisible by {factor} "
                             f"to pack {factor} elements into one.")
        if data_ptr % itemsize:
            raise ValueError(f"The data pointer ({data_ptr}) must be aligned to the packed itemsize "
                             f"({itemsize}).")
        cdef bint drop = not keep_dim and extent == factor
        layout = _blank(self._ndim - drop, itemsize, self.slice_offset // factor)
        cdef int out = 0
        for i in range(self._ndim):
            if i == position:
                if drop:
                    continue
                layout._shape[out] = extent // factor
                layout._strides[out] = 1
            else:
                layout._shape[out] = self._shape[i]
                layout._strides[out] = self._strides[i] // factor
            out += 1
        return layout

    def max_compatible_itemsize(self, int max_itemsize=16, data_ptr=0, int axis=-1):
        """The largest itemsize, at most ``max_itemsize``, that :meth:`repacked` accepts for this
        layout (and ``data_ptr``) along ``axis``: the greatest common divisor of the byte sizes
        that must divide it. This layout's itemsize when the axis cannot be repacked."""
        if max_itemsize <= 0:
            raise ValueError(f"max_itemsize must be greater than zero, got {max_itemsize}.")
        if max_itemsize < self.itemsize:
            raise ValueError(f"max_itemsize ({max_itemsize}) cannot be less than itemsize ({self.itemsize}).")
        cdef int position = _normalize_axis(axis, self._ndim, "axis")
        cdef int64_t size = self.itemsize
        self._get_volume()  # a layout whose volume overflows has no byte sizes to divide
        if self._strides[position] != 1 or self._shape[position] == 0:
            return self.itemsize
        cdef int64_t result = _gcd(max_itemsize, self._shape[position] * size)
        for i in range(self._ndim):
            if i != position:
                result = _gcd(result, self._strides[i] * size)
        result = _gcd(result, self.slice_offset * size)
        return _gcd(result, data_ptr % max_itemsize)

    # -- comparison and printing ------------------------------------------------------------

    def __eq__(self, other):
        if not isinstance(other, _StridedLayout):
            return NotImplemented
        cdef _StridedLayout that = <_StridedLayout>other
        if (self._ndim != that._ndim or self.itemsize != that.itemsize
                or self.slice_offset != that.slice_offset or self._explicit != that._explicit):
            return False
        for i in range(self._ndim):
            if self._shape[i] != that._shape[i] or self._strides[i] != that._strides[i]:
                return False
        return True

    __hash__ = None

    def __repr__(self):
        text = f"_StridedLayout(shape={self.shape}, strides={self.strides}, itemsize={self.itemsize}"
        if self.slice_offset:
            text += f", _slice_offset={self.slice_offset}"
        return text + ")"


cdef bint _reshape_strides(_StridedLayout layout, int ndim, const int64_t* shape, int64_t* out):
    """Strides for ``shape`` that address the elements of the non-empty ``layout`` in the same C
    order, into ``out``; False when there are none (a copy would be needed).

    The old and new axes are walked in groups whose products match: the old axes of a group
    must form one run that a single stride can address, and the group's new axes get the C
    strides that end at the run's innermost stride. Old extents of 1 between groups are
    skipped; new extents of 1 after the last group take the stride of the last old axis.
    """
    cdef int count = layout._ndim, old_at = 0, new_at = 0, old_end, new_end
    cdef const int64_t* old_shape = layout._shape
    cdef const int64_t* old_strides = layout._strides
    cdef int64_t old_product, new_product
    while True:
        while old_at < count and old_shape[old_at] == 1:
            old_at += 1
        if new_at >= ndim or old_at >= count:
            break
        old_product, new_product = old_shape[old_at], shape[new_at]
        old_end, new_end = old_at + 1, new_at + 1
        while old_product != new_product:
            if new_product < old_product:
                if new_end >= ndim:
                    return False
                new_product *= shape[new_end]
                new_end += 1
            else:
                if old_end >= count:
                    return False
                old_product *= old_shape[old_end]
                old_end += 1
        for k in range(old_at, old_end - 1):
            if old_strides[k] != old_shape[k + 1] * old_strides[k + 1]:
                return False
        out[new_end - 1] = old_strides[old_end - 1]
        for k in range(new_end - 1, new_at, -1):
            out[k - 1] = out[k] * shape[k]
        old_at, new_at = old_end, new_end
    cdef int64_t last = old_strides[count - 1] if count > 0 else 1
    for k in range(new_at, ndim):
        out[k] = last
    return True
