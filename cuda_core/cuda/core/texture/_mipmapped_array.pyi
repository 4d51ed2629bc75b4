# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core.texture._mipmapped_array: mipmapped CUDA arrays and their options."""

from dataclasses import dataclass
from typing import Any

from cuda.core._device import Device
from cuda.core.texture._array import OpaqueArray
from cuda.core.typing import ArrayFormatType
from typing_extensions import Self, disjoint_base

__all__ = ["MipmappedArray", "MipmappedArrayOptions"]

@dataclass
class MipmappedArrayOptions:
    """How a MipmappedArray is allocated: level 0's shape, format, channels, levels, and
    whether its levels can back a SurfaceObject."""

    shape: tuple[int, ...]
    format: object
    num_channels: int
    num_levels: int
    is_surface_load_store: bool = False
    def __post_init__(self) -> None: ...

@disjoint_base
class MipmappedArray:
    """A CUDA mipmapped array: levels each half the size of the one before."""
    def __init__(self, *args, **kwargs) -> None: ...
    def get_level(self, level: int) -> OpaqueArray:
        """A level as a non-owning OpaqueArray that keeps the mipmap alive."""
    @property
    def handle(self) -> int:
        """The CUmipmappedArray as an int (0 once closed)."""
    @property
    def is_closed(self) -> bool: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def format(self) -> ArrayFormatType: ...
    @property
    def num_channels(self) -> int: ...
    @property
    def num_levels(self) -> int: ...
    @property
    def is_surface_load_store(self) -> bool: ...
    @property
    def device(self) -> Device: ...
    def close(self) -> None:
        """Drop this reference to the CUmipmappedArray; idempotent."""
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> None: ...
    def __repr__(self) -> str: ...

def _create_mipmapped_array(options: MipmappedArrayOptions | dict[str, Any]) -> MipmappedArray: ...
