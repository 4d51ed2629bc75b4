# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._graphics: OpenGL buffers and images registered for CUDA access."""

from typing import Sequence, final

from cuda.core._memory._buffer import Buffer, MemoryResource
from cuda.core._stream import Stream
from typing_extensions import disjoint_base

__all__ = ["GraphicsResource"]
_REGISTER_FLAGS: dict[str, int]

@disjoint_base
class GraphicsResource:
    """An OpenGL buffer or image registered for CUDA access; map() gives a Buffer over it."""
    def __init__(self) -> None: ...
    @classmethod
    def from_gl_buffer(
        cls, gl_buffer: int, *, flags: str | tuple[str, ...] | list[str] | None = None, stream: Stream | None = None
    ) -> GraphicsResource:
        """Register an OpenGL buffer object for CUDA access."""
    @classmethod
    def from_gl_image(
        cls, image: int, target: int, *, flags: str | tuple[str, ...] | list[str] | None = None
    ) -> GraphicsResource:
        """Register an OpenGL texture or renderbuffer for CUDA access."""
    def _get_mapped_buffer(self) -> object: ...
    def map(self, *, stream: Stream) -> Buffer:
        """Map for CUDA access on ``stream``; the returned Buffer's close() unmaps."""
    def unmap(self, *, stream: Stream | None = None) -> None:
        """Unmap, closing the mapped Buffer."""
    def __enter__(self) -> object: ...
    def __exit__(self, exc_type: type | None, exc_val: BaseException | None, exc_tb: object) -> bool: ...
    def close(self, stream: object | None = None):
        """Unmap if mapped, then unregister."""
    @property
    def is_mapped(self) -> bool:
        """Whether the resource is mapped for CUDA access."""
    @property
    def handle(self) -> int:
        """The CUgraphicsResource as an int."""
    @property
    def is_closed(self) -> bool:
        """Whether close() ran."""
    @property
    def resource_handle(self) -> int:
        """The same as handle."""
    def __repr__(self) -> str: ...

@final
class _MappedGraphicsMemory(MemoryResource):
    def __init__(self, resource: GraphicsResource, device_id: int) -> None: ...
    def deallocate(self, ptr: object, size: object, *, stream: object) -> None: ...
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...
    @property
    def device_id(self) -> int: ...

def _parse_register_flags(flags: str | Sequence[str] | None) -> int: ...
