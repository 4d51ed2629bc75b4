# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core.texture._texture: resource descriptors, texture options and objects."""

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from cuda.core._device import Device
from cuda.core._memory._buffer import Buffer
from cuda.core.texture._array import OpaqueArray
from cuda.core.texture._mipmapped_array import MipmappedArray
from cuda.core.typing import AddressModeType, ArrayFormatType, FilterModeType, ReadModeType
from typing_extensions import Self, disjoint_base

__all__ = ["ResourceDescriptor", "TextureObject", "TextureObjectOptions"]

_E = TypeVar("_E", bound=Enum)

_TRSF_READ_AS_INTEGER: int
_TRSF_NORMALIZED_COORDINATES: int
_TRSF_SRGB: int
_TRSF_DISABLE_TRILINEAR_OPTIMIZATION: int
_TRSF_SEAMLESS_CUBEMAP: int
_ADDRESSMODE_TO_CU: dict[AddressModeType, int]
_FILTERMODE_TO_CU: dict[FilterModeType, int]

class ResourceDescriptor:
    """The memory behind a texture or surface: an array, a mipmap, or a Buffer."""

    __slots__ = ("_kind", "_source", "_format", "_num_channels", "_size_bytes", "_width", "_height", "_pitch_bytes")
    def __init__(self) -> None: ...
    @classmethod
    def from_opaque_array(cls, array: OpaqueArray) -> ResourceDescriptor: ...
    @classmethod
    def from_mipmapped_array(cls, mipmapped_array: MipmappedArray) -> ResourceDescriptor: ...
    @classmethod
    def from_linear(
        cls, buffer: Buffer, *, format: ArrayFormatType | str | Any, num_channels: int, size_bytes: int | None = None
    ) -> ResourceDescriptor: ...
    @classmethod
    def from_pitch2d(
        cls,
        buffer: Buffer,
        *,
        format: ArrayFormatType | str | Any,
        num_channels: int,
        width: int,
        height: int,
        pitch_bytes: int,
    ) -> ResourceDescriptor: ...
    @property
    def kind(self) -> str: ...
    @property
    def source(self) -> OpaqueArray | MipmappedArray | Buffer: ...
    @property
    def format(self) -> ArrayFormatType | None: ...
    @property
    def num_channels(self) -> int | None: ...
    @property
    def size_bytes(self) -> int | None: ...
    @property
    def width(self) -> int | None: ...
    @property
    def height(self) -> int | None: ...
    @property
    def pitch_bytes(self) -> int | None: ...
    def __repr__(self) -> str: ...

@dataclass
class TextureObjectOptions:
    """How a TextureObject samples (CUDA_TEXTURE_DESC)."""

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
    def __post_init__(self) -> None: ...

@disjoint_base
class TextureObject:
    """A bindless texture (CUtexObject): a 64-bit kernel argument."""
    def __init__(self, *args, **kwargs) -> None: ...
    @property
    def handle(self) -> int:
        """The CUtexObject as an int (0 once closed)."""
    @property
    def is_closed(self) -> bool: ...
    @property
    def resource(self) -> ResourceDescriptor: ...
    @property
    def options(self) -> TextureObjectOptions: ...
    @property
    def device(self) -> Device: ...
    def close(self) -> None:
        """Destroy the CUtexObject; idempotent."""
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> None: ...
    def __repr__(self) -> str: ...

def _normalize_enum(name: str, value: object, enum_type: type[_E]) -> _E: ...
def _normalize_address_modes(address_mode: object) -> tuple[AddressModeType, AddressModeType, AddressModeType]: ...
def _create_texture_object(
    resource: ResourceDescriptor, options: TextureObjectOptions | dict[str, Any] | None
) -> TextureObject: ...
