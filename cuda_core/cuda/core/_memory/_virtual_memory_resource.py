"""cuda.core VirtualMemoryResource: memory mapped through the driver's virtual memory management
API. Not part of this cuda.core yet: the names exist (NVIDIA's cuda.core exports them) and
refuse use."""

from __future__ import annotations

from cuda.core._memory._buffer import MemoryResource

__all__ = ["VirtualMemoryResource", "VirtualMemoryResourceOptions"]

_NOT_YET = ("virtual memory management (cuMemCreate/cuMemMap) resources are not supported by this "
            "cuda.core yet: use DeviceMemoryResource")


class VirtualMemoryResourceOptions:
    """The options of a VirtualMemoryResource: not supported yet (NotImplementedError)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(_NOT_YET)


class VirtualMemoryResource(MemoryResource):
    """Device memory reserved and mapped with the virtual memory management API: not
    supported yet (NotImplementedError)."""

    def __init__(self, device_id: object, config: object = None) -> None:
        raise NotImplementedError(_NOT_YET)
