#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run the whole test suite, as CI does: ``python3 tools/dev/run_tests.py [pytest arguments]``.

1. The venv of every cell of the suite (``[suite]`` in requirements/matrix.ini: both default
   cells and the matrix's two extremes), made or checked by tools/dev/devenv.py in
   build/.venvs/CELL: the runner's own. The newest default cell's comes first; its uv then makes
   the others. It never installs into .venvs/, where you may keep an editable install.
2. The build-free tests, first: ``pytest tests/tools -q -n 2`` in the newest default cell's venv (the
   dev tools, the GPU harness, the suite runners, the source rules), which build nothing.
3. The build tests, once: ``pytest tests/build -q`` in the same venv. They build both majors in a
   scratch checkout, with build/.venvs/cu12 and cu13 as their tools, and leave the wheels they
   pack in the run's wheelhouse.
4. The package tests of each cell, in that cell's venv: ``pytest tests/package`` against the
   cell's package, installed from the run's wheelhouse: the build tests leave the default
   cells' wheels there, and the other cells' are built in build/cells/CELL beside the build
   tests, at the lowest CPU priority (tools/dev/cells.py; kept, so a second run rebuilds only
   what changed). A cell that has none there is built in its turn, with ninja's progress
   lines. A cell whose Python this machine lacks is skipped, with the reason.

Extra arguments go to every pytest run (``-k round_trip -x``; ``-m "not slow and not network"``
skips the isolated builds that download from PyPI). Every pytest run is quiet (a dot a test,
skips counted once per reason), and a build test's long build says how far ninja is (``[k/N]``,
at most every 30 s). The build runs print their 10 slowest steps, each cell's package tests
their 5; the end is a table of every run. The JUnit reports and the table (summary.md) go to
build/tests/running/ and, once the run is over, replace the previous run's in
build/tests/last/: an interrupted run leaves the last complete one in place. Every build
compiles through ccache, into build/ccache, and takes Cython's output from build/cython-cache
where it can. The exit status is 1 if any run failed, or if no run collected a test.
``-h``/``--help`` prints this and changes nothing.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path


def help_asked(argv: list[str]) -> bool:
    """Whether the command line asks for help (before any import that could write a file)."""
    return any(arg in ("-h", "--help") for arg in argv)


if __name__ == "__main__" and help_asked(sys.argv[1:]):
    print(__doc__)
    sys.exit(0)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's facts and probe

import cells  # noqa: E402
import devenv  # noqa: E402
from cuda_core_build import facts  # noqa: E402

SESSION = facts.REPO_ROOT / "build" / "tests"
RUNNING = SESSION / "running"  # this run's reports and wheels, until it is over
LAST = SESSION / "last"  # the last complete run's
VENVS = devenv.TEST_VENVS_DIR


def repo_tests(
    folder: str, python: Path, pytest_args: list[str], run_dir: Path, *options: str
) -> tuple[int, dict[str, int]]:
    """pytest over tests/FOLDER, its report in the run's reports/FOLDER.xml: status and counts."""
    report = run_dir / "reports" / f"{folder}.xml"
    command = [
        python,
        "-m",
        "pytest",
        str(facts.REPO_ROOT / "tests" / folder),
        "-q",
        "-p",
        "no:cacheprovider",
        "--durations=10",
        *options,
        f"--junitxml={report}",
        *pytest_args,
    ]
    cells.log(f"{folder} tests: {' '.join(map(str, command))}")
    status, _ = cells.stream(
        command, cells.clean_env(PYTHONUNBUFFERED="1"), f"run_tests: {folder} tests", heartbeat=math.inf
    )
    return status, cells.junit_counts(report)


def tools_tests(python: Path, pytest_args: list[str], run_dir: Path) -> tuple[int, dict[str, int]]:
    """pytest over tests/tools, the tests that build nothing: first, so they answer in seconds."""
    return repo_tests("tools", python, pytest_args, run_dir, "-n", "2")  # on both cores: they wait on subprocesses


def build_tests(python: Path, pytest_args: list[str], run_dir: Path) -> tuple[int, dict[str, int]]:
    """pytest over tests/build, once, leaving its wheels in the run's wheelhouse."""
    return repo_tests("build", python, pytest_args, run_dir, f"--wheelhouse={run_dir / 'wheelhouse'}")


