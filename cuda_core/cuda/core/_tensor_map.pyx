# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.TensorMapDescriptor: TMA (Tensor Memory Accelerator) tensor maps for sm_90+.

A descriptor holds the driver's opaque 128-byte CUtensorMap, encoded by
cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide from a
device-accessible StridedMemoryView, and is passed to kernels by value (launch() packs its
128 bytes). Every argument is checked here before the driver is called, so bad input gets
a Python error that names the argument, with or without a GPU.

Shapes, strides and boxes are given in the tensor's row-major order; the driver counts
dimensions from the innermost, so they are reversed when encoded.
"""

from dataclasses import dataclass
import enum
import operator

import numpy

from libc.stdint cimport intptr_t
from libc.string cimport memcpy, memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver

# compat_tensor_map_encode_im2col_wide and COMPAT_HAS_IM2COL_WIDE: CUDA 13 builds only.
include "driver_compat.pxi"

from cuda.core._dlpack import DLDeviceType
from cuda.core._memoryview import StridedMemoryView

__all__ = ['TensorMapDescriptor', 'TensorMapDescriptorOptions']

cdef enum:
    _MAX_RANK = 5
    _MAX_BOX = 256            # boxDim entries are in [1, 256]
    _MAX_ELEMENT_STRIDE = 8   # elementStrides entries are in [1, 8]
    _ADDRESS_ALIGN = 16       # globalAddress and globalStrides are multiples of 16 bytes


# ---------------------------------------------------------------------------------------------
# The driver's enums

_TMA_DT_UINT8 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_UINT8)
_TMA_DT_UINT16 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_UINT16)
_TMA_DT_UINT32 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_UINT32)
_TMA_DT_INT32 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_INT32)
_TMA_DT_UINT64 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_UINT64)
_TMA_DT_INT64 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_INT64)
_TMA_DT_FLOAT16 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
_TMA_DT_FLOAT32 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
_TMA_DT_FLOAT64 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
_TMA_DT_BFLOAT16 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
_TMA_DT_FLOAT32_FTZ = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ)
_TMA_DT_TFLOAT32 = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_TFLOAT32)
_TMA_DT_TFLOAT32_FTZ = int(cydriver.CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ)


class TensorMapDataType(enum.IntEnum):
    """The element type of a tensor map (the driver's ``CUtensorMapDataType``)."""
    UINT8 = _TMA_DT_UINT8
    UINT16 = _TMA_DT_UINT16
    UINT32 = _TMA_DT_UINT32
    INT32 = _TMA_DT_INT32
    UINT64 = _TMA_DT_UINT64
    INT64 = _TMA_DT_INT64
    FLOAT16 = _TMA_DT_FLOAT16
    FLOAT32 = _TMA_DT_FLOAT32
    FLOAT64 = _TMA_DT_FLOAT64
    BFLOAT16 = _TMA_DT_BFLOAT16
    FLOAT32_FTZ = _TMA_DT_FLOAT32_FTZ
    TFLOAT32 = _TMA_DT_TFLOAT32
    TFLOAT32_FTZ = _TMA_DT_TFLOAT32_FTZ


class TensorMapInterleave(enum.IntEnum):
    """How the innermost dimension is interleaved (the driver's ``CUtensorMapInterleave``)."""
    NONE = cydriver.CU_TENSOR_MAP_INTERLEAVE_NONE
    INTERLEAVE_16B = cydriver.CU_TENSOR_MAP_INTERLEAVE_16B
    INTERLEAVE_32B = cydriver.CU_TENSOR_MAP_INTERLEAVE_32B


class TensorMapSwizzle(enum.IntEnum):
    """How a box is swizzled in shared memory (the driver's ``CUtensorMapSwizzle``)."""
    NONE = cydriver.CU_TENSOR_MAP_SWIZZLE_NONE
    SWIZZLE_32B = cydriver.CU_TENSOR_MAP_SWIZZLE_32B
    SWIZZLE_64B = cydriver.CU_TENSOR_MAP_SWIZZLE_64B
    SWIZZLE_128B = cydriver.CU_TENSOR_MAP_SWIZZLE_128B


class TensorMapL2Promotion(enum.IntEnum):
    """How far loads are promoted into L2 (the driver's ``CUtensorMapL2promotion``)."""
    NONE = cydriver.CU_TENSOR_MAP_L2_PROMOTION_NONE
    L2_64B = cydriver.CU_TENSOR_MAP_L2_PROMOTION_L2_64B
    L2_128B = cydriver.CU_TENSOR_MAP_L2_PROMOTION_L2_128B
    L2_256B = cydriver.CU_TENSOR_MAP_L2_PROMOTION_L2_256B


class TensorMapOOBFill(enum.IntEnum):
    """What out-of-bounds float elements read as (the driver's ``CUtensorMapFloatOOBfill``)."""
    NONE = cydriver.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
    NAN_REQUEST_ZERO_FMA = cydriver.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA


class TensorMapIm2ColWideMode(enum.IntEnum):
    """The im2col-wide mode (the driver's ``CUtensorMapIm2ColWideMode``, CUDA 13). Defined in
    every build; only a CUDA 13 build can encode im2col-wide descriptors."""
    W = 0
    W128 = 1


def _dtype_table() -> dict:
    """numpy dtype -> TMA data type; bfloat16 too when ml_dtypes is installed."""
    table = {numpy.dtype(numpy.uint8): _TMA_DT_UINT8, numpy.dtype(numpy.uint16): _TMA_DT_UINT16,
             numpy.dtype(numpy.uint32): _TMA_DT_UINT32, numpy.dtype(numpy.int32): _TMA_DT_INT32,
             numpy.dtype(numpy.uint64): _TMA_DT_UINT64, numpy.dtype(numpy.int64): _TMA_DT_INT64,
             numpy.dtype(numpy.float16): _TMA_DT_FLOAT16, numpy.dtype(numpy.float32): _TMA_DT_FLOAT32,
             numpy.dtype(numpy.float64): _TMA_DT_FLOAT64}
    try:
        from ml_dtypes import bfloat16
    except ImportError:
        pass
    else:
        table[numpy.dtype(bfloat16)] = _TMA_DT_BFLOAT16
    return table


_NUMPY_DTYPE_TO_TMA = _dtype_table()

_TMA_DATA_TYPE_SIZE = {_TMA_DT_UINT8: 1, _TMA_DT_UINT16: 2, _TMA_DT_UINT32: 4, _TMA_DT_INT32: 4, _TMA_DT_UINT64: 8,
                       _TMA_DT_INT64: 8, _TMA_DT_FLOAT16: 2, _TMA_DT_FLOAT32: 4, _TMA_DT_FLOAT64: 8,
                       _TMA_DT_BFLOAT16: 2, _TMA_DT_FLOAT32_FTZ: 4, _TMA_DT_TFLOAT32: 4, _TMA_DT_TFLOAT32_FTZ: 4}


# ---------------------------------------------------------------------------------------------
# Argument checks (no driver needed)

def _normalize_tensor_map_data_type(data_type):
    """``data_type`` (a TensorMapDataType, or a numpy/ml_dtypes dtype-like with a TMA
    counterpart) as a TensorMapDataType; a TypeError otherwise."""
    if isinstance(data_type, TensorMapDataType):
        return data_type
    found = None
    # A bare int would be read by numpy as a type code: refused, the enum is the int form.
    if not isinstance(data_type, (int, float)):
        try:
            found = _NUMPY_DTYPE_TO_TMA.get(numpy.dtype(data_type))
        except (TypeError, ValueError):
            found = None
    if found is None:
        names = ", ".join(str(dtype) for dtype in _NUMPY_DTYPE_TO_TMA)
        raise TypeError(f"data_type must be a TensorMapDataType or a dtype with a TMA counterpart ({names}), "
                        f"got {data_type!r}")
    return TensorMapDataType(found)


def _normalize_tensor_map_sequence(name, values):
    """``values`` as a tuple of ints; a TypeError naming ``name`` otherwise."""
    try:
        return tuple(operator.index(value) for value in values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of ints, got {values!r}") from None


def _require_tensor_map_enum(name, value, enum_type):
    """``value`` as a member of ``enum_type`` (a member, or an int equal to one)."""
    if isinstance(value, enum_type):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return enum_type(value)
        except ValueError:
            pass
    members = ", ".join(f"{enum_type.__name__}.{member.name}" for member in enum_type)
    raise TypeError(f"{name} must be one of {members}, got {value!r}")


@dataclass
class TensorMapDescriptorOptions:
    """The options of a tiled tensor map, for :meth:`StridedMemoryView.as_tensor_map`.

    ``box_dim``: the tile (box) each TMA copy moves, in elements per dimension, row-major
    like the tensor's shape, each in [1, 256]. ``element_strides``: the traversal step per
    dimension, each in [1, 8] (None: all 1). ``data_type``: a numpy/ml_dtypes dtype or a
    TensorMapDataType that overrides the view's dtype (None: the view's). ``interleave``,
    ``swizzle``, ``l2_promotion``, ``oob_fill``: the driver's encoding options.
    """

    box_dim: tuple
    element_strides: object = None
    data_type: object = None
    interleave: object = TensorMapInterleave.NONE
    swizzle: object = TensorMapSwizzle.NONE
    l2_promotion: object = TensorMapL2Promotion.NONE
    oob_fill: object = TensorMapOOBFill.NONE

    def __post_init__(self) -> None:
        """Normalise the fields (tuples of ints, enum members) and refuse bad ones early."""
        self.box_dim = _normalize_tensor_map_sequence("box_dim", self.box_dim)
        if self.element_strides is not None:
            self.element_strides = _normalize_tensor_map_sequence("element_strides", self.element_strides)
        if self.data_type is not None:
            _normalize_tensor_map_data_type(self.data_type)
        self.interleave = _require_tensor_map_enum("interleave", self.interleave, TensorMapInterleave)
        self.swizzle = _require_tensor_map_enum("swizzle", self.swizzle, TensorMapSwizzle)
        self.l2_promotion = _require_tensor_map_enum("l2_promotion", self.l2_promotion, TensorMapL2Promotion)
        self.oob_fill = _require_tensor_map_enum("oob_fill", self.oob_fill, TensorMapOOBFill)


def _coerce_tensor_map_descriptor_options(box_dim, options, *, element_strides, data_type, interleave, swizzle,
                                          l2_promotion, oob_fill):
    """One TensorMapDescriptorOptions from either ``options`` (the dataclass or a mapping of
    its fields) or the individual arguments (None: the default), never both."""
    if options is not None:
        given = [box_dim, element_strides, data_type]
        given += [value for value in (interleave, swizzle, l2_promotion, oob_fill) if value != 0]
        if any(value is not None for value in given):
            raise TypeError("Specify either options or the individual tensor map arguments (box_dim, "
                            "element_strides, data_type, interleave, swizzle, l2_promotion, oob_fill), not both")
        if isinstance(options, TensorMapDescriptorOptions):
            return options
        try:
            return TensorMapDescriptorOptions(**options)
        except TypeError as error:
            if not hasattr(options, "keys"):
                raise TypeError(f"options must be a TensorMapDescriptorOptions or a mapping of its fields, "
                                f"got {type(options).__name__}") from None
            raise TypeError(f"options: {error}") from None
    if box_dim is None:
        raise TypeError("box_dim is required (or pass options=TensorMapDescriptorOptions(box_dim=...))")
    return TensorMapDescriptorOptions(
        box_dim, element_strides, data_type,
        TensorMapInterleave.NONE if interleave is None else interleave,
        TensorMapSwizzle.NONE if swizzle is None else swizzle,
        TensorMapL2Promotion.NONE if l2_promotion is None else l2_promotion,
        TensorMapOOBFill.NONE if oob_fill is None else oob_fill)


def _resolve_data_type(view, data_type):
    """Resolve the TMA data type from an explicit value or the view's dtype."""
    if data_type is not None:
        return _normalize_tensor_map_data_type(data_type)
    dtype = view.dtype
    found = None if dtype is None else _NUMPY_DTYPE_TO_TMA.get(dtype)
    if found is None:
        raise TypeError(f"the view's dtype ({dtype}) has no TMA data type: pass data_type (e.g. numpy.float32 "
                        f"or a TensorMapDataType)")
    return TensorMapDataType(found)


def _as_view(tensor):
    """``tensor`` as a StridedMemoryView (DLPack or the CUDA Array Interface), no ordering."""
    if isinstance(tensor, StridedMemoryView):
        return tensor
    return StridedMemoryView.from_any_interface(tensor, stream_ptr=-1)


def _get_validated_view(tensor):
    """Obtain a device-accessible StridedMemoryView with a 16-byte-aligned pointer."""
    view = _as_view(tensor)
    if not view.is_device_accessible:
        raise ValueError("a tensor map needs device-accessible memory (device, managed or pinned host memory), "
                         "got a view of host-only memory: copy the data to the device first")
    if view.ptr % _ADDRESS_ALIGN:
        raise ValueError(f"a tensor map's global address must be {_ADDRESS_ALIGN}-byte aligned, got "
                         f"{view.ptr:#x}: allocate (or slice) the tensor at an aligned address")
    return view


def _require_view_device(view, expected_device_id, operation):
    """Ensure device-local tensors match the current CUDA device.

    DLPack reports host/managed CUDA memory as ``kDLCUDAHost`` /
    ``kDLCUDAManaged`` with ``device_id=0`` regardless of the current device,
    so only true ``kDLCUDA`` tensors are rejected by device-id mismatch.
    """
    device_type, device_id = view.__dlpack_device__()
    if device_type == DLDeviceType.kDLCUDA and device_id != expected_device_id:
        raise ValueError(f"{operation} expects tensor on device {expected_device_id}, got {device_id}: make its "
                         f"device current (Device({device_id}).set_current()) or use a tensor of the current one")


def _compute_byte_strides(shape, strides, elem_size):
    """Compute byte strides from element strides or C-contiguous fallback.

    Returns a tuple of byte strides in row-major order.
    """
    if strides is not None:
        return tuple(stride * elem_size for stride in strides)
    result = []
    step = elem_size
    for extent in reversed(shape):
        result.append(step)
        step *= extent
    return tuple(reversed(result))


def _validate_element_strides(element_strides, rank):
    """Validate or default element_strides to all-ones."""
    if element_strides is None:
        return (1,) * rank
    element_strides = _normalize_tensor_map_sequence("element_strides", element_strides)
    if len(element_strides) != rank:
        raise ValueError(f"element_strides must have {rank} elements (the tensor's rank), got {len(element_strides)}")
    for axis, stride in enumerate(element_strides):
        if not 1 <= stride <= _MAX_ELEMENT_STRIDE:
            raise ValueError(f"element_strides[{axis}] must be in [1, {_MAX_ELEMENT_STRIDE}], got {stride}")
    return element_strides


def _check_rank(view, int low, str what):
    """The view's rank, a ValueError outside [low, 5]."""
    rank = len(view.shape)
    if not low <= rank <= _MAX_RANK:
        raise ValueError(f"{what} rank must be between {low} and {_MAX_RANK}, got {rank}")
    return rank


def _global_layout(view, data_type):
    """(shape, byte strides), row-major, of the view read as elements of ``data_type``.

    A data type wider or narrower than the view's items reinterprets the contiguous
    innermost dimension (e.g. a Buffer's bytes as float32)."""
    cdef Py_ssize_t size = _TMA_DATA_TYPE_SIZE[int(data_type)]
    dtype = view.dtype
    itemsize = dtype.itemsize if dtype is not None else view._layout.itemsize
    shape = tuple(view.shape)
    strides = _compute_byte_strides(shape, view.strides, itemsize)
    if itemsize != size:
        inner_bytes = shape[-1] * itemsize
        if strides[-1] != itemsize or inner_bytes % size:
            raise ValueError(f"data_type {data_type.name} ({size} bytes) cannot reinterpret the view's "
                             f"{itemsize}-byte items: its innermost dimension must be contiguous and a multiple "
                             f"of {size} bytes")
        shape = shape[:-1] + (inner_bytes // size,)
        strides = strides[:-1] + (size,)
    if strides[-1] != size:
        raise ValueError(f"a tensor map's innermost dimension must be contiguous (stride {size} bytes), got "
                         f"{strides[-1]} bytes: make the tensor contiguous in its last dimension")
    for axis in range(len(shape) - 1):
        if strides[axis] % _ADDRESS_ALIGN:
            raise ValueError(f"a tensor map's strides must be multiples of {_ADDRESS_ALIGN} bytes, but axis {axis} "
                             f"has {strides[axis]}: pad the rows to a multiple of {_ADDRESS_ALIGN} bytes")
    for axis, extent in enumerate(shape):
        if extent < 1:
            raise ValueError(f"a tensor map cannot address an empty tensor (shape[{axis}] is {extent})")
    return shape, strides


def _positive(name, value):
    value = operator.index(value)
    if not 1 <= value <= 0xFFFFFFFF:
        raise ValueError(f"{name} must be a positive 32-bit int, got {value}")
    return value


# ---------------------------------------------------------------------------------------------
# The driver's arrays, innermost dimension first

cdef struct _Encoding:
    # What every cuTensorMapEncode* call takes: the global tensor (innermost dimension first)
    # and the element type and four options.
    cydriver.cuuint32_t rank
    void* address
    cydriver.cuuint64_t dims[5]
    cydriver.cuuint64_t strides[4]
    cydriver.cuuint32_t element_strides[5]
    cydriver.CUtensorMapDataType data_type
    cydriver.CUtensorMapInterleave interleave
    cydriver.CUtensorMapSwizzle swizzle
    cydriver.CUtensorMapL2promotion l2_promotion
    cydriver.CUtensorMapFloatOOBfill oob_fill


cdef TensorMapDescriptor _new_descriptor(type cls, _Encoding* out, object view, int rank, object data_type,
                                         object element_strides, tuple options, str operation):
    """The steps every encoding shares, in this order: the element strides and the global
    layout checked, the view validated, the descriptor made for the view's device (kept as
    its _view_ref), and ``out`` filled. ``options``: interleave, swizzle, L2 promotion and
    OOB fill, each an enum member already checked."""
    strides = _validate_element_strides(element_strides, rank)
    shape, byte_strides = _global_layout(view, data_type)
    view = _get_validated_view(view)
    cdef TensorMapDescriptor self = cls.__new__(cls)
    self._device_id = _current_device_for(view)
    _require_view_device(view, self._device_id, operation)
    self._view_ref = view
    _fill_global(out, view, shape, byte_strides, strides)
    interleave, swizzle, l2_promotion, oob_fill = options
    out.data_type = <cydriver.CUtensorMapDataType><int>data_type
    out.interleave = <cydriver.CUtensorMapInterleave><int>interleave
    out.swizzle = <cydriver.CUtensorMapSwizzle><int>swizzle
    out.l2_promotion = <cydriver.CUtensorMapL2promotion><int>l2_promotion
    out.oob_fill = <cydriver.CUtensorMapFloatOOBfill><int>oob_fill
    return self


cdef int _fill_global(_Encoding* out, object view, tuple shape, tuple strides, tuple element_strides) except -1:
    cdef int rank = len(shape)
    cdef int i
    memset(out, 0, sizeof(_Encoding))
    out.rank = rank
    out.address = <void*><intptr_t>view.ptr
    for i in range(rank):
        out.dims[i] = shape[rank - 1 - i]
        out.element_strides[i] = element_strides[rank - 1 - i]
    for i in range(rank - 1):
        out.strides[i] = strides[rank - 2 - i]
    return 0


cdef int _current_device_for(object view) except -2:
    """The current context's device (the view's, when no context is current)."""
    ensure_driver()
    cdef int device = current_device()
    return view.device_id if device < 0 else device


cdef intptr_t _current_context() except? -1:
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
    return <intptr_t>context


# ---------------------------------------------------------------------------------------------

cdef class TensorMapDescriptor:
    """Describes a TMA (Tensor Memory Accelerator) tensor map for Hopper+ GPUs.

    It holds the driver's opaque 128-byte ``CUtensorMap``. Make a tiled one with
    :meth:`cuda.core.StridedMemoryView.as_tensor_map` and pass it to :func:`cuda.core.launch`
    as a kernel argument (a ``const __grid_constant__ CUtensorMap`` parameter). It keeps the
    tensor it addresses alive; :meth:`replace_address` points it at another one.
    """

    def __cinit__(self):
        self._device_id = -1

    def __init__(self, *args, **kwargs):
        raise RuntimeError("TensorMapDescriptor cannot be instantiated directly: use "
                           "StridedMemoryView.as_tensor_map(box_dim=...)")

    @property
    def device(self):
        """Return the :obj:`~cuda.core.Device` associated with this descriptor."""
        if self._device_id < 0:
            return None
        from cuda.core._device import Device
        return Device(self._device_id)

    @property
    def _tensor_map_address(self) -> int:
        """The address of the 128 encoded bytes, which launch() passes by value."""
        return <intptr_t>&self._tensor_map

    @classmethod
    def _from_tiled(cls, view, box_dim=None, *, options=None, element_strides=None, data_type=None,
                    interleave=TensorMapInterleave.NONE, swizzle=TensorMapSwizzle.NONE,
                    l2_promotion=TensorMapL2Promotion.NONE, oob_fill=TensorMapOOBFill.NONE):
        """A tiled descriptor of ``view`` (cuTensorMapEncodeTiled): TMA copies move boxes of
        ``box_dim`` elements. The arguments are those of :class:`TensorMapDescriptorOptions`,
        given one by one or as ``options``; a ValueError or TypeError names a bad one."""
        opts = _coerce_tensor_map_descriptor_options(
            box_dim, options, element_strides=element_strides, data_type=data_type, interleave=interleave,
            swizzle=swizzle, l2_promotion=l2_promotion, oob_fill=oob_fill)
        view = _as_view(view)
        rank = _check_rank(view, 1, "Tensor")
        dt = _resolve_data_type(view, opts.data_type)
        box = opts.box_dim
        if len(box) != rank:
            raise ValueError(f"box_dim must have {rank} elements (the tensor's rank), got {len(box)}")
        for axis, extent in enumerate(box):
            if not 1 <= extent <= _MAX_BOX:
                raise ValueError(f"box_dim[{axis}] must be in [1, {_MAX_BOX}], got {extent}")
        cdef _Encoding g
        cdef TensorMapDescriptor self = _new_descriptor(
            cls, &g, view, rank, dt, opts.element_strides,
            (opts.interleave, opts.swizzle, opts.l2_promotion, opts.oob_fill), "TensorMapDescriptor._from_tiled")
        cdef cydriver.cuuint32_t c_box[5]
        cdef cydriver.CUtensorMap encoded  # on the stack: the 64-byte alignment cuda.h asks for
        cdef int i
        for i in range(rank):
            c_box[i] = box[rank - 1 - i]
        with nogil:
            HANDLE_RETURN(cydriver.cuTensorMapEncodeTiled(
                &encoded, g.data_type, g.rank, g.address, g.dims, g.strides, c_box, g.element_strides,
                g.interleave, g.swizzle, g.l2_promotion, g.oob_fill))
        self._finish(&encoded, ("tiled", rank, dt, opts.swizzle))
        return self

    @classmethod
    def _from_im2col(cls, view, pixel_box_lower_corner, pixel_box_upper_corner, channels_per_pixel,
                     pixels_per_column, *, element_strides=None, data_type=None,
                     interleave=TensorMapInterleave.NONE, swizzle=TensorMapSwizzle.NONE,
                     l2_promotion=TensorMapL2Promotion.NONE, oob_fill=TensorMapOOBFill.NONE):
        """An im2col descriptor of a rank 3-5 ``view`` laid out N, spatial..., C
        (cuTensorMapEncodeIm2col), for convolution-style loads. The corners bound the pixel
        box per spatial dimension, row-major; ValueError/TypeError name a bad argument."""
        view = _as_view(view)
        rank = _check_rank(view, 3, "Im2col tensor")
        lower = _normalize_tensor_map_sequence("pixel_box_lower_corner", pixel_box_lower_corner)
        upper = _normalize_tensor_map_sequence("pixel_box_upper_corner", pixel_box_upper_corner)
        for name, corner in (("pixel_box_lower_corner", lower), ("pixel_box_upper_corner", upper)):
            if len(corner) != rank - 2:
                raise ValueError(f"{name} must have {rank - 2} elements (one per spatial dimension), "
                                 f"got {len(corner)}")
        channels = _positive("channels_per_pixel", channels_per_pixel)
        pixels = _positive("pixels_per_column", pixels_per_column)
        options = _encoding_enums(interleave, swizzle, l2_promotion, oob_fill)
        dt = _resolve_data_type(view, data_type)
        cdef _Encoding g
        cdef TensorMapDescriptor self = _new_descriptor(cls, &g, view, rank, dt, element_strides, options,
                                                        "TensorMapDescriptor._from_im2col")
        cdef int c_lower[3]
        cdef int c_upper[3]
        cdef cydriver.CUtensorMap encoded
        cdef int i, spatial = rank - 2
        for i in range(spatial):
            c_lower[i] = lower[spatial - 1 - i]
            c_upper[i] = upper[spatial - 1 - i]
        cdef cydriver.cuuint32_t c_channels = channels, c_pixels = pixels
        with nogil:
            HANDLE_RETURN(cydriver.cuTensorMapEncodeIm2col(
                &encoded, g.data_type, g.rank, g.address, g.dims, g.strides, c_lower, c_upper, c_channels,
                c_pixels, g.element_strides, g.interleave, g.swizzle, g.l2_promotion, g.oob_fill))
        self._finish(&encoded, ("im2col", rank, dt, options[1]))
        return self

    @classmethod
    def _from_im2col_wide(cls, view, pixel_box_lower_corner_width, pixel_box_upper_corner_width,
                          channels_per_pixel, pixels_per_column, *, element_strides=None, data_type=None,
                          interleave=TensorMapInterleave.NONE, mode=TensorMapIm2ColWideMode.W,
                          swizzle=TensorMapSwizzle.SWIZZLE_128B, l2_promotion=TensorMapL2Promotion.NONE,
                          oob_fill=TensorMapOOBFill.NONE):
        """An im2col-wide descriptor (cuTensorMapEncodeIm2colWide, sm_100+, CUDA 13 builds):
        as _from_im2col, loading along the width only, so the corners are scalars."""
        if not COMPAT_HAS_IM2COL_WIDE:
            raise RuntimeError("TensorMapDescriptor._from_im2col_wide requires a CUDA 13+ build of cuda.core "
                               "(this one is built for CUDA 12, whose driver API has no im2col-wide mode)")
        view = _as_view(view)
        rank = _check_rank(view, 3, "Im2col-wide tensor")
        lower = operator.index(pixel_box_lower_corner_width)
        upper = operator.index(pixel_box_upper_corner_width)
        channels = _positive("channels_per_pixel", channels_per_pixel)
        pixels = _positive("pixels_per_column", pixels_per_column)
        c_mode = _require_tensor_map_enum("mode", mode, TensorMapIm2ColWideMode)
        options = _encoding_enums(interleave, swizzle, l2_promotion, oob_fill)
        dt = _resolve_data_type(view, data_type)
        cdef _Encoding g
        cdef TensorMapDescriptor self = _new_descriptor(cls, &g, view, rank, dt, element_strides, options,
                                                        "TensorMapDescriptor._from_im2col_wide")
        cdef cydriver.CUtensorMap encoded
        cdef int c_lower = lower, c_upper = upper, e_mode = c_mode
        cdef cydriver.cuuint32_t c_channels = channels, c_pixels = pixels
        with nogil:
            HANDLE_RETURN(compat_tensor_map_encode_im2col_wide(
                &encoded, g.data_type, g.rank, g.address, g.dims, g.strides, c_lower, c_upper, c_channels,
                c_pixels, g.element_strides, g.interleave, e_mode, g.swizzle, g.l2_promotion, g.oob_fill))
        self._finish(&encoded, ("im2col_wide", rank, dt, options[1]))
        return self

    cdef int _finish(self, cydriver.CUtensorMap* encoded, tuple repr_info) except -1:
        """Keep the encoded bytes, what they address (_view_ref, set by _new_descriptor), and
        the context they were made in."""
        memcpy(&self._tensor_map, encoded, sizeof(cydriver.CUtensorMap))
        self._context = _current_context()
        self._source_ref = self._view_ref.exporting_obj
        self._repr_info = repr_info
        return 0

    def replace_address(self, tensor) -> None:
        """Point this descriptor at ``tensor`` (cuTensorMapReplaceAddress), keeping its shape,
        strides and options: for data reallocated with the same layout.

        ``tensor``: a StridedMemoryView or anything with DLPack or the CUDA Array Interface,
        device-accessible, 16-byte aligned, and (device memory) on this descriptor's device.
        """
        view = _get_validated_view(tensor)
        _require_view_device(view, self._device_id, "replace_address")
        cdef cydriver.CUtensorMap encoded
        cdef void* address = <void*><intptr_t>view.ptr
        memcpy(&encoded, &self._tensor_map, sizeof(cydriver.CUtensorMap))
        with nogil:
            HANDLE_RETURN(cydriver.cuTensorMapReplaceAddress(&encoded, address))
        memcpy(&self._tensor_map, &encoded, sizeof(cydriver.CUtensorMap))
        self._view_ref = view
        self._source_ref = view.exporting_obj

    def __repr__(self) -> str:
        if self._repr_info is None:
            return "TensorMapDescriptor()"
        kind, rank, data_type, swizzle = self._repr_info
        return (f"TensorMapDescriptor({kind}, rank={rank}, dtype={TensorMapDataType(data_type).name}, "
                f"swizzle={TensorMapSwizzle(swizzle).name})")


def _encoding_enums(interleave, swizzle, l2_promotion, oob_fill):
    """The four encoding options as enum members, a TypeError naming a bad one."""
    return (_require_tensor_map_enum("interleave", interleave, TensorMapInterleave),
            _require_tensor_map_enum("swizzle", swizzle, TensorMapSwizzle),
            _require_tensor_map_enum("l2_promotion", l2_promotion, TensorMapL2Promotion),
            _require_tensor_map_enum("oob_fill", oob_fill, TensorMapOOBFill))
