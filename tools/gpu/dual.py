# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The dual wheel: the wheels of one minor per major, built by this run or earlier ones, merged by
tools/release/merge_wheels.py, installed, and our package tests run with each major's cuda-bindings.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from cuda_core_build import facts

from gpu.machine import install_path
from gpu.plan import DUAL_INSTALL, DUAL_WHEEL_DIR, REPO_ROOT, Target
from gpu.process import Fatal, say
from gpu.session import Session
from gpu.steps.ours import package_tests

MERGE_WHEELS = REPO_ROOT / "tools" / "release" / "merge_wheels.py"


def dual_pair(candidates: Sequence[Target]) -> list[Target]:
    """The first candidate of each supported major that has a built wheel, ascending by major."""
    chosen: dict[int, Target] = {}
    for target in candidates:
        if target.major not in chosen and target.built_wheels():
            chosen[target.major] = target
    missing = [str(major) for major in facts.supported_majors() if major not in chosen]
    if missing:
        raise Fatal(
            f"the dual wheel needs a built wheel of each major and has none of CUDA {', '.join(missing)}: "
            "give a minor of it, or --no-dual"
        )
    return [chosen[major] for major in sorted(chosen)]


def dual_wheel(session: Session, candidates: Sequence[Target]) -> None:
    """Merge one wheel per major into the dual wheel and run the package tests with each major's bindings."""
    say("== dual wheel")
    pair = dual_pair(candidates)
    shutil.rmtree(DUAL_WHEEL_DIR, ignore_errors=True)
    wheels = [wheel for target in pair for wheel in target.built_wheels()]
    if session.run([session.python, MERGE_WHEELS, *wheels, "-o", DUAL_WHEEL_DIR], counts=False):
        raise Fatal(f"cannot merge {' '.join(map(str, wheels))}")
    shutil.rmtree(DUAL_INSTALL, ignore_errors=True)
    if not session.pip_target(DUAL_INSTALL, sorted(DUAL_WHEEL_DIR.glob("*.whl"))):
        raise Fatal(f"cannot install the dual wheel of {DUAL_WHEEL_DIR} into {DUAL_INSTALL}")
    for target in reversed(pair):
        say(f"== dual wheel with cuda-bindings {target.bindings} (CUDA {target.minor})")
        package_tests(
            session, f"dual-{target.label}", install_path(session, target, DUAL_INSTALL, "dual"), target.ld_paths
        )