def wheels_beside(suite: list[devenv.Cell], wheelhouse: Path) -> Callable[[], None]:
    """Build the wheels of ``suite``'s cells in build/cells/, beside the build tests, into the run's
    wheelhouse; return what waits for them and says how each went. The build tests leave about half of
    the cores idle (their steps wait on subprocesses, pip and the network): these builds run at the
    lowest CPU priority in that room. A cell whose build failed here is built again in its turn."""
    said: list[str] = []

    def build() -> None:
        for cell in suite:
            start = time.monotonic()
            try:
                wheel = cells.build_wheel(cell.name, devenv.venv_python(cell.name, VENVS), beside=True)
            except RuntimeError as err:
                said.append(f"{cell.name}: the build beside the build tests failed ({err}); it runs again below")
                continue
            (wheelhouse / cell.name).mkdir(parents=True, exist_ok=True)
            shutil.copy2(wheel, wheelhouse / cell.name)
            said.append(f"{cell.name}: built beside the build tests in {time.monotonic() - start:.0f} s")

    thread = threading.Thread(target=build, name="wheels beside", daemon=True)
    thread.start()

    def wait() -> None:
        thread.join()
        for line in said:
            cells.log(line)

    return wait


def use_ccache(bin_dir: Path) -> None:
    """Every build of the run compiles through the test venvs' ccache (requirements/test.txt), which
    Meson takes from PATH, into a cache of the checkout's own: the same object is compiled once. Its
    Cython steps share one cache too (tools/cuda_core_build/cython_cache.py): the same code is
    cythonized once."""
    os.environ["CCACHE_DIR"] = str(facts.REPO_ROOT / "build" / "ccache")
    os.environ["CUDA_CORE_CYTHON_CACHE"] = str(facts.REPO_ROOT / "build" / "cython-cache")
    # uv (a test requirement) makes the other venvs, as devenv does wherever uv is on PATH, with the
    # downloads cached where the build tests' uv and README's keep theirs.
    os.environ["UV_CACHE_DIR"] = str(devenv.TEST_VENVS_DIR / "uv-cache")
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"


def summary(rows: list[tuple[str, int, dict[str, int]]]) -> str:
    """The table of every run, in Markdown."""
    lines = ["| run | status | passed | failed | skipped |", "|---|---|---|---|---|"]
    for name, code, found in rows:
        failed = found.get("failed", 0) + found.get("errors", 0) if found else ""
        lines.append(f"| {name} | {code} | {found.get('passed', '')} | {failed} | {found.get('skipped', '')} |")
    return "\n".join(lines) + "\n"


def start_run(session: Path = SESSION) -> Path:
    """An empty directory for this run's results; the last complete run's stay where they are."""
    running = session / RUNNING.name
    shutil.rmtree(running, ignore_errors=True)
    (running / "reports").mkdir(parents=True)
    return running


def finish_run(running: Path) -> Path:
    """This run's results become the last run's, replacing the previous ones; returns where."""
    last = running.parent / LAST.name
    shutil.rmtree(last, ignore_errors=True)
    running.rename(last)
    for earlier in ("reports", "wheelhouse"):  # where runs before build/tests/last kept theirs
        shutil.rmtree(running.parent / earlier, ignore_errors=True)
    return last


def main(argv: list[str]) -> int:
    start = time.monotonic()
    run_dir = start_run()
    suite = [devenv.cells()[name] for name in facts.matrix()["suite"]["cells"].split()]
    build_cell = f"cu{facts.supported_majors()[-1]}"
    # The build tests' venv first: its tools (uv, ccache) then make the others and every build.
    build_python = devenv.ensure(build_cell, root=VENVS)
    use_ccache(build_python.parent)
    runnable = []
    for cell in suite:
        try:
            if cell.name != build_cell:
                devenv.ensure(cell.name, root=VENVS)
            runnable.append(cell)
        except devenv.PythonMissing as err:
            cells.log(f"{cell.name}: skipped: {err}")
    defaults = {f"cu{major}" for major in facts.supported_majors()}  # their wheels come from the build tests
    beside = wheels_beside([cell for cell in runnable if cell.name not in defaults], run_dir / "wheelhouse")
    rows = [("tools tests", *tools_tests(build_python, argv, run_dir))]
    status, counts = build_tests(build_python, argv, run_dir)
    beside()
    rows.append(("build tests", status, counts))
    for cell in suite:
        if cell not in runnable:
            rows.append((cell.name, 0, {}))
            continue
        outcome = cells.run_cell(
            cell, ["--durations=5", *argv], run_dir / "wheelhouse", run_dir / "reports", venvs=VENVS
        )
        rows.append((cell.name, outcome.status if not outcome.stopped else 1, outcome.counts))
    table = summary(rows)
    (run_dir / "summary.md").write_text(table)
    print("\n" + table, flush=True)
    last = finish_run(run_dir)
    print(f"run_tests: {time.monotonic() - start:.0f} s; reports in {last.relative_to(facts.REPO_ROOT)}", flush=True)
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
