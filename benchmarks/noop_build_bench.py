#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The cost of a no-op plain ``ninja -C`` on built trees, side by side in one run, alternating.

Give a baseline build directory first (e.g. one built by an older commit) and the one to compare:
each run of ninja does nothing but its always-run steps (here the sources' content check,
tools/cuda_core_build/sources.py). ninja must be on PATH (the venv's).

Usage: python benchmarks/noop_build_bench.py BASELINE_BUILDDIR BUILDDIR [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    dirs = {"baseline": args.baseline, "this": args.build_dir}
    for path in dirs.values():
        subprocess.run(["ninja", "-C", str(path)], capture_output=True, check=True)  # up to date first
    samples: dict[str, list[float]] = {name: [] for name in dirs}
    for _ in range(args.repeat):
        for name, path in dirs.items():
            start = time.perf_counter()
            subprocess.run(["ninja", "-C", str(path)], capture_output=True, check=True)
            samples[name].append(time.perf_counter() - start)
    for name, values in samples.items():
        print(
            f"{name} ({dirs[name]}): median {statistics.median(values) * 1000:.0f} ms, "
            f"min {min(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
