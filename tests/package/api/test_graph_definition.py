# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Explicit graph definitions without a GPU: the names cuda.core.graph exports, the methods'
signatures, the objects that cannot be made directly, host callback prototypes, and the
error a definition gives where there is no driver."""

from __future__ import annotations

import ctypes
import inspect
import weakref
from collections.abc import MutableSet

import pytest

NODE_KINDS = {
    "EmptyNode",
    "KernelNode",
    "AllocNode",
    "FreeNode",
    "MemsetNode",
    "MemcpyNode",
    "ChildGraphNode",
    "EventRecordNode",
    "EventWaitNode",
    "HostCallbackNode",
    "ConditionalNode",
    "IfNode",
    "IfElseNode",
    "WhileNode",
    "SwitchNode",
}
EXECUTABLE_KINDS = {
    "ExecutableGraphNode",
    "ExecutableKernelNode",
    "ExecutableMemsetNode",
    "ExecutableMemcpyNode",
    "ExecutableChildGraphNode",
    "ExecutableEventRecordNode",
    "ExecutableEventWaitNode",
    "ExecutableHostCallbackNode",
}


@pytest.fixture(scope="module")
def graph(cuda_core):
    import cuda.core.graph

    return cuda.core.graph


def test_package_exports_the_union_of_its_modules(graph) -> None:
    from cuda.core.graph import _graph_builder, _graph_definition, _graph_node, _subclasses

    modules = (_graph_builder, _graph_definition, _graph_node, _subclasses)
    assert graph.__all__ == [name for module in modules for name in module.__all__]
    assert len(set(graph.__all__)) == len(graph.__all__)
    for name in graph.__all__:
        assert getattr(graph, name) is not None


def test_definition_names(graph) -> None:
    from cuda.core.graph import _graph_definition, _graph_node, _subclasses

    assert set(_graph_definition.__all__) == {"GraphCondition", "GraphDefinition"}
    assert _graph_node.__all__ == ["GraphNode"]
    assert set(_subclasses.__all__) == NODE_KINDS | EXECUTABLE_KINDS
    assert "Graph" in graph.__all__


def test_node_kinds_are_of_nvidias_module(graph) -> None:
    """The executable views too: written in _executable_nodes.pxi, they are compiled into
    _subclasses, as NVIDIA's are."""
    for name in NODE_KINDS | EXECUTABLE_KINDS:
        assert getattr(graph, name).__module__ == "cuda.core.graph._subclasses", name


def test_node_kinds_are_graph_nodes(graph) -> None:
    for name in NODE_KINDS:
        assert issubclass(getattr(graph, name), graph.GraphNode), name
    for name in ("IfNode", "IfElseNode", "WhileNode", "SwitchNode"):
        assert issubclass(getattr(graph, name), graph.ConditionalNode), name
    for name in EXECUTABLE_KINDS:
        assert issubclass(getattr(graph, name), graph.ExecutableGraphNode), name
        assert not issubclass(getattr(graph, name), graph.GraphNode), name


def parameters(function) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_builder_signatures(graph) -> None:
    from cuda.core.typing import GraphMemoryType

    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    empty = inspect.Parameter.empty
    for owner in (graph.GraphDefinition, graph.GraphNode):
        assert parameters(owner.allocate) == [
            ("self", positional, empty),
            ("size", positional, empty),
            ("device", keyword, None),
            ("memory_type", keyword, GraphMemoryType.DEVICE),
            ("peer_access", keyword, None),
        ]
        assert parameters(owner.memset) == [
            ("self", positional, empty),
            ("dst", positional, empty),
            ("value", positional, empty),
            ("width", positional, empty),
            ("height", positional, 1),
            ("pitch", positional, 0),
            ("dst_owner", keyword, None),
        ]
        assert parameters(owner.memcpy) == [
            ("self", positional, empty),
            ("dst", positional, empty),
            ("src", positional, empty),
            ("size", positional, empty),
            ("dst_owner", keyword, None),
            ("src_owner", keyword, None),
        ]
        assert parameters(owner.callback) == [
            ("self", positional, empty),
            ("fn", positional, empty),
            ("user_data", keyword, None),
        ]
        assert [p[0] for p in parameters(owner.switch)] == ["self", "condition", "count"]
        for name in ("launch", "join", "deallocate", "embed", "record", "wait", "if_then", "if_else", "while_loop"):
            assert callable(getattr(owner, name)), name
    assert parameters(graph.GraphDefinition.instantiate) == [("self", positional, empty), ("options", positional, None)]
    assert parameters(graph.GraphDefinition.create_condition) == [
        ("self", positional, empty),
        ("default_value", positional, None),
    ]


def test_update_signatures(graph) -> None:
    keyword = inspect.Parameter.KEYWORD_ONLY
    assert [(n, k) for n, k, _ in parameters(graph.KernelNode.update)][1:] == [
        ("config", keyword),
        ("kernel", keyword),
        ("args", keyword),
    ]
    assert [n for n, _, _ in parameters(graph.MemsetNode.update)][1:] == [
        "dst",
        "value",
        "width",
        "height",
        "pitch",
        "dst_owner",
    ]
    assert [n for n, _, _ in parameters(graph.MemcpyNode.update)][1:] == [
        "dst",
        "src",
        "size",
        "dst_owner",
        "src_owner",
    ]
    assert [n for n, _, _ in parameters(graph.ExecutableMemsetNode.update)][1:] == [
        "dst",
        "value",
        "width",
        "height",
        "pitch",
    ]
    for name in ("ExecutableKernelNode", "ExecutableMemsetNode", "ExecutableMemcpyNode"):
        view = getattr(graph, name)
        assert {"is_enabled", "enable", "disable"} <= set(dir(view)), name


@pytest.mark.parametrize("name", ["GraphCondition", "Graph", "ExecutableGraphNode", "ExecutableKernelNode"])
def test_not_made_directly(graph, name) -> None:
    with pytest.raises(RuntimeError):
        getattr(graph, name)()


def test_node_registry_is_weak(graph) -> None:
    from cuda.core.graph._graph_node import _node_registry

    assert isinstance(_node_registry, weakref.WeakValueDictionary)


def test_adjacency_view_is_a_mutable_set(graph) -> None:
    from cuda.core.graph._adjacency_set_proxy import AdjacencySetProxy

    assert issubclass(AdjacencySetProxy, MutableSet)
    assert AdjacencySetProxy._from_iterable([1, 2]) == {1, 2}


def test_ctypes_callback_prototypes(graph) -> None:
    from cuda.core.graph import _host_callback

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def good(data):
        pass

    @ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
    def returns_int(data):
        return 0

    @ctypes.CFUNCTYPE(None, ctypes.c_int)
    def takes_int(value):
        pass

    _host_callback._validate_ctypes_host_callback(good)
    for bad in (returns_int, takes_int):
        with pytest.raises(TypeError, match="CFUNCTYPE"):
            _host_callback._validate_ctypes_host_callback(bad)
    assert "CFUNCTYPE(None, ctypes.c_void_p)" in _host_callback._CUHOSTFN_HINT
    assert isinstance(_host_callback._cuhostfn_type_error("why"), TypeError)


def test_definition_needs_a_driver(cuda_core, graph, no_driver) -> None:
    with pytest.raises(cuda_core.DriverNotFoundError):
        graph.GraphDefinition()
