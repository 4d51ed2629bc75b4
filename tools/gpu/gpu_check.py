#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Build cuda.core on the GPU machine for CUDA minors of the matrix and test each on the real driver.

Usage: python3 tools/gpu/gpu_check.py [--wheels .whl] [OPTIONS] [MINOR ...]   (e.g. 13.0 13.5 12.8 12.9)
(--ours-tests and --upstream-files take several values: give the MINORs before them, or after --)

For each CUDA minor given (one of requirements/matrix.ini; default: the minor of each major's
default cell), it installs that minor's cuda-bindings, and the header wheels it needs, into a
site dir, builds a wheel against headers of at least that minor, installs the wheel and runs
on the real driver the steps of STEPS (--only picks some): ``python -m cuda.core`` and our
package tests, the examples, the benchmarks, our modules' sizes beside NVIDIA's, NVIDIA's
examples, NVIDIA's own tests (tools/gpu/upstream_suite.py, from .upstream/) and numba-cuda's
(tools/gpu/numba_suite.py, WHEELS/numba), both beside NVIDIA's installed cuda.core. Then it
merges the wheels of the first CUDA 12 and the first CUDA 13 minor it built into the
dual wheel and runs the package tests again with each one's cuda-bindings.

The GPU machine has no network: what it lacks travels as wheels in WHEELS (default .whl,
relative to the repository; docs/gpu.md says how to download them):

  tools/        meson-python and pyproject-metadata (--requirements tools)
  cuda-MINOR/   cuda-bindings of MINOR for the machine's Python (cp312), and the header wheels
                of MINOR that its build needs (--requirements MINOR): for a 12.x minor
                nvidia-cuda-runtime-cu12 and nvidia-cuda-profiler-api-cu12; for a 13.x minor
                newer than the machine's /usr/local/cuda (13.0), nvidia-cuda-runtime,
                nvidia-cuda-profiler-api and nvidia-cuda-nvrtc, or in place of the last (58 MB,
                most of what a call carries) its nvrtc.h alone, as cuda-MINOR/nvrtc/include/nvrtc.h
  cu12-nvrtc/   include/nvrtc.h for the CUDA 12 builds, and nvrtc12.tar.xz: libnvrtc.so.12 and
                its builtins (the CUDA 12 NVRTC wheel is too large to carry whole), which the
                CUDA 12 runs find through LD_LIBRARY_PATH

A CUDA 13 minor that the machine's /usr/local/cuda covers builds against it and uses its
NVRTC; a newer one builds against its header wheels (CUDA_PATH=SITE/nvidia/cu13), since
cuda-bindings X.Y needs headers of at least X.Y. A CUDA 12 minor builds against its header
wheels and cu12-nvrtc/.

Figures, JUnit XML and logs go to --out ($OUT when set, else /tmp/gpu-check-out), named for
the minor: ours-cuda13.5.xml, launch_bench_cuda13.5.json, view_bench_cuda13.5.json,
import_bench_cuda13.5.json, upstream-cuda13.5.json, ours-dual-cuda13.5.xml, examples/. The
first run on a machine installs the build tools and shows the "version trap" (the machine's
cuda-bindings with its /usr/local/cuda headers, through tools/dev/cuda_probe.py). One minor
per process lets two run at once (with --no-dual); a later --dual-only run merges the wheels
they built. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

if not __package__:  # run by path: tools/ holds the harness (gpu) and the build's facts
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuda_core_build import facts  # noqa: E402

from gpu.check import check  # noqa: E402
from gpu.plan import default_minors, requirements  # noqa: E402
from gpu.process import Fatal  # noqa: E402
from gpu.steps import DEFAULT_STEPS, STEPS, chosen_steps  # noqa: E402
from gpu.steps.ours import DEFAULT_OURS_TESTS  # noqa: E402
from gpu.steps.upstream import DEFAULT_UPSTREAM_FILES  # noqa: E402

