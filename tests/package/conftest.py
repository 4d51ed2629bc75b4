# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The package tests' fixtures: they run against the cuda.core importable in this environment.

This is a plain pytest run in one environment: ``python -m pytest tests/package`` in a cell's
venv (tools/dev/run_tests.py and run_matrix.py install the cell's package there first), or
on any machine where cuda.core is installed (the GPU machine). Where cuda.core is not
importable and this is a cell's venv (.venvs/CELL), the cell's package is built (tools/dev/
cells.py: once, then incrementally) and installed there first: a lone test builds only the
cell it runs in.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per skip reason, with how many tests it skipped (pyproject's addopts leaves out one line
    per skipped test: without a driver there were nearly a thousand, all saying the same)."""
    reasons = collections.Counter(
        report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        for report in terminalreporter.stats.get("skipped", [])
    )
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"SKIPPED {count}: {reason.removeprefix('Skipped: ')}")


def pytest_configure(config: pytest.Config) -> None:
    if importlib.util.find_spec("cuda.core") is not None or hasattr(config, "workerinput"):
        return
    venv = Path(sys.prefix)
    if venv.parent != REPO_ROOT / ".venvs":
        pytest.exit(
            f"cuda.core is not importable from {sys.executable}: install it, or run the package tests in a "
            "cell's venv (python3 tools/dev/devenv.py cu13; .venvs/cu13/bin/python -m pytest tests/package)",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )
    import cells

    try:
        cells.install_package(venv.name)
    except RuntimeError as err:
        pytest.exit(f"building the package of {venv.name} failed: {err}", returncode=pytest.ExitCode.USAGE_ERROR)
    importlib.invalidate_caches()


def driver_available() -> bool:
    """Whether a CUDA driver can be loaded here."""
    import cuda.core

    try:
        cuda.core.system.get_num_devices()
    except cuda.core.DriverNotFoundError:
        return False
    return True


@pytest.fixture(scope="session")
def cuda_core():
    """The cuda.core under test."""
    import cuda.core

    return cuda.core


@pytest.fixture(scope="session")
def cuda_major(cuda_core) -> int:
    """The CUDA major the cuda.core under test was built for."""
    return cuda_core._build_info.cuda_major


@pytest.fixture(scope="session")
def driver_present(cuda_core) -> bool:
    """Whether a CUDA driver loads here (a GPU machine) or not (the CPU suite's machines)."""
    return driver_available()


@pytest.fixture(scope="session")
def no_driver(driver_present: bool) -> None:
    """Skip unless this machine has no CUDA driver (the CPU suite's case)."""
    if driver_present:
        pytest.skip("a CUDA driver is present: the no-driver behaviour cannot be seen here")
