# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._device_memory_resource (compiled).

import uuid
from dataclasses import dataclass

from cuda.core._device import Device
from cuda.core._memory._ipc import IPCAllocationHandle
from cuda.core._memory._memory_pool import _MemPool
from cuda.core._memory._peer_access_utils import PeerAccessibleBySetProxy
from typing_extensions import disjoint_base

__all__ = ["DeviceMemoryResource", "DeviceMemoryResourceOptions"]

@dataclass
class DeviceMemoryResourceOptions:
    """How DeviceMemoryResource creates a pool of its own."""

    ipc_enabled: bool = False
    max_size: int = 0

@disjoint_base
class DeviceMemoryResource(_MemPool):
    """Device memory from a stream-ordered pool: the device's current pool (options None), or
    one the resource creates and owns (options given)."""
    def __init__(self, device_id: Device | int, options: DeviceMemoryResourceOptions | None = None) -> None: ...
    def __reduce__(self) -> tuple[object, ...]: ...
    @staticmethod
    def from_registry(uuid: uuid.UUID) -> DeviceMemoryResource: ...
    def register(self, uuid: uuid.UUID) -> DeviceMemoryResource: ...
    @classmethod
    def from_allocation_handle(
        cls, device_id: Device | int, alloc_handle: int | IPCAllocationHandle
    ) -> DeviceMemoryResource: ...
    @property
    def allocation_handle(self) -> IPCAllocationHandle: ...
    @property
    def device_id(self) -> int: ...
    @property
    def peer_accessible_by(self) -> PeerAccessibleBySetProxy:
        """The live set of other devices granted access to the pool (settable)."""
    @peer_accessible_by.setter
    def peer_accessible_by(self, devices) -> None: ...
    @property
    def is_device_accessible(self) -> bool: ...
    @property
    def is_host_accessible(self) -> bool: ...

def DMR_mempool_get_access(dmr: DeviceMemoryResource, device_id: int) -> str:
    """The access a device has to the pool: "rw", "r" or ""."""

def _deep_reduce_device_memory_resource(mr: DeviceMemoryResource) -> tuple[object, ...]: ...
