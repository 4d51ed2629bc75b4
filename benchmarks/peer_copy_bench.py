#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Copies between two GPUs through cuda.core's Buffer.copy_to: our cuda.core beside NVIDIA's,
one process per side, in interleaved rounds on one core.

Rows: the bandwidth of a 256 MiB copy from device 0 to device 1 with peer access enabled
on the destination's pool (GPU time between two timing events, median of 20), the host
cost of issuing a 4 KiB peer copy, and the same two figures for a copy within device 0,
the baseline a machine of one GPU can measure. With one GPU the peer rows stay empty and
the run says so.

Usage (GPU machine): python benchmarks/peer_copy_bench.py [--quick] [--rounds N] [--json PATH]
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
from pathlib import Path

from launch_bench import BATCH, compare_sides, parse_arguments, per_call_us, two_sided_table, write_comparison

LARGE = 256 << 20
SMALL = 4 << 10
COPIES = 20
METRICS = (
    "peer copy 256 MiB [GB/s]",
    "peer copy 4 KiB, host [us]",
    "same-device copy 256 MiB [GB/s]",
    "same-device copy 4 KiB, host [us]",
)


def bandwidth_gbs(cc, stream, src, dst) -> float:
    """GB/s of copying ``src`` into ``dst`` on ``stream``: the median over COPIES copies, each
    timed on the GPU between two events."""
    timing = cc.EventOptions(timing_enabled=True)
    src.copy_to(dst, stream=stream)  # warm-up: first-touch and peer mappings
    seconds = []
    for _ in range(COPIES):
        start = stream.record(options=timing)
        src.copy_to(dst, stream=stream)
        end = stream.record(options=timing)
        end.sync()
        seconds.append((end - start) / 1e3)  # Event subtraction gives milliseconds
    return src.size / statistics.median(seconds) / 1e9


def copy_figures(cc, stream, src_device, dst_device, batches: int) -> tuple[float, float]:
    """(bandwidth of LARGE copies, host microseconds per SMALL copy) from one device to another."""
    large_src = src_device.allocate(LARGE, stream=stream)
    large_dst = dst_device.allocate(LARGE, stream=stream)
    small_src = src_device.allocate(SMALL, stream=stream)
    small_dst = dst_device.allocate(SMALL, stream=stream)
    stream.sync()
    gbs = bandwidth_gbs(cc, stream, large_src, large_dst)

    def copies() -> None:
        for _ in range(BATCH):
            small_src.copy_to(small_dst, stream=stream)

    per_call_us(copies, 3, stream.sync)  # warm-up
    host_us = per_call_us(copies, batches, stream.sync)
    for buffer in (large_src, large_dst, small_src, small_dst):
        buffer.close(stream)
    stream.sync()
    return gbs, host_us


def measure(batches: int) -> dict[str, float | str]:
    """This process's figures, through whichever cuda.core is importable."""
    import cuda.core as cc

    first = cc.Device(0)
    first.set_current()
    stream = first.create_stream()
    result: dict[str, float | str] = {"version": getattr(cc, "__version__", "?"), "module": cc.__file__}
    same = copy_figures(cc, stream, first, first, batches)
    result["same-device copy 256 MiB [GB/s]"], result["same-device copy 4 KiB, host [us]"] = same
    if len(cc.Device.get_all_devices()) < 2:
        result["peer"] = "one GPU: no peer copy to measure"
        return result
    second = cc.Device(1)
    second.memory_resource.peer_accessible_by = [0]  # device 0's copies reach device 1's pool directly
    first.set_current()
    peer = copy_figures(cc, stream, first, second, batches)
    result["peer copy 256 MiB [GB/s]"], result["peer copy 4 KiB, host [us]"] = peer
    result["peer"] = "device 0 -> device 1, peer access on"
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(__doc__.splitlines()[0], ("ours", "nvidia"), argv)
    if args.worker:
        print(json.dumps(measure(args.batches)))
        return 0

    batches = 20 if args.quick else 100
    results, rounds_wanted, core = compare_sides(args, Path(__file__), batches, needs_gpu=False)
    print(f"host: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for side, figures in results.items():
        print(f"{side:>6}: {figures.get('version', '')} {figures.get('module', '')} {figures.get('error', '')}")
        print(f"        {figures.get('peer', '')}")
    print(
        f"median over {rounds_wanted} interleaved process(es) per side; bandwidth: median of {COPIES} copies "
        f"timed by events; host cost: median over {batches} batches of {BATCH} copies, on core {core}"
    )
    print(two_sided_table(results, METRICS, 34))
    write_comparison(args.json, results, METRICS, rounds=rounds_wanted, batches=batches, core=core)
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
