#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Host cost of a kernel launch, a Buffer allocate/free and an event record: our cuda.core
beside NVIDIA's cuda.core and raw cuda.bindings, measured in one run on one GPU.

The kernels are empty: ``empty(float*, int)`` (two arguments) and ``mixed(float*, int,
float, double, long long, unsigned char)`` (six of mixed types, the marshalling cost);
the launch of ``empty`` is also measured as a cluster of 2 blocks (cuLaunchKernelEx with
a cluster attribute). They are built once by nvcc into one cubin that every side loads,
so no NVRTC is involved and each side runs the same machine code.

Each side runs in its own process, so the two cuda.core packages never share an
interpreter:

* ``ours``: the cuda.core importable with the caller's PYTHONPATH (a build of this repo);
* ``nvidia``: NVIDIA's cuda.core, from the same Python with PYTHONPATH dropped
  (override with ``--nvidia-pythonpath``);
* ``raw``: ``cuda.bindings.driver.cuLaunchKernel`` called from Python with the
  arguments as a (values, ctypes types) pair, in the ``nvidia`` environment;
* ``C++``: the driver's own floor, benchmarks/launch_floor.cpp built by nvcc: the same
  launches from C++, through a CUkernel (as both cuda.core packages launch) and
  through a CUfunction.

The ``ours`` and ``nvidia`` workers run the very same code: the two packages share an API.
Host cost per operation is the time of a batch of calls divided by its length, with
the stream drained (untimed) between batches so the launch queue never fills; a
process's figure is the median over its batches, and the figure reported is the median
over several processes per side, run in interleaved rounds, all pinned to one core.

Usage (GPU machine): python benchmarks/launch_bench.py [--quick] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KERNELS = (
    'extern "C" __global__ void empty(float* data, int n) {}\n'
    'extern "C" __global__ void mixed(float* data, int n, float x, double y, long long m, unsigned char c) {}\n'
    'extern "C" __global__ void noargs() {}\n'
)  # launch_steps.py's kernel of no parameters
BATCH = 500
METRICS = (
    "launch [us]",
    "launch, 6 mixed args [us]",
    "launch, cluster of 2 [us]",
    "allocate+free [us]",
    "event record [us]",
)


