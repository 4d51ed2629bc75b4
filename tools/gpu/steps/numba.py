# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""numba-cuda's own tests, ours beside NVIDIA's cuda.core with the same cuda-bindings, through
tools/gpu/numba_suite.py, whose verdict (exit status) counts; a minor whose cuda-bindings the
installed numba-cuda does not support is skipped, saying so.
"""

from __future__ import annotations

import time
from pathlib import Path

from gpu.plan import SCRATCH, Target
from gpu.process import environment, run, say
from gpu.session import Session

NUMBA_SUITE = Path(__file__).resolve().parents[1] / "numba_suite.py"
NUMBA_DEPS = Path("/tmp/gpu-numba-deps")  # cffi, pycparser, filecheck, numpy < 2.4 from WHEELS/numba

# Run by the session's Python, where numba-cuda is installed: why numba-cuda does not support a
# cuda-bindings version (its Requires-Dist on cuda-bindings, for no extra and for cuMAJOR), or nothing.
NUMBA_SUPPORT = """
import sys
from importlib import metadata
try:
    from packaging.requirements import Requirement
except ImportError:
    from pip._vendor.packaging.requirements import Requirement
bindings, extra = sys.argv[1], sys.argv[2]
try:
    requires = metadata.requires("numba-cuda") or []
except metadata.PackageNotFoundError:
    requires = []
for line in requires:
    req = Requirement(line)
    if req.name != "cuda-bindings" or not req.specifier:
        continue
    if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in ("", extra)):
        if not req.specifier.contains(bindings, prereleases=True):
            print(f"numba-cuda {metadata.version('numba-cuda')} requires {req}")
            break
"""


def numba_unsupported(session: Session, target: Target) -> str:
    """Why the installed numba-cuda does not support this minor's cuda-bindings; '' if it does (or
    cannot say: then the suite runs and says what fails)."""
    done = run(
        [session.python, "-c", NUMBA_SUPPORT, target.bindings, f"cu{target.major}"],
        env=environment(pythonpath=()),
        output="capture",
        cwd=SCRATCH,
    )
    return done.stdout.strip() if done.returncode == 0 else ""


def numba(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """numba-cuda's tests on both sides (tools/gpu/numba_suite.py), with WHEELS/numba (cffi,
    pycparser, filecheck, a numpy older than 2.4) installed once into a site dir both sides get.
    Its verdict counts: a module whose process ends otherwise than NVIDIA's, or a test that passes
    on NVIDIA's only, fails the run. A minor whose cuda-bindings the installed numba-cuda does not support is
    skipped, saying so."""
    unsupported = numba_unsupported(session, target)
    if unsupported:
        say(f"(numba-cuda's tests not run with CUDA {target.minor}: {unsupported}, not {target.bindings})")
        return
    deps = sorted((session.wheels / "numba").glob("*.whl"))
    if not (NUMBA_DEPS / ".installed").exists():
        if not deps or not session.pip_target(NUMBA_DEPS, deps):
            say(
                f"(no {session.wheels / 'numba'} wheels installed: numba-cuda's tests that need cffi, filecheck"
                " or numpy < 2.4 fail)"
            )
        else:
            (NUMBA_DEPS / ".installed").touch()
    args = session.args
    command: list[object] = [
        session.python,
        NUMBA_SUITE,
        "--ours-python",
        session.python,
        *[arg for path in paths["ours"] for arg in ("--ours-path", path)],
        "--nvidia-python",
        session.python,
        *[arg for path in paths["nvidia"] for arg in ("--nvidia-path", path)],
        "--common-path",
        NUMBA_DEPS,
        "--jobs",
        args.numba_jobs,
        "--timeout",
        f"{args.numba_timeout:g}",
        "--json",
        session.out / f"numba-{target.label}.json",
    ]
    if args.numba_modules:
        command += ["--modules", *args.numba_modules]
    if args.numba_end is not None:
        command += ["--deadline", f"{args.numba_end - time.time():.0f}"]
    session.run(command, env=environment(ld_paths=target.ld_paths))
