# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture.OpaqueArray: a CUDA array (CUarray), storage laid out by the driver for
2D/3D locality, read by kernels only through texture and surface objects.

An array has no device pointer, so data moves in and out by copies (cuMemcpy3DAsync) from and
to a Buffer or a host buffer-protocol object. The CUarray lives in an _ArrayStorage that the
OpaqueArray and every texture or surface bound to it share: it is destroyed with the last.
"""

import operator
from dataclasses import dataclass

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.string cimport memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer
from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device

from cuda.core.typing import ArrayFormatType

__all__ = ['OpaqueArray', 'OpaqueArrayOptions']

# ArrayFormatType <-> the driver's CUarray_format (as ints, for Python-level lookups).
_ARRAYFORMAT_TO_CU = {
    ArrayFormatType.UINT8: int(cydriver.CU_AD_FORMAT_UNSIGNED_INT8),
    ArrayFormatType.UINT16: int(cydriver.CU_AD_FORMAT_UNSIGNED_INT16),
    ArrayFormatType.UINT32: int(cydriver.CU_AD_FORMAT_UNSIGNED_INT32),
    ArrayFormatType.INT8: int(cydriver.CU_AD_FORMAT_SIGNED_INT8),
    ArrayFormatType.INT16: int(cydriver.CU_AD_FORMAT_SIGNED_INT16),
    ArrayFormatType.INT32: int(cydriver.CU_AD_FORMAT_SIGNED_INT32),
    ArrayFormatType.FLOAT16: int(cydriver.CU_AD_FORMAT_HALF),
    ArrayFormatType.FLOAT32: int(cydriver.CU_AD_FORMAT_FLOAT),
}
_CU_TO_ARRAYFORMAT = {cu: fmt for fmt, cu in _ARRAYFORMAT_TO_CU.items()}
# A NumPy dtype's name -> its format: each ArrayFormatType is named as its dtype.
_NUMPY_DTYPE_TO_ARRAYFORMAT = {str(fmt.value): fmt for fmt in ArrayFormatType}
# CUarray_format (int) -> bytes per channel.
_FORMAT_ELEM_SIZE = {cu: int(_format_size(<cydriver.CUarray_format>cu)) for cu in _CU_TO_ARRAYFORMAT}

_VALID_CHANNELS = (1, 2, 4)


cdef size_t _format_size(cydriver.CUarray_format fmt) noexcept:
    if fmt == cydriver.CU_AD_FORMAT_UNSIGNED_INT8 or fmt == cydriver.CU_AD_FORMAT_SIGNED_INT8:
        return 1
    if fmt == cydriver.CU_AD_FORMAT_UNSIGNED_INT16 or fmt == cydriver.CU_AD_FORMAT_SIGNED_INT16 or \
            fmt == cydriver.CU_AD_FORMAT_HALF:
        return 2
    if fmt == cydriver.CU_AD_FORMAT_UNSIGNED_INT32 or fmt == cydriver.CU_AD_FORMAT_SIGNED_INT32 or \
            fmt == cydriver.CU_AD_FORMAT_FLOAT:
        return 4
    return 0


def _normalize_array_format(format):
    """``format`` as an ArrayFormatType: a member, its string value ("float32"), or a NumPy
    dtype (or what numpy.dtype() takes) of one of the eight formats. ValueError otherwise."""
    if isinstance(format, ArrayFormatType):
        return format
    if isinstance(format, str) and format in _NUMPY_DTYPE_TO_ARRAYFORMAT:
        return _NUMPY_DTYPE_TO_ARRAYFORMAT[format]
    choices = ", ".join(repr(fmt.value) for fmt in ArrayFormatType)
    dtype = _as_numpy_dtype(format)
    if dtype is None:
        raise ValueError(f"format must be an ArrayFormatType, one of its strings ({choices}) or a NumPy dtype of "
                         f"one of them, got {format!r}")
    fmt = _NUMPY_DTYPE_TO_ARRAYFORMAT.get(dtype.name)
    if fmt is None:
        raise ValueError(f"NumPy dtype {dtype.name} has no ArrayFormatType equivalent: CUDA arrays hold "
                         f"{choices}")
    return fmt


cdef object _as_numpy_dtype(object format):
    """``numpy.dtype(format)``, or None where NumPy is missing or does not take ``format``."""
    if format is None or isinstance(format, (bool, int, float)):
        return None  # numpy.dtype(None) is float64; numbers are no formats
    try:
        import numpy
        return numpy.dtype(format)
    except (ImportError, TypeError, ValueError):
        return None


def _validate_format_channels(format, num_channels):
    """The ArrayFormatType of ``format``, after checking that ``num_channels`` is 1, 2 or 4
    (the channel counts CUDA arrays and textures take)."""
    fmt = _normalize_array_format(format)
    if isinstance(num_channels, bool) or not isinstance(num_channels, int) or num_channels not in _VALID_CHANNELS:
        raise ValueError(f"num_channels must be 1, 2 or 4, got {num_channels!r}")
    return fmt


def _validate_array_shape(shape):
    """``shape`` as a tuple of 1 to 3 ints, each >= 1 ((width,), (width, height) or
    (width, height, depth), in elements)."""
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        raise TypeError(f"shape must be a tuple of 1-3 ints (width[, height[, depth]]), got {type(shape).__name__}")
    try:
        extents = tuple(operator.index(extent) for extent in shape)
    except TypeError:
        raise TypeError(f"shape must be a tuple of 1-3 ints (width[, height[, depth]]), got {shape!r}") from None
    if not 1 <= len(extents) <= 3:
        raise ValueError(f"shape rank must be 1, 2 or 3 (width[, height[, depth]]), got {len(extents)}: {shape!r}")
    for axis, extent in enumerate(extents):
        if extent < 1:
            raise ValueError(f"shape[{axis}] must be >= 1, got {extent}")
    return extents


def _options_of(cls, options, what):
    """``options`` as a ``cls``: an instance as is, a dict as its fields."""
    if isinstance(options, cls):
        return options
    if isinstance(options, dict):
        return cls(**options)
    article = "an" if cls.__name__[0] in "AEIOU" else "a"
    raise TypeError(f"{what} takes {article} {cls.__name__} (or a dict of its fields), got {type(options).__name__}")


@dataclass
class OpaqueArrayOptions:
    """How Device.create_opaque_array() allocates: ``shape`` (1-3 extents, in elements),
    ``format`` (an ArrayFormatType, its string, or a NumPy dtype), ``num_channels`` (1, 2
    or 4) and ``is_surface_load_store`` (allocate with CUDA_ARRAY3D_SURFACE_LDST so the array
    can back a SurfaceObject). Checked and normalized when made."""

    shape: tuple[int, ...]
    format: object
    num_channels: int
    is_surface_load_store: bool = False

    def __post_init__(self):
        self.shape = _validate_array_shape(self.shape)
        self.format = _validate_format_channels(self.format, self.num_channels)
        self.is_surface_load_store = bool(self.is_surface_load_store)


cdef int _destroy_array(cydriver.CUarray handle, cydriver.CUcontext context) except -1:
    """cuArrayDestroy in ``context``; errors are ignored (at exit the context may be gone, and
    the array with it)."""
    cdef cydriver.CUcontext popped = NULL
    with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
        if context != NULL and cydriver.cuCtxPushCurrent(context) != cydriver.CUDA_SUCCESS:
            return 0
        cydriver.cuArrayDestroy(handle)
        if context != NULL:
            cydriver.cuCtxPopCurrent(&popped)
    return 0


cdef class _ArrayStorage:
    """One CUarray and whether it is destroyed here (see _array.pxd)."""

    def __dealloc__(self):
        if self.owning and self.handle != NULL:
            _destroy_array(self.handle, self.context)
        self.handle = NULL


cdef _ArrayStorage _new_storage(cydriver.CUarray handle, cydriver.CUcontext context, bint owning, object parent):
    cdef _ArrayStorage storage = _ArrayStorage.__new__(_ArrayStorage)
    storage.handle = handle
    storage.context = context
    storage.owning = owning
    storage.parent = parent
    return storage


cdef class OpaqueArray:
    """A CUDA array: opaque, driver-laid-out storage that kernels read through a
    TextureObject and write through a SurfaceObject. It has no device pointer, so it is not
    shared zero-copy: copy_from() and copy_to() move data from and to a Buffer or host memory.
    Made by Device.create_opaque_array() (or MipmappedArray.get_level())."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("OpaqueArray cannot be instantiated directly: use Device.create_opaque_array() "
                           "(or MipmappedArray.get_level())")

    @classmethod
    def _from_handle(cls, handle, owning, *, device_id=None):
        """An OpaqueArray over an existing CUarray (e.g. a graphics resource's mapped array);
        with ``owning`` False it is never destroyed here. Its shape, format and channels are
        read from the driver."""
        cdef cydriver.CUarray array = <cydriver.CUarray><size_t>int(handle)
        cdef cydriver.CUcontext context = NULL
        if array == NULL:
            raise ValueError("handle must be a CUarray, got a NULL handle")
        if owning:
            with nogil:
                HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        cdef int device = current_device() if device_id is None else int(device_id)
        return _array_from_storage(_new_storage(array, context, bool(owning), None), max(device, 0), -1)

    @property
    def handle(self):
        """The CUarray as an int (0 once closed)."""
        return 0 if self._storage is None else <size_t>self._storage.handle

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._storage is None

    @property
    def shape(self):
        """The extents, in elements: (width,), (width, height) or (width, height, depth)."""
        return self._shape

    @property
    def format(self):
        """The ArrayFormatType of each channel."""
        return _CU_TO_ARRAYFORMAT[<int>self._format]

    @property
    def num_channels(self):
        """Channels per element: 1, 2 or 4."""
        return self._num_channels

    @property
    def element_bytes(self):
        """Bytes per element: the format's size times the channels."""
        return _format_size(self._format) * self._num_channels

    @property
    def device(self):
        """The Device the array was allocated on."""
        from cuda.core._device import Device
        return Device(self._device_id)

    @property
    def is_surface_load_store(self):
        """Whether the array was made with CUDA_ARRAY3D_SURFACE_LDST, so it can back a
        SurfaceObject."""
        return self._surface_load_store

    def _extent_bytes(self):
        """(width in bytes, height, depth) as cuMemcpy3D takes them: height and depth at
        least 1 for arrays of lower rank."""
        extents = self._shape + (1,) * (3 - len(self._shape))
        return (extents[0] * self.element_bytes, extents[1], extents[2])

    @property
    def size_bytes(self):
        """Bytes of the whole array: the product of the shape times element_bytes."""
        width_bytes, height, depth = self._extent_bytes()
        return width_bytes * height * depth

    def copy_from(self, src, *, stream) -> None:
        """Copy the whole array's worth of bytes from ``src`` (a Buffer, or a C-contiguous
        host buffer-protocol object, rows of width elements first) on ``stream`` (a Stream, or
        a GraphBuilder to capture the copy)."""
        OpaqueArray_check_open(self)
        _copy(self, src, Stream_accept(stream), True)

    def copy_to(self, dst, *, stream):
        """Copy the whole array into ``dst`` (a Buffer, or a writable C-contiguous host
        buffer-protocol object) on ``stream`` (a Stream or a GraphBuilder); returns ``dst``."""
        OpaqueArray_check_open(self)
        _copy(self, dst, Stream_accept(stream), False)
        return dst

    cpdef close(self):
        """Drop this object's reference to the CUarray: it is destroyed (if owned here) once
        no texture or surface object uses it either. Idempotent."""
        self._storage = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()

    def __repr__(self):
        if self._storage is None:
            return f"<OpaqueArray shape={self._shape} (closed)>"
        return (f"<OpaqueArray shape={self._shape} format={self.format.value} num_channels={self._num_channels} "
                f"handle={self.handle:#x}>")


