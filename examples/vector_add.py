# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Add two vectors on the GPU with cuda.core, and check the sum against numpy.

Host data lives in numpy arrays; it reaches the device through pinned buffers that
numpy views by DLPack. Run: python examples/vector_add.py [n]
"""

from __future__ import annotations

import sys

import numpy as np
from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, Program, ProgramOptions, launch

SOURCE = r"""
template <typename T>
__global__ void vector_add(const T* a, const T* b, T* out, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}
"""


def main(n: int = 1_000_000) -> int:
    device = Device()
    device.set_current()
    stream = device.create_stream()
    program = Program(SOURCE, code_type="c++", options=ProgramOptions(std="c++17", arch=f"sm_{device.arch}"))
    kernel = program.compile("cubin", name_expressions=("vector_add<float>",)).get_kernel("vector_add<float>")

    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    pinned = LegacyPinnedMemoryResource()
    host = [pinned.allocate(a.nbytes) for _ in range(3)]
    np.from_dlpack(host[0]).view(np.float32)[:] = a
    np.from_dlpack(host[1]).view(np.float32)[:] = b

    d_a, d_b, d_out = (device.allocate(a.nbytes, stream=stream) for _ in range(3))
    d_a.copy_from(host[0], stream=stream)
    d_b.copy_from(host[1], stream=stream)
    block = 256
    config = LaunchConfig(grid=(n + block - 1) // block, block=block)
    launch(stream, config, kernel, d_a, d_b, d_out, np.uint64(n))
    d_out.copy_to(host[2], stream=stream)
    stream.sync()

    result = np.from_dlpack(host[2]).view(np.float32)
    ok = np.array_equal(result, a + b)
    print(
        f"vector_add<float>: {n} elements on {device.name} (sm_{device.arch}), grid {config.grid[0]} x block "
        f"{block}: {'matches numpy' if ok else 'MISMATCH with numpy'}"
    )
    for buffer in (d_a, d_b, d_out):
        buffer.close(stream)
    for buffer in host:
        buffer.close()
    stream.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000))
