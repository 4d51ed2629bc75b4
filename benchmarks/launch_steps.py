#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Where the host time of a kernel launch goes: each step of our launch() timed apart, beside
NVIDIA's cuda.core, cuda.bindings' own cuLaunchKernel and the C++ floor, in one run.

Rows, each a host cost per call in microseconds (median over batches of BATCH calls, the
stream drained between batches, as in launch_bench.py):

* **ours, step by step** (when the cuda.core under test has ``_launcher._launch_steps``: the
  very code of launch(), stopped after a step), for kernels of 0, 2 and 6 parameters:
  0 the call alone (Python's vectorcall of launch()); 1 + the stream, config and kernel
  checks and the stream's handle; 2 + the kernel's parameter sizes and the count check;
  3 + the arguments packed; 4 + the GIL released and taken back; 5 + cuLaunchKernel, which
  is all of launch(). The table shows each step's own share beside the running total.
* **both sides**, through the public API of either package: LaunchConfig(grid=1, block=1);
  ``stream.handle``; ParamHolder (cuda.core._kernel_arg_handler: the packing of arguments
  without a launch, in both packages) of 0, 2 and 6 arguments; launch() of 0, 2 and 6 arguments and
  of a cluster of 2; and ``cuda.bindings.driver.cuLaunchKernel`` called from Python on the
  same kernel and stream, its arguments a ctypes array (cuda.bindings' floor in that
  environment).
* **C++**: benchmarks/launch_floor.cpp on the same cubin (launch_bench.py builds it): the driver.

Each side runs in its own processes, interleaved round by round, all pinned to one core:
``ours`` with the caller's environment, ``nvidia`` with PYTHONPATH dropped or
``--nvidia-pythonpath``. NVIDIA's column is left out when that environment imports no
cuda.core, or imports ours (this repo's build has ``cuda.core._build_info``).

Usage: python benchmarks/launch_steps.py [--quick] [--rounds N] [--json PATH]
       [--nvidia-pythonpath DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from launch_bench import (
    BATCH,
    build_cubin,
    build_floor,
    compute_capability,
    measure_floor,
    merge_rounds,
    paired_ratio,
    per_call_us,
    run_worker,
)

STEPS = (
    "call alone",
    "+ checks, stream handle",
    "+ parameter sizes, count",
    "+ arguments packed",
    "+ GIL released and retaken",
    "+ cuLaunchKernel = launch()",
)
ARG_COUNTS = (0, 2, 6)
KERNEL_OF = {0: "noargs", 2: "empty", 6: "mixed"}
BOTH_SIDES = (
    "LaunchConfig(grid=1, block=1) [us]",
    "stream.handle [us]",
    *(f"ParamHolder, {n} args [us]" for n in ARG_COUNTS),
    *(f"launch, {n} args [us]" for n in ARG_COUNTS),
    "launch, cluster of 2 [us]",
    *(f"raw cuLaunchKernel, {n} args [us]" for n in ARG_COUNTS),
)
FLOOR = {
    "C++ cuLaunchKernel, 2 args [us]": "launch, CUkernel [us]",
    "C++ cuLaunchKernel, 6 args [us]": "launch, 6 mixed args, CUkernel [us]",
    "C++ cuLaunchKernelEx, cluster of 2 [us]": "launch, cluster of 2, CUkernel [us]",
}


def step_metric(step: int, count: int) -> str:
    return f"step {step} {STEPS[step]}, {count} args [us]"


def loop(statement: str, **names: object) -> Callable[[], None]:
    """A function running ``statement`` BATCH times, ``names`` bound as its locals: no closure,
    global or *args unpacking in the loop, so each row times its own statement alone."""
    defaults = ", ".join(f"{name}={name}" for name in names)
    namespace: dict[str, object] = dict(names)
    exec(f"def batch({defaults}):\n    for _ in range({BATCH}):\n        {statement}\n", namespace)
    return namespace["batch"]  # type: ignore[return-value]


def raw_launcher(kernel, stream, arguments: tuple) -> Callable[[], None]:
    """cuda.bindings' cuLaunchKernel from Python on ``kernel`` (through its CUkernel handle, as
    both packages launch) and ``stream``, the arguments as a ctypes array of pointers."""
    import ctypes

    from cuda.bindings import driver

    ctypes_of = {
        "Buffer": lambda a: ctypes.c_uint64(int(a.handle)),
        "int32": ctypes.c_int32,
        "float32": ctypes.c_float,
        "float64": ctypes.c_double,
        "int64": ctypes.c_int64,
        "uint8": ctypes.c_uint8,
    }
    values = [ctypes_of[type(a).__name__](a) for a in arguments]
    pointers = (ctypes.c_void_p * max(len(values), 1))(*[ctypes.addressof(v) for v in values])
    params = ctypes.addressof(pointers) if values else 0
    function = driver.CUfunction(int(kernel.handle))
    handle = stream.handle
    result = driver.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, handle, params, 0)
    if result[0] != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuLaunchKernel: {result[0]!r}")
    # keep: the ctypes values and array, alive as long as the loop (a default it never reads)
    return loop(
        "launch(f, 1, 1, 1, 1, 1, 1, 0, h, p, 0)",
        launch=driver.cuLaunchKernel,
        f=function,
        h=handle,
        p=params,
        keep=(values, pointers),
    )


def measure(cubin: Path, batches: int) -> dict[str, float | str]:
    """This process's figures, through whichever cuda.core it imports."""
    import cuda.core as cc
    import numpy as np

    device = cc.Device(0)
    device.set_current()
    stream = device.create_stream()
    code = cc.ObjectCode.from_cubin(cubin.read_bytes())
    kernels = {n: code.get_kernel(KERNEL_OF[n]) for n in ARG_COUNTS}
    buffer = device.allocate(1024, stream=stream)
    arguments = {
        0: (),
        2: (buffer, np.int32(256)),
        6: (buffer, np.int32(256), np.float32(1.5), np.float64(2.5), np.int64(3), np.uint8(4)),
    }
    config = cc.LaunchConfig(grid=1, block=1)
    rows: dict[str, Callable[[], None]] = {}

    def launches(function, count: int, cfg=config) -> Callable[[], None]:
        names = {f"a{i}": a for i, a in enumerate(arguments[count])}
        call = ", ".join(["s", "c", "k", *names])
        return loop(f"launch({call})", launch=function, s=stream, c=cfg, k=kernels[count], **names)

    steps = getattr(__import__("cuda.core._launcher", fromlist=["_"]), "_launch_steps", None)
    for count in ARG_COUNTS if steps is not None else ():
        names = {f"a{i}": a for i, a in enumerate(arguments[count])}
        call = ", ".join(["step", "s", "c", "k", *names])
        for step in range(len(STEPS)):
            rows[step_metric(step, count)] = loop(
                f"steps({call})", steps=steps, step=step, s=stream, c=config, k=kernels[count], **names
            )
    rows["LaunchConfig(grid=1, block=1) [us]"] = loop("LaunchConfig(grid=1, block=1)", LaunchConfig=cc.LaunchConfig)
    rows["stream.handle [us]"] = loop("s.handle", s=stream)
    try:
        from cuda.core._kernel_arg_handler import ParamHolder

        for count in ARG_COUNTS:
            rows[f"ParamHolder, {count} args [us]"] = loop("P(t)", P=ParamHolder, t=arguments[count])
    except ImportError:
        pass
    for count in ARG_COUNTS:
        rows[f"launch, {count} args [us]"] = launches(cc.launch, count)
        rows[f"raw cuLaunchKernel, {count} args [us]"] = raw_launcher(kernels[count], stream, arguments[count])
    rows["launch, cluster of 2 [us]"] = launches(cc.launch, 2, cc.LaunchConfig(grid=1, cluster=2, block=1))

    result: dict[str, float | str] = {}
    for metric, batch in rows.items():
        try:
            batch()  # once untimed: a row that fails is reported, not timed
            per_call_us(batch, 3, stream.sync)  # warm-up
            result[metric] = per_call_us(batch, batches, stream.sync)
        except Exception as error:  # noqa: BLE001 - a row the package cannot do
            result[f"{metric} failed"] = f"{type(error).__name__}: {error}"
    result["version"] = getattr(cc, "__version__", "?")
    result["module"] = cc.__file__
    buffer.close(stream)
    return result


def probe(env: dict[str, str]) -> dict[str, object]:
    """Which cuda.core an environment imports, and whether it is this repo's build."""
    code = (
        "import importlib.util, json, cuda.core; print(json.dumps({'module': cuda.core.__file__, "
        "'ours': importlib.util.find_spec('cuda.core._build_info') is not None}))"
    )
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": (run.stderr.strip().splitlines() or ["import failed"])[-1]}
    return json.loads(run.stdout.strip().splitlines()[-1])


def cell(value: object) -> str:
    return f"{value:9.3f}" if isinstance(value, float) else f"{'-':>9}"


def table(results: dict[str, dict], floor: dict[str, object]) -> str:
    """The step ladder of ours (running total and each step's share), then the rows of both
    sides with their ratios, then the C++ floor."""
    ours, nvidia = results["ours"], results.get("nvidia", {})
    lines = []
    for count in ARG_COUNTS:
        if not isinstance(ours.get(step_metric(0, count)), float):
            continue
        title = f"ours, launch() step by step, {count} args ({KERNEL_OF[count]})"
        lines.append(f"\n{title:<56} {'total':>9} {'step':>9}")
        previous = 0.0
        for step in range(len(STEPS)):
            total = ours.get(step_metric(step, count))
            share = total - previous if isinstance(total, float) else None
            lines.append(f"  {step} {STEPS[step]:<52} {cell(total)} {cell(share)}")
            previous = total if isinstance(total, float) else previous
    lines.append(f"\n{'host cost per call [us]':<40} {'ours':>9} {'nvidia':>9} {'ours/nvidia':>12} {'paired':>7}")
    for metric in BOTH_SIDES:
        a, b = ours.get(metric), nvidia.get(metric)
        ratio = f"{a / b:12.2f}" if isinstance(a, float) and isinstance(b, float) else f"{'-':>12}"
        paired = paired_ratio(results, metric) if "nvidia" in results else None
        lines.append(f"{metric:<40} {cell(a)} {cell(b)} {ratio} " + (f"{paired:7.2f}" if paired else f"{'-':>7}"))
    for metric, key in FLOOR.items():
        if isinstance(floor.get(key), float):
            lines.append(f"{metric:<40} {cell(floor[key])}")
    failures = [
        f"{side}: {key[:-7]}: {value}"
        for side, figures in results.items()
        for key, value in figures.items()
        if key.endswith(" failed")
    ]
    return "\n".join(lines + ([""] + failures if failures else []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round of fewer batches")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--rounds", type=int, default=3, help="processes per side, interleaved (default 3)")
    parser.add_argument("--nvidia-pythonpath", default="", help="PYTHONPATH for NVIDIA's cuda.core")
    parser.add_argument("--worker", choices=("ours", "nvidia"), help=argparse.SUPPRESS)
    parser.add_argument("--cubin", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--batches", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.cubin, args.batches)))
        return 0

    batches = 40 if args.quick else 200
    rounds_wanted = 1 if args.quick else args.rounds
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        ours_env = dict(os.environ)
        nvidia_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if args.nvidia_pythonpath:
            nvidia_env["PYTHONPATH"] = args.nvidia_pythonpath
        cubin = build_cubin(work, compute_capability())
        floor_binary = build_floor(work)
        sides = {"ours": ours_env}
        found = {"ours": probe(ours_env), "nvidia": probe(nvidia_env)}
        if "error" not in found["nvidia"] and not found["nvidia"].get("ours"):
            sides["nvidia"] = nvidia_env
        core = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        rounds: dict[str, list[dict]] = {side: [] for side in sides}
        floors = []
        for _ in range(rounds_wanted):
            for side, env in sides.items():
                rounds[side].append(run_worker(side, cubin, batches, env, Path(__file__)))
            floors.append(measure_floor(floor_binary, cubin, batches))
    results = {side: merge_rounds(samples) for side, samples in rounds.items()}
    floor = merge_rounds(floors) if floors else {"error": str(floor_binary)}
    machine = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True, text=True
    ).stdout.strip()
    print(
        f"{machine}; host: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
        f"{rounds_wanted} round(s) of {batches} batches of {BATCH} calls, on core {core}"
    )
    for side in ("ours", "nvidia"):
        figures = results.get(side, found[side])
        note = "" if side in results else " (left out: not NVIDIA's cuda.core)" if "error" not in found[side] else ""
        print(f"{side:>6}: {figures.get('version', '')} {figures.get('module', '')} {figures.get('error', '')}{note}")
    print(table(results, floor))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "machine": machine,
                    "batches": batches,
                    "batch": BATCH,
                    "rounds": rounds_wanted,
                    "core": core,
                    "results": results,
                    "C++": floor,
                    "paired ours/nvidia": {m: paired_ratio(results, m) for m in BOTH_SIDES}
                    if "nvidia" in results
                    else {},
                },
                indent=2,
            )
        )
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
