# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The steps run on each built minor, in order, and the module of each: one module per step or
family of steps (ours, bench, sizes, upstream, numba). Each step is ``f(session, target, paths)``
with ``paths`` the PYTHONPATH of each side (machine.sides); ``package`` also runs on the dual wheel.
"""

from __future__ import annotations

import argparse

from gpu.steps import bench, numba, ours, sizes, upstream

# What runs on each minor built, in this order; --only picks some (--no-bench drops the benchmarks,
# --upstream-examples adds NVIDIA's examples).
STEPS = (
    "package",  # python -m cuda.core, then our package tests
    "examples",  # our examples
    "launch-bench",  # benchmarks/launch_bench.py: ours, NVIDIA's, raw bindings, the C++ floor
    "launch-steps",  # benchmarks/launch_steps.py: where launch()'s time goes, step by step
    "view-bench",  # benchmarks/view_bench.py
    "import-bench",  # benchmarks/import_bench.py
    "sizes",  # benchmarks/module_sizes.py: our wheel's modules beside NVIDIA's installed ones
    "upstream-examples",  # NVIDIA's examples on both sides
    "upstream",  # NVIDIA's test files on both sides (tools/gpu/upstream_suite.py)
    "numba",  # numba-cuda's tests on both sides (tools/gpu/numba_suite.py)
)

DEFAULT_STEPS = ("package", "examples", "launch-bench", "view-bench", "import-bench", "upstream")

BENCH_STEPS = ("launch-bench", "launch-steps", "view-bench", "import-bench")


STEP_RUNS = {
    "package": ours.package_step,
    "examples": ours.examples,
    "launch-bench": bench.launch_bench,
    "launch-steps": bench.launch_steps,
    "view-bench": bench.view_bench,
    "import-bench": bench.import_bench,
    "sizes": sizes.module_sizes,
    "upstream-examples": upstream.upstream_examples,
    "upstream": upstream.upstream_suite,
    "numba": numba.numba,
}


def chosen_steps(args: argparse.Namespace) -> list[str]:
    """The steps of each minor: --only's, else the default ones less the benchmarks with
    --no-bench, and NVIDIA's examples with --upstream-examples; always in STEPS' order."""
    if args.only:
        wanted = set(args.only)
    else:
        wanted = set(DEFAULT_STEPS) - (set() if args.bench else set(BENCH_STEPS))
        if args.upstream_examples:
            wanted.add("upstream-examples")
    return [step for step in STEPS if step in wanted]
