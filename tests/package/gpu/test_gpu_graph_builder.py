# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""CUDA graphs built by stream capture: kernels captured with launch(gb, ...), forks and
joins, a while-loop conditional, Graph.update and graph memory, checked on the device."""

from __future__ import annotations

import numpy as np
import pytest

KERNELS = r"""
// The device runtime's setter of a condition (a compiler builtin: no device runtime to link).
extern "C" __device__ __cudart_builtin__ void CUDARTAPI
cudaGraphSetConditional(cudaGraphConditionalHandle condition, unsigned int value);
extern "C" __global__ void empty() {}
extern "C" __global__ void add(int* a, int value) { *a += value; }
extern "C" __global__ void fill(char* a, size_t n, char value) {
    for (size_t i = 0; i < n; ++i) a[i] = value;
}
extern "C" __global__ void count_down(int* counter, cudaGraphConditionalHandle handle) {
    *counter -= 1;
    cudaGraphSetConditional(handle, *counter > 0 ? 1 : 0);
}
"""


@pytest.fixture(scope="module")
def kernels(cuda_core, module_device, nvrtc_loaded):
    """The test kernels compiled by NVRTC for this device (a skip where NVRTC is absent)."""
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{module_device.arch}")
    return cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")


@pytest.fixture
def counters(cuda_core):
    """Four int32 counters in pinned memory, zeroed: kernels and the host both reach them."""
    buffer = cuda_core.LegacyPinnedMemoryResource().allocate(16)
    values = np.from_dlpack(buffer).view(np.int32)
    values[:] = 0
    yield buffer, values
    buffer.close()


def one(cuda_core):
    return cuda_core.LaunchConfig(grid=1, block=1)


def test_captured_kernels_run_each_launch(cuda_core, device, kernels, counters) -> None:
    buffer, values = counters
    add = kernels.get_kernel("add")
    builder = device.create_graph_builder().begin_building()
    assert builder.is_building
    for value in (1, 2, 3):
        cuda_core.launch(builder, one(cuda_core), add, values.ctypes.data, value)
    graph = builder.end_building().complete()
    assert values[0] == 0  # captured, not run
    stream = device.create_stream()
    graph.upload(stream)
    graph.launch(stream)
    graph.launch(stream)
    stream.sync()
    assert values[0] == 12
    with pytest.raises(RuntimeError, match="^Cannot resume building after building has ended."):
        builder.begin_building()
    graph.close()
    graph.close()
    assert int(graph.handle) == 0
    with pytest.raises(RuntimeError, match="closed"):
        graph.launch(stream)
    builder.close()


def test_fork_and_join(cuda_core, device, kernels, counters) -> None:
    buffer, values = counters
    add = kernels.get_kernel("add")
    builder = device.create_graph_builder().begin_building()
    cuda_core.launch(builder, one(cuda_core), add, values.ctypes.data, 1)
    left, right = builder.split(2)
    assert left is builder and right.is_join_required and not left.is_join_required
    cuda_core.launch(left, one(cuda_core), add, values[1:].ctypes.data, 10)
    cuda_core.launch(right, one(cuda_core), add, values[2:].ctypes.data, 100)
    joined = cuda_core.graph.GraphBuilder.join(left, right)
    assert joined is builder and right.is_closed
    cuda_core.launch(joined, one(cuda_core), add, values.ctypes.data, 1)
    graph = joined.end_building().complete()
    stream = device.create_stream()
    graph.launch(stream)
    stream.sync()
    assert list(values[:3]) == [2, 10, 100]


def test_while_loop_runs_until_the_kernel_clears_the_condition(cuda_core, device, kernels, counters) -> None:
    buffer, values = counters
    values[0] = 5
    builder = device.create_graph_builder().begin_building()
    try:
        condition = builder.create_condition(default_value=1)
    except (RuntimeError, cuda_core.CUDAError) as err:  # a driver before 12.3, or a device without them
        builder.end_building()
        pytest.skip(f"no conditional graph nodes here: {err}")
    body = builder.while_loop(condition).begin_building()
    cuda_core.launch(body, one(cuda_core), kernels.get_kernel("add"), values[1:].ctypes.data, 1)
    cuda_core.launch(body, one(cuda_core), kernels.get_kernel("count_down"), values.ctypes.data, condition)
    body.end_building()
    cuda_core.launch(builder, one(cuda_core), kernels.get_kernel("add"), values[2:].ctypes.data, 7)
    graph = builder.end_building().complete()
    stream = device.create_stream()
    graph.launch(stream)
    stream.sync()
    assert list(values[:3]) == [0, 5, 7]


def test_update_points_the_kernels_elsewhere(cuda_core, device, kernels, counters) -> None:
    buffer, values = counters
    add = kernels.get_kernel("add")

    def build(address):
        builder = device.create_graph_builder().begin_building()
        cuda_core.launch(builder, one(cuda_core), add, address, 1)
        return builder.end_building()

    graph = build(values.ctypes.data).complete()
    stream = device.create_stream()
    graph.launch(stream)
    graph.update(build(values[1:].ctypes.data))
    graph.launch(stream)
    stream.sync()
    assert list(values[:2]) == [1, 1]
    longer = device.create_graph_builder().begin_building()
    cuda_core.launch(longer, one(cuda_core), add, values.ctypes.data, 1)
    cuda_core.launch(longer, one(cuda_core), add, values.ctypes.data, 1)
    longer.end_building()
    topology_changed = r"Graph update failed: .+ \(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED\)"
    with pytest.raises(cuda_core.CUDAError, match=topology_changed):
        graph.update(longer)
    unfinished = device.create_graph_builder().begin_building()
    with pytest.raises(ValueError, match="Graph has not finished building"):
        graph.update(unfinished)
    unfinished.end_building()
    with pytest.raises(TypeError, match="expected GraphBuilder or GraphDefinition"):
        graph.update("not a graph")


def test_graph_memory_allocated_inside_a_capture(cuda_core, device, kernels, counters) -> None:
    if not device.properties.memory_pools_supported:
        pytest.skip("the device has no memory pools")
    buffer, values = counters
    resource = cuda_core.GraphMemoryResource(device)
    assert resource is cuda_core.GraphMemoryResource(device.device_id)
    stream = device.create_stream()
    with pytest.raises(RuntimeError, match="non-capturing stream"):
        resource.allocate(8, stream=stream)
    builder = device.create_graph_builder().begin_building()
    scratch = resource.allocate(16, stream=builder)
    cuda_core.launch(builder, one(cuda_core), kernels.get_kernel("fill"), scratch, 16, np.int8(3))
    scratch.copy_to(buffer, stream=builder)
    scratch.close()  # a free node: the graph allocates and frees it each launch
    graph = builder.end_building().complete()
    graph.launch(stream)
    stream.sync()
    assert list(np.from_dlpack(buffer).view(np.int8)) == [3] * 16
    assert resource.attributes.reserved_mem_current > 0
    graph.close()
    resource.trim()


def test_host_callback_runs_with_the_graph(cuda_core, device) -> None:
    calls = []
    stream = device.create_stream()
    builder = stream.create_graph_builder().begin_building()
    builder.callback(lambda: calls.append(1))
    graph = builder.end_building().complete()
    graph.launch(stream)
    graph.launch(stream)
    stream.sync()
    assert calls == [1, 1]
    builder.close()
    assert not stream.is_closed  # the builder did not make it


def test_dropping_a_builder_mid_capture_frees_its_stream(cuda_core, device, kernels, counters) -> None:
    """A builder dropped while capturing ends its capture (GraphBuilder.__dealloc__): the stream,
    which the builder did not make, stays open and is no longer capturing, the captured work never
    runs, and work launched on the stream afterwards runs."""
    import gc
    import weakref

    from cuda.bindings import driver

    buffer, values = counters
    add = kernels.get_kernel("add")
    stream = device.create_stream()

    def capture_status():
        err, status = driver.cuStreamIsCapturing(stream.handle)
        assert err == driver.CUresult.CUDA_SUCCESS, err
        return status

    builder = stream.create_graph_builder().begin_building()
    cuda_core.launch(builder, one(cuda_core), add, values.ctypes.data, 1)
    assert capture_status() == driver.CUstreamCaptureStatus.CU_STREAM_CAPTURE_STATUS_ACTIVE
    dropped = weakref.ref(builder)
    del builder
    gc.collect()
    assert dropped() is None
    assert capture_status() == driver.CUstreamCaptureStatus.CU_STREAM_CAPTURE_STATUS_NONE
    assert not stream.is_closed
    cuda_core.launch(stream, one(cuda_core), add, values.ctypes.data, 10)
    stream.sync()
    assert values[0] == 10  # the launch after the drop ran; the captured one never did