def build_cubin(work: Path, arch: str) -> Path:
    """The empty kernels compiled by nvcc for ``arch`` (e.g. '90')."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    source = work / "empty.cu"
    source.write_text(KERNELS)
    subprocess.run([nvcc, "-cubin", f"-arch=sm_{arch}", "-o", work / "empty.cubin", source], check=True)
    return work / "empty.cubin"


def build_floor(work: Path) -> Path | str:
    """benchmarks/launch_floor.cpp built by nvcc: the binary, or the error's last line."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    stubs = Path(nvcc).resolve().parent.parent / "lib64" / "stubs"
    binary = work / "launch_floor"
    build = subprocess.run(
        [nvcc, "-O2", "-o", binary, Path(__file__).resolve().with_name("launch_floor.cpp"), f"-L{stubs}", "-lcuda"],
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        return (build.stderr.strip().splitlines() or ["nvcc failed"])[-1]
    return binary


def measure_floor(binary: Path | str, cubin: Path, batches: int) -> dict[str, float]:
    """The C++ floor's figures for the same cubin and batching."""
    if isinstance(binary, str):
        return {"error": binary}
    run = subprocess.run([binary, cubin, str(batches)], capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": (run.stderr.strip().splitlines() or ["failed"])[-1]}
    figures = json.loads(run.stdout)
    figures["launch [us]"] = figures["launch, CUkernel [us]"]
    figures["launch, 6 mixed args [us]"] = figures["launch, 6 mixed args, CUkernel [us]"]
    figures["launch, cluster of 2 [us]"] = figures["launch, cluster of 2, CUkernel [us]"]
    return figures


def per_call_us(batch, batches: int, drain) -> float:
    """Median microseconds per call of ``batch()`` (BATCH calls), draining the stream between batches."""
    samples = []
    for _ in range(batches):
        drain()
        start = time.perf_counter_ns()
        batch()
        samples.append((time.perf_counter_ns() - start) / BATCH / 1000)
    drain()
    return statistics.median(samples)


def measure_cuda_core(cubin: Path, batches: int) -> dict[str, float]:
    """Launch, allocate/free and record costs through whichever cuda.core is importable."""
    import cuda.core as cc
    import numpy as np

    device = cc.Device(0)
    device.set_current()
    stream = device.create_stream()
    code = cc.ObjectCode.from_cubin(cubin.read_bytes())
    kernel, mixed = code.get_kernel("empty"), code.get_kernel("mixed")
    config = cc.LaunchConfig(grid=1, block=1)
    cluster = cc.LaunchConfig(grid=1, cluster=2, block=1)
    buffer = device.allocate(1024, stream=stream)
    n = np.int32(256)
    x, y, m, c = np.float32(1.5), np.float64(2.5), np.int64(3), np.uint8(4)
    launch = cc.launch

    def launches() -> None:
        for _ in range(BATCH):
            launch(stream, config, kernel, buffer, n)

    def mixed_launches() -> None:
        for _ in range(BATCH):
            launch(stream, config, mixed, buffer, n, x, y, m, c)

    def cluster_launches() -> None:
        for _ in range(BATCH):
            launch(stream, cluster, kernel, buffer, n)

    def allocations() -> None:
        for _ in range(BATCH):
            device.allocate(1024, stream=stream).close(stream)

    event = device.create_event()

    def records() -> None:
        for _ in range(BATCH):
            stream.record(event)

    per_call_us(launches, 5, stream.sync)  # warm-up: module load, caches
    result = {
        "launch [us]": per_call_us(launches, batches, stream.sync),
        "launch, 6 mixed args [us]": per_call_us(mixed_launches, batches, stream.sync),
        "launch, cluster of 2 [us]": per_call_us(cluster_launches, batches, stream.sync),
        "allocate+free [us]": per_call_us(allocations, batches, stream.sync),
        "event record [us]": per_call_us(records, batches, stream.sync),
        "version": getattr(cc, "__version__", "?"),
        "module": cc.__file__,
    }
    buffer.close(stream)
    return result


def measure_raw(cubin: Path, batches: int) -> dict[str, float]:
    """cuLaunchKernel through cuda.bindings' Python API, arguments given as (values, ctypes types)."""
    import ctypes

    from cuda.bindings import driver

    def check(result):
        assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
        return result[1] if len(result) == 2 else result[1:]

    check(driver.cuInit(0))
    device = check(driver.cuDeviceGet(0))
    context = check(driver.cuDevicePrimaryCtxRetain(device))
    check(driver.cuCtxSetCurrent(context))
    stream = check(driver.cuStreamCreate(driver.CUstream_flags.CU_STREAM_NON_BLOCKING))
    module = check(driver.cuModuleLoadData(cubin.read_bytes()))
    function = check(driver.cuModuleGetFunction(module, b"empty"))
    mixed = check(driver.cuModuleGetFunction(module, b"mixed"))
    pointer = check(driver.cuMemAlloc(1024))
    args = ((int(pointer), 256), (ctypes.c_void_p, ctypes.c_int))
    mixed_args = (
        (int(pointer), 256, 1.5, 2.5, 3, 4),
        (ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_double, ctypes.c_longlong, ctypes.c_ubyte),
    )
    launch = driver.cuLaunchKernel

    def launches() -> None:
        for _ in range(BATCH):
            launch(function, 1, 1, 1, 1, 1, 1, 0, stream, args, 0)

    def mixed_launches() -> None:
        for _ in range(BATCH):
            launch(mixed, 1, 1, 1, 1, 1, 1, 0, stream, mixed_args, 0)

    def drain() -> None:
        check(driver.cuStreamSynchronize(stream))

    per_call_us(launches, 5, drain)
    import cuda.bindings

    return {
        "launch [us]": per_call_us(launches, batches, drain),
        "launch, 6 mixed args [us]": per_call_us(mixed_launches, batches, drain),
        "version": cuda.bindings.__version__,
        "module": driver.__file__,
    }


def run_worker(
    side: str, cubin: Path, batches: int, env: dict[str, str], script: Path = Path(__file__)
) -> dict[str, float]:
    """One side in its own process (``script --worker side``, this benchmark's by default);
    its figures come back as JSON on stdout."""
    command = [
        sys.executable,
        str(script.resolve()),
        "--worker",
        side,
        "--cubin",
        str(cubin),
        "--batches",
        str(batches),
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def merge_rounds(samples: list[dict]) -> dict:
    """The median of each figure over the rounds of one side, with every round's value kept."""
    failed = [sample["error"] for sample in samples if "error" in sample]
    if failed:
        return {"error": failed[0]}
    merged = dict(samples[0])
    for key, value in samples[0].items():
        if isinstance(value, float):
            merged[key] = statistics.median(sample[key] for sample in samples)
            merged[f"{key} rounds"] = [sample[key] for sample in samples]
    return merged


def paired_ratio(results: dict[str, dict], metric: str) -> float | None:
    """The median over rounds of ours / NVIDIA's within each round: the two ran back to back,
    so a drift of the machine between rounds cancels out."""
    ours, nvidia = (results[side].get(f"{metric} rounds") for side in ("ours", "nvidia"))
    if not ours or not nvidia:
        return None
    return statistics.median(a / b for a, b in zip(ours, nvidia))


def table(results: dict[str, dict[str, float]]) -> str:
    """One row per metric: each side's figure, ours / NVIDIA's (of the medians and paired per
    round) and ours minus the C++ floor."""
    sides = ("ours", "nvidia", "raw", "C++")
    lines = [
        f"{'metric':<26} "
        + " ".join(f"{side:>9}" for side in sides)
        + f" {'ours/nvidia':>12} {'paired':>7} {'ours-C++':>9}"
    ]
    for metric in METRICS:
        values = [results[side].get(metric) for side in sides]
        cells = [f"{v:9.2f}" if isinstance(v, float) else f"{'-':>9}" for v in values]
        ratio = f"{values[0] / values[1]:12.2f}" if all(isinstance(v, float) for v in values[:2]) else f"{'-':>12}"
        paired = paired_ratio(results, metric)
        paired_cell = f"{paired:7.2f}" if paired is not None else f"{'-':>7}"
        above_floor = (
            f"{values[0] - values[3]:+9.2f}"
            if isinstance(values[0], float) and isinstance(values[3], float)
            else f"{'-':>9}"
        )
        lines.append(f"{metric:<26} {' '.join(cells)} {ratio} {paired_cell} {above_floor}")
    through_function = results["C++"].get("launch, CUfunction [us]")
    if isinstance(through_function, float):
        lines.append(f"(C++ through a CUfunction instead of a CUkernel: {through_function:.2f} us per launch)")
    return "\n".join(lines)


def parse_arguments(description: str, workers: tuple[str, ...], argv: list[str] | None) -> argparse.Namespace:
    """The options this benchmark and view_bench.py share (their workers' hidden ones too)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="one round of fewer batches (about 10 s in all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--rounds", type=int, default=5, help="processes per side, interleaved (default 5)")
    parser.add_argument("--nvidia-pythonpath", default="", help="PYTHONPATH for NVIDIA's cuda.core (and the raw run)")
    parser.add_argument("--worker", choices=workers, help=argparse.SUPPRESS)
    parser.add_argument("--cubin", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--batches", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def side_environments(args: argparse.Namespace) -> tuple[dict[str, str], dict[str, str]]:
    """The environments of our side (this one) and of NVIDIA's (PYTHONPATH dropped, or
    --nvidia-pythonpath)."""
    ours_env = dict(os.environ)
    nvidia_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if args.nvidia_pythonpath:
        nvidia_env["PYTHONPATH"] = args.nvidia_pythonpath
    return ours_env, nvidia_env


def compute_capability() -> str:
    """GPU 0's compute capability as nvcc's arch digits (e.g. "90")."""
    return (
        subprocess.run(
            ["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.split()[0]
        .replace(".", "")
    )


def compare_sides(
    args: argparse.Namespace, script: Path, batches: int, needs_gpu: bool = True
) -> tuple[dict[str, dict], int, int]:
    """Run ``script``'s worker for ours and NVIDIA's cuda.core in ``args.rounds`` interleaved
    rounds (one round with --quick), every process on one core: the merged figures per
    side, the number of rounds, and the core. Workers that ``needs_gpu`` get the empty
    kernels' cubin for GPU 0; the others a path that does not exist."""
    rounds_wanted = 1 if args.quick else args.rounds
    ours_env, nvidia_env = side_environments(args)
    with tempfile.TemporaryDirectory() as work:
        cubin = build_cubin(Path(work), compute_capability()) if needs_gpu else Path(work) / "no-cubin"
        core = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        rounds: dict[str, list[dict]] = {"ours": [], "nvidia": []}
        for _ in range(rounds_wanted):
            for side, env in (("ours", ours_env), ("nvidia", nvidia_env)):
                rounds[side].append(run_worker(side, cubin, batches, env, script))
    return {side: merge_rounds(samples) for side, samples in rounds.items()}, rounds_wanted, core


def two_sided_table(results: dict[str, dict], metrics: tuple[str, ...], width: int) -> str:
    """compare_sides' figures, a row per metric either side has: ours, NVIDIA's, their ratio
    of medians, and the median of the per-round ratios."""
    lines = [f"{'metric':<{width}} {'ours':>9} {'nvidia':>9} {'ours/nvidia':>12} {'paired':>7}"]
    for metric in metrics:
        ours, nvidia = results["ours"].get(metric), results["nvidia"].get(metric)
        if not isinstance(ours, float) and not isinstance(nvidia, float):
            continue
        cells = [f"{v:9.2f}" if isinstance(v, float) else f"{'-':>9}" for v in (ours, nvidia)]
        ratio = f"{ours / nvidia:12.2f}" if isinstance(ours, float) and isinstance(nvidia, float) else f"{'-':>12}"
        paired = paired_ratio(results, metric)
        paired_cell = f"{paired:7.2f}" if paired is not None else f"{'-':>7}"
        lines.append(f"{metric:<{width}} {' '.join(cells)} {ratio} {paired_cell}")
    return "\n".join(lines)


def write_comparison(path: Path | None, results: dict[str, dict], metrics: tuple[str, ...], **context) -> None:
    """The figures of compare_sides, with the paired ratio of each metric, as JSON at ``path``."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {**context, "results": results, "paired ours/nvidia": {m: paired_ratio(results, m) for m in metrics}},
            indent=2,
        )
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(__doc__.splitlines()[0], ("ours", "nvidia", "raw"), argv)

    if args.worker:
        measure = measure_raw if args.worker == "raw" else measure_cuda_core
        print(json.dumps(measure(args.cubin, args.batches)))
        return 0

    batches = 40 if args.quick else 200
    args.rounds = 1 if args.quick else args.rounds
    ours_env, nvidia_env = side_environments(args)
    with tempfile.TemporaryDirectory() as work:
        cubin = build_cubin(Path(work), compute_capability())
        floor = build_floor(Path(work))
        # Every side on one and the same core (inherited by the worker processes): the
        # scheduler moving a process between cores was the largest noise between runs.
        core = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        # Rounds interleave the sides, so a drift of the machine hits each side alike.
        rounds: dict[str, list[dict]] = {"ours": [], "nvidia": [], "raw": [], "C++": []}
        for _ in range(args.rounds):
            for side, env in (("ours", ours_env), ("nvidia", nvidia_env), ("raw", nvidia_env)):
                rounds[side].append(run_worker(side, cubin, batches, env))
            rounds["C++"].append(measure_floor(floor, cubin, batches))
    results = {side: merge_rounds(samples) for side, samples in rounds.items()}
    gpu = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True
    ).stdout.strip()
    print(f"GPU: {gpu}; host: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for side, figures in results.items():
        print(f"{side:>6}: {figures.get('version', '')} {figures.get('module', '')} {figures.get('error', '')}")
    print(
        f"host cost per call: median over {args.rounds} interleaved process(es) per side of the median over "
        f"{batches} batches of {BATCH}, all on core {core} (kernels: empty(float*, int); mixed with 6 arguments)"
    )
    print(table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "gpu": gpu,
                    "batches": batches,
                    "batch": BATCH,
                    "rounds": args.rounds,
                    "core": core,
                    "results": results,
                    "paired ours/nvidia": {m: paired_ratio(results, m) for m in METRICS},
                },
                indent=2,
            )
        )
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
