# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Explicit graph definitions on a GPU: kernel, memset, memcpy and host callback nodes run and
compute what they should, a while loop steered by device code, and what nodes keep alive:
in embedded clones (each clone node lets go of its own), in captured graphs, past
Buffer.close() and past the close of a Graph still running."""

from __future__ import annotations

import ctypes
import gc
import threading
import time
import weakref

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
def kernels(cuda_core, module_device, nvrtc_loaded):
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{module_device.arch}")
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


def let_go(handle, timeout: float = 5.0) -> bool:
    """Whether ``handle`` (a weak reference, or a weak allocation handle) lets go within
    ``timeout`` seconds. A graph's user objects are destroyed on a driver thread, which only
    queues the drop for the Python thread: so collect and poll."""
    deadline = time.monotonic() + timeout
    while True:
        gc.collect()
        alive = handle() is not None if isinstance(handle, weakref.ref) else bool(handle)
        if not alive:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def clone_node_of(owner, kind):
    """The one node of type ``kind`` in the graph the child graph node ``owner`` embeds."""
    (found,) = [node for node in owner.child_graph.nodes() if isinstance(node, kind)]
    return found


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


def test_collecting_a_conditional_node_and_its_branch_views_leaves_the_graph_whole(
    cuda_core, device, kernels, graph
) -> None:
    """A conditional node and its branch views refer to each other: a cycle, freed by the
    garbage collector. The views borrow the branch graphs, which the node's graph still owns
    and runs; collecting the cycle must not destroy them (it did, and a later gc crashed)."""
    if device.compute_capability < (9, 0):
        pytest.skip("conditional nodes run on compute capability 9.0 and newer here")
    out = allocate(device, 4)
    condition = graph.create_condition(default_value=1)
    node = graph.if_else(condition)
    config = cuda_core.LaunchConfig(grid=1, block=1)
    node.then.launch(config, kernels.get_kernel("iota"), out, 7, 1)  # kernels: allowed in conditional bodies
    node.else_.launch(config, kernels.get_kernel("iota"), out, 9, 1)
    del node
    gc.collect()
    run(graph, device)  # the branches are still the parent's: instantiated and run
    assert read_ints(out, 1) == [7]


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
    first = graph.launch(
        cuda_core.LaunchConfig(grid=(N + 127) // 128, block=128), kernels.get_kernel("iota"), buffer, 7, N
    )
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


# ---------------------------------------------------------------------------------------------
# Embedded clones: each node of a clone has a record of its own


def test_a_clone_runs_what_its_source_held_after_the_source_is_gone(cuda_core, device, graph) -> None:
    from cuda.core.graph import GraphDefinition

    calls = []
    child = GraphDefinition()
    child.callback(lambda: calls.append("child"))
    graph.embed(child)
    del child
    gc.collect()
    run(graph, device)
    assert calls == ["child"]


def test_destroying_a_node_of_an_embedded_clone_lets_go_of_its_callable(cuda_core, device, graph) -> None:
    """The record of the child's node, made before the embedding, is carried over to the
    clone's node: destroying that node releases the clone's reference at once."""
    from cuda.core.graph import GraphDefinition, HostCallbackNode

    def probe():
        pass

    weak = weakref.ref(probe)
    child = GraphDefinition()
    child.callback(probe)
    owner = graph.embed(child)
    copy = clone_node_of(owner, HostCallbackNode)
    del probe, child
    gc.collect()
    assert weak() is not None  # the clone holds it
    copy.destroy()
    del copy
    assert let_go(weak)
    assert owner.is_valid and owner.child_graph.nodes() == set()


def embed_nested_callback(graph):
    """Embed in ``graph`` a definition that embeds one holding a host callback, drop every
    reference but the clones': (a weak reference to the callable, the outer child node)."""
    from cuda.core.graph import GraphDefinition

    def probe():
        pass

    weak = weakref.ref(probe)
    inner = GraphDefinition()
    inner.callback(probe)
    middle = GraphDefinition()
    middle.embed(inner)
    owner = graph.embed(middle)
    del probe, inner, middle
    gc.collect()
    assert weak() is not None  # the clones hold it
    return weak, owner


def test_records_are_carried_through_nested_clones(cuda_core, device, graph) -> None:
    from cuda.core.graph import ChildGraphNode, HostCallbackNode

    weak, owner = embed_nested_callback(graph)
    deepest = clone_node_of(clone_node_of(owner, ChildGraphNode), HostCallbackNode)
    deepest.destroy()
    del deepest
    assert let_go(weak)


def test_destroying_the_embedding_node_lets_go_of_nested_clones(cuda_core, device, graph) -> None:
    weak, owner = embed_nested_callback(graph)
    owner.destroy()
    del owner
    assert let_go(weak)


def test_a_builders_embedded_clone_node_lets_go_of_its_callable(cuda_core, device) -> None:
    """A captured callback is the record of its captured node, carried over when another
    capture embeds the graph."""
    from cuda.core.graph import HostCallbackNode

    def probe():
        pass

    weak = weakref.ref(probe)
    child = device.create_graph_builder().begin_building()
    child.callback(probe)
    child.end_building()
    parent = device.create_graph_builder().begin_building()
    parent.embed(child)
    parent.end_building()
    definition = parent.graph_definition
    (owner,) = definition.nodes()
    copy = clone_node_of(owner, HostCallbackNode)
    del probe, child
    gc.collect()
    assert weak() is not None
    copy.destroy()
    del copy
    assert let_go(weak)
    parent.close()


