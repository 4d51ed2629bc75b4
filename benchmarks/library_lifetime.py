#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Who unloads a CUDA library, and what it costs: our cuda.core beside NVIDIA's, in one run.

Each side, in processes of its own (ours: the caller's PYTHONPATH; NVIDIA's: PYTHONPATH
dropped, or --nvidia-pythonpath, with the same Python or --nvidia-python):

* ``dropped``: 3,000 rounds (--libraries) of ObjectCode.from_cubin(bytes) of one small cubin
  (compiled once per process with Program), get_kernel, launch, sync, drop. Reported: the
  device memory lost (cuMemGetInfo's free before and after, after gc.collect()) and one
  round's cost. Ours unloads each library (no client saw its handle); NVIDIA's 1.2 never
  unloads one (NVIDIA/cuda-python issue 1670).
* ``handle taken``: the same rounds, each reading ``ObjectCode.handle`` first: then the
  library is the client's on ours too, and this client leaves it loaded.
* ``client unloads first``: numba-cuda's pattern, 200 rounds: the client calls
  ``cuLibraryUnload(code.handle)`` itself while the ObjectCode and Kernel live on (numba's
  dispatcher), with gc.collect() between rounds and the objects alive at exit. Reported: the
  process's exit status (0, or a crash: a negative signal number, 134 or 139).

Usage (GPU machine, NVIDIA's cuda.core 1.2 installed, ours on PYTHONPATH):
    PYTHONPATH=/path/to/our/build python benchmarks/library_lifetime.py [--libraries N] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

SOURCE = r"""extern "C" __global__ void fill(int* out, int value, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}"""
N = 1024
WORKERS = ("dropped", "handle taken", "client unloads first")
MIB = float(1 << 20)


def _check(result):
    """The value of a cuda.bindings call, or an error naming the status."""
    from cuda.bindings import driver

    if result[0] != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"driver call failed: {result[0]!r}")
    return result[1] if len(result) == 2 else result[1:]


def _setup():
    """Device 0 current, a stream, a buffer for fill(), the cubin (compiled once here) and a
    launch of fill() from a kernel."""
    import numpy as np
    from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch

    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    buffer = device.allocate(4 * N, stream=stream)
    cubin = bytes(Program(SOURCE, "c++", options=ProgramOptions(arch=f"sm_{device.arch}")).compile("cubin").code)
    config = LaunchConfig(grid=N // 128, block=128)

    def run(kernel, value: int) -> None:
        launch(stream, config, kernel, buffer, np.int32(value), np.uint64(N))
        stream.sync()

    return stream, buffer, cubin, run


def measure_rounds(libraries: int, take_handle: bool) -> dict[str, float]:
    """Device memory lost over ``libraries`` rounds of load, launch and drop, and a round's cost."""
    import cuda.core
    from cuda.core import ObjectCode

    stream, buffer, cubin, run = _setup()
    run(ObjectCode.from_cubin(cubin).get_kernel("fill"), 0)  # the first load's one-time costs
    gc.collect()
    free_before = _check(_memory_info())[0]
    start = time.perf_counter()
    for index in range(libraries):
        code = ObjectCode.from_cubin(cubin)
        kernel = code.get_kernel("fill")
        if take_handle:
            code.handle  # noqa: B018  (what a client does: the library is its own from here on)
        run(kernel, index)
        del code, kernel
    elapsed = time.perf_counter() - start
    gc.collect()
    free_after = _check(_memory_info())[0]
    buffer.close(stream)
    stream.sync()
    return {
        "lost [MiB]": (free_before - free_after) / MIB,
        "round [us]": elapsed / libraries * 1e6,
        "version": cuda.core.__version__,
        "module": cuda.core.__file__,
    }


def _memory_info():
    from cuda.bindings import driver

    return driver.cuMemGetInfo()


def client_unloads_first(rounds: int = 200) -> dict[str, float]:
    """numba-cuda's module finalizer, without numba: the client unloads the library while the
    ObjectCode and Kernel live on; they are still alive when the interpreter exits."""
    from cuda.bindings import driver
    from cuda.core import ObjectCode

    stream, buffer, cubin, run = _setup()
    dispatcher = []
    for index in range(rounds):
        code = ObjectCode.from_cubin(cubin)
        kernel = code.get_kernel("fill")
        run(kernel, index)
        _check(driver.cuLibraryUnload(code.handle))
        dispatcher.append((code, kernel))
        if index % 10 == 9:
            del dispatcher[:5]
            gc.collect()
    buffer.close(stream)
    stream.sync()
    return {"rounds": float(rounds)}


def run_worker(worker: str, libraries: int, python: str, env: dict[str, str]) -> dict:
    """One worker in a process of its own: its figures, plus its exit status."""
    command = [python, str(Path(__file__).resolve()), "--worker", worker, "--libraries", str(libraries)]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    figures: dict = {"exit status": result.returncode}
    lines = result.stdout.strip().splitlines()
    if lines and lines[-1].startswith("{"):
        figures.update(json.loads(lines[-1]))
    if result.returncode != 0 or not lines:
        figures["error"] = (result.stderr.strip().splitlines() or ["no output"])[-1]
    return figures


def gpu_name() -> str:
    """GPU 0's name and driver, as nvidia-smi gives them ("no nvidia-smi" where it is missing)."""
    if shutil.which("nvidia-smi") is None:
        return "no nvidia-smi"
    query = ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]
    return subprocess.run(query, capture_output=True, text=True).stdout.strip()


def cell(value) -> str:
    return f"{value:10.1f}" if isinstance(value, float) else f"{'-' if value is None else value!s:>10}"


def table(results: dict[str, dict[str, dict]]) -> str:
    """A row per figure: ours beside NVIDIA's."""
    rows = [
        ("device memory lost, dropped [MiB]", "dropped", "lost [MiB]"),
        ("one round, dropped [us]", "dropped", "round [us]"),
        ("device memory lost, handle taken [MiB]", "handle taken", "lost [MiB]"),
        ("one round, handle taken [us]", "handle taken", "round [us]"),
        ("client unloads first: exit status", "client unloads first", "exit status"),
    ]
    lines = [f"{'':<40} {'ours':>10} {'nvidia':>10}"]
    for label, worker, key in rows:
        lines.append(f"{label:<40} " + " ".join(cell(results[side][worker].get(key)) for side in ("ours", "nvidia")))
    return "\n".join(lines)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--libraries", type=int, default=3000, help="rounds of load, launch, drop (default 3000)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--nvidia-python", default=sys.executable, help="the Python NVIDIA's cuda.core runs in")
    parser.add_argument("--nvidia-pythonpath", default="", help="PYTHONPATH for NVIDIA's cuda.core")
    parser.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.worker:
        if args.worker == "client unloads first":
            figures = client_unloads_first()
        else:
            figures = measure_rounds(args.libraries, args.worker == "handle taken")
        print(json.dumps(figures), flush=True)
        return 0
    ours_env = dict(os.environ)
    nvidia_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if args.nvidia_pythonpath:
        nvidia_env["PYTHONPATH"] = args.nvidia_pythonpath
    sides = {"ours": (sys.executable, ours_env), "nvidia": (args.nvidia_python, nvidia_env)}
    results = {side: {} for side in sides}
    for worker in WORKERS:  # the sides interleaved, each worker in a fresh process
        for side, (python, env) in sides.items():
            results[side][worker] = run_worker(worker, args.libraries, python, env)
    gpu = gpu_name()
    print(f"GPU: {gpu}; Python {platform.python_version()}; {args.libraries} libraries per process")
    for side in sides:
        dropped = results[side]["dropped"]
        print(f"{side:>6}: {dropped.get('version', '')} {dropped.get('module', '')}")
        for worker, figures in results[side].items():
            if "error" in figures:
                print(f"{side:>6} {worker}: {figures['error']}")
    print(table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"gpu": gpu, "libraries": args.libraries, "results": results}, indent=2))
    return 0 if all("error" not in f for side in results.values() for f in side.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
