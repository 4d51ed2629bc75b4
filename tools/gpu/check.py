# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The whole run, in the order the GPU machine needs it: every minor's plan and the carried files
checked first, the machine set up once, then per minor its build and steps, then the dual wheel.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from gpu.build import build
from gpu.dual import dual_wheel
from gpu.machine import python_tag, setup_machine, sides, unpack_nvrtc12
from gpu.plan import Plan, Target, from_repo, preflight
from gpu.process import say
from gpu.session import Session
from gpu.steps import STEP_RUNS


def check_minor(session: Session, plan: Plan) -> bool:
    """Build one minor and run the chosen steps on it; whether it built."""
    target = plan.target
    if not build(session, plan):
        return False
    paths = sides(session, target)
    for step in session.args.steps:
        say(f"== CUDA {target.minor}: {step} (at {session.elapsed()})")
        STEP_RUNS[step](session, target, paths)
    return True


def check(args: argparse.Namespace) -> bool:
    """The whole run; whether everything passed."""
    session = Session(args, from_repo(Path(args.wheels)), from_repo(args.out))
    session.out.mkdir(parents=True, exist_ok=True)
    os.environ["PYTHONUNBUFFERED"] = "1"
    targets = [Target(minor) for minor in args.minors]
    plans = preflight(session.wheels, targets, python_tag(session.python), args.dual_only)
    if any(target.major == 12 for target in targets):
        unpack_nvrtc12(session.wheels)
    setup_machine(session)
    built = [plan.target for plan in plans if check_minor(session, plan)]
    if args.dual:
        dual_wheel(session, targets if args.dual_only else built)
    say(f"== {'failed' if session.failed else 'passed'} in {session.elapsed()}")
    return not session.failed
