# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._buffer (compiled): Buffer and the MemoryResource interface.

from typing import Any

from cuda.core._memory._device_memory_resource import DeviceMemoryResource
from cuda.core._memory._ipc import IPCBufferDescriptor
from cuda.core._memory._pinned_memory_resource import PinnedMemoryResource
from cuda.core._stream import Stream
from typing_extensions import disjoint_base

__all__ = ["Buffer", "MemoryResource"]

# Accepted wherever a pointer is: an int, a cuda.bindings driver.CUdeviceptr, or None (0).
DevicePointerType = Any
# A Stream (or an object with __cuda_stream__); NVIDIA's cuda.core also takes a GraphBuilder.
_StreamLike = Any

@disjoint_base
class Buffer:
    """Memory from a MemoryResource, or someone else's memory (``from_handle``). It goes back to
    its resource once: on ``close()``, leaving a ``with`` block, or garbage collection."""

    _size: int

    def __init__(self, *args, **kwargs) -> None: ...
    @classmethod
    def _init(
        cls,
        ptr: DevicePointerType,
        size: int,
        mr: MemoryResource | None = None,
        ipc_descriptor: IPCBufferDescriptor | None = None,
        owner: object | None = None,
        *,
        stream: _StreamLike | None = None,
    ) -> Buffer: ...
    @staticmethod
    def _reduce_helper(mr, ipc_descriptor): ...
    def __reduce__(self) -> tuple[object, ...]: ...
    @staticmethod
    def from_handle(
        ptr: DevicePointerType,
        size: int,
        mr: MemoryResource | None = None,
        owner: object | None = None,
        *,
        stream: _StreamLike | None = None,
    ) -> Buffer:
        """Wrap ``size`` bytes at ``ptr``: owned and freed through ``mr``, kept alive through
        ``owner``, or a plain reference with neither (``mr`` and ``owner`` exclude each other)."""
    @classmethod
    def from_ipc_descriptor(
        cls, mr: DeviceMemoryResource | PinnedMemoryResource, ipc_descriptor: IPCBufferDescriptor, *, stream: Stream
    ) -> Buffer:
        """Import another process's buffer (IPC): not supported yet."""
    @property
    def ipc_descriptor(self) -> IPCBufferDescriptor:
        """The descriptor sharing this buffer with other processes (IPC): not supported yet."""
    def close(self, stream: _StreamLike | None = None) -> None:
        """Give the memory back, ordered on ``stream`` (None: the deallocation stream)."""
    def set_deallocation_stream(self, stream: _StreamLike) -> None:
        """Order the eventual deallocation on ``stream`` (nothing is synchronized)."""
    def __enter__(self): ...
    def __exit__(self, exc_type, exc_val, exc_tb): ...
    def copy_to(self, dst: Buffer | None = None, *, stream: _StreamLike, options: object | None = None) -> Buffer:
        """Copy into ``dst`` (None: a new buffer from this buffer's resource) on ``stream``."""
    def copy_from(self, src: Buffer, *, stream: _StreamLike, options: object | None = None) -> None:
        """Copy ``src`` (same size) into this buffer on ``stream``."""
    def fill(self, value: int | Any, *, stream: _StreamLike) -> None:
        """Fill with a repeated byte (int in [0, 256)) or 1-, 2- or 4-byte pattern (buffer protocol)."""
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def __buffer__(self, flags: int, /) -> memoryview: ...
    def __release_buffer__(self, buffer: memoryview, /) -> None: ...
    @property
    def device_id(self) -> int:
        """The device the memory belongs to (-1: none)."""
    @property
    def handle(self) -> int:
        """The address, as an int (0 once closed)."""
    @property
    def is_closed(self) -> bool:
        """Whether the buffer was closed."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...
    @property
    def is_device_accessible(self) -> bool:
        """Whether GPU kernels reach the memory."""
    @property
    def is_host_accessible(self) -> bool:
        """Whether the CPU reaches the memory."""
    @property
    def is_managed(self) -> bool:
        """Whether the memory is CUDA managed (unified) memory."""
    @property
    def is_mapped(self) -> bool:
        """Whether the buffer was imported from another process (IPC)."""
    @property
    def memory_resource(self) -> MemoryResource:
        """The resource the memory goes back to (None without one, and once closed)."""
    @property
    def size(self) -> int:
        """The size in bytes (0 once closed)."""
    @property
    def owner(self) -> object:
        """The object kept alive for ``from_handle(..., owner=...)``."""

@disjoint_base
class MemoryResource:
    """The interface of memory resources; subclass it and define allocate, deallocate,
    is_device_accessible, is_host_accessible and device_id."""
    def allocate(self, size: int, *, stream: _StreamLike) -> Buffer:
        """A Buffer of ``size`` bytes, allocated in the order of ``stream``."""
    def deallocate(self, ptr: DevicePointerType, size: int, *, stream: _StreamLike) -> None:
        """Give back ``size`` bytes at ``ptr``, in the order of ``stream``."""
    @property
    def is_device_accessible(self) -> bool:
        """Whether its buffers are reachable from GPU kernels."""
    @property
    def is_host_accessible(self) -> bool:
        """Whether its buffers are reachable from the CPU."""
    @property
    def is_managed(self) -> bool:
        """Whether its buffers are managed memory (False unless overridden)."""
    @property
    def device_id(self) -> int:
        """The device its memory belongs to, or -1."""
