#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Instructions per launch() on the host, step by step, counted by valgrind's callgrind: no GPU.

What launch() costs above the driver is its host code: the call, the checks, the parameter
sizes, the packing, the GIL, the call of cuLaunchKernel. Callgrind counts the instructions
of that code exactly and repeatably on any x86-64 machine, where time on a shared machine is
noise. The driver here is a stand-in ``libcuda.so.1``, compiled by this script, that answers
the few calls a launch makes (cuInit, cuDriverGetVersion, cuCtxGetCurrent, cuStreamGetCtx,
cuCtxGetDevice, cuGetProcAddress, cuKernelGetParamInfo from a list of parameter sizes the "kernel handle" points
at, cuLaunchKernel and cuLaunchKernelEx returning at once), found through LD_LIBRARY_PATH by
cuda.bindings. It also holds callgrind's client
requests, so each row is counted alone: statistics zeroed, BATCH calls, statistics dumped.

Rows (instructions per call, the loop's own few dozen included; the first row is that loop
calling a trivial builtin, for scale):

* ``step N``: our ``_launcher._launch_steps(N, ...)`` (the very code of launch(), stopped after
  step N: 0 the call alone, 1 + checks and the stream's handle, 2 + parameter sizes and count,
  3 + arguments packed, 4 + GIL released and retaken, 5 + cuLaunchKernel = all of launch()),
  for kernels of 0, 2 (a Buffer, an int32) and 6 (Buffer, int32, float32, float64, int64,
  uint8) parameters;
