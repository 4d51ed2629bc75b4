# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""AdjacencySetProxy: a node's predecessors or successors as a mutable set whose changes
add and remove the graph's edges."""

from collections.abc import MutableSet

cimport cuda.bindings.cydriver as cydriver
from libcpp.vector cimport vector

from cuda.core._utils.cuda_utils cimport HANDLE_RETURN
from cuda.core.graph._graph_node cimport GraphNode, node_for

include "driver_compat.pxi"


cdef class _AdjacencySetCore:
    """The driver side of an AdjacencySetProxy: one node, one direction."""

    cdef GraphNode _node
    cdef bint _is_fwd   # True: successors (edges node -> x); False: predecessors (x -> node)

    def __init__(self, GraphNode node, bint is_fwd):
        self._node = node
        self._is_fwd = is_fwd

    def members(self) -> list:
        """The adjacent nodes (none for the entry node or a destroyed node)."""
        cdef GraphNode node = self._node
        cdef vector[cydriver.CUgraphNode] handles
        cdef size_t count = 0
        if node._is_entry or not node._valid():
            return []
        cdef cydriver.CUgraphNode handle = node._node
        with nogil:
            if self._is_fwd:
                HANDLE_RETURN(compat_graph_node_get_dependent_nodes(handle, NULL, &count))
            else:
                HANDLE_RETURN(compat_graph_node_get_dependencies(handle, NULL, &count))
        if count == 0:
            return []
        handles.resize(count)
        with nogil:
            if self._is_fwd:
                HANDLE_RETURN(compat_graph_node_get_dependent_nodes(handle, handles.data(), &count))
            else:
                HANDLE_RETURN(compat_graph_node_get_dependencies(handle, handles.data(), &count))
        return [node_for(node._definition, handles[i]) for i in range(count)]

    def change(self, list others, bint add) -> None:
        """Add (or remove) the edges between the node and each of ``others``, in one call."""
        cdef GraphNode node = self._node
        cdef GraphNode other
        cdef vector[cydriver.CUgraphNode] sources
        cdef vector[cydriver.CUgraphNode] targets
        if not others:
            return
        cdef cydriver.CUgraph graph = node._definition._live()
        # A destroyed node passes NULL: the driver's error says the edge cannot be made.
        for other in others:
            if self._is_fwd:
                sources.push_back(node._node)
                targets.push_back(other._node)
            else:
                sources.push_back(other._node)
                targets.push_back(node._node)
        with nogil:
            if add:
                HANDLE_RETURN(compat_graph_add_dependencies(graph, sources.data(), targets.data(), sources.size()))
            else:
                HANDLE_RETURN(compat_graph_remove_dependencies(graph, sources.data(), targets.data(), sources.size()))


cdef GraphNode _checked(object value):
    if not isinstance(value, GraphNode):
        raise TypeError(f"expected a GraphNode, got {type(value).__name__}")
    return <GraphNode>value


class AdjacencySetProxy(MutableSet):
    """A node's predecessors or successors as a mutable set: adding or removing members adds
    or removes the graph's edges (bulk operations in one driver call)."""

    __slots__ = ('_core',)

    def __init__(self, node: GraphNode, is_fwd: bool) -> None:
        self._core = _AdjacencySetCore(node, is_fwd)

    @classmethod
    def _from_iterable(cls, it) -> set:
        # Set operators (&, |, -, ^) give plain sets, not new views.
        return set(it)

    def __contains__(self, x: object) -> bool:
        return isinstance(x, GraphNode) and x in self._core.members()

    def __iter__(self):
        return iter(self._core.members())

    def __len__(self) -> int:
        return len(self._core.members())

    def add(self, value: GraphNode) -> None:
        if _checked(value) not in self._core.members():
            self._core.change([value], True)

    def discard(self, value: GraphNode) -> None:
        if _checked(value) in self._core.members():
            self._core.change([value], False)

    def clear(self) -> None:
        """Remove all edges in a single driver call."""
        self._core.change(self._core.members(), False)

    def __isub__(self, it):
        """Remove edges to all nodes in *it* in a single driver call."""
        if it is self:
            self.clear()
            return self
        members = self._core.members()
        self._core.change([n for n in _unique(it) if n in members], False)
        return self

    def update(self, *others) -> None:
        """Add edges to multiple nodes at once."""
        members = self._core.members()
        wanted = []
        for other in others:
            wanted.extend(n for n in _unique(other) if n not in members and n not in wanted)
        self._core.change(wanted, True)

    def __ior__(self, it):
        """Add edges to all nodes in *it* in a single driver call."""
        self.update(it)
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({set(self._core.members())!r})"


def _unique(it) -> list:
    """The GraphNodes of ``it``, each once, in order (a TypeError names anything else)."""
    seen = []
    for value in it:
        if _checked(value) not in seen:
            seen.append(value)
    return seen
