# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Our built wheel's extension modules beside NVIDIA's installed ones of the same major
(benchmarks/module_sizes.py), saying which compiler Meson chose for ours.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from gpu.machine import nvidia_core_dir
from gpu.plan import Target
from gpu.process import say
from gpu.session import Session
from gpu.steps.bench import BENCHMARKS


def module_sizes(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/module_sizes.py: our built wheel's modules beside NVIDIA's installed ones of this major."""
    wheels = target.built_wheels()
    if not wheels:
        return
    with contextlib.suppress(OSError, ValueError, KeyError):  # the compiler Meson chose (CXX wins over c++ on PATH)
        cpp = json.loads((target.build_dir / "meson-info" / "intro-compilers.json").read_text())["host"]["cpp"]
        say(f"our modules compiled here by {' '.join(cpp['exelist'])} ({cpp['full_version']})")
    session.run(
        [
            session.python,
            BENCHMARKS / "module_sizes.py",
            wheels[0],
            nvidia_core_dir(session).parent.parent,
            "--major",
            str(target.major),
            "--per-module",
            "--json",
            session.out / f"module_sizes_{target.label}.json",
        ],
        counts=False,
    )
