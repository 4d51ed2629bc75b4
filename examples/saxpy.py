# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""out = a * x + y on the GPU with cuda.core, for float32 and float64, checked against numpy.

One templated kernel, instantiated twice through NVRTC name expressions; host data
lives in numpy arrays, moved through pinned buffers. Run: python examples/saxpy.py [n]
"""

from __future__ import annotations

import sys

import numpy as np
from cuda.core import Device, LaunchConfig, LegacyPinnedMemoryResource, Program, ProgramOptions, launch

SOURCE = r"""
template <typename T>
__global__ void saxpy(T a, const T* x, const T* y, T* out, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = a * x[i] + y[i];
}
"""
KERNELS = {np.float32: "saxpy<float>", np.float64: "saxpy<double>"}


def run_one(device, stream, kernel, dtype, n: int) -> bool:
    """Launch saxpy for one dtype and compare with numpy; True when it matches."""
    rng = np.random.default_rng(1)
    a = dtype(1.5)
    x, y = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
    pinned = LegacyPinnedMemoryResource()
    h_x, h_y, h_out = (pinned.allocate(x.nbytes) for _ in range(3))
    np.from_dlpack(h_x).view(dtype)[:] = x
    np.from_dlpack(h_y).view(dtype)[:] = y
    d_x, d_y, d_out = (device.allocate(x.nbytes, stream=stream) for _ in range(3))
    d_x.copy_from(h_x, stream=stream)
    d_y.copy_from(h_y, stream=stream)
    # A grid-stride loop: a few blocks per SM cover any n.
    config = LaunchConfig(grid=4 * device.properties.multiprocessor_count, block=256)
    launch(stream, config, kernel, a, d_x, d_y, d_out, np.uint64(n))
    d_out.copy_to(h_out, stream=stream)
    stream.sync()
    ok = np.allclose(np.from_dlpack(h_out).view(dtype), a * x + y, rtol=1e-6 if dtype is np.float32 else 1e-12)
    for buffer in (d_x, d_y, d_out):
        buffer.close(stream)
    for buffer in (h_x, h_y, h_out):
        buffer.close()
    return ok


def main(n: int = 1 << 22) -> int:
    device = Device()
    device.set_current()
    stream = device.create_stream()
    program = Program(SOURCE, code_type="c++", options=ProgramOptions(arch=f"sm_{device.arch}"))
    code = program.compile("cubin", name_expressions=tuple(KERNELS.values()))
    failures = 0
    for dtype, name in KERNELS.items():
        ok = run_one(device, stream, code.get_kernel(name), dtype, n)
        failures += not ok
        print(f"{name}: {n} elements on {device.name}: {'matches numpy' if ok else 'MISMATCH with numpy'}")
    stream.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22))