def test_updating_a_child_graph_node_runs_the_new_child(cuda_core, device, graph) -> None:
    from cuda.core import CUDAError
    from cuda.core.graph import GraphDefinition

    calls = []
    first, second = GraphDefinition(), GraphDefinition()
    first.callback(lambda: calls.append("first"))
    second.callback(lambda: calls.append("second"))
    owner = graph.embed(first)
    try:
        owner.update(second)
    except CUDAError as error:
        pytest.skip(f"this driver does not update a child graph node in a definition: {error}")
    del first, second
    gc.collect()
    run(graph, device)
    assert calls == ["second"]


# ---------------------------------------------------------------------------------------------
# Kernels found again from their handles


def test_a_kernel_from_its_bare_handle_keeps_its_code(cuda_core, device, nvrtc_loaded) -> None:
    """A Kernel over a handle get_kernel() gave keeps that ObjectCode; one over a kernel the
    caller took from the library itself (through ObjectCode.handle) needs no ObjectCode: that
    library is the caller's from then on, and stays loaded until the caller unloads it."""
    from cuda.bindings import driver

    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{device.arch}")
    code = cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")
    kernel = code.get_kernel("iota")
    library = code.handle
    err, raw = driver.cuLibraryGetKernel(library, b"twice")  # never given by get_kernel
    assert err == driver.CUresult.CUDA_SUCCESS
    weak = weakref.ref(code)
    from_get_kernel = cuda_core.Kernel.from_handle(int(kernel.handle))
    from_the_driver = cuda_core.Kernel.from_handle(int(raw))
    del kernel, code
    gc.collect()
    assert weak() is not None
    assert from_get_kernel.attributes.max_threads_per_block > 0
    del from_get_kernel
    gc.collect()
    assert weak() is None
    assert len(from_the_driver.arguments_info) == 2  # the driver still has the library
    (err,) = driver.cuLibraryUnload(library)  # the caller's, and unloaded once
    assert err == driver.CUresult.CUDA_SUCCESS


def test_a_captured_kernel_node_found_again_knows_its_kernel(cuda_core, device, kernels) -> None:
    from cuda.core.graph import KernelNode

    buffer = allocate(device, N * 4)
    kernel = kernels.get_kernel("iota")
    builder = device.create_graph_builder().begin_building()
    cuda_core.launch(builder, cuda_core.LaunchConfig(grid=(N + 127) // 128, block=128), kernel, buffer, 0, N)
    builder.end_building()
    (node,) = builder.graph_definition.nodes()
    assert isinstance(node, KernelNode) and node.kernel == kernel
    builder.close()


# ---------------------------------------------------------------------------------------------
# Memory a graph uses, observed through weak allocation handles


def test_a_copy_node_holds_the_memory_until_its_graph_goes(cuda_core, device) -> None:
    from cuda.core._utils._weak_handles import weak_handle
    from cuda.core.graph import GraphDefinition

    source, target = allocate(device, 16), allocate(device, 16)
    device.sync()
    definition = GraphDefinition()
    definition.memcpy(target, source, 16)
    handles = (weak_handle(source), weak_handle(target))
    source.close()
    target.close()
    assert all(handles)  # closed Buffers, memory still allocated for the node
    del definition
    assert let_go(handles[0]) and let_go(handles[1])


def test_a_running_graph_keeps_the_memory_past_its_close(cuda_core, device) -> None:
    """Closing a Graph while a launch runs (here on another thread, the launch held in a
    host callback) leaves the memory its nodes use allocated until the launch ends."""
    from cuda.core._utils._weak_handles import weak_handle
    from cuda.core.graph import GraphDefinition

    started, gate = threading.Event(), threading.Event()

    def hold_the_launch():
        started.set()
        gate.wait(5)

    buffer = allocate(device, 8)
    device.sync()
    definition = GraphDefinition()
    definition.memset(buffer, 0, 8).callback(hold_the_launch)
    executable = definition.instantiate()
    handle = weak_handle(buffer)
    buffer.close()
    del buffer, definition, hold_the_launch
    gc.collect()
    assert handle
    stream = device.create_stream()
    executable.launch(stream)
    assert started.wait(5)
    closer = threading.Thread(target=executable.close)
    closer.start()
    try:
        time.sleep(0.05)
        gc.collect()
        assert handle  # the launch still runs
    finally:
        gate.set()
        stream.sync()
        closer.join(5)
    assert not closer.is_alive()
    del executable, closer
    assert let_go(handle)


class _FinalizedWhere:
    """A callable that records the thread it is finalized on."""

    def __init__(self, threads: list[int]) -> None:
        self.threads = threads

    def __call__(self) -> None:
        pass

    def __del__(self) -> None:
        self.threads.append(threading.get_ident())


def test_a_graph_dropped_by_another_thread_finalizes_what_it_kept_on_the_main_thread(cuda_core, device) -> None:
    """The order that once finalized a callback on a worker thread: the worker drops the last
    reference to a definition; cuGraphDestroy runs with the GIL released, the driver releases the
    callback's user object, and the main thread, busy in Python meanwhile, drains that release
    at once; the definition's own list of records was then the last holder, dropped by the worker.
    Here the main thread spins while each of many workers drops a definition."""
    threads: list[int] = []
    for _ in range(40):
        holder = [cuda_core.graph.GraphDefinition()]
        holder[0].callback(_FinalizedWhere(threads))
        done = threading.Event()
        worker = threading.Thread(target=lambda: (holder.clear(), done.set()))
        worker.start()
        while not done.is_set():  # Python code runs here: pending calls are drained at once
            pass
        worker.join()
    deadline = time.monotonic() + 5.0  # a release that came after the spin is drained here
    while len(threads) < 40 and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.02)
    assert len(threads) == 40
    assert set(threads) == {threading.main_thread().ident}