DEFAULT_OUT = Path(os.environ.get("OUT") or "/tmp/gpu-check-out")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options; every minor checked against the matrix."""
    summary, _, details = (__doc__ or "").partition("\n\n")
    parser = argparse.ArgumentParser(
        prog="gpu_check.py", description=summary, epilog=details, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    minors = facts.cuda_minors()
    parser.add_argument(
        "minors",
        nargs="*",
        metavar="MINOR",
        help=f"CUDA minors of the matrix ({' '.join(minors)}); default: {' '.join(default_minors())}",
    )
    parser.add_argument(
        "--wheels",
        default=".whl",
        metavar="DIR",
        help="the carried wheels, relative to the repository unless absolute (default .whl)",
    )
    parser.add_argument("--python", default="python3", help="the Python that builds and tests (default python3)")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where figures and logs go, relative to the repository unless absolute (default $OUT, else "
        f"/tmp/gpu-check-out; now {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--ours-tests",
        nargs="+",
        default=list(DEFAULT_OURS_TESTS),
        metavar="PATH",
        help=f"our test paths, relative to the repository (default: {' '.join(DEFAULT_OURS_TESTS)})",
    )
    parser.add_argument(
        "--upstream-files",
        nargs="+",
        default=list(DEFAULT_UPSTREAM_FILES),
        metavar="FILE",
        help="NVIDIA's test files (from .upstream/) to run (default: the files of the runtime API)",
    )
    parser.add_argument("--upstream-examples", action="store_true", help="also run NVIDIA's examples on both sides")
    parser.add_argument(
        "--upstream-end",
        type=float,
        metavar="EPOCH",
        help="when (epoch seconds) NVIDIA's suite must have ended: files still running are stopped "
        "then, and the table is written either way",
    )
    parser.add_argument("--upstream-jobs", type=int, default=4, help="NVIDIA's test files run at once (default 4)")
    parser.add_argument(
        "--upstream-repeat", type=int, default=1, help="runs of each NVIDIA test file on our side (default 1)"
    )
    parser.add_argument(
        "--upstream-nvidia-repeat", type=int, default=0, help="runs on NVIDIA's side (default --upstream-repeat)"
    )
    parser.add_argument(
        "--upstream-plugin",
        action="append",
        default=[],
        metavar="NAME",
        help="another plugin of tools/gpu/upstream_plugins for NVIDIA's suite (e.g. offthread_finalizer)",
    )
    parser.add_argument(
        "--upstream-timeout", type=float, default=300, help="seconds per NVIDIA test file and side (default 300)"
    )
    parser.add_argument(
        "--example-timeout", type=float, default=90, help="seconds per NVIDIA example and side (default 90)"
    )
    parser.add_argument(
        "--launch-bench-args",
        default="",
        metavar="ARGS",
        help='more arguments of benchmarks/launch_bench.py, one string: --launch-bench-args="--quick"',
    )
    parser.add_argument(
        "--launch-steps-args",
        default="",
        metavar="ARGS",
        help='more arguments of benchmarks/launch_steps.py, one string: --launch-steps-args="--rounds 5"',
    )
    parser.add_argument("--no-bench", dest="bench", action="store_false", help="skip the benchmarks")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=STEPS,
        metavar="STEP",
        help=f"run only these steps on each minor, in this order: {' '.join(STEPS)} (default: "
        f"{' '.join(DEFAULT_STEPS)}; launch-steps, sizes, upstream-examples and numba only when named)",
    )
    parser.add_argument("--numba-jobs", type=int, default=12, help="numba-cuda test modules run at once (default 12)")
    parser.add_argument(
        "--numba-timeout", type=float, default=300, help="seconds per numba-cuda module and side (default 300)"
    )
    parser.add_argument("--numba-modules", nargs="+", metavar="GLOB", help="numba-cuda modules (default: all)")
    parser.add_argument(
        "--numba-end",
        type=float,
        metavar="EPOCH",
        help="when (epoch seconds) numba-cuda's tests must have ended; the table is written either way",
    )
    dual = parser.add_mutually_exclusive_group()
    dual.add_argument("--no-dual", dest="dual", action="store_false", help="skip the dual wheel")
    dual.add_argument(
        "--dual-only",
        action="store_true",
        help="build nothing: merge the wheels that earlier runs built for the MINORs and test the merge",
    )
    parser.add_argument(
        "--requirements",
        metavar="WHAT",
        choices=("tools", *minors),
        help="print the NAME==VERSION of the wheels to download into WHEELS/tools (tools) or "
        "WHEELS/cuda-MINOR (a minor), and exit",
    )
    args = parser.parse_args(argv)
    unknown = [minor for minor in args.minors if minor not in minors]
    if unknown:
        parser.error(f"not a CUDA minor of requirements/matrix.ini: {' '.join(unknown)} (there: {' '.join(minors)})")
    args.minors = list(dict.fromkeys(args.minors or default_minors()))
    args.steps = chosen_steps(args)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status 1 if anything failed."""
    args = parse_args(argv)
    if args.requirements:
        print(" ".join(requirements(args.requirements)))
        return 0
    try:
        return 0 if check(args) else 1
    except Fatal as error:
        print(f"gpu_check: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
