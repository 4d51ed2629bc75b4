# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._pinned_memory_resource (compiled).

import uuid
from dataclasses import dataclass
from typing import Any

from cuda.core._memory._buffer import Buffer
from cuda.core._memory._ipc import IPCAllocationHandle
from cuda.core._memory._memory_pool import _MemPool
from typing_extensions import disjoint_base

__all__ = ["PinnedMemoryResource", "PinnedMemoryResourceOptions"]

@dataclass
class PinnedMemoryResourceOptions:
    """How PinnedMemoryResource creates a pool of its own."""

    ipc_enabled: bool = False
    max_size: int = 0
    numa_id: int | None = None

@disjoint_base
class PinnedMemoryResource(_MemPool):
    """Pinned host memory from a stream-ordered pool: the driver's current one (options None,
    CUDA 13) or one the resource creates and owns."""
    def __init__(self, options: PinnedMemoryResourceOptions | None = None) -> None: ...
    def allocate(self, size: int, *, stream: Any) -> Buffer: ...
    def __reduce__(self) -> tuple[object, ...]: ...
    @staticmethod
    def from_registry(uuid: uuid.UUID) -> PinnedMemoryResource: ...
    def register(self, uuid: uuid.UUID) -> PinnedMemoryResource: ...
    @classmethod
    def from_allocation_handle(cls, alloc_handle: int | IPCAllocationHandle) -> PinnedMemoryResource: ...
    @property
    def allocation_handle(self) -> IPCAllocationHandle: ...
    @property
    def device_id(self) -> int:
        """-1: host memory."""
    @property
    def numa_id(self) -> int:
        """The pool's host NUMA node, or -1 where the OS places it."""
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...

def _deep_reduce_pinned_memory_resource(mr: PinnedMemoryResource) -> tuple[object, ...]: ...
