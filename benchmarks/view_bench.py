#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Host cost of making a StridedMemoryView and of launching a kernel that takes one: our
cuda.core beside NVIDIA's, one process per side, in interleaved rounds on one core.

Rows: a view of a numpy array (DLPack on the host), of a CuPy array (DLPack, and the CUDA
Array Interface), of a PyTorch tensor (DLPack), each on a consumer stream; a view of a
Buffer (from_buffer); and a launch of ``empty(float*, int)`` given a view (its ``ptr`` on a
cuda.core that refuses views as arguments, as NVIDIA's 1.2.0 does). The libraries
that are not installed leave their rows empty. The kernel is built by nvcc once and loaded
by both sides (launch_bench.py's cubin), so no NVRTC is involved.

Usage (GPU machine): python benchmarks/view_bench.py [--quick] [--rounds N] [--json PATH]
"""

from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

from launch_bench import BATCH, compare_sides, parse_arguments, per_call_us, two_sided_table, write_comparison

METRICS = (
    "view of numpy (DLPack) [us]",
    "view of CuPy (DLPack) [us]",
    "view of CuPy (CAI) [us]",
    "view of torch (DLPack) [us]",
    "view of a Buffer [us]",
    "launch with a view [us]",
)


def _optional(name: str):
    try:
        return __import__(name)
    except ImportError:
        return None


def measure(cubin: Path, batches: int) -> dict[str, float | str]:
    """This process's figures, through whichever cuda.core is importable."""
    import cuda.core as cc
    import numpy as np
    from cuda.core.utils import StridedMemoryView as View

    device = cc.Device(0)
    device.set_current()
    stream = device.create_stream()
    consumer = int(stream.handle)
    kernel = cc.ObjectCode.from_cubin(cubin.read_bytes()).get_kernel("empty")
    config = cc.LaunchConfig(grid=1, block=1)
    buffer = device.allocate(4096, stream=stream)
    stream.sync()
    host = np.zeros((32, 32), dtype=np.float32)
    cases = {
        "view of numpy (DLPack) [us]": lambda: View.from_dlpack(host, -1),
        "view of a Buffer [us]": lambda: View.from_buffer(buffer, (1024,), dtype=np.dtype(np.float32)),
    }
    cupy = _optional("cupy")
    if cupy is not None:
        with cupy.cuda.ExternalStream(consumer):
            array = cupy.zeros((32, 32), dtype=cupy.float32)
        cases["view of CuPy (DLPack) [us]"] = lambda: View.from_dlpack(array, consumer)
        cases["view of CuPy (CAI) [us]"] = lambda: View.from_cuda_array_interface(array, consumer)
    torch = _optional("torch")
    if torch is not None and torch.cuda.is_available():
        tensor = torch.zeros((32, 32), dtype=torch.float32, device="cuda")
        torch.cuda.synchronize()
        cases["view of torch (DLPack) [us]"] = lambda: View.from_dlpack(tensor, consumer)
    view = View.from_buffer(buffer, (1024,), dtype=np.dtype(np.float32))
    n = np.int32(1024)
    launch = cc.launch

    argument = view
    try:
        launch(stream, config, kernel, view, n)
    except TypeError:  # a cuda.core that takes no view as an argument (NVIDIA's 1.2.0): its pointer, as its users pass
        argument = view.ptr

    def launches() -> None:
        for _ in range(BATCH):
            launch(stream, config, kernel, argument, n)

    def batch_of(make):
        def run() -> None:
            for _ in range(BATCH):
                make()

        return run

    result: dict[str, float | str] = {}
    for metric, make in cases.items():
        per_call_us(batch_of(make), 3, stream.sync)  # warm-up
        result[metric] = per_call_us(batch_of(make), batches, stream.sync)
    per_call_us(launches, 3, stream.sync)
    result["launch with a view [us]"] = per_call_us(launches, batches, stream.sync)
    result["view passed as"] = "a view" if argument is view else "view.ptr"
    result["version"] = getattr(cc, "__version__", "?")
    result["module"] = cc.__file__
    buffer.close(stream)
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(__doc__.splitlines()[0], ("ours", "nvidia"), argv)
    if args.worker:
        print(json.dumps(measure(args.cubin, args.batches)))
        return 0

    batches = 20 if args.quick else 100
    results, rounds_wanted, core = compare_sides(args, Path(__file__), batches)
    print(f"host: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for side, figures in results.items():
        print(f"{side:>6}: {figures.get('version', '')} {figures.get('module', '')} {figures.get('error', '')}")
        print(f"        launches pass {figures.get('view passed as', '?')}")
    print(
        f"host cost per call: median over {rounds_wanted} interleaved process(es) per side of the median over "
        f"{batches} batches of {BATCH}, on core {core}"
    )
    print(two_sided_table(results, METRICS, 30))
    write_comparison(args.json, results, METRICS, rounds=rounds_wanted, batches=batches, core=core)
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
