# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""One run of gpu_check: its settings, the carried wheels, where the figures go, and whether
anything failed; every command of a step goes through Session.run (and so through process.run).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gpu.plan import REPO_ROOT
from gpu.process import run


@dataclass
class Session:
    """One run: its settings, the carried wheels, where the figures go, and whether anything failed."""

    args: argparse.Namespace
    wheels: Path
    out: Path
    failed: bool = False
    started: float = field(default_factory=time.monotonic)

    def elapsed(self) -> str:
        """Seconds since the run began, for progress lines: a call has a fixed time, and its log shows where it went."""
        return f"{time.monotonic() - self.started:.0f} s"

    @property
    def python(self) -> str:
        """The Python that builds, tests and benchmarks."""
        return str(self.args.python)

    def run(
        self, command: Sequence[object], env: dict[str, str] | None = None, cwd: Path = REPO_ROOT, counts: bool = True
    ) -> int:
        """Run a command, its output passing through; a nonzero exit fails the session if it ``counts``."""
        try:
            code = run(command, env=env, cwd=cwd).returncode
        except OSError as error:
            print(f"cannot run {command[0]}: {error}", file=sys.stderr, flush=True)
            code = 127
        if code and counts:
            self.failed = True
        return code

    def pip_target(self, target: Path, wheels: Sequence[Path]) -> bool:
        """Install ``wheels`` into the folder ``target``, offline and without dependencies."""
        if not wheels:
            return False
        return (
            self.run(
                [
                    self.python,
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--no-index",
                    "--no-deps",
                    "--no-compile",
                    "--target",
                    target,
                    *wheels,
                ],
                counts=False,
            )
            == 0
        )
