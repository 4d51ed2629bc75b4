"""Executable graphs (the graphdef branch's part of this module: Graph only)."""

from typing_extensions import disjoint_base

from cuda.core._stream import Stream
from cuda.core._utils.cuda_utils import driver
from cuda.core.graph._graph_node import GraphNode
from cuda.core.graph._subclasses import ExecutableGraphNode

__all__ = ['Graph']

@disjoint_base
class Graph:
    """An executable graph."""
    def __init__(self) -> None: ...
    def close(self) -> None:
        """Destroy the graph."""
    @property
    def is_closed(self) -> bool:
        """Whether this executable graph has been closed."""
    @property
    def handle(self) -> driver.CUgraphExec:
        """The driver's CUgraphExec."""
    def __getitem__(self, node: GraphNode) -> ExecutableGraphNode:
        """The view of ``node`` that updates it in this executable graph."""
    def upload(self, stream: Stream) -> None:
        """Upload the graph in ``stream``."""
    def launch(self, stream: Stream) -> None:
        """Launch the graph in ``stream``."""
