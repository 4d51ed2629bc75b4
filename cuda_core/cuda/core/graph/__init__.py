"""cuda.core.graph: CUDA graphs, built by stream capture or defined node by node (not built yet)."""

__all__: list[str] = []
