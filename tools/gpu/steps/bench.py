# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The benchmarks of a built minor, ours beside NVIDIA's cuda.core with the same cuda-bindings:
launch (and launch step by step), views, imports; each writes its figures as JSON into OUT.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from gpu.plan import REPO_ROOT, Target
from gpu.process import environment
from gpu.session import Session

BENCHMARKS = REPO_ROOT / "benchmarks"


def beside_nvidia(session: Session, target: Target, paths: dict[str, tuple[Path, ...]], name: str, args: str) -> None:
    """benchmarks/NAME.py with ours on PYTHONPATH and NVIDIA's side given this minor's cuda-bindings too
    (the same on both sides); ``args``: more of its arguments, one string; figures to NAME_LABEL.json."""
    session.run(
        [
            session.python,
            BENCHMARKS / f"{name}.py",
            *shlex.split(args),
            "--nvidia-pythonpath",
            os.pathsep.join(map(str, paths["nvidia"])),
            "--json",
            session.out / f"{name}_{target.label}.json",
        ],
        env=environment(paths["ours"], target.ld_paths),
    )


def launch_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/launch_bench.py: ours, NVIDIA's, raw bindings and the C++ floor."""
    beside_nvidia(session, target, paths, "launch_bench", session.args.launch_bench_args)


def launch_steps(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/launch_steps.py: launch() step by step, beside NVIDIA's and the C++ floor."""
    beside_nvidia(session, target, paths, "launch_steps", session.args.launch_steps_args)


def view_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    env = environment(paths["ours"], target.ld_paths)
    session.run(
        [session.python, BENCHMARKS / "view_bench.py", "--json", session.out / f"view_bench_{target.label}.json"],
        env=env,
    )


def import_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    session.run(
        [
            session.python,
            BENCHMARKS / "import_bench.py",
            "--ours",
            os.pathsep.join(map(str, paths["ours"])),
            "--python",
            session.python,
            "--json",
            session.out / f"import_bench_{target.label}.json",
        ],
        env=environment(ld_paths=target.ld_paths),
    )
