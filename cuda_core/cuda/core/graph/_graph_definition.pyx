# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""GraphDefinition: a CUDA graph built node by node, and GraphCondition, the handle that
device code sets to steer a graph's conditional nodes.

A definition owns its CUgraph (destroyed with it) unless it is a view of a graph owned by
something else: a conditional node's branch, a child-graph node's embedded clone, or a
GraphBuilder's captured graph. A view keeps its owner alive and is valid while the owner is.
What the nodes need alive (kernels, callbacks, events, buffers) is kept in ``_keepalive``, one
list shared by a definition and all its views, copied into each Graph instantiated from it.
"""

cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t
from libcpp.vector cimport vector

from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver
from cuda.core.graph._graph_builder cimport Graph, instantiate as _instantiate
from cuda.core.graph._graph_node cimport GraphNode, entry_node, node_for, pass_to_main_thread

from cuda.core._utils.cuda_utils import driver
from cuda.core.typing import GraphMemoryType

include "driver_compat.pxi"

__all__ = ['GraphCondition', 'GraphDefinition']


cdef class GraphCondition:
    """A condition variable for conditional graph nodes.

    Made by :meth:`GraphDefinition.create_condition` (or ``GraphBuilder.create_condition``)
    and given to ``if_then``, ``if_else``, ``while_loop`` or ``switch``. Device code sets its
    value with ``cudaGraphSetConditional``; pass the condition itself as a kernel argument
    and the launcher passes its handle.
    """

    def __init__(self, *args, **kwargs):
        raise RuntimeError("GraphCondition cannot be made directly: use GraphDefinition.create_condition() "
                           "or GraphBuilder.create_condition()")

    def __repr__(self) -> str:
        return f"<GraphCondition handle=0x{<unsigned long long>self._handle:x}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphCondition):
            return NotImplemented
        return self._handle == (<GraphCondition>other)._handle

    def __hash__(self) -> int:
        return hash((GraphCondition, <unsigned long long>self._handle))

    @property
    def handle(self) -> driver.CUgraphConditionalHandle:
        """The driver's CUgraphConditionalHandle (``int()`` gives its value)."""
        return driver.CUgraphConditionalHandle(<unsigned long long>self._handle)


cdef GraphCondition new_condition(cydriver.CUgraphConditionalHandle handle, object graph):
    cdef GraphCondition condition = GraphCondition.__new__(GraphCondition)
    condition._handle = handle
    condition._graph = graph
    return condition


cdef bint _owner_valid(object owner) except -1:
    """Whether a view's owner still holds its graph: a node until destroyed, a definition
    while valid; anything else (a GraphBuilder) keeps its graph for the view's lifetime."""
    if owner is None:
        return True
    if isinstance(owner, GraphNode):
        return (<GraphNode>owner)._valid()
    if isinstance(owner, GraphDefinition):
        return (<GraphDefinition>owner)._valid()
    return True


