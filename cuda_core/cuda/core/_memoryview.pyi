# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memoryview (compiled): StridedMemoryView and its decorator.

from collections.abc import Callable
from typing import Any

import numpy
from cuda.core._layout import _StridedLayout
from cuda.core._memory import Buffer
from cuda.core._stream import Stream
from cuda.core._tensor_map import TensorMapDescriptorOptions
from typing_extensions import CapsuleType, disjoint_base

__all__ = ["StridedMemoryView", "args_viewable_as_strided_memory"]

bfloat16: Any

@disjoint_base
class StridedMemoryView:
    """A strided view of array memory on the host or a device (DLPack, CUDA Array Interface,
    NumPy array interface, or a Buffer with a layout)."""

    __dlpack_c_exchange_api__: CapsuleType
    __c_dlpack_exchange_api__: CapsuleType
    @property
    def ptr(self) -> int: ...
    @property
    def device_id(self) -> int: ...
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def readonly(self) -> bool: ...
    @property
    def exporting_obj(self) -> object: ...
    def __init__(self, obj: object | None = None, stream_ptr: int | None = None) -> None: ...
    @classmethod
    def from_dlpack(cls, obj: object, stream_ptr: int | None = None) -> StridedMemoryView: ...
    @classmethod
    def from_cuda_array_interface(cls, obj: object, stream_ptr: int | None = None) -> StridedMemoryView: ...
    @classmethod
    def from_array_interface(cls, obj: object) -> StridedMemoryView: ...
    @classmethod
    def from_any_interface(cls, obj: object, stream_ptr: int | None = None) -> StridedMemoryView: ...
    @classmethod
    def from_buffer(
        cls,
        buffer: Buffer,
        shape: tuple[int, ...],
        strides: tuple[int, ...] | None = None,
        *,
        itemsize: int | None = None,
        dtype: numpy.dtype | None = None,
        is_readonly: bool = False,
    ) -> StridedMemoryView: ...
    def view(self, layout: _StridedLayout | None = None, dtype: numpy.dtype | None = None) -> StridedMemoryView: ...
    @property
    def _layout(self) -> _StridedLayout: ...
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def strides(self) -> tuple[int, ...] | None: ...
    @property
    def size(self) -> int: ...
    @property
    def dtype(self) -> numpy.dtype | None: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object: ...
    def copy_from(
        self, other: StridedMemoryView, stream: Stream, allocator: object | None = None, blocking: bool | None = None
    ) -> None: ...
    def copy_to(
        self,
        other: StridedMemoryView,
        stream: Stream | None = None,
        allocator: object | None = None,
        blocking: bool | None = None,
    ) -> None: ...
    def as_tensor_map(
        self,
        box_dim: tuple[int, ...] | None = None,
        *,
        options: TensorMapDescriptorOptions | None = None,
        element_strides: tuple[int, ...] | None = None,
        data_type: object | None = None,
        interleave: object | None = None,
        swizzle: object | None = None,
        l2_promotion: object | None = None,
        oob_fill: object | None = None,
    ) -> object: ...

class _StridedMemoryViewProxy:
    obj: object
    has_dlpack: bool
    def __init__(self, obj: object) -> None: ...
    def view(self, stream_ptr: int | None = None) -> StridedMemoryView: ...

def _typestr2dtype(typestr: str) -> numpy.dtype: ...
def _typestr2itemsize(typestr: str) -> int: ...
def view_as_cai(obj: object, stream_ptr: int | None, view: StridedMemoryView | None = None) -> StridedMemoryView: ...
def view_as_array_interface(obj: object, view: StridedMemoryView | None = None) -> StridedMemoryView: ...
def args_viewable_as_strided_memory(
    arg_indices: tuple[int, ...],
) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...
