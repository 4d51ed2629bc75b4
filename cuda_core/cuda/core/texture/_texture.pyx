# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture.TextureObject: a bindless texture (CUtexObject) for sampled reads in
kernels, over memory a ResourceDescriptor names (an OpaqueArray, a MipmappedArray, or a
Buffer read as a linear or a pitched 2D image), with sampling state from TextureObjectOptions.

A texture keeps its backing memory alive: it holds the array's storage (so closing the
OpaqueArray does not free what the texture reads) or the Buffer. In a kernel it is the 64-bit
cudaTextureObject_t: pass the TextureObject itself, or ``numpy.uint64(tex.handle)``.
"""

import operator
from dataclasses import dataclass

from libc.string cimport memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device
from cuda.core.texture._array cimport OpaqueArray, OpaqueArray_check_open, _format_size
from cuda.core.texture._mipmapped_array cimport MipmappedArray, MipmappedArray_check_open

from cuda.core._utils.cuda_utils import check_or_create_options
from cuda.core.texture._array import _ARRAYFORMAT_TO_CU, _validate_format_channels
from cuda.core.typing import AddressModeType, FilterModeType, ReadModeType

__all__ = ['ResourceDescriptor', 'TextureObject', 'TextureObjectOptions']

# CUDA_TEXTURE_DESC.flags bits (the driver's CU_TRSF_*).
_TRSF_READ_AS_INTEGER = cydriver.CU_TRSF_READ_AS_INTEGER
_TRSF_NORMALIZED_COORDINATES = cydriver.CU_TRSF_NORMALIZED_COORDINATES
_TRSF_SRGB = cydriver.CU_TRSF_SRGB
_TRSF_DISABLE_TRILINEAR_OPTIMIZATION = cydriver.CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION
_TRSF_SEAMLESS_CUBEMAP = cydriver.CU_TRSF_SEAMLESS_CUBEMAP

_ADDRESSMODE_TO_CU = {
    AddressModeType.WRAP: int(cydriver.CU_TR_ADDRESS_MODE_WRAP),
    AddressModeType.CLAMP: int(cydriver.CU_TR_ADDRESS_MODE_CLAMP),
    AddressModeType.MIRROR: int(cydriver.CU_TR_ADDRESS_MODE_MIRROR),
    AddressModeType.BORDER: int(cydriver.CU_TR_ADDRESS_MODE_BORDER),
}
_FILTERMODE_TO_CU = {
    FilterModeType.POINT: int(cydriver.CU_TR_FILTER_MODE_POINT),
    FilterModeType.LINEAR: int(cydriver.CU_TR_FILTER_MODE_LINEAR),
}

_ARRAY_KINDS = ("opaque_array", "mipmapped_array")


def _require_buffer(buffer):
    if not isinstance(buffer, Buffer):
        raise TypeError(f"buffer must be a Buffer (device memory, e.g. from Device.allocate()), got "
                        f"{type(buffer).__name__}")


def _positive(name, value):
    """``value`` as an int >= 1; ValueError naming ``name`` otherwise."""
    number = operator.index(value)
    if number < 1:
        raise ValueError(f"{name} must be >= 1, got {number}")
    return number


class ResourceDescriptor:
    """What memory backs a TextureObject or SurfaceObject. Made by a ``from_*`` classmethod:
    from_opaque_array() (textures and, with is_surface_load_store, surfaces),
    from_mipmapped_array() (textures only), from_linear() (a Buffer read by typed 1D fetches,
    no filtering or addressing) and from_pitch2d() (a Buffer read as a 2D image of rows
    ``pitch_bytes`` apart). It holds its source, so the memory lives as long as it does."""

    __slots__ = ('_kind', '_source', '_format', '_num_channels', '_size_bytes', '_width', '_height', '_pitch_bytes')

    def __init__(self):
        raise RuntimeError("ResourceDescriptor cannot be instantiated directly: use ResourceDescriptor."
                           "from_opaque_array(), from_mipmapped_array(), from_linear() or from_pitch2d()")

    @classmethod
    def _make(cls, kind, source, format=None, num_channels=None, size_bytes=None, width=None, height=None,
              pitch_bytes=None):
        descriptor = cls.__new__(cls)
        descriptor._kind = kind
        descriptor._source = source
        descriptor._format = format
        descriptor._num_channels = num_channels
        descriptor._size_bytes = size_bytes
        descriptor._width = width
        descriptor._height = height
        descriptor._pitch_bytes = pitch_bytes
        return descriptor

    @classmethod
    def from_opaque_array(cls, array):
        """A descriptor of an OpaqueArray."""
        if not isinstance(array, OpaqueArray):
            raise TypeError(f"array must be an OpaqueArray (from Device.create_opaque_array()), got "
                            f"{type(array).__name__}")
        return cls._make("opaque_array", array)

    @classmethod
    def from_mipmapped_array(cls, mipmapped_array):
        """A descriptor of a MipmappedArray, for textures sampled with level of detail (a
        surface needs one level: MipmappedArray.get_level())."""
        if not isinstance(mipmapped_array, MipmappedArray):
            raise TypeError(f"mipmapped_array must be a MipmappedArray (from Device.create_mipmapped_array()), got "
                            f"{type(mipmapped_array).__name__}")
        return cls._make("mipmapped_array", mipmapped_array)

    @classmethod
    def from_linear(cls, buffer, *, format, num_channels, size_bytes=None):
        """A descriptor of ``size_bytes`` (default: all) of ``buffer`` read as a 1D array of
        elements of ``format`` x ``num_channels``. The Buffer must outlive the textures made
        from it; their addressing and filtering options do not apply."""
        _require_buffer(buffer)
        fmt = _validate_format_channels(format, num_channels)
        element = _format_size(<cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[fmt]) * num_channels
        size = buffer.size if size_bytes is None else operator.index(size_bytes)
        if size > buffer.size:
            raise ValueError(f"size_bytes ({size}) exceeds buffer.size ({buffer.size}): bind at most the buffer")
        if size < element:
            raise ValueError(f"size_bytes ({size}) must hold at least one element of {element} bytes")
        if size % element:
            raise ValueError(f"size_bytes ({size}) must be a multiple of element size ({element} bytes: "
                             f"{fmt.value} x {num_channels})")
        return cls._make("linear", buffer, fmt, num_channels, size_bytes=size)

    @classmethod
    def from_pitch2d(cls, buffer, *, format, num_channels, width, height, pitch_bytes):
        """A descriptor of ``buffer`` read as a ``width`` x ``height`` image of elements of
        ``format`` x ``num_channels``, rows ``pitch_bytes`` apart (at least a row's bytes, and
        a multiple of the device's texture pitch alignment, which the driver checks)."""
        _require_buffer(buffer)
        fmt = _validate_format_channels(format, num_channels)
        width = _positive("width", width)
        height = _positive("height", height)
        pitch = operator.index(pitch_bytes)
        row = width * _format_size(<cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[fmt]) * num_channels
        if pitch < row:
            raise ValueError(f"pitch_bytes ({pitch}) must be at least width * element size ({row} bytes)")
        if pitch * height > buffer.size:
            raise ValueError(f"pitch_bytes * height ({pitch * height}) exceeds buffer.size ({buffer.size})")
        return cls._make("pitch2d", buffer, fmt, num_channels, width=width, height=height, pitch_bytes=pitch)

    @property
    def kind(self):
        """What backs it: "opaque_array", "mipmapped_array", "linear" or "pitch2d"."""
        return self._kind

    @property
    def source(self):
        """The OpaqueArray, MipmappedArray or Buffer described."""
        return self._source

    @property
    def format(self):
        """The ArrayFormatType of a Buffer's elements (None for arrays, which carry their own)."""
        return self._format

    @property
    def num_channels(self):
        """Channels per element of a Buffer (None for arrays)."""
        return self._num_channels

    @property
    def size_bytes(self):
        """Bytes bound of a linear Buffer (None for other kinds)."""
        return self._size_bytes

    @property
    def width(self):
        """A pitched image's width, in elements (None for other kinds)."""
        return self._width

    @property
    def height(self):
        """A pitched image's height, in rows (None for other kinds)."""
        return self._height

    @property
    def pitch_bytes(self):
        """A pitched image's row pitch, in bytes (None for other kinds)."""
        return self._pitch_bytes

    def __repr__(self):
        if self._kind == "linear":
            return (f"<ResourceDescriptor linear format={self._format.value} num_channels={self._num_channels} "
                    f"size_bytes={self._size_bytes}>")
        if self._kind == "pitch2d":
            return (f"<ResourceDescriptor pitch2d format={self._format.value} num_channels={self._num_channels} "
                    f"width={self._width} height={self._height} pitch_bytes={self._pitch_bytes}>")
        return f"<ResourceDescriptor {self._kind} source={self._source!r}>"


def _normalize_enum(name, value, enum_type):
    """``value`` as a member of the StrEnum ``enum_type`` (a member or its string);
    ValueError naming ``name`` otherwise."""
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        try:
            return enum_type(value)
        except ValueError:
            pass
    choices = ", ".join(repr(member.value) for member in enum_type)
    article = "an" if enum_type.__name__[0] in "AEIOU" else "a"
    raise ValueError(f"{name} must be {article} {enum_type.__name__} or one of its strings ({choices}), got {value!r}")


def _normalize_address_modes(address_mode):
    """Three AddressModeType (one per axis) from one mode for all axes or a tuple of 1-3,
    the last repeated for the axes it leaves out; entries may be strings."""
    if isinstance(address_mode, str):
        mode = _normalize_enum("address_mode", address_mode, AddressModeType)
        return (mode, mode, mode)
    if not isinstance(address_mode, (tuple, list)):
        raise TypeError(f"address_mode must be an AddressModeType (or its string) or a tuple of 1-3 of them, got "
                        f"{type(address_mode).__name__}")
    if not 1 <= len(address_mode) <= 3:
        raise ValueError(f"address_mode tuple must have 1-3 entries (one per axis), got {len(address_mode)}")
    modes = tuple(_normalize_enum(f"address_mode[{axis}]", mode, AddressModeType)
                  for axis, mode in enumerate(address_mode))
    return modes + (modes[-1],) * (3 - len(modes))


@dataclass
class TextureObjectOptions:
    """How a TextureObject samples (the driver's CUDA_TEXTURE_DESC): ``address_mode`` (one
    AddressModeType, or one per axis), ``filter_mode``, ``read_mode`` (ELEMENT_TYPE, or
    integer formats read as floats in [0, 1] / [-1, 1]), ``normalized_coords`` (coordinates in
    [0, 1]), ``srgb``, ``disable_trilinear_optimization``, ``seamless_cubemap``,
    ``max_anisotropy`` (0: off), the mipmap filter, bias and level clamps, and
    ``border_color`` (4 floats for BORDER addressing; None: zeros). Enums may be given as
    their strings; the filter and read modes are checked when made, the rest at
    Device.create_texture_object()."""

    address_mode: AddressModeType | str | tuple[AddressModeType | str, ...] = AddressModeType.CLAMP
    filter_mode: FilterModeType | str = FilterModeType.POINT
    read_mode: ReadModeType | str = ReadModeType.ELEMENT_TYPE
    normalized_coords: bool = False
    srgb: bool = False
    disable_trilinear_optimization: bool = False
    seamless_cubemap: bool = False
    max_anisotropy: int = 0
    mipmap_filter_mode: FilterModeType | str = FilterModeType.POINT
    mipmap_level_bias: float = 0.0
    min_mipmap_level_clamp: float = 0.0
    max_mipmap_level_clamp: float = 0.0
    border_color: tuple[float, ...] | None = None

    def __post_init__(self):
        self.filter_mode = _normalize_enum("filter_mode", self.filter_mode, FilterModeType)
        self.read_mode = _normalize_enum("read_mode", self.read_mode, ReadModeType)
        self.mipmap_filter_mode = _normalize_enum("mipmap_filter_mode", self.mipmap_filter_mode, FilterModeType)


cdef int _fill_texture_desc(object options, cydriver.CUarray_format fmt, cydriver.CUDA_TEXTURE_DESC* desc) except -1:
    """``desc`` as ``options`` (a TextureObjectOptions) says, each field checked, for a
    resource of format ``fmt``."""
    modes = _normalize_address_modes(options.address_mode)
    anisotropy = operator.index(options.max_anisotropy)
    if anisotropy < 0:
        raise ValueError(f"max_anisotropy must be >= 0 (0 turns anisotropic filtering off), got {anisotropy}")
    border = (0.0, 0.0, 0.0, 0.0) if options.border_color is None else tuple(options.border_color)
    if len(border) != 4:
        raise ValueError(f"border_color must have 4 entries (r, g, b, a), got {len(border)}")
    filter_mode = _normalize_enum("filter_mode", options.filter_mode, FilterModeType)
    read_mode = _normalize_enum("read_mode", options.read_mode, ReadModeType)
    mipmap_filter_mode = _normalize_enum("mipmap_filter_mode", options.mipmap_filter_mode, FilterModeType)
    memset(desc, 0, sizeof(desc[0]))
    cdef int axis
    for axis in range(3):
        desc.addressMode[axis] = <cydriver.CUaddress_mode><int>_ADDRESSMODE_TO_CU[modes[axis]]
    desc.filterMode = <cydriver.CUfilter_mode><int>_FILTERMODE_TO_CU[filter_mode]
    desc.mipmapFilterMode = <cydriver.CUfilter_mode><int>_FILTERMODE_TO_CU[mipmap_filter_mode]
    cdef unsigned int flags = 0
    if read_mode == ReadModeType.ELEMENT_TYPE and fmt != cydriver.CU_AD_FORMAT_FLOAT and \
            fmt != cydriver.CU_AD_FORMAT_HALF:
        # Integers as stored, not promoted to normalized floats; float formats read as floats
        # either way, so the flag is left off for them.
        flags |= cydriver.CU_TRSF_READ_AS_INTEGER
    if options.normalized_coords:
        flags |= cydriver.CU_TRSF_NORMALIZED_COORDINATES
    if options.srgb:
        flags |= cydriver.CU_TRSF_SRGB
    if options.disable_trilinear_optimization:
        flags |= cydriver.CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION
    if options.seamless_cubemap:
        flags |= cydriver.CU_TRSF_SEAMLESS_CUBEMAP
    desc.flags = flags
    desc.maxAnisotropy = anisotropy
    desc.mipmapLevelBias = options.mipmap_level_bias
    desc.minMipmapLevelClamp = options.min_mipmap_level_clamp
    desc.maxMipmapLevelClamp = options.max_mipmap_level_clamp
    for axis in range(4):
        desc.borderColor[axis] = border[axis]
    return 0


cdef object _fill_resource_desc(object resource, cydriver.CUDA_RESOURCE_DESC* desc):
    if not isinstance(resource, ResourceDescriptor):
        raise TypeError(f"resource must be a ResourceDescriptor (from ResourceDescriptor.from_opaque_array() and "
                        f"the like), got {type(resource).__name__}")
    memset(desc, 0, sizeof(desc[0]))
    kind = resource._kind
    source = resource._source
    cdef Buffer buffer
    if kind == "opaque_array":
        OpaqueArray_check_open(<OpaqueArray>source)
        desc.resType = cydriver.CU_RESOURCE_TYPE_ARRAY
        desc.res.array.hArray = (<OpaqueArray>source)._storage.handle
        return (<OpaqueArray>source)._storage
    if kind == "mipmapped_array":
        MipmappedArray_check_open(<MipmappedArray>source)
        desc.resType = cydriver.CU_RESOURCE_TYPE_MIPMAPPED_ARRAY
        desc.res.mipmap.hMipmappedArray = (<MipmappedArray>source)._storage.handle
        return (<MipmappedArray>source)._storage
    buffer = <Buffer>source
    fmt = <cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[resource._format]
    if kind == "linear":
        desc.resType = cydriver.CU_RESOURCE_TYPE_LINEAR
        desc.res.linear.devPtr = buffer._live_ptr()
        desc.res.linear.format = fmt
        desc.res.linear.numChannels = resource._num_channels
        desc.res.linear.sizeInBytes = resource._size_bytes
    else:
        desc.resType = cydriver.CU_RESOURCE_TYPE_PITCH2D
        desc.res.pitch2D.devPtr = buffer._live_ptr()
        desc.res.pitch2D.format = fmt
        desc.res.pitch2D.numChannels = resource._num_channels
        desc.res.pitch2D.width = resource._width
        desc.res.pitch2D.height = resource._height
        desc.res.pitch2D.pitchInBytes = resource._pitch_bytes
    return buffer


cdef cydriver.CUarray_format _resource_format(object resource):
    """The element format of a (checked) ResourceDescriptor's memory."""
    source = resource._source
    if resource._kind == "opaque_array":
        return (<OpaqueArray>source)._format
    if resource._kind == "mipmapped_array":
        return (<MipmappedArray>source)._format
    return <cydriver.CUarray_format><int>_ARRAYFORMAT_TO_CU[resource._format]


cdef int _destroy_in_context(cydriver.CUcontext context, unsigned long long handle, bint surface,
                             bint checked) except -1:
    """Destroy a texture (or ``surface``) object with ``context``, the one current when it was
    made (NULL: the current one), made current around the call. ``checked``: raise the
    driver's errors (close); else ignore them and skip the destroy when the context cannot be
    made current (collection at exit, when the context may be gone and the object with it)."""
    cdef cydriver.CUcontext popped = NULL
    cdef cydriver.CUresult status = cydriver.CUDA_SUCCESS
    cdef cydriver.CUresult popped_status = cydriver.CUDA_SUCCESS
    if context != NULL:
        with nogil:
            status = cydriver.cuCtxPushCurrent(context)
        if status != cydriver.CUDA_SUCCESS:
            if checked:
                HANDLE_RETURN(status)
            return 0
    with nogil:
        if surface:
            status = cydriver.cuSurfObjectDestroy(<cydriver.CUsurfObject>handle)
        else:
            status = cydriver.cuTexObjectDestroy(<cydriver.CUtexObject>handle)
        if context != NULL:
            popped_status = cydriver.cuCtxPopCurrent(&popped)
    if checked:
        HANDLE_RETURN(status)
        HANDLE_RETURN(popped_status)
    return 0


cdef class _BindlessObject:
    """What TextureObject and SurfaceObject share: a bindless object's handle, made in a
    context and destroyed in it (close(), ``with``, or collection), and the memory it reads,
    kept alive until then."""

    @property
    def handle(self):
        """The CUtexObject or CUsurfObject as an int (0 once closed): the kernel's 64-bit argument."""
        return self._handle

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._handle == 0

    @property
    def device(self):
        """The Device the object was made on."""
        from cuda.core._device import Device
        return Device(self._device_id)

    cpdef close(self):
        """Destroy the object's handle and let go of its backing memory. Idempotent."""
        cdef unsigned long long handle = self._handle
        self._handle = 0
        self._keepalive = None
        if handle != 0:
            _destroy_in_context(self._context, handle, self._surface, True)

    def __dealloc__(self):
        # Errors are ignored: at exit the context may be gone, and the object with it.
        if self._handle != 0:
            _destroy_in_context(self._context, self._handle, self._surface, False)
        self._handle = 0

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()


cdef class TextureObject(_BindlessObject):
    """A bindless texture (CUtexObject) for sampled reads in kernels; in a kernel it is the
    64-bit cudaTextureObject_t. It keeps its backing memory alive until closed. Made by
    Device.create_texture_object()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("TextureObject cannot be instantiated directly: use Device.create_texture_object()")

    @property
    def resource(self):
        """The ResourceDescriptor the texture was made over."""
        return self._source_ref

    @property
    def options(self):
        """The TextureObjectOptions the texture was made with."""
        return self._options

    def __repr__(self):
        if self._handle == 0:
            return "<TextureObject (closed)>"
        return f"<TextureObject handle={self._handle:#x} resource={self._source_ref._kind}>"


def _create_texture_object(resource, options):
    """A new TextureObject on the current context over ``resource`` (a ResourceDescriptor),
    sampling as ``options`` (a TextureObjectOptions, a dict of its fields, or None for the
    defaults) says. Backs Device.create_texture_object()."""
    cdef cydriver.CUDA_RESOURCE_DESC res_desc
    cdef cydriver.CUDA_TEXTURE_DESC tex_desc
    keepalive = _fill_resource_desc(resource, &res_desc)
    options = check_or_create_options(TextureObjectOptions, options, "texture object options")
    _fill_texture_desc(options, _resource_format(resource), &tex_desc)
    cdef cydriver.CUtexObject handle = 0
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        HANDLE_RETURN(cydriver.cuTexObjectCreate(&handle, &res_desc, &tex_desc, NULL))
    cdef TextureObject texture = TextureObject.__new__(TextureObject)
    texture._handle = handle
    texture._context = context
    texture._source_ref = resource
    texture._keepalive = keepalive
    texture._options = options
    texture._device_id = max(current_device(), 0)
    return texture
