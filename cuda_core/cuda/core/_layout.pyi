# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._layout: _StridedLayout, the layout of a strided tensor."""

from typing import Any, ClassVar, final

__all__ = ["_StridedLayout"]

@final
class _StridedLayout:
    """Shape, strides (in elements), itemsize and slice offset of a strided tensor."""

    __hash__: ClassVar[None]  # type: ignore[assignment]

    def __init__(
        self, shape: tuple[int, ...], strides: tuple[int, ...] | None, itemsize: int, divide_strides: bool = False
    ) -> None: ...
    @classmethod
    def dense(cls, shape: tuple[int, ...], itemsize: int, stride_order: str | tuple[int, ...] = "C") -> _StridedLayout:
        """A dense layout of ``shape`` with strides in 'C', 'F' or a permutation order."""
    @classmethod
    def dense_like(cls, other: _StridedLayout, stride_order: str | tuple[int, ...] = "K") -> _StridedLayout:
        """A dense layout with the shape and itemsize of ``other``."""
    @property
    def itemsize(self) -> int:
        """Bytes per element."""
    @property
    def slice_offset(self) -> int:
        """Elements from the allocation's start to the element at index (0,) * ndim."""
    @property
    def ndim(self) -> int:
        """The number of dimensions."""
    @property
    def shape(self) -> tuple[int, ...]:
        """The extents."""
    @property
    def strides(self) -> tuple[int, ...] | None:
        """Strides in elements; None for an implicitly C-contiguous layout."""
    @property
    def strides_in_bytes(self) -> tuple[int, ...] | None:
        """Strides in bytes; None for an implicitly C-contiguous layout."""
    @property
    def stride_order(self) -> tuple[int, ...]:
        """The axes from the largest stride to the smallest."""
    @property
    def volume(self) -> int:
        """The number of elements."""
    @property
    def is_unique(self) -> bool:
        """Whether every element has its own offset (a sufficient test)."""
    @property
    def is_contiguous_c(self) -> bool:
        """Whether the layout is contiguous in C order."""
    @property
    def is_contiguous_f(self) -> bool:
        """Whether the layout is contiguous in Fortran order."""
    @property
    def is_contiguous_any(self) -> bool:
        """Whether the layout is contiguous in some order of its axes."""
    @property
    def is_dense(self) -> bool:
        """Contiguous in some order, with no slice offset."""
    @property
    def offset_bounds(self) -> tuple[int, int]:
        """The lowest and highest element offsets reached; (0, -1) when empty."""
    @property
    def min_offset(self) -> int:
        """The lowest element offset reached."""
    @property
    def max_offset(self) -> int:
        """The highest element offset reached."""
    @property
    def slice_offset_in_bytes(self) -> int:
        """The slice offset in bytes."""
    def required_size_in_bytes(self) -> int:
        """Bytes an allocation needs to hold every element."""
    def flattened_axis_mask(self) -> int:
        """Bit i set when axis i can merge into axis i - 1."""
    def to_dense(self, stride_order: str | tuple[int, ...] = "K") -> _StridedLayout:
        """A dense layout with this shape and itemsize."""
    def reshaped(self, shape: tuple[int, ...]) -> _StridedLayout:
        """The layout with a new shape, when no copy is needed."""
    def permuted(self, axis_order: tuple[int, ...]) -> _StridedLayout:
        """The layout with its axes reordered."""
    def flattened(self, start_axis: int = 0, end_axis: int = -1, mask: int | None = None) -> _StridedLayout:
        """The layout with mergeable neighbouring axes merged."""
    def squeezed(self) -> _StridedLayout:
        """The layout without its extents of 1."""
    def unsqueezed(self, axis: int | tuple[int, ...]) -> _StridedLayout:
        """The layout with extents of 1 inserted."""
    def broadcast_to(self, shape: tuple[int, ...]) -> _StridedLayout:
        """The layout broadcast to a shape."""
    def repacked(self, itemsize: int, data_ptr: int = 0, axis: int = -1, keep_dim: bool = True) -> _StridedLayout:
        """The same bytes seen with another itemsize."""
    def max_compatible_itemsize(self, max_itemsize: int = 16, data_ptr: int = 0, axis: int = -1) -> int:
        """The largest itemsize that repacked accepts."""
    def sliced(self, slices: Any) -> _StridedLayout:
        """The layout of tensor[slices]."""
    def __getitem__(self, slices: Any, /) -> _StridedLayout: ...
    def __eq__(self, other: object, /) -> bool: ...
