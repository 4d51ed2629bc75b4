# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build of one minor's wheel on the GPU machine: a fresh site dir with the plan's wheels, the
wheel built offline against the plan's headers (Meson build dir kept in /tmp/gpu-buildMINOR), and
installed into /tmp/gpu-installMINOR.
"""

from __future__ import annotations

import shutil
import time

from gpu.plan import REPO_ROOT, TOOLS_SITE, Plan
from gpu.process import Fatal, environment, say
from gpu.session import Session


def build(session: Session, plan: Plan) -> bool:
    """Fresh site dir, the wheel built against the plan's headers, and installed; False if the build failed."""
    target = plan.target
    for path in (target.site, target.install, target.wheel_dir, target.build_dir):
        shutil.rmtree(path, ignore_errors=True)
    if not session.pip_target(target.site, plan.wheels):
        raise Fatal(f"cannot install {', '.join(wheel.name for wheel in plan.wheels)} into {target.site}")
    say(f"== CUDA {target.minor}: build the wheel (CUDA_PATH={plan.cuda_path}; at {session.elapsed()})")
    start = time.monotonic_ns()
    env = environment(pythonpath=(target.site, TOOLS_SITE), CUDA_PATH=plan.cuda_path)
    pip_options = ["--no-build-isolation", "--no-deps", "--no-index", f"-Cbuild-dir={target.build_dir}"]
    wheel = [session.python, "-m", "pip", "wheel", "-q", *pip_options, "-w", target.wheel_dir, REPO_ROOT]
    if session.run(wheel, env=env, counts=False):
        say(f"BUILD FAILED for CUDA {target.minor}")
        session.failed = True
        return False
    names = " ".join(path.name for path in sorted(target.wheel_dir.iterdir()))
    say(f"built in {(time.monotonic_ns() - start) // 1_000_000} ms: {names}")
    if not session.pip_target(target.install, target.built_wheels()):
        session.failed = True
    return True
