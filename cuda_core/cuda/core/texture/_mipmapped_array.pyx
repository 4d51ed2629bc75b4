# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture.MipmappedArray: a CUDA mipmapped array (CUmipmappedArray), a chain of
levels each half the size of the one before, sampled with level-of-detail by a TextureObject.

get_level() gives a level as a non-owning OpaqueArray (to copy data in, or to bind as a
SurfaceObject) that keeps the mipmap's storage alive: the driver frees all levels with the
mipmap, so the mipmap is destroyed only when it, its levels and its textures are all gone.
"""

import operator
from dataclasses import dataclass

from libc.string cimport memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device
from cuda.core.texture._array cimport _array_from_storage, _new_storage

from cuda.core.texture._array import (_ARRAYFORMAT_TO_CU, _CU_TO_ARRAYFORMAT, _options_of, _validate_array_shape,
                                      _validate_format_channels)

__all__ = ['MipmappedArray', 'MipmappedArrayOptions']


@dataclass
class MipmappedArrayOptions:
    """How Device.create_mipmapped_array() allocates: ``shape`` of level 0 (1-3 extents, in
    elements), ``format`` (an ArrayFormatType, its string, or a NumPy dtype),
    ``num_channels`` (1, 2 or 4), ``num_levels`` (>= 1; the driver refuses more than the
    largest extent allows) and ``is_surface_load_store`` (levels can back a SurfaceObject).
    Checked and normalized when made."""

    shape: tuple[int, ...]
    format: object
    num_channels: int
    num_levels: int
    is_surface_load_store: bool = False

    def __post_init__(self):
        self.shape = _validate_array_shape(self.shape)
        self.format = _validate_format_channels(self.format, self.num_channels)
        try:
            levels = operator.index(self.num_levels)
        except TypeError:
            raise TypeError(f"num_levels must be an int, got {type(self.num_levels).__name__}") from None
        if levels < 1:
            raise ValueError(f"num_levels must be >= 1, got {levels}")
        self.num_levels = levels
        self.is_surface_load_store = bool(self.is_surface_load_store)


cdef class _MipmapStorage:
    """One CUmipmappedArray, destroyed with this object (see _mipmapped_array.pxd)."""

    def __dealloc__(self):
        cdef cydriver.CUcontext popped = NULL
        if self.handle == NULL:
            return
        # Errors are ignored: at exit the context may be gone, and the mipmap with it.
        cdef cydriver.CUcontext context = self.context
        cdef cydriver.CUmipmappedArray handle = self.handle
        with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
            if context == NULL or cydriver.cuCtxPushCurrent(context) == cydriver.CUDA_SUCCESS:
                cydriver.cuMipmappedArrayDestroy(handle)
                if context != NULL:
                    cydriver.cuCtxPopCurrent(&popped)
        self.handle = NULL


cdef class MipmappedArray:
    """A CUDA mipmapped array: level 0 of ``shape`` and each next level half as large (at
    least 1), all opaque, driver-laid-out storage for a TextureObject to sample with level of
    detail. Made by Device.create_mipmapped_array()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("MipmappedArray cannot be instantiated directly: use Device.create_mipmapped_array()")

    def get_level(self, level):
        """Level ``level`` (in [0, num_levels)) as an OpaqueArray that does not own it but
        keeps this mipmap's storage alive while it lives."""
        MipmappedArray_check_open(self)
        index = operator.index(level)
        if index < 0:
            raise ValueError(f"level must be >= 0, got {index}")
        if index >= self._num_levels:
            raise ValueError(f"level {index} is out of range: the mipmap has num_levels={self._num_levels}")
        cdef cydriver.CUarray handle = NULL
        cdef unsigned int c_level = index
        with nogil:
            HANDLE_RETURN(cydriver.cuMipmappedArrayGetLevel(&handle, self._storage.handle, c_level))
        storage = _new_storage(handle, NULL, False, self._storage)
        return _array_from_storage(storage, self._device_id, self._surface_load_store)

    @property
    def handle(self):
        """The CUmipmappedArray as an int (0 once closed)."""
        return 0 if self._storage is None else <size_t>self._storage.handle

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._storage is None

    @property
    def shape(self):
        """Level 0's extents, in elements."""
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
    def num_levels(self):
        """How many levels were allocated."""
        return self._num_levels

    @property
    def is_surface_load_store(self):
        """Whether the mipmap was made with CUDA_ARRAY3D_SURFACE_LDST, so its levels can back
        a SurfaceObject."""
        return self._surface_load_store

    @property
    def device(self):
        """The Device the mipmap was allocated on."""
        from cuda.core._device import Device
        return Device(self._device_id)

    cpdef close(self):
        """Drop this object's reference to the CUmipmappedArray: it is destroyed once no level
        or texture uses it either. Idempotent."""
        self._storage = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()

    def __repr__(self):
        if self._storage is None:
            return f"<MipmappedArray shape={self._shape} num_levels={self._num_levels} (closed)>"
        return (f"<MipmappedArray shape={self._shape} format={self.format.value} num_channels={self._num_channels} "
                f"num_levels={self._num_levels} handle={self.handle:#x}>")


def _create_mipmapped_array(options):
    """A new MipmappedArray on the current context, made as ``options`` (a
    MipmappedArrayOptions or a dict of its fields) says. Backs Device.create_mipmapped_array()."""
    options = _options_of(MipmappedArrayOptions, options, "create_mipmapped_array()")
    shape = options.shape
    cdef cydriver.CUDA_ARRAY3D_DESCRIPTOR desc
    memset(&desc, 0, sizeof(desc))
    desc.Width = shape[0]
    desc.Height = shape[1] if len(shape) > 1 else 0
    desc.Depth = shape[2] if len(shape) > 2 else 0
    desc.Format = <cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[options.format]
    desc.NumChannels = options.num_channels
    desc.Flags = cydriver.CUDA_ARRAY3D_SURFACE_LDST if options.is_surface_load_store else 0
    cdef unsigned int levels = options.num_levels
    cdef cydriver.CUmipmappedArray handle = NULL
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        HANDLE_RETURN(cydriver.cuMipmappedArrayCreate(&handle, &desc, levels))
    cdef _MipmapStorage storage = _MipmapStorage.__new__(_MipmapStorage)
    storage.handle = handle
    storage.context = context
    cdef MipmappedArray mipmap = MipmappedArray.__new__(MipmappedArray)
    mipmap._storage = storage
    mipmap._shape = shape
    mipmap._format = desc.Format
    mipmap._num_channels = desc.NumChannels
    mipmap._num_levels = levels
    mipmap._device_id = max(current_device(), 0)
    mipmap._surface_load_store = options.is_surface_load_store
    return mipmap
