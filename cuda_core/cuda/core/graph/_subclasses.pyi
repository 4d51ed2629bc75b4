# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The node kinds of a graph definition and the executable-node views of a Graph."""

from cuda.core._event import Event
from cuda.core._launch_config import LaunchConfig
from cuda.core._memory._buffer import Buffer
from cuda.core._module import Kernel
from cuda.core.graph._graph_definition import GraphCondition, GraphDefinition
from cuda.core.graph._graph_node import GraphNode
from cuda.core.typing import GraphConditionalType
from typing_extensions import disjoint_base

__all__ = [
    "AllocNode",
    "ChildGraphNode",
    "ConditionalNode",
    "EmptyNode",
    "EventRecordNode",
    "EventWaitNode",
    "ExecutableChildGraphNode",
    "ExecutableEventRecordNode",
    "ExecutableEventWaitNode",
    "ExecutableGraphNode",
    "ExecutableHostCallbackNode",
    "ExecutableKernelNode",
    "ExecutableMemcpyNode",
    "ExecutableMemsetNode",
    "FreeNode",
    "HostCallbackNode",
    "IfElseNode",
    "IfNode",
    "KernelNode",
    "MemcpyNode",
    "MemsetNode",
    "SwitchNode",
    "WhileNode",
]

class EmptyNode(GraphNode):
    """An empty (ordering) node."""
    def __repr__(self) -> str: ...

@disjoint_base
class KernelNode(GraphNode):
    """A kernel launch node."""
    def __repr__(self) -> str: ...
    def update(self, *, config: LaunchConfig | None = None, kernel: Kernel | None = None, args=None) -> None:
        """Replace some of the launch's parameters."""
    @property
    def grid(self) -> tuple[int, int, int]:
        """Grid dimensions, in blocks."""
    @property
    def block(self) -> tuple[int, int, int]:
        """Block dimensions, in threads."""
    @property
    def shmem_size(self) -> int:
        """Dynamic shared memory size in bytes."""
    @property
    def kernel(self) -> Kernel:
        """The Kernel launched."""
    @property
    def config(self) -> LaunchConfig:
        """The launch's LaunchConfig."""

@disjoint_base
class AllocNode(GraphNode):
    """A memory allocation node."""
    def __repr__(self) -> str: ...
    @property
    def dptr(self) -> int:
        """The address of the allocation."""
    @property
    def bytesize(self) -> int:
        """The number of bytes allocated."""
    @property
    def device_id(self) -> int:
        """The device of the allocation."""
    @property
    def memory_type(self) -> str:
        """``"device"``, ``"host"`` or ``"managed"``."""
    @property
    def peer_access(self) -> tuple[int, ...]:
        """Other devices with read-write access."""

@disjoint_base
class FreeNode(GraphNode):
    """A memory free node."""
    def __repr__(self) -> str: ...
    @property
    def dptr(self) -> int:
        """The address freed."""

@disjoint_base
class MemsetNode(GraphNode):
    """A memset node."""
    def __repr__(self) -> str: ...
    def update(
        self,
        *,
        dst: Buffer | int | None = None,
        value=None,
        width: int | None = None,
        height: int | None = None,
        pitch: int | None = None,
        dst_owner=None,
    ) -> None:
        """Replace some of the memset's parameters."""
    @property
    def dptr(self) -> int:
        """The destination address."""
    @property
    def value(self) -> int:
        """The fill value."""
    @property
    def element_size(self) -> int:
        """The element size in bytes (1, 2 or 4)."""
    @property
    def width(self) -> int:
        """The width of a row, in elements."""
    @property
    def height(self) -> int:
        """The number of rows."""
    @property
    def pitch(self) -> int:
        """The bytes from one row to the next."""

@disjoint_base
class MemcpyNode(GraphNode):
    """A memcpy node."""
    def __repr__(self) -> str: ...
    def update(
        self,
        *,
        dst: Buffer | int | None = None,
        src: Buffer | int | None = None,
        size: int | None = None,
        dst_owner=None,
        src_owner=None,
    ) -> None:
        """Replace some of the copy's parameters."""
    @property
    def dst(self) -> int:
        """The destination address."""
    @property
    def src(self) -> int:
        """The source address."""
    @property
    def size(self) -> int:
        """The number of bytes copied."""

@disjoint_base
class ChildGraphNode(GraphNode):
    """A child graph node."""
    def __repr__(self) -> str: ...
    def update(self, child: GraphDefinition) -> None:
        """Embed a clone of ``child`` instead."""
    @property
    def child_graph(self) -> GraphDefinition:
        """The embedded graph."""

