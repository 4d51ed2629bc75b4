# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""CUDA graphs with cuda.core, both ways, checked against numpy.

1. Stream capture: three launches (scale, add, scale) recorded with a GraphBuilder, the
   graph replayed ten times; each replay costs one driver call instead of three.
2. An explicit definition: the same chain as nodes and edges (GraphDefinition), then
   instantiated, launched, and one node's arguments updated in the executable graph
   (graph[node].update) without rebuilding it.

Run: python examples/cuda_graphs.py [n]
"""

from __future__ import annotations

import sys

import numpy as np
from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, Program, ProgramOptions, launch
from cuda.core.graph import GraphDefinition

SOURCE = r"""
extern "C" __global__ void scale(float* data, float factor, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

extern "C" __global__ void add(float* data, float value, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += value;
}
"""


def to_device(device, stream, array: np.ndarray):
    """A device Buffer holding ``array`` (through pinned memory)."""
    pinned = LegacyPinnedMemoryResource().allocate(array.nbytes)
    np.from_dlpack(pinned).view(array.dtype)[:] = array
    buffer = device.allocate(array.nbytes, stream=stream)
    buffer.copy_from(pinned, stream=stream)
    stream.sync()
    pinned.close()
    return buffer


def to_host(buffer, stream, n: int) -> np.ndarray:
    pinned = LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(pinned, stream=stream)
    stream.sync()
    result = np.from_dlpack(pinned).view(np.float32)[:n].copy()
    pinned.close()
    return result


def captured(device, stream, kernels, config, x: np.ndarray) -> bool:
    """Capture scale(2), add(1), scale(0.5) once; replay ten times; compare with numpy."""
    n = np.uint64(x.size)
    data = to_device(device, stream, x)
    builder = device.create_graph_builder().begin_building()
    launch(builder, config, kernels["scale"], data, np.float32(2.0), n)
    launch(builder, config, kernels["add"], data, np.float32(1.0), n)
    launch(builder, config, kernels["scale"], data, np.float32(0.5), n)
    graph = builder.end_building().complete()
    for _ in range(10):
        graph.launch(stream)
    expected = x.copy()
    for _ in range(10):
        expected = (expected * np.float32(2.0) + np.float32(1.0)) * np.float32(0.5)
    ok = np.allclose(to_host(data, stream, x.size), expected, rtol=1e-5)
    graph.close()
    builder.close()
    data.close(stream)
    return ok


def defined(device, stream, kernels, config, x: np.ndarray) -> bool:
    """The chain as an explicit definition; then the add node's value updated in place."""
    n = np.uint64(x.size)
    data = to_device(device, stream, x)
    definition = GraphDefinition()
    first = definition.launch(config, kernels["scale"], data, np.float32(2.0), n)
    adding = first.launch(config, kernels["add"], data, np.float32(1.0), n)
    adding.launch(config, kernels["scale"], data, np.float32(0.5), n)
    graph = definition.instantiate()
    graph.launch(stream)
    # The executable graph's add node now adds 3: no new instantiation.
    graph[adding].update(config=config, kernel=kernels["add"], args=(data, np.float32(3.0), n))
    graph.launch(stream)
    once = (x * np.float32(2.0) + np.float32(1.0)) * np.float32(0.5)
    expected = (once * np.float32(2.0) + np.float32(3.0)) * np.float32(0.5)
    ok = np.allclose(to_host(data, stream, x.size), expected, rtol=1e-5)
    graph.close()
    data.close(stream)
    return ok


def main(n: int = 1 << 20) -> int:
    device = Device()
    device.set_current()
    stream = device.create_stream()
    program = Program(SOURCE, code_type="c++", options=ProgramOptions(arch=f"sm_{device.arch}"))
    module = program.compile("cubin")
    kernels = {name: module.get_kernel(name) for name in ("scale", "add")}
    config = LaunchConfig(grid=(n + 255) // 256, block=256)
    x = np.random.default_rng(1).random(n).astype(np.float32)
    results = {
        "stream capture (GraphBuilder)": captured(device, stream, kernels, config, x),
        "explicit definition (GraphDefinition), updated": defined(device, stream, kernels, config, x),
    }
    for label, ok in results.items():
        print(f"{label}: {n} elements on {device.name}: {'matches numpy' if ok else 'MISMATCH'}")
    stream.close()
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20))
