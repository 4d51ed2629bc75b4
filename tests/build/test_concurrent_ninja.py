# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Two plain ``ninja -C`` at once in one build directory (issue 41, C1): both succeed, the second
waits for the first (tools/cuda_core_build/sources.py holds the build directory's lock from the
first step of every build), and the build directory is left up to date, its logs whole."""

from __future__ import annotations

import subprocess
from pathlib import Path

from builds import CHECK_STEP, SessionBuilds, Venv, build_dir_copy, edited, meson_setup, ninja, rebuilt_nothing

CORE = "cuda_core/cuda/core"


def at_once(venv: Venv, build_dir: Path, *targets: str) -> list[tuple[int, str]]:
    """Two plain ninja runs of ``targets`` in ``build_dir`` started together: their status and output."""
    command = [str(venv.bin / "ninja"), "-C", str(build_dir), *targets]
    pipe = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    processes = [subprocess.Popen(command, env=venv.env(), **pipe) for _ in range(2)]  # type: ignore[call-overload]
    outputs = [process.communicate()[0] for process in processes]
    return [(process.returncode, output) for process, output in zip(processes, outputs)]


def test_two_plain_ninjas_at_once_leave_the_build_up_to_date(builds: SessionBuilds) -> None:
    """After an edit, two plain ninja at once: both exit 0, one waited for the other, and the next
    plain ninja rebuilds nothing, its deps log whole (no 'premature end of file', no missing deps)."""
    venv, source = builds.venvs[13], builds.checkout / CORE / "_context.pyx"
    with build_dir_copy(builds, 13) as build_dir, edited(source, source.read_text() + "\n# edited\n"):
        results = at_once(venv, build_dir)
        # ninja itself may refuse the second before it starts (it recompacts its log on loading): no harm done.
        refused = [code != 0 and "ninja: error: opening build log" in output for code, output in results]
        assert all(code == 0 or gave_up for (code, _), gave_up in zip(results, refused)) and not all(refused)
        if not any(refused):
            assert sum("waiting for another ninja in" in output for _, output in results) == 1, results
        after = ninja(venv, build_dir, "-d", "explain")
        assert rebuilt_nothing(after.stdout) and "premature end of file" not in after.stdout + after.stderr
        assert "are missing" not in after.stderr, after.stderr


def test_two_plain_ninjas_at_once_on_a_fresh_setup_both_succeed(builds: SessionBuilds, tmp_path: Path) -> None:
    """The first steps of a fresh build directory, by two ninja at once: neither fails with
    'cannot write the build's files ([Errno 17] File exists ...)'."""
    venv = builds.venvs[13]
    for attempt in range(3):
        build_dir = tmp_path / f"fresh-{attempt}"
        meson_setup(venv, builds.checkout, build_dir)
        results = at_once(venv, build_dir, CHECK_STEP)
        assert [code for code, _ in results] == [0, 0], results
