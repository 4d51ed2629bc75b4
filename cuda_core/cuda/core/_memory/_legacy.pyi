# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._legacy (compiled): the synchronous resources.

from typing import Any

from cuda.core._memory._buffer import Buffer, MemoryResource
from typing_extensions import disjoint_base

__all__ = ["LegacyPinnedMemoryResource"]

class LegacyPinnedMemoryResource(MemoryResource):
    """Pinned host memory from cuMemAllocHost (not stream-ordered)."""
    def allocate(self, size: int, *, stream: Any | None = None) -> Buffer: ...
    def deallocate(self, ptr: Any, size: int, *, stream: Any | None = None) -> None: ...
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...
    @property
    def device_id(self) -> int:
        """RuntimeError: pinned memory is bound to no GPU."""

@disjoint_base
class _SynchronousMemoryResource(MemoryResource):
    """Device memory from cuMemAlloc (not stream-ordered)."""
    def __init__(self, device_id: int) -> None: ...
    def allocate(self, size: int, *, stream: Any | None = None) -> Buffer: ...
    def deallocate(self, ptr: Any, size: int, *, stream: Any | None = None) -> None: ...
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...
    @property
    def device_id(self) -> int: ...