class EventRecordNode(GraphNode):
    """An event record node."""
    def __repr__(self) -> str: ...
    def update(self, event: Event) -> None:
        """Record ``event`` instead."""
    @property
    def event(self) -> Event:
        """The Event recorded."""

class EventWaitNode(GraphNode):
    """An event wait node."""
    def __repr__(self) -> str: ...
    def update(self, event: Event) -> None:
        """Wait on ``event`` instead."""
    @property
    def event(self) -> Event:
        """The Event waited on."""

@disjoint_base
class HostCallbackNode(GraphNode):
    """A host callback node."""
    def __repr__(self) -> str: ...
    def update(self, fn, *, user_data=None) -> None:
        """Call ``fn`` instead."""
    @property
    def callback(self):
        """The Python callable (None for a ctypes function pointer)."""

@disjoint_base
class ConditionalNode(GraphNode):
    """A conditional node."""
    def __repr__(self) -> str: ...
    @property
    def condition(self) -> GraphCondition | None:
        """The condition steering the node."""
    @property
    def cond_type(self) -> GraphConditionalType | None:
        """GraphConditionalType.IF, WHILE or SWITCH."""
    @property
    def branches(self) -> tuple[GraphDefinition, ...]:
        """The branch graphs."""

class IfNode(ConditionalNode):
    """An if node."""
    def __repr__(self) -> str: ...
    @property
    def then(self) -> GraphDefinition:
        """The graph run when the condition is non-zero."""

class IfElseNode(ConditionalNode):
    """An if-else node."""
    def __repr__(self) -> str: ...
    @property
    def then(self) -> GraphDefinition:
        """The graph run when the condition is non-zero."""
    @property
    def else_(self) -> GraphDefinition:
        """The graph run when the condition is zero."""

class WhileNode(ConditionalNode):
    """A while-loop node."""
    def __repr__(self) -> str: ...
    @property
    def body(self) -> GraphDefinition:
        """The loop's body graph."""

class SwitchNode(ConditionalNode):
    """A switch node."""
    def __repr__(self) -> str: ...

@disjoint_base
class ExecutableGraphNode:
    """A view of a node in an executable Graph (``graph[node]``)."""
    def __init__(self) -> None: ...
    def __repr__(self) -> str: ...

class ExecutableKernelNode(ExecutableGraphNode):
    """An executable kernel node."""
    def update(self, *, config: LaunchConfig, kernel: Kernel, args) -> None:
        """Replace all the launch's parameters for future launches."""
    @property
    def is_enabled(self) -> bool:
        """Whether this node runs in the executable graph."""
    def enable(self) -> None:
        """Run this node in future launches."""
    def disable(self) -> None:
        """Skip this node in future launches."""

class ExecutableMemsetNode(ExecutableGraphNode):
    """An executable memset node."""
    def update(self, *, dst: Buffer | int, value, width: int, height: int = 1, pitch: int = 0) -> None:
        """Replace all the memset's parameters for future launches."""
    @property
    def is_enabled(self) -> bool:
        """Whether this node runs in the executable graph."""
    def enable(self) -> None:
        """Run this node in future launches."""
    def disable(self) -> None:
        """Skip this node in future launches."""

class ExecutableMemcpyNode(ExecutableGraphNode):
    """An executable memcpy node."""
    def update(self, *, dst: Buffer | int, src: Buffer | int, size: int) -> None:
        """Replace all the copy's parameters for future launches."""
    @property
    def is_enabled(self) -> bool:
        """Whether this node runs in the executable graph."""
    def enable(self) -> None:
        """Run this node in future launches."""
    def disable(self) -> None:
        """Skip this node in future launches."""

class ExecutableChildGraphNode(ExecutableGraphNode):
    """An executable child graph node."""
    def update(self, child: GraphDefinition) -> None:
        """Run ``child`` in future launches."""

class ExecutableEventRecordNode(ExecutableGraphNode):
    """An executable event record node."""
    def update(self, event: Event) -> None:
        """Record ``event`` in future launches."""

class ExecutableEventWaitNode(ExecutableGraphNode):
    """An executable event wait node."""
    def update(self, event: Event) -> None:
        """Wait on ``event`` in future launches."""

class ExecutableHostCallbackNode(ExecutableGraphNode):
    """An executable host callback node."""
    def update(self, fn, *, user_data=None) -> None:
        """Call ``fn`` in future launches."""
