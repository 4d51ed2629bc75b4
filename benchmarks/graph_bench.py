#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Host cost of replaying a CUDA graph of 100 empty kernels against launching the 100 kernels
one by one on a stream: our cuda.core beside NVIDIA's, one process per side, in
interleaved rounds on one core.

Rows: 100 launches of ``empty(float*, int)`` on a stream; one ``graph.launch(stream)`` of a
graph capturing those 100 launches (GraphBuilder); and the one-off cost of capturing and
completing that graph. The kernel is built by nvcc once and loaded by both sides
(launch_bench.py's cubin), so no NVRTC is involved.

Usage (GPU machine): python benchmarks/graph_bench.py [--quick] [--rounds N] [--json PATH]
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

from launch_bench import BATCH, compare_sides, parse_arguments, per_call_us, two_sided_table, write_comparison

KERNELS_PER_GRAPH = 100
# Graph launches per timed batch: few, so that the device keeps up and the host never waits
# for room in the launch queue (each launch is 100 kernels of device work).
GRAPHS_PER_BATCH = 5
METRICS = ("100 stream launches [us]", "graph of 100: launch [us]", "graph of 100: capture+complete [us]")


def measure(cubin: Path, batches: int) -> dict[str, float | str]:
    """This process's figures, through whichever cuda.core is importable."""
    import cuda.core as cc
    import numpy as np

    device = cc.Device(0)
    device.set_current()
    stream = device.create_stream()
    kernel = cc.ObjectCode.from_cubin(cubin.read_bytes()).get_kernel("empty")
    config = cc.LaunchConfig(grid=1, block=1)
    buffer = device.allocate(4096, stream=stream)
    n = np.int32(1024)
    launch = cc.launch

    def build():
        builder = device.create_graph_builder().begin_building()
        for _ in range(KERNELS_PER_GRAPH):
            launch(builder, config, kernel, buffer, n)
        return builder.end_building().complete()

    graph = build()
    graph.upload(stream)
    replay = graph.launch

    def stream_launches() -> None:  # BATCH launches: per_call_us gives one launch's cost
        for _ in range(BATCH):
            launch(stream, config, kernel, buffer, n)

    def graph_launches() -> None:
        for _ in range(GRAPHS_PER_BATCH):
            replay(stream)

    result: dict[str, float | str] = {}
    per_call_us(stream_launches, 3, stream.sync)  # warm-up
    result["100 stream launches [us]"] = per_call_us(stream_launches, batches, stream.sync) * KERNELS_PER_GRAPH
    per_call_us(graph_launches, 3, stream.sync)
    result["graph of 100: launch [us]"] = per_call_us(graph_launches, batches, stream.sync) * BATCH / GRAPHS_PER_BATCH
    samples = []
    for _ in range(max(batches // 5, 3)):
        start = time.perf_counter_ns()
        build().close()
        samples.append((time.perf_counter_ns() - start) / 1000)
    result["graph of 100: capture+complete [us]"] = sorted(samples)[len(samples) // 2]
    result["version"] = getattr(cc, "__version__", "?")
    result["module"] = cc.__file__
    graph.close()
    buffer.close(stream)
    stream.sync()
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
    print(
        f"host cost: median over {rounds_wanted} interleaved process(es) per side; launches: median over {batches} "
        f"batches ({BATCH} stream launches, or {GRAPHS_PER_BATCH} graph launches, each), on core {core}"
    )
    print(two_sided_table(results, METRICS, 38))
    write_comparison(args.json, results, METRICS, rounds=rounds_wanted, batches=batches, core=core)
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
