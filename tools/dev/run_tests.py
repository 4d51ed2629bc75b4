#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run the whole test suite, as CI does: ``python3 tools/dev/run_tests.py [pytest arguments]``.

1. The venv of every cell of the suite (``[suite]`` in requirements/matrix.ini: both default
   cells and the matrix's two extremes), made or checked by tools/dev/devenv.py.
2. The build tests, once: ``pytest tests/build`` in the newest default cell's venv. They
   build both majors in a scratch checkout, and leave the wheels they pack in
   build/tests/wheelhouse.
3. The package tests of each cell, in that cell's venv: ``pytest tests/package`` against the
   cell's package, installed from the wheelhouse where the build tests made it, else built
   in build/cells/CELL (tools/dev/cells.py; kept, so a second run rebuilds only what
   changed). A cell whose Python this machine lacks is skipped, with the reason.

Extra arguments go to every pytest run (``-k round_trip -x``; ``-m "not slow and not
network"`` skips the isolated builds that download from PyPI). Each run prints its 15
slowest steps; the end is a table of every run. The exit status is 1 if any run failed, or
if no run collected a test.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's facts and probe

import cells  # noqa: E402
import devenv  # noqa: E402
from cuda_core_build import facts  # noqa: E402

SESSION = facts.REPO_ROOT / "build" / "tests"
WHEELHOUSE = SESSION / "wheelhouse"


def build_tests(python: Path, pytest_args: list[str]) -> tuple[int, dict[str, int]]:
    """pytest over tests/build, once, leaving its wheels in the wheelhouse."""
    report = SESSION / "reports" / "build.xml"
    command = [
        python,
        "-m",
        "pytest",
        str(facts.REPO_ROOT / "tests" / "build"),
        "-p",
        "no:cacheprovider",
        "--durations=15",
        f"--wheelhouse={WHEELHOUSE}",
        f"--junitxml={report}",
        *pytest_args,
    ]
    cells.log(f"build tests: {' '.join(map(str, command))}")
    status = cells.run(command, cells.clean_env()).returncode
    return status, cells.junit_counts(report)


def main(argv: list[str]) -> int:
    start = time.monotonic()
    shutil.rmtree(SESSION, ignore_errors=True)
    suite = [facts.cells()[name] for name in facts.suite_cells()]
    runnable = []
    for cell in suite:
        try:
            devenv.ensure(cell.name)
            runnable.append(cell)
        except devenv.PythonMissing as err:
            cells.log(f"{cell.name}: skipped: {err}")
    build_python = devenv.venv_python(f"cu{facts.supported_majors()[-1]}")
    status, counts = build_tests(build_python, argv)
    rows = [("build tests", status, counts)]
    for cell in suite:
        if cell not in runnable:
            rows.append((cell.name, 0, {}))
            continue
        outcome = cells.run_cell(cell, ["--durations=15", *argv], WHEELHOUSE, SESSION / "reports")
        rows.append((cell.name, outcome.status if not outcome.stopped else 1, outcome.counts))
    print("\n| run | status | passed | failed | skipped |\n|---|---|---|---|---|")
    for name, code, found in rows:
        print(
            f"| {name} | {code} | {found.get('passed', '')} | "
            f"{found.get('failed', 0) + found.get('errors', 0) if found else ''} | {found.get('skipped', '')} |"
        )
    print(f"\nrun_tests: {time.monotonic() - start:.0f} s", flush=True)
    collected = any(sum(found.values()) for _, _, found in rows)
    failed = [name for name, code, _ in rows if code not in (0, cells.NO_TESTS_COLLECTED)]
    if not collected:
        print("run_tests: no run collected a test: that is a failure here", file=sys.stderr)
        return 1
    if failed:
        print(f"run_tests: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
