"""Explicit graph definitions on a GPU: kernel, memset, memcpy and host callback nodes run and
compute what they should, a while loop steered by device code, and what nodes keep alive."""

from __future__ import annotations

import ctypes
import gc

import pytest

KERNELS = r"""
extern "C" __device__ __cudart_builtin__ void CUDARTAPI cudaGraphSetConditional(cudaGraphConditionalHandle handle,
                                                                                unsigned int value);

extern "C" __global__ void iota(int* out, int start, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = start + (int)i;
}

extern "C" __global__ void twice(int* data, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= 2;
}

// One loop step: count, and keep looping while the count is below the limit.
extern "C" __global__ void step(cudaGraphConditionalHandle handle, int* counter, int limit) {
    *counter += 1;
    cudaGraphSetConditional(handle, *counter < limit ? 1u : 0u);
}
"""

N = 256


@pytest.fixture(scope="module")
def kernels(cuda_core, device, nvrtc_loaded):
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{device.arch}")
    return cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")


@pytest.fixture
def graph(cuda_core):
    from cuda.core.graph import GraphDefinition
    return GraphDefinition()


def allocate(device, size: int):
    """A device buffer, its allocation ordered on the default stream (run() syncs the device)."""
    return device.memory_resource.allocate(size, stream=device.default_stream)


def read_ints(buffer, count: int) -> list[int]:
    """``count`` ints at the start of a device buffer."""
    from cuda.bindings import driver
    host = (ctypes.c_int * count)()
    (err,) = driver.cuMemcpyDtoH(host, int(buffer.handle), count * ctypes.sizeof(ctypes.c_int))
    assert err == driver.CUresult.CUDA_SUCCESS
    return list(host)


def run(graph_definition, device) -> None:
    device.sync()  # the buffers' stream-ordered allocations are done
    stream = device.create_stream()
    executable = graph_definition.instantiate()
    executable.upload(stream)
    executable.launch(stream)
    stream.sync()


def test_kernel_chain_computes(cuda_core, device, kernels, graph) -> None:
    from cuda.core.graph import KernelNode
    buffer = allocate(device, N * 4)
    config = cuda_core.LaunchConfig(grid=(N + 127) // 128, block=128)
    first = graph.launch(config, kernels.get_kernel("iota"), buffer, 5, N)
    second = first.launch(config, kernels.get_kernel("twice"), buffer, N)
    assert isinstance(second, KernelNode)
    assert second.pred == {first}
    assert graph.edges() == {(first, second)}
    run(graph, device)
    assert read_ints(buffer, N) == [2 * (5 + i) for i in range(N)]


def test_memset_then_memcpy(cuda_core, device, graph) -> None:
    source = allocate(device, N * 4)
    target = allocate(device, N * 4)
    filled = graph.memset(source, b"\x07\x00\x00\x00", N)
    assert (filled.element_size, filled.width, filled.value) == (4, N, 7)
    copied = filled.memcpy(target, source, N * 4)
    assert (copied.dst, copied.src, copied.size) == (int(target.handle), int(source.handle), N * 4)
    run(graph, device)
    assert read_ints(target, N) == [7] * N


def test_host_callbacks_run_in_order(cuda_core, device, graph) -> None:
    calls: list[object] = []
    prototype = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

    @prototype
    def from_c(data):
        calls.append(ctypes.cast(data, ctypes.POINTER(ctypes.c_uint8))[0])

    in_python = lambda: calls.append("python")  # noqa: E731
    first = graph.callback(in_python)
    # On a HostCallbackNode, ``callback`` is the property naming its callable (as in NVIDIA's),
    # so the second node is added to the definition and ordered by an edge.
    assert first.callback is in_python
    second = graph.callback(from_c, user_data=bytes([42]))
    assert second.callback is None  # a ctypes function pointer
    first.succ.add(second)
    del from_c, in_python
    gc.collect()
    run(graph, device)
    assert calls == ["python", 42]


def test_while_loop_steered_by_device(cuda_core, device, kernels, graph) -> None:
    if device.compute_capability < (9, 0):
        pytest.skip("conditional nodes run on compute capability 9.0 and newer here")
    from cuda.core.graph import WhileNode
    counter = allocate(device, 4)
    condition = graph.create_condition(default_value=1)
    zeroed = graph.memset(counter, 0, 4)
    loop = zeroed.while_loop(condition)
    assert isinstance(loop, WhileNode)
    loop.body.launch(cuda_core.LaunchConfig(grid=1, block=1), kernels.get_kernel("step"), condition, counter, 5)
    run(graph, device)
    assert read_ints(counter, 1) == [5]


def test_kernel_kept_alive_by_the_graph(cuda_core, device, nvrtc_loaded, graph) -> None:
    """The node keeps the kernel (and its ObjectCode) after the caller dropped both."""
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{device.arch}")
    code = cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")
    kernel = code.get_kernel("iota")
    buffer = allocate(device, N * 4)
    node = graph.launch(cuda_core.LaunchConfig(grid=(N + 127) // 128, block=128), kernel, buffer, 1, N)
    del kernel, code
    gc.collect()
    assert node.kernel.attributes.max_threads_per_block > 0
    executable = graph.instantiate()
    del graph, node
    gc.collect()
    device.sync()
    stream = device.create_stream()
    executable.launch(stream)
    stream.sync()
    assert read_ints(buffer, N) == [1 + i for i in range(N)]


def test_traversal_returns_the_same_objects(cuda_core, device, graph) -> None:
    a = graph.empty()
    b = graph.empty()
    a.succ.add(b)
    (found,) = a.succ
    assert found is b
    assert {node for node in graph.nodes()} == {a, b}
    b.destroy()
    assert not b.is_valid and b.handle is None and b.type is None
    assert graph.nodes() == {a}


def test_a_raw_clone_keeps_what_the_nodes_use(cuda_core, device, kernels, graph) -> None:
    """A clone made by a raw driver call keeps the kernel, its Buffer argument (closed and
    dropped meanwhile) and an event alive: the definition's attachments are CUDA user objects
    the graph holds, which clones and executables share (a clone launched after the event's
    deletion crashed the driver before)."""
    from cuda.bindings import driver
    buffer = allocate(device, N * 4)
    pointer = int(buffer.handle)
    event = device.create_event()
    first = graph.launch(cuda_core.LaunchConfig(grid=(N + 127) // 128, block=128), kernels.get_kernel("iota"),
                         buffer, 7, N)
    first.record(event).wait(event)
    device.sync()
    err, clone = driver.cuGraphClone(driver.CUgraph(int(graph.handle)))
    assert err == driver.CUresult.CUDA_SUCCESS
    buffer.close()  # closes the Buffer; the memory stays while a graph may use it
    del buffer, event, first, graph
    gc.collect()
    err, executable = driver.cuGraphInstantiate(clone, 0)
    assert err == driver.CUresult.CUDA_SUCCESS
    stream = device.create_stream()
    assert driver.cuGraphLaunch(executable, driver.CUstream(int(stream.handle)))[0] == driver.CUresult.CUDA_SUCCESS
    stream.sync()
    host = (ctypes.c_int * N)()
    assert driver.cuMemcpyDtoH(host, pointer, N * 4)[0] == driver.CUresult.CUDA_SUCCESS
    assert list(host) == [7 + i for i in range(N)]
    driver.cuGraphExecDestroy(executable)
    driver.cuGraphDestroy(clone)