cdef class GraphDefinition:
    """A graph defined explicitly: add nodes with its methods (entry nodes, with no
    dependencies) or with a node's methods (nodes that depend on it), then
    :meth:`instantiate` it into an executable :class:`Graph`.

    Definitions that view the same graph hierarchy (a root, its children and branches)
    share its state: changes anywhere in it must be synchronized by the caller.
    """

    def __init__(self):
        """Create a new, empty graph definition."""
        cdef cydriver.CUgraph graph = NULL
        ensure_driver()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphCreate(&graph, 0))
        self._graph = graph
        self._owner = None
        self._owns_graph = True
        self._keepalive = []

    def __dealloc__(self):
        cdef cydriver.CUgraph graph = self._graph
        self._graph = NULL
        # What the nodes keep is finalized on the main thread: off it, the release queue takes
        # the list before the GIL is released (on it, the list goes after the graph).
        _held = pass_to_main_thread(self._keepalive)
        self._keepalive = None
        if graph != NULL and self._owns_graph:
            with nogil:
                cydriver.cuGraphDestroy(graph)  # nothing to report from a destructor

    cdef bint _valid(self) except -1:
        return self._graph != NULL and _owner_valid(self._owner)

    cdef cydriver.CUgraph _live(self) except NULL:
        if not self._valid():
            raise RuntimeError("GraphDefinition is no longer valid: the node that owned this graph (a child-graph "
                               "or conditional node) was destroyed")
        return self._graph

    def __repr__(self) -> str:
        state = "" if self._valid() else " (invalid)"
        return f"<GraphDefinition handle=0x{<uintptr_t>self._graph:x}{state}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphDefinition):
            return NotImplemented
        return self._graph == (<GraphDefinition>other)._graph

    def __hash__(self) -> int:
        # The address is kept when the graph becomes invalid, so hashes never change.
        return hash((GraphDefinition, <uintptr_t>self._graph))

    @property
    def is_valid(self) -> bool:
        """Whether this graph definition remains valid."""
        return self._valid()

    @property
    def _entry(self) -> GraphNode:
        """The virtual entry node (no dependencies) that this definition's methods add from."""
        return entry_node(self)

    def allocate(self, size: int, *, device=None, memory_type=GraphMemoryType.DEVICE, peer_access=None):
        """Add an entry-point memory allocation node; see :meth:`GraphNode.allocate`."""
        return entry_node(self).allocate(size, device=device, memory_type=memory_type, peer_access=peer_access)

    def deallocate(self, dptr: int):
        """Add an entry-point memory free node; see :meth:`GraphNode.deallocate`."""
        return entry_node(self).deallocate(dptr)

    def memset(self, dst, value, width: int, height: int = 1, pitch: int = 0, *, dst_owner=None):
        """Add an entry-point memset node; see :meth:`GraphNode.memset`."""
        return entry_node(self).memset(dst, value, width, height, pitch, dst_owner=dst_owner)

    def launch(self, config, kernel, *args):
        """Add an entry-point kernel launch node; see :meth:`GraphNode.launch`."""
        return entry_node(self).launch(config, kernel, *args)

    def empty(self):
        """Add an entry-point empty node (no dependencies) and return it."""
        return entry_node(self).join()

    def join(self, *nodes: GraphNode):
        """Add an empty node that depends on all ``nodes`` and return it."""
        return entry_node(self).join(*nodes)

    def memcpy(self, dst, src, size: int, *, dst_owner=None, src_owner=None):
        """Add an entry-point memcpy node; see :meth:`GraphNode.memcpy`."""
        return entry_node(self).memcpy(dst, src, size, dst_owner=dst_owner, src_owner=src_owner)

    def embed(self, child: GraphDefinition):
        """Add an entry-point child graph node; see :meth:`GraphNode.embed`."""
        return entry_node(self).embed(child)

    def record(self, event):
        """Add an entry-point event record node; see :meth:`GraphNode.record`."""
        return entry_node(self).record(event)

    def wait(self, event):
        """Add an entry-point event wait node; see :meth:`GraphNode.wait`."""
        return entry_node(self).wait(event)

    def callback(self, fn, *, user_data=None):
        """Add an entry-point host callback node; see :meth:`GraphNode.callback`."""
        return entry_node(self).callback(fn, user_data=user_data)

    def create_condition(self, default_value: int | None = None) -> GraphCondition:
        """A new condition variable of this graph, for its conditional nodes.

        ``default_value``: the value the condition takes at each launch of the graph;
        None leaves it unassigned (device code must set it before a conditional reads it).
        """
        cdef cydriver.CUgraph graph = self._live()
        cdef cydriver.CUcontext context = NULL
        cdef cydriver.CUgraphConditionalHandle handle = 0
        cdef unsigned int value = 0
        cdef unsigned int flags = 0
        if default_value is not None:
            value = default_value
            flags = cydriver.CU_GRAPH_COND_ASSIGN_DEFAULT
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
            HANDLE_RETURN(cydriver.cuGraphConditionalHandleCreate(&handle, graph, context, value, flags))
        return new_condition(handle, self)

    def if_then(self, condition: GraphCondition):
        """Add an entry-point if node; see :meth:`GraphNode.if_then`."""
        return entry_node(self).if_then(condition)

    def if_else(self, condition: GraphCondition):
        """Add an entry-point if-else node; see :meth:`GraphNode.if_else`."""
        return entry_node(self).if_else(condition)

    def while_loop(self, condition: GraphCondition):
        """Add an entry-point while-loop node; see :meth:`GraphNode.while_loop`."""
        return entry_node(self).while_loop(condition)

    def switch(self, condition: GraphCondition, count: int):
        """Add an entry-point switch node; see :meth:`GraphNode.switch`."""
        return entry_node(self).switch(condition, count)

    def instantiate(self, options=None) -> Graph:
        """Instantiate this definition into an executable :class:`Graph`.

        ``options``: a ``GraphCompleteOptions``, or None for the defaults. The Graph keeps
        alive what the nodes need, so it can outlive this definition.
        """
        return _instantiate(self, options)

    def debug_dot_print(self, path: str, options=None) -> None:
        """Write a GraphViz DOT description of the graph to the file ``path``.

        ``options``: a ``GraphDebugPrintOptions`` selecting what the output shows, or None.
        """
        cdef cydriver.CUgraph graph = self._live()
        cdef unsigned int flags = 0
        if options is not None:
            from cuda.core.graph import _graph_builder
            options_type = getattr(_graph_builder, "GraphDebugPrintOptions", None)
            if options_type is None or not isinstance(options, options_type):
                raise TypeError(f"options must be a GraphDebugPrintOptions (or None), not {type(options).__name__}")
            flags = options._to_flags()
        cdef bytes encoded = str(path).encode()
        cdef const char* c_path = encoded
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphDebugDotPrint(graph, c_path, flags))

    def nodes(self) -> set:
        """All the nodes of the graph, as a set of GraphNode."""
        cdef cydriver.CUgraph graph = self._live()
        cdef vector[cydriver.CUgraphNode] handles
        cdef size_t count = 0
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphGetNodes(graph, NULL, &count))
        if count == 0:
            return set()
        handles.resize(count)
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphGetNodes(graph, handles.data(), &count))
        return {node_for(self, handles[i]) for i in range(count)}

    def edges(self) -> set:
        """All the edges of the graph, as a set of (from_node, to_node) pairs."""
        cdef cydriver.CUgraph graph = self._live()
        cdef vector[cydriver.CUgraphNode] sources
        cdef vector[cydriver.CUgraphNode] targets
        cdef size_t count = 0
        with nogil:
            HANDLE_RETURN(compat_graph_get_edges(graph, NULL, NULL, &count))
        if count == 0:
            return set()
        sources.resize(count)
        targets.resize(count)
        with nogil:
            HANDLE_RETURN(compat_graph_get_edges(graph, sources.data(), targets.data(), &count))
        return {(node_for(self, sources[i]), node_for(self, targets[i])) for i in range(count)}

    @property
    def handle(self) -> driver.CUgraph:
        """The driver's CUgraph (0 once the definition is no longer valid)."""
        return driver.CUgraph(<uintptr_t>self._graph if self._valid() else 0)


cdef GraphDefinition wrap_graph(cydriver.CUgraph graph, object owner):
    cdef GraphDefinition definition = GraphDefinition.__new__(GraphDefinition)
    definition._graph = graph
    definition._owner = owner
    definition._owns_graph = owner is None
    # A view of a definition's sub-graph shares the root's list, so instantiating the root
    # keeps alive what nodes added through the view need.
    if isinstance(owner, GraphNode):
        definition._keepalive = (<GraphNode>owner)._definition._keepalive
    elif isinstance(owner, GraphDefinition):
        definition._keepalive = (<GraphDefinition>owner)._keepalive
    else:
        keepalive = getattr(owner, "_keepalive", None)
        definition._keepalive = keepalive if isinstance(keepalive, list) else []
    return definition
