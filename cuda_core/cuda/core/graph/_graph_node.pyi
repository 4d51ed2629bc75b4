# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""GraphNode: a node of a graph definition, its edges, and the methods that add nodes after it."""

import weakref
from collections.abc import Iterable

from cuda.core._device import Device
from cuda.core._event import Event
from cuda.core._launch_config import LaunchConfig
from cuda.core._memory._buffer import Buffer
from cuda.core._module import Kernel
from cuda.core._utils.cuda_utils import driver
from cuda.core.graph._adjacency_set_proxy import AdjacencySetProxy
from cuda.core.graph._graph_definition import GraphCondition, GraphDefinition
from cuda.core.graph._subclasses import (
    AllocNode,
    ChildGraphNode,
    EmptyNode,
    EventRecordNode,
    EventWaitNode,
    FreeNode,
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

__all__ = ["GraphNode"]
_node_registry: weakref.WeakValueDictionary[int, GraphNode]

@disjoint_base
class GraphNode:
    """A node of a graph definition."""
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def type(self) -> driver.CUgraphNodeType | None:
        """The node's CUgraphNodeType (None for the entry node and once destroyed)."""
    @property
    def graph(self) -> GraphDefinition:
        """The GraphDefinition this node belongs to."""
    @property
    def handle(self) -> driver.CUgraphNode:
        """The driver's CUgraphNode (None for the entry node and once destroyed)."""
    @property
    def is_valid(self) -> bool:
        """Whether this node and its graph definition remain valid."""
    def destroy(self) -> None:
        """Remove this node and its edges from the graph (a no-op when already destroyed)."""
    @property
    def pred(self) -> AdjacencySetProxy:
        """A mutable set-like view of this node's predecessors."""
    @pred.setter
    def pred(self, value: Iterable[GraphNode]) -> None: ...
    @property
    def succ(self) -> AdjacencySetProxy:
        """A mutable set-like view of this node's successors."""
    @succ.setter
    def succ(self, value: Iterable[GraphNode]) -> None: ...
    def launch(self, config: LaunchConfig, kernel: Kernel, *args) -> KernelNode:
        """Add a kernel launch node depending on this node."""
    def join(self, *nodes: GraphNode) -> EmptyNode:
        """Add an empty node depending on this node and on ``nodes``."""
    def allocate(
        self,
        size: int,
        *,
        device: Device | int | None = None,
        memory_type: GraphMemoryType = GraphMemoryType.DEVICE,
        peer_access: list[Device | int] | None = None,
    ) -> AllocNode:
        """Add a memory allocation node depending on this node."""
    def deallocate(self, dptr: int) -> FreeNode:
        """Add a memory free node depending on this node."""
    def memset(
        self, dst: Buffer | int, value, width: int, height: int = 1, pitch: int = 0, *, dst_owner=None
    ) -> MemsetNode:
        """Add a memset node depending on this node."""
    def memcpy(self, dst: Buffer | int, src: Buffer | int, size: int, *, dst_owner=None, src_owner=None) -> MemcpyNode:
        """Add a memcpy node depending on this node."""
    def embed(self, child: GraphDefinition) -> ChildGraphNode:
        """Add a child graph node (a clone of ``child``) depending on this node."""
    def record(self, event: Event) -> EventRecordNode:
        """Add an event record node depending on this node."""
    def wait(self, event: Event) -> EventWaitNode:
        """Add an event wait node depending on this node."""
    def callback(self, fn, *, user_data=None) -> object:
        """Add a host callback node depending on this node."""
    def if_then(self, condition: GraphCondition) -> IfNode:
        """Add an if node depending on this node."""
    def if_else(self, condition: GraphCondition) -> IfElseNode:
        """Add an if-else node depending on this node."""
    def while_loop(self, condition: GraphCondition) -> WhileNode:
        """Add a while-loop node depending on this node."""
    def switch(self, condition: GraphCondition, count: int) -> SwitchNode:
        """Add a switch node of ``count`` branches depending on this node."""
