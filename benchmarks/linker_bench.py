#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Cost of a Linker run over an LTO program: our cuda.core beside NVIDIA's, one process per
side, in interleaved rounds on one core. nvJitLink links on the CPU, so no GPU is needed.

The program is what NVIDIA's jit_lto_fractal example does at its core: a kernel compiled
to LTO-IR that calls device functions supplied separately, also as LTO-IR, linked and
optimised together into one cubin. The inputs come from cuda.bindings' NVRTC, once per
process and outside the timing, so the rows time the Linkers alone. Rows (ms, median of the runs):
- Linker(lto parts) + link("cubin") + close, with link-time optimisation;
- the same for the kernel's PTX (a plain assemble through nvJitLink, no LTO).

Usage: python benchmarks/linker_bench.py [--quick] [--rounds N] [--json PATH] [--arch sm_90]
    [--nvidia-pythonpath DIR]  (NVIDIA's cuda.core, e.g. a `pip install --target DIR` of its wheel)
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

from launch_bench import compare_sides, parse_arguments, two_sided_table, write_comparison

METRICS = ("LTO: 2 LTO-IR parts -> cubin [ms]", "PTX -> cubin [ms]")

FUNCTIONS = "\n".join(
    f'extern "C" __device__ float shade{i}(float x, float y) {{ return sinf(x * {i + 1}.0f) * cosf(y - {i}.0f); }}'
    for i in range(8)
)
KERNEL = (
    "\n".join(f'extern "C" __device__ float shade{i}(float, float);' for i in range(8))
    + """
extern "C" __global__ void render(float* out, int width, int height, int steps) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float zx = 0.f, zy = 0.f, cx = x / (float)width, cy = y / (float)height, acc = 0.f;
    for (int i = 0; i < steps; ++i) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.f * zx * zy + cy; zx = t;
        acc += shade0(zx, zy) + shade1(zy, zx) + shade2(acc, zx) + shade3(zy, acc)
             + shade4(zx, cx) + shade5(cy, zy) + shade6(acc, cy) + shade7(cx, acc);
    }
    out[y * width + x] = acc;
}"""
)


def median_ms(run, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        run()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.median(samples)


def nvrtc_output(source: str, arch: str, lto: bool) -> bytes:
    """LTO-IR (``lto``) or PTX straight from cuda.bindings' NVRTC: the same input bytes for
    both sides, so only their Linkers differ. (NVIDIA's Program.compile("ptx") also asks
    the driver whether it can load the PTX, which needs a GPU.)"""
    from cuda.bindings import nvrtc

    def check(result):
        error, *values = result
        if error != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise RuntimeError(f"NVRTC: {error!r}")
        return values[0] if len(values) == 1 else values

    program = check(nvrtc.nvrtcCreateProgram(source.encode(), b"linker_bench.cu", 0, [], []))
    try:
        flags = [f"-arch={'sm' if lto else 'compute'}_{arch.removeprefix('sm_')}".encode()]
        flags += [b"-dlto", b"-rdc=true"] if lto else []
        check(nvrtc.nvrtcCompileProgram(program, len(flags), flags))
        get_size, get = (
            (nvrtc.nvrtcGetLTOIRSize, nvrtc.nvrtcGetLTOIR) if lto else (nvrtc.nvrtcGetPTXSize, nvrtc.nvrtcGetPTX)
        )
        output = bytearray(check(get_size(program)))
        check(get(program, output))
    finally:
        nvrtc.nvrtcDestroyProgram(program)
    return bytes(output) if lto else bytes(output).rstrip(b"\0")


def measure(arch: str, repeats: int) -> dict[str, float | str]:
    """This process's figures, through whichever cuda.core is importable."""
    import cuda.core as cc
    from cuda.core import Linker, LinkerOptions

    parts = [cc.ObjectCode.from_ltoir(nvrtc_output(source, arch, lto=True)) for source in (KERNEL, FUNCTIONS)]
    ptx = cc.ObjectCode.from_ptx(nvrtc_output(KERNEL + "\n" + FUNCTIONS, arch, lto=False))

    def link(objects, options) -> None:
        linker = Linker(*objects, options=options)
        linker.link("cubin")
        linker.close()

    lto_options, ptx_options = LinkerOptions(arch=arch, link_time_optimization=True), LinkerOptions(arch=arch)
    link(parts, lto_options)  # warm-up: nvJitLink's first handle loads its library
    return {
        METRICS[0]: median_ms(lambda: link(parts, lto_options), repeats),
        METRICS[1]: median_ms(lambda: link([ptx], ptx_options), repeats),
        "backend": str(Linker.which_backend()) if hasattr(Linker, "which_backend") else "?",
        "version": getattr(cc, "__version__", "?"),
        "module": cc.__file__,
    }


def main(argv: list[str] | None = None) -> int:
    arch = "sm_90"
    if argv is None:
        argv = sys.argv[1:]
    if "--arch" in argv:
        at = argv.index("--arch")
        arch = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    args = parse_arguments(__doc__.splitlines()[0], ("ours", "nvidia"), argv)
    repeats = 5 if args.quick else 20
    if args.worker:
        print(json.dumps(measure(arch, args.batches or repeats)))
        return 0
    results, rounds_wanted, core = compare_sides(args, Path(__file__), repeats, needs_gpu=False)
    print(f"host: {platform.processor() or platform.machine()}, Python {platform.python_version()}, arch {arch}")
    for side, figures in results.items():
        print(
            f"{side:>6}: {figures.get('version', '')} {figures.get('backend', '')} {figures.get('module', '')} "
            f"{figures.get('error', '')}"
        )
    print(f"median over {repeats} links per process, {rounds_wanted} interleaved process(es) per side, on core {core}")
    print(two_sided_table(results, METRICS, 36))
    write_comparison(args.json, results, METRICS, rounds=rounds_wanted, repeats=repeats, core=core, arch=arch)
    return 0 if all("error" not in figures for figures in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
