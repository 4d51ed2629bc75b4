# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._managed_memory_resource (compiled).

from dataclasses import dataclass
from typing import Any

from cuda.core._memory._managed_buffer import ManagedBuffer
from cuda.core._memory._memory_pool import _MemPool
from typing_extensions import disjoint_base

__all__ = ["ManagedMemoryResource", "ManagedMemoryResourceOptions"]

@dataclass
class ManagedMemoryResourceOptions:
    """Where ManagedMemoryResource's own pool prefers its memory to live."""

    preferred_location: int | None = None
    preferred_location_type: str | None = None

@disjoint_base
class ManagedMemoryResource(_MemPool):
    """Managed memory from a stream-ordered managed pool (CUDA 13)."""
    def __init__(self, options: ManagedMemoryResourceOptions | None = None) -> None: ...
    def allocate(self, size: int, *, stream: Any) -> ManagedBuffer: ...
    @property
    def device_id(self) -> int:
        """The preferred device, or -1."""
    @property
    def preferred_location(self) -> tuple[str, int | None] | None:
        """None, or ("device", ordinal), ("host", None), ("host_numa", node)."""
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...
    @property
    def is_managed(self) -> bool: ...

def reset_concurrent_access_warning() -> None:
    """Let the next resource warn again about missing concurrent managed access."""
