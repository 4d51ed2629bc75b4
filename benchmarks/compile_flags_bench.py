#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Extension module sizes and clean build time of the cu13 build per optimization flag,
beside the modules of NVIDIA's cuda-core 1.2.2 cu13 wheel, in one run on this machine.

Each configuration is a build dir of one scratch copy of the repo (the working tree when
the run starts), set up with its Meson options: by default -O2, -O3 and -Os for every
module, and the repo's own split (meson.build's ``hot_modules`` at -O3, the rest at
``cold-optimization``, -Os). A repetition runs ``ninja clean`` then a timed ``ninja`` in
each build dir in turn, so a change of the machine's load hits every configuration alike;
the load average is recorded around every build. Sizes are the built modules as the
wheel packs them (linked with -Wl,--strip-all), in KiB, per module and averaged per class:
hot (meson.build's list) and cold (the rest). NVIDIA's modules are those under
cuda/core/cu13/ of its wheel (downloaded unless --nvidia-wheel names one), classed by the
same list.

Usage: python benchmarks/compile_flags_bench.py [--repeat N] [--json PATH] [--nvidia-wheel WHEEL]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from build_bench import NVIDIA_WHEEL, PYTHONS, dev_python, scratch_checkout, timed

CONFIGS = {
    "-O2": ["-Doptimization=2", "-Dcold-optimization=build"],
    "-O3": ["-Doptimization=3", "-Dcold-optimization=build"],
    "-Os": ["-Doptimization=s", "-Dcold-optimization=build"],
    "hot -O3, cold -Os": ["-Doptimization=3", "-Dcold-optimization=s"],
}
SHARED_UTILITY = "cuda.core._cyutility"


def hot_modules(meson_build: Path) -> set[str]:
    """The dotted names in the top meson.build's ``hot_modules = [...]``."""
    block = re.search(r"^hot_modules = \[(.*?)^\]", meson_build.read_text(), re.S | re.M)
    if block is None:
        raise SystemExit(f"compile_flags_bench: no hot_modules list in {meson_build}")
    return set(re.findall(r"'([\w.]+)'", block.group(1)))


def module_name(relative: Path) -> str:
    """cuda/core/x/_y.cpython-311-x86_64-linux-gnu.so -> cuda.core.x._y"""
    return ".".join(relative.parent.parts + (relative.name.split(".", 1)[0],))


def built_sizes(build_dir: Path) -> dict[str, int]:
    root = build_dir / "cuda_core"
    return {module_name(so.relative_to(root)): so.stat().st_size for so in sorted(root.rglob("*.so"))}


def nvidia_sizes(wheel: Path) -> dict[str, int]:
    """NVIDIA's cu13 modules, named as ours (cuda/core/cu13/x.so -> cuda.core.x)."""
    sizes = {}
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.filename.startswith("cuda/core/cu13/") and info.filename.endswith(".so"):
                relative = Path("cuda/core") / Path(info.filename).relative_to("cuda/core/cu13")
                sizes[module_name(relative)] = info.file_size
    return sizes


def summary(sizes: dict[str, int], hot: set[str]) -> dict[str, float]:
    """Modules, total and average KiB, overall, without the shared utility module, and per class."""
    kib = {name: size / 1024 for name, size in sizes.items()}
    groups = {
        "all": list(kib),
        "without _cyutility": [n for n in kib if n != SHARED_UTILITY],
        "hot": [n for n in kib if n in hot],
        "cold": [n for n in kib if n not in hot],
    }
    figures: dict[str, float] = {}
    for group, names in groups.items():
        figures[f"{group}: modules"] = len(names)
        figures[f"{group}: total [KiB]"] = sum(kib[n] for n in names)
        figures[f"{group}: average [KiB]"] = statistics.mean(kib[n] for n in names) if names else 0.0
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="clean builds per configuration (default 3)")
    parser.add_argument("--json", type=Path, help="also write every sample here")
    parser.add_argument("--nvidia-wheel", type=Path, help=f"NVIDIA's {NVIDIA_WHEEL} cp311 wheel (else downloaded)")
    parser.add_argument("--work", type=Path, help="keep the scratch copy and build dirs here (else a temporary dir)")
    args = parser.parse_args(argv)

    PYTHONS[13] = dev_python(13)
    bin_dir = PYTHONS[13].parent
    with tempfile.TemporaryDirectory() as temporary:
        work = args.work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        checkout = scratch_checkout(work, "src")
        hot = hot_modules(checkout / "meson.build")
        wheel = args.nvidia_wheel
        if wheel is None:
            subprocess.run(
                [
                    PYTHONS[13],
                    "-m",
                    "pip",
                    "download",
                    "-q",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--python-version",
                    "3.11",
                    "--platform",
                    "manylinux_2_28_x86_64",
                    "-d",
                    work / "nvidia",
                    NVIDIA_WHEEL,
                ],
                check=True,
            )
            wheel = next((work / "nvidia").glob("*.whl"))
        build_dirs = {name: work / f"build-{index}" for index, name in enumerate(CONFIGS)}
        for name, options in CONFIGS.items():
            if not (build_dirs[name] / "build.ninja").exists():
                timed([bin_dir / "meson", "setup", build_dirs[name], checkout, *options], 13, checkout)
        samples: dict[str, list[dict[str, float]]] = {name: [] for name in CONFIGS}
        for repetition in range(args.repeat):
            for name in CONFIGS:
                timed([bin_dir / "ninja", "-C", build_dirs[name], "clean"], 13, checkout)
                load_before = os.getloadavg()[0]
                seconds = timed([bin_dir / "ninja", "-C", build_dirs[name]], 13, checkout)
                samples[name].append({"seconds": seconds, "load before": load_before, "load after": os.getloadavg()[0]})
                print(
                    f"repetition {repetition + 1}, {name}: {seconds:.1f} s (load {load_before:.1f} -> "
                    f"{samples[name][-1]['load after']:.1f})",
                    flush=True,
                )
        sizes = {name: built_sizes(build_dirs[name]) for name in CONFIGS}
        sizes[f"NVIDIA {NVIDIA_WHEEL}"] = nvidia_sizes(wheel)

    summaries = {name: summary(per_module, hot) for name, per_module in sizes.items()}
    print(
        f"\n{'configuration':<28} {'clean build [s]':>15} {'load':>5} {'modules':>7} {'total KiB':>9} "
        f"{'avg KiB':>7} {'avg w/o cyutility':>17} {'avg hot':>7} {'avg cold':>8}"
    )
    for name, figures in summaries.items():
        runs = samples.get(name, [])
        build = f"{statistics.median(s['seconds'] for s in runs):15.1f}" if runs else f"{'-':>15}"
        load = f"{statistics.median(s['load before'] for s in runs):5.1f}" if runs else f"{'-':>5}"
        print(
            f"{name:<28} {build} {load} {figures['all: modules']:7d} {figures['all: total [KiB]']:9.1f} "
            f"{figures['all: average [KiB]']:7.1f} {figures['without _cyutility: average [KiB]']:17.1f} "
            f"{figures['hot: average [KiB]']:7.1f} {figures['cold: average [KiB]']:8.1f}"
        )
    names = sorted(set().union(*sizes.values()))
    print(f"\n{'module [KiB]':<44} {'class':>5} " + " ".join(f"{name[:12]:>12}" for name in sizes))
    for module in names:
        cells = [f"{sizes[name][module] / 1024:12.1f}" if module in sizes[name] else f"{'-':>12}" for name in sizes]
        print(f"{module:<44} {'hot' if module in hot else 'cold':>5} " + " ".join(cells))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "configs": CONFIGS,
                    "hot modules": sorted(hot),
                    "builds": samples,
                    "sizes [bytes]": sizes,
                    "summaries": summaries,
                    "cpus": os.cpu_count(),
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
