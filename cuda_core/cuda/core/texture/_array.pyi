# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core.texture._array: CUDA arrays (OpaqueArray) and their options."""

from dataclasses import dataclass
from typing import Any

from cuda.core._device import Device
from cuda.core._memory._buffer import Buffer
from cuda.core._stream import Stream
from cuda.core.graph import GraphBuilder
from cuda.core.typing import ArrayFormatType
from typing_extensions import Self, disjoint_base

__all__ = ["OpaqueArray", "OpaqueArrayOptions"]

_ARRAYFORMAT_TO_CU: dict[ArrayFormatType, int]
_CU_TO_ARRAYFORMAT: dict[int, ArrayFormatType]
_NUMPY_DTYPE_TO_ARRAYFORMAT: dict[str, ArrayFormatType]
_FORMAT_ELEM_SIZE: dict[int, int]

@dataclass
class OpaqueArrayOptions:
    """How an OpaqueArray is allocated: shape (1-3 extents), format, channels (1, 2, 4), and
    whether it can back a SurfaceObject."""

    shape: tuple[int, ...]
    format: object
    num_channels: int
    is_surface_load_store: bool = False
    def __post_init__(self) -> None: ...

@disjoint_base
class OpaqueArray:
    """A CUDA array: opaque storage read through textures and written through surfaces."""
    def __init__(self, *args, **kwargs) -> None: ...
    @classmethod
    def _from_handle(cls, handle: int, owning: bool, *, device_id: int | None = None) -> OpaqueArray:
        """An OpaqueArray over an existing CUarray (owned here only with ``owning``)."""
    @property
    def handle(self) -> int:
        """The CUarray as an int (0 once closed)."""
    @property
    def is_closed(self) -> bool: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def format(self) -> ArrayFormatType: ...
    @property
    def num_channels(self) -> int: ...
    @property
    def element_bytes(self) -> int: ...
    @property
    def device(self) -> Device: ...
    @property
    def is_surface_load_store(self) -> bool: ...
    def _extent_bytes(self) -> tuple[int, int, int]: ...
    @property
    def size_bytes(self) -> int: ...
    def copy_from(self, src: Buffer | Any, *, stream: Stream | GraphBuilder) -> None:
        """Copy the whole array's worth of bytes from a Buffer or host buffer."""
    def copy_to(self, dst: Buffer | Any, *, stream: Stream | GraphBuilder) -> Any:
        """Copy the whole array into a Buffer or writable host buffer; returns ``dst``."""
    def close(self) -> None:
        """Drop this reference to the CUarray; idempotent."""
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> None: ...
    def __repr__(self) -> str: ...

def _normalize_array_format(format: object) -> ArrayFormatType: ...
def _validate_format_channels(format: object, num_channels: int) -> ArrayFormatType: ...
def _validate_array_shape(shape: object) -> tuple[int, ...]: ...
def _create_opaque_array(options: OpaqueArrayOptions | dict[str, Any]) -> OpaqueArray: ...
