# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._memory_pool (compiled): the base of the pool resources.

import uuid
from typing import Any

from cuda.core._memory._buffer import Buffer, MemoryResource
from typing_extensions import disjoint_base

__all__: list[str] = []

@disjoint_base
class _MemPoolAttributes:
    """A pool's attributes, read from the driver at each access; keeps the pool alive."""
    def __init__(self, *args, **kwargs) -> None: ...
    def __repr__(self) -> str: ...
    @property
    def reuse_follow_event_dependencies(self) -> bool: ...
    @property
    def reuse_allow_opportunistic(self) -> bool: ...
    @property
    def reuse_allow_internal_dependencies(self) -> bool: ...
    @property
    def release_threshold(self) -> int: ...
    @property
    def reserved_mem_current(self) -> int: ...
    @property
    def reserved_mem_high(self) -> int: ...
    @property
    def used_mem_current(self) -> int: ...
    @property
    def used_mem_high(self) -> int: ...

@disjoint_base
class _MemPool(MemoryResource):
    """A memory resource over a stream-ordered driver memory pool."""
    def __init__(self) -> None: ...
    def close(self) -> None:
        """Let go of the pool (an owned pool is destroyed once nothing holds it); buffers
        still out can be deallocated. Does nothing for a pool the resource does not own."""
    @property
    def is_closed(self) -> bool: ...
    def allocate(self, size: int, *, stream: Any) -> Buffer:
        """``size`` bytes from the pool, ordered on ``stream`` (required)."""
    def deallocate(self, ptr: Any, size: int, *, stream: Any) -> None:
        """Free ``ptr`` back to the pool on ``stream``."""
    @property
    def attributes(self) -> _MemPoolAttributes: ...
    @property
    def handle(self) -> object:
        """The driver's CUmemoryPool."""
    @property
    def is_handle_owned(self) -> bool: ...
    @property
    def is_ipc_enabled(self) -> bool: ...
    @property
    def is_mapped(self) -> bool: ...
    @property
    def uuid(self) -> uuid.UUID | None: ...

def current_host_numa_id() -> int:
    """The host NUMA node of the current device (-1: none)."""
