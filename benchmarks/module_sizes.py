#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Extension module sizes of our cuda.core beside NVIDIA's, each stripped alike: copies run
through ``strip``, so a symbol table (or its absence) does not decide.

Each side is a directory holding a ``cuda/core`` package (an install, a site dir, an unpacked
wheel, or a build dir's ``cuda_core``), or a wheel. NVIDIA's modules of one major are those of
``cuda/core/cuNN/`` (--major, default 13; its wheel holds both majors); ours, every module of
``cuda/core`` (ours holds one major). Prints per side the modules, their total and average
size in KiB, the ratio of the averages ours / NVIDIA's, and with --per-module each module.

Usage: python benchmarks/module_sizes.py OURS NVIDIA [--major 13] [--per-module] [--json PATH]
e.g.   python benchmarks/module_sizes.py build-cu13/cuda_core /work/nvidia/cuda_core-1.2.2
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


def package_root(side: Path, work: Path) -> Path:
    """The directory holding ``cuda/core`` of a side (a wheel is unpacked into ``work``)."""
    if side.is_file() and side.suffix == ".whl":
        with zipfile.ZipFile(side) as archive:
            archive.extractall(work)
        side = work
    for root in (side, side / "cuda_core"):
        if (root / "cuda" / "core").is_dir():
            return root
    raise SystemExit(f"module_sizes: no cuda/core under {side}")


def modules(root: Path, major: int | None) -> dict[str, Path]:
    """Dotted name -> module file: under cuda/core/cuNN for NVIDIA's (``major``), else all of cuda/core."""
    core = root / "cuda" / "core"
    base = core / f"cu{major}" if major is not None else core
    if not base.is_dir():
        if major is None or any(core.glob("cu1*/")):
            raise SystemExit(f"module_sizes: {base} does not exist (is --major right?)")
        print(f"module_sizes: {core} holds one major's modules (no cu{major}/): taking those", file=sys.stderr)
        base, major = core, None
    found = {}
    for path in sorted(base.rglob("*.so")):
        relative = path.relative_to(base)
        if major is None and relative.parts[0].startswith("cu1"):
            continue  # a dual package's other major
        found[".".join(("cuda", "core", *relative.parent.parts, relative.name.split(".", 1)[0]))] = path
    return found


def stripped_sizes(found: dict[str, Path], work: Path) -> dict[str, int]:
    """Bytes of each module after ``strip`` of a copy."""
    strip = shutil.which("strip")
    if strip is None:
        raise SystemExit("module_sizes: needs strip (binutils)")
    sizes = {}
    for index, (name, path) in enumerate(found.items()):
        copy = work / f"{index}.so"
        shutil.copyfile(path, copy)
        subprocess.run([strip, copy], check=True)
        sizes[name] = copy.stat().st_size
    return sizes


def summary(sizes: dict[str, int]) -> dict[str, float]:
    kib = [size / 1024 for size in sizes.values()]
    return {"modules": len(kib), "total [KiB]": sum(kib), "average [KiB]": statistics.mean(kib) if kib else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ours", type=Path, help="our cuda.core: a directory holding cuda/core, or a wheel")
    parser.add_argument(
        "nvidia", type=Path, help="NVIDIA's: a directory holding cuda/core (unpacked wheel), or a wheel"
    )
    parser.add_argument("--major", type=int, default=13, help="NVIDIA's major to compare (default 13)")
    parser.add_argument("--per-module", action="store_true", help="also print every module")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="module_sizes_") as temporary:
        work = Path(temporary)
        sides = {}
        for label, side, major in (("ours", args.ours, None), ("nvidia", args.nvidia, args.major)):
            unpacked = work / f"{label}-unpacked"
            copies = work / f"{label}-copies"
            unpacked.mkdir()
            copies.mkdir()
            sides[label] = stripped_sizes(modules(package_root(side.resolve(), unpacked), major), copies)
    summaries = {label: summary(sizes) for label, sizes in sides.items()}
    for label, figures in summaries.items():
        print(
            f"{label:>6}: {figures['modules']:3d} modules, {figures['total [KiB]']:8.1f} KiB, "
            f"average {figures['average [KiB]']:6.1f} KiB (stripped copies)"
        )
    ratio = summaries["ours"]["average [KiB]"] / summaries["nvidia"]["average [KiB]"]
    print(f"average ours / NVIDIA's: {ratio:.3f}")
    if args.per_module:
        for name in sorted(set(sides["ours"]) | set(sides["nvidia"])):
            cells = [f"{sides[label][name] / 1024:9.1f}" if name in sides[label] else f"{'-':>9}" for label in sides]
            print(f"  {name:<48}" + " ".join(cells))
    if args.json:
        args.json.write_text(json.dumps({"summaries": summaries, "ratio": ratio, "bytes": sides}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
