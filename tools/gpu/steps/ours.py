# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Our own checks of a built minor: ``python -m cuda.core`` and our package tests (JUnit XML in
OUT), and our examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gpu.plan import REPO_ROOT, SCRATCH, Target
from gpu.process import environment
from gpu.session import Session

DEFAULT_OURS_TESTS = ("tests/package/gpu", "tests/package/api")
EXAMPLES = tuple(REPO_ROOT / "examples" / name for name in ("vector_add.py", "saxpy.py", "cuda_graphs.py"))


def package_tests(session: Session, label: str, pythonpath: Sequence[Path], ld_paths: Sequence[Path]) -> None:
    """``python -m cuda.core`` (from /tmp, away from the sources), then our package tests, JUnit XML in OUT."""
    env = environment(pythonpath, ld_paths)
    session.run([session.python, "-m", "cuda.core"], env=env, cwd=SCRATCH)
    session.run(
        [
            session.python,
            "-m",
            "pytest",
            *session.args.ours_tests,
            "-q",
            "-rfEs",
            "-p",
            "no:cacheprovider",
            "--junitxml",
            session.out / f"ours-{label}.xml",
        ],
        env=env,
    )


def package_step(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """The ``package`` step of a built minor: package_tests with our install."""
    package_tests(session, target.label, paths["ours"], target.ld_paths)


def examples(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """Our examples, with our install."""
    env = environment(paths["ours"], target.ld_paths)
    for example in EXAMPLES:
        session.run([session.python, example], env=env)
