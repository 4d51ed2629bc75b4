# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""GraphDefinition: a CUDA graph built node by node; GraphCondition steers its conditionals."""

from cuda.core._device import Device
from cuda.core._event import Event
from cuda.core._launch_config import LaunchConfig
from cuda.core._memory._buffer import Buffer
from cuda.core._module import Kernel
from cuda.core._utils.cuda_utils import driver
from cuda.core.graph._graph_builder import Graph, GraphCompleteOptions, GraphDebugPrintOptions
from cuda.core.graph._graph_node import GraphNode
from cuda.core.graph._subclasses import (
    AllocNode,
    ChildGraphNode,
    EmptyNode,
    EventRecordNode,
    EventWaitNode,
    FreeNode,
    HostCallbackNode,
    IfElseNode,
    IfNode,
    KernelNode,
    MemcpyNode,
    MemsetNode,
    SwitchNode,
    WhileNode,
)
from cuda.core.typing import GraphMemoryType
from typing_extensions import disjoint_base

__all__ = ["GraphCondition", "GraphDefinition"]

@disjoint_base
class GraphCondition:
    """A condition variable of a graph's conditional nodes, set by device code
    (``cudaGraphSetConditional``); pass it as a kernel argument to give kernels its handle."""
    def __init__(self, *args, **kwargs) -> None: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def handle(self) -> driver.CUgraphConditionalHandle:
        """The driver's CUgraphConditionalHandle."""

@disjoint_base
class GraphDefinition:
    """A graph defined node by node, instantiated into an executable Graph."""
    def __init__(self) -> None:
        """Create a new, empty graph definition."""
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def is_valid(self) -> bool:
        """Whether this graph definition remains valid."""
    @property
    def _entry(self) -> GraphNode:
        """The virtual entry node (no dependencies)."""
    def allocate(
        self,
        size: int,
        *,
        device: Device | int | None = None,
        memory_type: GraphMemoryType = GraphMemoryType.DEVICE,
        peer_access: list[Device | int] | None = None,
    ) -> AllocNode:
        """Add an entry-point memory allocation node."""
    def deallocate(self, dptr: int) -> FreeNode:
        """Add an entry-point memory free node."""
    def memset(
        self, dst: Buffer | int, value, width: int, height: int = 1, pitch: int = 0, *, dst_owner=None
    ) -> MemsetNode:
        """Add an entry-point memset node."""
    def launch(self, config: LaunchConfig, kernel: Kernel, *args) -> KernelNode:
        """Add an entry-point kernel launch node."""
    def empty(self) -> EmptyNode:
        """Add an entry-point empty node."""
    def join(self, *nodes: GraphNode) -> EmptyNode:
        """Add an empty node that depends on all ``nodes``."""
    def memcpy(self, dst: Buffer | int, src: Buffer | int, size: int, *, dst_owner=None, src_owner=None) -> MemcpyNode:
        """Add an entry-point memcpy node."""
    def embed(self, child: GraphDefinition) -> ChildGraphNode:
        """Add an entry-point child graph node (a clone of ``child``)."""
    def record(self, event: Event) -> EventRecordNode:
        """Add an entry-point event record node."""
    def wait(self, event: Event) -> EventWaitNode:
        """Add an entry-point event wait node."""
    def callback(self, fn, *, user_data=None) -> HostCallbackNode:
        """Add an entry-point host callback node."""
    def create_condition(self, default_value: int | None = None) -> GraphCondition:
        """A new condition variable of this graph (``default_value`` at each launch)."""
    def if_then(self, condition: GraphCondition) -> IfNode:
        """Add an entry-point if node."""
    def if_else(self, condition: GraphCondition) -> IfElseNode:
        """Add an entry-point if-else node."""
    def while_loop(self, condition: GraphCondition) -> WhileNode:
        """Add an entry-point while-loop node."""
    def switch(self, condition: GraphCondition, count: int) -> SwitchNode:
        """Add an entry-point switch node of ``count`` branches."""
    def instantiate(self, options: GraphCompleteOptions | None = None) -> Graph:
        """Instantiate this definition into an executable Graph."""
    def debug_dot_print(self, path: str, options: GraphDebugPrintOptions | None = None) -> None:
        """Write a GraphViz DOT description of the graph to ``path``."""
    def nodes(self) -> set[GraphNode]:
        """All the nodes of the graph."""
    def edges(self) -> set[tuple[GraphNode, GraphNode]]:
        """All the edges of the graph, as (from_node, to_node) pairs."""
    @property
    def handle(self) -> driver.CUgraph:
        """The driver's CUgraph."""
