# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._tensor_map (compiled): TMA tensor map descriptors.

import enum
from dataclasses import dataclass
from typing import Any

from cuda.core._device import Device
from typing_extensions import disjoint_base

__all__ = ["TensorMapDescriptor", "TensorMapDescriptorOptions"]

_TMA_DT_UINT8: int
_TMA_DT_UINT16: int
_TMA_DT_UINT32: int
_TMA_DT_INT32: int
_TMA_DT_UINT64: int
_TMA_DT_INT64: int
_TMA_DT_FLOAT16: int
_TMA_DT_FLOAT32: int
_TMA_DT_FLOAT64: int
_TMA_DT_BFLOAT16: int
_TMA_DT_FLOAT32_FTZ: int
_TMA_DT_TFLOAT32: int
_TMA_DT_TFLOAT32_FTZ: int
_NUMPY_DTYPE_TO_TMA: dict[Any, int]
_TMA_DATA_TYPE_SIZE: dict[int, int]

class TensorMapDataType(enum.IntEnum):
    """The element type of a tensor map (the driver's ``CUtensorMapDataType``)."""

    UINT8 = 0
    UINT16 = 1
    UINT32 = 2
    INT32 = 3
    UINT64 = 4
    INT64 = 5
    FLOAT16 = 6
    FLOAT32 = 7
    FLOAT64 = 8
    BFLOAT16 = 9
    FLOAT32_FTZ = 10
    TFLOAT32 = 11
    TFLOAT32_FTZ = 12

class TensorMapInterleave(enum.IntEnum):
    """How the innermost dimension is interleaved (the driver's ``CUtensorMapInterleave``)."""

    NONE = 0
    INTERLEAVE_16B = 1
    INTERLEAVE_32B = 2

class TensorMapSwizzle(enum.IntEnum):
    """How a box is swizzled in shared memory (the driver's ``CUtensorMapSwizzle``)."""

    NONE = 0
    SWIZZLE_32B = 1
    SWIZZLE_64B = 2
    SWIZZLE_128B = 3

class TensorMapL2Promotion(enum.IntEnum):
    """How far loads are promoted into L2 (the driver's ``CUtensorMapL2promotion``)."""

    NONE = 0
    L2_64B = 1
    L2_128B = 2
    L2_256B = 3

class TensorMapOOBFill(enum.IntEnum):
    """What out-of-bounds float elements read as (the driver's ``CUtensorMapFloatOOBfill``)."""

    NONE = 0
    NAN_REQUEST_ZERO_FMA = 1

class TensorMapIm2ColWideMode(enum.IntEnum):
    """The im2col-wide mode; only a CUDA 13 build can encode im2col-wide descriptors."""

    W = 0
    W128 = 1

@dataclass
class TensorMapDescriptorOptions:
    """The options of a tiled tensor map, for ``StridedMemoryView.as_tensor_map``."""

    box_dim: tuple[int, ...]
    element_strides: tuple[int, ...] | None = None
    data_type: object = None
    interleave: TensorMapInterleave = TensorMapInterleave.NONE
    swizzle: TensorMapSwizzle = TensorMapSwizzle.NONE
    l2_promotion: TensorMapL2Promotion = TensorMapL2Promotion.NONE
    oob_fill: TensorMapOOBFill = TensorMapOOBFill.NONE
    def __post_init__(self) -> None: ...

@disjoint_base
class TensorMapDescriptor:
    """A TMA tensor map (the driver's 128-byte ``CUtensorMap``), passed to kernels by value."""
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    @property
    def device(self) -> Device | None: ...
    @property
    def _tensor_map_address(self) -> int: ...
    @classmethod
    def _from_tiled(
        cls,
        view: Any,
        box_dim: Any = None,
        *,
        options: Any = None,
        element_strides: Any = None,
        data_type: Any = None,
        interleave: Any = TensorMapInterleave.NONE,
        swizzle: Any = TensorMapSwizzle.NONE,
        l2_promotion: Any = TensorMapL2Promotion.NONE,
        oob_fill: Any = TensorMapOOBFill.NONE,
    ) -> TensorMapDescriptor: ...
    @classmethod
    def _from_im2col(
        cls,
        view: Any,
        pixel_box_lower_corner: Any,
        pixel_box_upper_corner: Any,
        channels_per_pixel: Any,
        pixels_per_column: Any,
        *,
        element_strides: Any = None,
        data_type: Any = None,
        interleave: Any = TensorMapInterleave.NONE,
        swizzle: Any = TensorMapSwizzle.NONE,
        l2_promotion: Any = TensorMapL2Promotion.NONE,
        oob_fill: Any = TensorMapOOBFill.NONE,
    ) -> TensorMapDescriptor: ...
    @classmethod
    def _from_im2col_wide(
        cls,
        view: Any,
        pixel_box_lower_corner_width: Any,
        pixel_box_upper_corner_width: Any,
        channels_per_pixel: Any,
        pixels_per_column: Any,
        *,
        element_strides: Any = None,
        data_type: Any = None,
        interleave: Any = TensorMapInterleave.NONE,
        mode: Any = TensorMapIm2ColWideMode.W,
        swizzle: Any = TensorMapSwizzle.SWIZZLE_128B,
        l2_promotion: Any = TensorMapL2Promotion.NONE,
        oob_fill: Any = TensorMapOOBFill.NONE,
    ) -> TensorMapDescriptor: ...
    def replace_address(self, tensor: object) -> None: ...
    def __repr__(self) -> str: ...

def _normalize_tensor_map_data_type(data_type: Any) -> TensorMapDataType: ...
def _normalize_tensor_map_sequence(name: str, values: Any) -> tuple[int, ...]: ...
def _require_tensor_map_enum(name: str, value: Any, enum_type: Any) -> Any: ...
def _coerce_tensor_map_descriptor_options(
    box_dim: Any,
    options: Any,
    *,
    element_strides: Any,
    data_type: Any,
    interleave: Any,
    swizzle: Any,
    l2_promotion: Any,
    oob_fill: Any,
) -> TensorMapDescriptorOptions: ...
def _resolve_data_type(view: Any, data_type: Any) -> TensorMapDataType: ...
def _get_validated_view(tensor: Any) -> Any: ...
def _require_view_device(view: Any, expected_device_id: int, operation: str) -> None: ...
def _compute_byte_strides(
    shape: tuple[int, ...], strides: tuple[int, ...] | None, elem_size: int
) -> tuple[int, ...]: ...
def _validate_element_strides(element_strides: Any, rank: int) -> tuple[int, ...]: ...
