#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A no-op editable ``import cuda.core``, side by side: the Pythons of venvs with editable installs, alternating.

Each sample is a fresh interpreter, timed whole from outside (the editable finder starts with the
interpreter and the first ``cuda.*`` import runs ninja under the build directory's lock), beside
``python -c pass`` of the same venv. Each build directory must be up to date (one import first).

Usage: python benchmarks/editable_import_bench.py VENV_PYTHON [VENV_PYTHON ...] [--repeat N]
"""

import argparse
import statistics
import subprocess
import time


def sample(python: str, code: str) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pythons", nargs="+")
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    codes = {"import cuda.core": "import cuda.core", "pass": "pass"}
    for python in args.pythons:
        sample(python, "import cuda.core")  # up to date first
    samples = {(p, c): [] for p in args.pythons for c in codes}
    for _ in range(args.repeat):
        for python in args.pythons:
            for name, code in codes.items():
                samples[python, name].append(sample(python, code))
    for python in args.pythons:
        figures = {name: statistics.median(samples[python, name]) * 1000 for name in codes}
        print(f"{python}: " + ", ".join(f"{name} median {ms:.0f} ms" for name, ms in figures.items()))


if __name__ == "__main__":
    main()
