"""cuda.core memory: Buffer, the MemoryResource interface and the driver's memory resources."""

from cuda.core._memory._buffer import Buffer, MemoryResource
from cuda.core._memory._device_memory_resource import DeviceMemoryResource
from cuda.core._memory._legacy import LegacyPinnedMemoryResource
from cuda.core._memory._managed_buffer import ManagedBuffer
from cuda.core._memory._managed_memory_resource import ManagedMemoryResource

__all__ = ["Buffer", "DeviceMemoryResource", "LegacyPinnedMemoryResource", "ManagedBuffer", "ManagedMemoryResource",
           "MemoryResource"]
