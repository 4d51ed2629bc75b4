#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""``import cuda.core`` time: our cuda.core beside NVIDIA's, in one run, from one Python.

Each sample is a fresh interpreter that times ``import cuda.core`` (and, apart, the first
use of a public name, which may load lazy parts) with perf_counter; the sides alternate,
so a drift of the machine hits both alike. The table gives medians and ours / NVIDIA's.
Interpreter start-up is outside the figure: only the import itself is timed.

* ``ours``: PYTHONPATH = ``--ours`` (e.g. an install dir of our wheel and the site dir of
  the matching cuda-bindings);
* ``nvidia``: PYTHONPATH = ``--nvidia`` (e.g. ``pip install --target`` of NVIDIA's
  wheel), or, when not given, the cuda.core installed in this Python.

Usage: python benchmarks/import_bench.py --ours DIR[:DIR...] [--nvidia DIR[:DIR...]]
       [--runs 15] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# Runs in the sample interpreter: the import, then a first use of Device and launch (names
# that NVIDIA's package and ours may load lazily), each timed apart.
PROBE = """
import time
start = time.perf_counter()
import cuda.core
imported = time.perf_counter()
cuda.core.Device, cuda.core.launch, cuda.core.Buffer, cuda.core.Program
used = time.perf_counter()
import json
print(json.dumps({"import [ms]": (imported - start) * 1e3, "import + first use [ms]": (used - start) * 1e3,
                  "version": getattr(cuda.core, "__version__", "?"), "module": cuda.core.__file__}))
"""
METRICS = ("import [ms]", "import + first use [ms]")


def sample(python: str, pythonpath: str | None) -> dict:
    """One fresh interpreter's figures, run outside the repo so no source tree shadows the install."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    result = subprocess.run([python, "-c", PROBE], env=env, capture_output=True, text=True, cwd=Path.home())
    if result.returncode != 0:
        raise SystemExit(
            f"import_bench: import cuda.core failed with PYTHONPATH={pythonpath!r}: "
            f"{(result.stderr.strip().splitlines() or ['?'])[-1]}"
        )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", required=True, help="PYTHONPATH of our cuda.core and its cuda-bindings")
    parser.add_argument("--nvidia", default=None, help="PYTHONPATH of NVIDIA's cuda.core (default: installed)")
    parser.add_argument("--python", default=sys.executable, help="the Python both sides run in")
    parser.add_argument("--runs", type=int, default=15, help="interpreters per side (default 15)")
    parser.add_argument("--json", type=Path, help="also write every sample here")
    args = parser.parse_args(argv)

    sides = {"ours": args.ours, "nvidia": args.nvidia}
    samples: dict[str, list[dict]] = {side: [] for side in sides}
    for side, path in sides.items():  # one untimed warm-up each: the page cache, .pyc files
        sample(args.python, path)
    for _ in range(args.runs):
        for side, path in sides.items():
            samples[side].append(sample(args.python, path))

    medians = {side: {m: statistics.median(s[m] for s in runs) for m in METRICS} for side, runs in samples.items()}
    for side, runs in samples.items():
        print(f"{side:>6}: cuda.core {runs[0]['version']} from {runs[0]['module']}")
    print(f"median of {args.runs} fresh interpreters per side, interleaved; Python {args.python}")
    print(f"{'metric':<26} {'ours':>9} {'nvidia':>9} {'ours/nvidia':>12}")
    for metric in METRICS:
        ours, nvidia = medians["ours"][metric], medians["nvidia"][metric]
        print(f"{metric:<26} {ours:9.1f} {nvidia:9.1f} {ours / nvidia:12.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"medians": medians, "samples": samples}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