cdef int _copy(OpaqueArray self, object other, Stream stream, bint into_array) except -1:
    """One cuMemcpy3DAsync between the array and ``other``, on ``stream``."""
    cdef cydriver.CUDA_MEMCPY3D copy
    cdef Py_buffer view
    cdef bint have_view = False
    cdef size_t width_bytes, height, depth, available
    cdef cydriver.CUmemorytype memory_type
    cdef cydriver.CUdeviceptr device_ptr = 0
    cdef void* host_ptr = NULL
    cdef cydriver.CUstream handle = stream._live_handle()
    width_bytes, height, depth = self._extent_bytes()
    cdef size_t needed = width_bytes * height * depth
    what = "src" if into_array else "dst"
    if isinstance(other, Buffer):
        device_ptr = (<Buffer>other)._live_ptr()
        available = (<Buffer>other)._size
        memory_type = cydriver.CU_MEMORYTYPE_UNIFIED  # device, pinned or managed: the driver knows
    else:
        try:
            PyObject_GetBuffer(other, &view, PyBUF_C_CONTIGUOUS | (0 if into_array else PyBUF_WRITABLE))
        except (BufferError, TypeError) as err:
            kind = "a" if into_array else "a writable"
            raise TypeError(f"{what} must be a Buffer or {kind} contiguous buffer-protocol object, got "
                            f"{type(other).__name__}: {err}") from None
        have_view = True
        host_ptr = view.buf
        available = <size_t>view.len
        memory_type = cydriver.CU_MEMORYTYPE_HOST
    try:
        if available < needed:
            raise ValueError(f"{what} holds {available} bytes, smaller than the array extent of {needed} bytes "
                             f"(shape {self._shape} x {self.element_bytes} bytes per element): pass at least "
                             "size_bytes bytes")
        memset(&copy, 0, sizeof(copy))
        if into_array:
            copy.srcMemoryType = memory_type
            copy.srcHost = host_ptr
            copy.srcDevice = device_ptr
            copy.srcPitch = width_bytes
            copy.srcHeight = height
            copy.dstMemoryType = cydriver.CU_MEMORYTYPE_ARRAY
            copy.dstArray = self._storage.handle
        else:
            copy.srcMemoryType = cydriver.CU_MEMORYTYPE_ARRAY
            copy.srcArray = self._storage.handle
            copy.dstMemoryType = memory_type
            copy.dstHost = host_ptr
            copy.dstDevice = device_ptr
            copy.dstPitch = width_bytes
            copy.dstHeight = height
        copy.WidthInBytes = width_bytes
        copy.Height = height
        copy.Depth = depth
        with nogil:
            HANDLE_RETURN(cydriver.cuMemcpy3DAsync(&copy, handle))
    finally:
        if have_view:
            PyBuffer_Release(&view)
    return 0


