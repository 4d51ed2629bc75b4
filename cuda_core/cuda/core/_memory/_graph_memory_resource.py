"""cuda.core GraphMemoryResource: memory allocated inside CUDA graphs. Graphs are not part of
this cuda.core yet, so the name exists (NVIDIA's cuda.core exports it) and refuses use."""

from __future__ import annotations

from cuda.core._memory._buffer import MemoryResource

__all__ = ["GraphMemoryResource"]


class GraphMemoryResource(MemoryResource):
    """Graph-ordered device memory of one device: needs CUDA graph support, which this
    cuda.core does not have yet (NotImplementedError)."""

    def __init__(self, device_id: object) -> None:
        raise NotImplementedError("GraphMemoryResource (memory allocated inside CUDA graphs) is not supported yet "
                                  "by this cuda.core, which has no CUDA graphs")