* ``launch``: ``cuda.core.launch`` of each, for every cuda.core given (ours on the caller's
  PYTHONPATH; NVIDIA's with --nvidia-pythonpath, if it runs on this stand-in).

Usage: python benchmarks/launch_callgrind.py [--nvidia-pythonpath DIR] [--batch N] [--json PATH]
Needs valgrind (callgrind.h) and a C compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

STAND_IN = r"""
#include <stddef.h>
#include <string.h>
#include <valgrind/callgrind.h>

typedef int CUresult;
static int context_token;

static CUresult init(unsigned flags) { (void)flags; return 0; }
static CUresult driver_version(int* version) { *version = 13000; return 0; }
static CUresult current_context(void** context) { *context = &context_token; return 0; }
/* The "kernel" is a 0-terminated list of its parameters' sizes. */
static CUresult param_info(void* kernel, size_t index, size_t* offset, size_t* size) {
    const size_t* sizes = (const size_t*)kernel;
    size_t at = 0;
    for (size_t i = 0; i < index; i++) { if (!sizes[i]) return 1; at += sizes[i]; }
    if (!sizes[index]) return 1; /* CUDA_ERROR_INVALID_VALUE: past the last parameter */
    *offset = at; *size = sizes[index]; return 0;
}
static CUresult launch(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shmem, void* stream, void** params, void** extra) {
    (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shmem; (void)stream;
    (void)params; (void)extra; return 0;
}
static CUresult stream_context(void* stream, void** context) { (void)stream; *context = &context_token; return 0; }
static CUresult context_device(int* device) { *device = 0; return 0; }
static CUresult launch_ex(const void* config, void* f, void** params, void** extra) {
    (void)config; (void)f; (void)params; (void)extra; return 0;
}
static const struct { const char* name; void* function; } table[] = {
    {"cuInit", (void*)init}, {"cuDriverGetVersion", (void*)driver_version},
    {"cuCtxGetCurrent", (void*)current_context}, {"cuKernelGetParamInfo", (void*)param_info},
    {"cuLaunchKernel", (void*)launch}, {"cuLaunchKernelEx", (void*)launch_ex},
    {"cuStreamGetCtx", (void*)stream_context}, {"cuCtxGetDevice", (void*)context_device},
};
CUresult cuInit(unsigned flags) { return init(flags); }
CUresult cuDriverGetVersion(int* version) { return driver_version(version); }
CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, unsigned long long flags, int* status) {
    (void)version; (void)flags;
    *pfn = NULL;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (strcmp(table[i].name, symbol) == 0) *pfn = table[i].function;
    if (strcmp(symbol, "cuGetProcAddress") == 0) *pfn = (void*)cuGetProcAddress_v2;
    if (status) *status = *pfn ? 0 : 1;
    return 0;
}
void stand_in_zero(void) { CALLGRIND_ZERO_STATS; }
void stand_in_dump(const char* label) { CALLGRIND_DUMP_STATS_AT(label); }
"""

BATCH = 2000
ARGUMENT_SIZES = {0: (), 2: (8, 4), 6: (8, 4, 4, 8, 8, 1)}


def build_stand_in(work: Path) -> Path:
    """The stand-in libcuda.so.1 in ``work``; SystemExit naming what is missing."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None or shutil.which("valgrind") is None:
        raise SystemExit("launch_callgrind: needs valgrind and a C compiler (cc or gcc) on PATH")
    source = work / "stand_in.c"
    source.write_text(STAND_IN)
    library = work / "libcuda.so.1"
    done = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", library, source], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"launch_callgrind: cannot build the stand-in driver: {done.stderr.strip()[-400:]}")
    return library


def loop(statement: str, batch: int, **names: object) -> Callable[[], None]:
    """A function running ``statement`` ``batch`` times, ``names`` bound as its locals."""
    defaults = ", ".join(f"{name}={name}" for name in names)
    namespace: dict[str, object] = dict(names)
    exec(f"def run({defaults}):\n    for _ in range({batch}):\n        {statement}\n", namespace)
    return namespace["run"]  # type: ignore[return-value]


def worker(library: Path, batch: int) -> None:
    """Under callgrind: each row's BATCH calls between a zeroing and a dump named for the row."""
    import ctypes

    import cuda.core as cc
    import numpy as np
    from cuda.core._module import Kernel

    stand_in = ctypes.CDLL(str(library))
    stand_in.stand_in_dump.argtypes = [ctypes.c_char_p]

    stream = cc.Stream.from_handle(0x1000)
    config = cc.LaunchConfig(grid=1, block=1)
    buffer = cc.Buffer.from_handle(0x10000, 1024)
    values = {0: (), 2: (buffer, np.int32(3))}
    values[6] = (*values[2], np.float32(1.5), np.float64(2.5), np.int64(3), np.uint8(4))
    keep = {n: (ctypes.c_size_t * (n + 1))(*ARGUMENT_SIZES[n], 0) for n in ARGUMENT_SIZES}
    kernels = {n: Kernel.from_handle(ctypes.addressof(keep[n])) for n in ARGUMENT_SIZES}
    steps = getattr(__import__("cuda.core._launcher", fromlist=["_"]), "_launch_steps", None)
    rows: dict[str, Callable[[], None]] = {"loop calling len(t)": loop("len(t)", batch, t=())}
    for count in ARGUMENT_SIZES:
        names = {f"a{i}": value for i, value in enumerate(values[count])}
        call = ", ".join(["s", "c", "k", *names])
        for step in range(6) if steps is not None else ():
            rows[f"step {step}, {count} args"] = loop(
                f"steps({step}, {call})", batch, steps=steps, s=stream, c=config, k=kernels[count], **names
            )
        rows[f"launch, {count} args"] = loop(
            f"launch({call})", batch, launch=cc.launch, s=stream, c=config, k=kernels[count], **names
        )
    stand_in.stand_in_zero()  # once unmeasured: ctypes' first calls of the two requests cost millions
    stand_in.stand_in_dump(b"warm-up")
    for label, run in rows.items():
        try:
            run()  # warm: caches filled, first-use work done
        except Exception as error:  # noqa: BLE001 - a row this cuda.core cannot do on the stand-in
            print(json.dumps({"failed": label, "error": f"{type(error).__name__}: {error}"}), flush=True)
            continue
        stand_in.stand_in_zero()
        run()
        stand_in.stand_in_dump(label.encode())


def count(library: Path, batch: int, pythonpath: str, out: Path) -> dict[str, object]:
    """Run the worker under callgrind with ``pythonpath``; instructions per call of each row."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(
        os.environ, LD_LIBRARY_PATH=os.pathsep.join([str(library.parent), os.environ.get("LD_LIBRARY_PATH", "")])
    )
    env["PYTHONPATH"] = pythonpath
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out / 'callgrind.out'}",
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            str(library),
            "--batch",
            str(batch),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    figures: dict[str, object] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            figures[record["failed"] + " failed"] = record["error"]
    for dump in sorted(out.glob("callgrind.out.*"), key=lambda path: int(path.name.rsplit(".", 1)[-1])):
        text = dump.read_text(errors="replace")
        label = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
        total = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
        if label and total:
            figures[label.group(1).strip()] = int(total.group(1)) / batch
    if not any(isinstance(value, float) for value in figures.values()):
        figures["error"] = (done.stderr.strip().splitlines() or ["no figures"])[-1][-400:]
    return figures


def table(results: dict[str, dict[str, object]]) -> str:
    """The step ladder of ours (instructions per call and each step's own), then launch() of each side."""
    ours = results["ours"]
    lines = [f"{'instructions per call':<34} {'ours':>9} {'step':>7}" + ("  nvidia" if "nvidia" in results else "")]
    for count in ARGUMENT_SIZES:
        previous = None
        for step in range(6):
            value = ours.get(f"step {step}, {count} args")
            if not isinstance(value, float):
                continue
            share = f"{value - previous:7.0f}" if previous is not None else f"{'':7}"
            lines.append(f"{f'step {step}, {count} args':<34} {value:9.0f} {share}")
            previous = value
        label = f"launch, {count} args"
        other = results.get("nvidia", {}).get(label)
        lines.append(
            f"{label:<34} {ours.get(label, float('nan')):9.0f} {'':7}"
            + (f" {other:8.0f}" if isinstance(other, float) else "")
        )
    lines.append(f"{'loop calling len(t)':<34} {ours.get('loop calling len(t)', float('nan')):9.0f}")
    failures = [
        f"{side}: {key}: {value}"
        for side, figures in results.items()
        for key, value in figures.items()
        if key.endswith((" failed", "error"))
    ]
    return "\n".join(lines + failures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=BATCH, help=f"calls per row (default {BATCH})")
    parser.add_argument("--nvidia-pythonpath", help="PYTHONPATH of NVIDIA's cuda.core, counted beside ours")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.batch)
        return 0
    with tempfile.TemporaryDirectory(prefix="launch_callgrind_") as temporary:
        work = Path(temporary)
        library = build_stand_in(work)
        results = {"ours": count(library, args.batch, os.environ.get("PYTHONPATH", ""), work / "ours")}
        if args.nvidia_pythonpath:
            results["nvidia"] = count(library, args.batch, args.nvidia_pythonpath, work / "nvidia")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps({"batch": args.batch, "results": results}, indent=2))
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