cdef OpaqueArray _new_array(_ArrayStorage storage, tuple shape, cydriver.CUarray_format fmt,
                            unsigned int num_channels, int device_id, bint surface):
    cdef OpaqueArray array = OpaqueArray.__new__(OpaqueArray)
    array._storage = storage
    array._shape = shape
    array._format = fmt
    array._num_channels = num_channels
    array._device_id = device_id
    array._surface_load_store = surface
    return array


cdef OpaqueArray _array_from_storage(_ArrayStorage storage, int device_id, int surface_flag):
    cdef cydriver.CUDA_ARRAY3D_DESCRIPTOR desc
    with nogil:
        HANDLE_RETURN(cydriver.cuArray3DGetDescriptor(&desc, storage.handle))
    if _format_size(desc.Format) == 0:
        raise ValueError(f"the CUarray's format (CUarray_format {<int>desc.Format}) has no ArrayFormatType "
                         "equivalent: cuda.core supports the 8-, 16- and 32-bit integer and 16-/32-bit float formats")
    if desc.Height == 0:
        shape = (desc.Width,)
    elif desc.Depth == 0:
        shape = (desc.Width, desc.Height)
    else:
        shape = (desc.Width, desc.Height, desc.Depth)
    cdef bint surface = (desc.Flags & cydriver.CUDA_ARRAY3D_SURFACE_LDST) != 0 if surface_flag < 0 else surface_flag
    return _new_array(storage, shape, desc.Format, desc.NumChannels, device_id, surface)


def _create_opaque_array(options):
    """A new OpaqueArray on the current context, made as ``options`` (an OpaqueArrayOptions
    or a dict of its fields) says. Backs Device.create_opaque_array()."""
    options = _options_of(OpaqueArrayOptions, options, "create_opaque_array()")
    shape = options.shape
    cdef cydriver.CUDA_ARRAY3D_DESCRIPTOR desc
    memset(&desc, 0, sizeof(desc))
    desc.Width = shape[0]
    desc.Height = shape[1] if len(shape) > 1 else 0  # 0: a 1D array
    desc.Depth = shape[2] if len(shape) > 2 else 0   # 0: a 1D or 2D array
    desc.Format = <cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[options.format]
    desc.NumChannels = options.num_channels
    desc.Flags = cydriver.CUDA_ARRAY3D_SURFACE_LDST if options.is_surface_load_store else 0
    cdef cydriver.CUarray handle = NULL
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        HANDLE_RETURN(cydriver.cuArray3DCreate(&handle, &desc))
    storage = _new_storage(handle, context, True, None)
    return _new_array(storage, shape, desc.Format, desc.NumChannels, max(current_device(), 0),
                      options.is_surface_load_store)
