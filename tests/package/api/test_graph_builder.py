# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.graph's builder side without a GPU: exports, the option dataclasses, and the
checks GraphBuilder, Graph and GraphMemoryResource make before any driver call."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def graph(cuda_core):
    import cuda.core.graph

    return cuda.core.graph


@pytest.fixture(scope="module")
def builder_module(graph):
    from cuda.core.graph import _graph_builder

    return _graph_builder


def fields(cls) -> list[tuple[str, object]]:
    return [(field.name, field.default) for field in dataclasses.fields(cls)]


def test_exports(graph, builder_module) -> None:
    for name in ("Graph", "GraphBuilder", "GraphCompleteOptions", "GraphDebugPrintOptions"):
        assert name in graph.__all__ and getattr(graph, name) is getattr(builder_module, name)
    assert callable(builder_module._instantiate_graph)
    assert callable(builder_module._capture_callback_with_tail_failure_for_testing)
    from cuda.core import GraphMemoryResource, _memory

    assert _memory.GraphMemoryResource is GraphMemoryResource
    assert "GraphMemoryResource" in _memory.__all__


def test_importing_cuda_core_does_not_import_the_graph_package(cuda_core) -> None:
    code = "import sys, cuda.core; print(sorted(m for m in sys.modules if m.startswith('cuda.core.graph')))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


def test_builder_names_at_the_top_level_as_in_nvidia_s_1_2_0(cuda_core, graph) -> None:
    """numba-cuda's driver does ``from cuda.core import GraphBuilder`` (NVIDIA's 1.2.0 had the
    names there); they resolve lazily and stay out of __all__, as in NVIDIA's 1.2.2."""
    from cuda.core import GraphBuilder

    assert GraphBuilder is graph.GraphBuilder and cuda_core.Graph is graph.Graph
    assert not {"Graph", "GraphBuilder"} & set(cuda_core.__all__)


def test_complete_options_dataclass(graph) -> None:
    assert fields(graph.GraphCompleteOptions) == [
        ("auto_free_on_launch", False),
        ("upload_stream", None),
        ("device_launch", False),
        ("use_node_priority", False),
    ]


def test_debug_print_options_and_flags(graph) -> None:
    names = [name for name, default in fields(graph.GraphDebugPrintOptions)]
    assert names[:3] == ["verbose", "runtime_types", "kernel_node_params"]
    assert names[-1] == "conditional_node_params" and len(names) == 16
    assert all(default is False for name, default in fields(graph.GraphDebugPrintOptions))
    assert graph.GraphDebugPrintOptions()._to_flags() == 0
    assert graph.GraphDebugPrintOptions(verbose=True, handles=True)._to_flags() == 1 | 1024
    everything = graph.GraphDebugPrintOptions(**dict.fromkeys(names, True))
    assert everything._to_flags() == (1 << 16) - 1


def test_objects_are_not_made_directly(graph) -> None:
    with pytest.raises(RuntimeError, match="create_graph_builder"):
        graph.GraphBuilder()
    with pytest.raises(RuntimeError, match="complete"):
        graph.Graph()
    from cuda.core._memory._graph_memory_resource import GraphMemoryResourceAttributes

    with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
        GraphMemoryResourceAttributes()


def test_builder_checks_before_the_driver(cuda_core, graph) -> None:
    builder = cuda_core.LEGACY_DEFAULT_STREAM.create_graph_builder()
    assert (builder.is_building, builder.is_join_required, builder.is_closed) == (False, False, False)
    assert builder.stream is cuda_core.LEGACY_DEFAULT_STREAM
    with pytest.raises(ValueError, match="^Unsupported build mode:"):
        builder.begin_building(mode=None)
    with pytest.raises(ValueError, match="^Unsupported build mode:"):
        builder.begin_building(mode="strict")
    with pytest.raises(RuntimeError, match="^Graph has not finished building."):
        builder.complete()
    with pytest.raises(RuntimeError, match="^Graph builder must be building before it can be split."):
        builder.split(2)
    with pytest.raises(RuntimeError, match="not building"):
        builder.end_building()
    with pytest.raises(RuntimeError, match="before begin_building"):
        builder.graph_definition
    with pytest.raises(TypeError):
        builder.embed(object())
    with pytest.raises(ValueError, match="^Must join with at least two graph builders"):
        graph.GraphBuilder.join(builder)
    with pytest.raises(TypeError, match="GraphBuilders"):
        graph.GraphBuilder.join(builder, object())
    builder.close()
    builder.close()
    assert builder.is_closed
    with pytest.raises(RuntimeError, match="^Graph builder has been closed."):
        builder.complete()
    with pytest.raises(RuntimeError, match="closed"):
        builder.graph_definition
    with pytest.raises(RuntimeError, match="closed"):
        builder.stream
    # The builder over a stream it did not make leaves the stream open.
    assert not cuda_core.LEGACY_DEFAULT_STREAM.is_closed


def test_stream_accepts_a_graph_builder(cuda_core) -> None:
    from cuda.core import _stream

    builder = cuda_core.PER_THREAD_DEFAULT_STREAM.create_graph_builder()
    assert _stream.Stream_accept(builder) is cuda_core.PER_THREAD_DEFAULT_STREAM
    assert _stream.as_stream(builder) is cuda_core.PER_THREAD_DEFAULT_STREAM
    assert builder.__cuda_stream__() == cuda_core.PER_THREAD_DEFAULT_STREAM.__cuda_stream__()


def test_instantiate_graph_names_its_sources(builder_module) -> None:
    with pytest.raises(TypeError, match="expected GraphBuilder or GraphDefinition"):
        builder_module._instantiate_graph("not a graph")
