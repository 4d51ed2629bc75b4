# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A node's predecessors or successors as a mutable set that changes the graph's edges."""

from collections.abc import Iterator, MutableSet, Set
from typing import Any

from cuda.core.graph._graph_node import GraphNode
from typing_extensions import disjoint_base

class AdjacencySetProxy(MutableSet[GraphNode]):
    """A node's predecessors or successors; changing the set changes the edges."""

    __slots__ = ("_core",)

    def __init__(self, node: GraphNode, is_fwd: bool) -> None: ...
    @classmethod
    def _from_iterable(cls, it) -> set[GraphNode]: ...  # type: ignore[override]
    def __contains__(self, x: object) -> bool: ...
    def __iter__(self) -> Iterator[GraphNode]: ...
    def __len__(self) -> int: ...
    def add(self, value: GraphNode) -> None: ...
    def discard(self, value: GraphNode) -> None: ...
    def clear(self) -> None:
        """Remove all edges in a single driver call."""
    def __isub__(self, it: Set[Any]) -> AdjacencySetProxy:  # type: ignore[override, misc]
        """Remove edges to all nodes in *it* in a single driver call."""
    def update(self, *others) -> None:
        """Add edges to multiple nodes at once."""
    def __ior__(self, it: Set[Any]) -> AdjacencySetProxy:  # type: ignore[override, misc]
        """Add edges to all nodes in *it* in a single driver call."""
    def __repr__(self) -> str: ...

@disjoint_base
class _AdjacencySetCore:
    """The driver side of an AdjacencySetProxy."""
    def __init__(self, node: GraphNode, is_fwd: bool) -> None: ...
    def members(self) -> list[GraphNode]: ...
    def change(self, others: list[GraphNode], add: bool) -> None: ...
