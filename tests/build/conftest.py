# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build tests' fixtures; the shared pieces themselves are in builds.py.

These tests drive real builds (meson, ninja, Cython, g++) in the pinned venvs of the default
cells, in one scratch copy of the checkout, and run once per test session, in any Python
that has pytest. tests/package holds the tests of the built package, run in each cell's venv.

``--wheelhouse DIR`` (tools/dev/run_tests.py passes it): each wheel the session packs from
its builds is copied to DIR/cuNN/, so the package tests of the default cells install those
instead of building the package again.
"""

from __future__ import annotations

from pathlib import Path

import builds as builds_module
import devenv
import pytest
from builds import MAJORS, SessionBuilds, Uv, Venv, copy_checkout, tool_constraints, venv_for


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--wheelhouse",
        type=Path,
        default=None,
        help="copy each wheel the session packs into WHEELHOUSE/cuNN/ (for the package tests)",
    )


@pytest.fixture(scope="session", autouse=True)
def build_progress(pytestconfig: pytest.Config) -> None:
    """Long builds say how far ninja is on the terminal, past pytest's capture (as its live logging
    writes): a build test can run for minutes between two dots."""
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")
    reporter = pytestconfig.pluginmanager.getplugin("terminalreporter")
    if capture is None or reporter is None:
        return

    def say(line: str) -> None:
        with capture.global_and_fixture_disabled():  # quiet mode's dots leave the line open: end it first
            reporter.write("\n" + line)

    builds_module.progress = say


@pytest.fixture(scope="session")
def builds(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> SessionBuilds:
    """The session's one build per major, made on first use."""
    wheelhouse = pytestconfig.getoption("--wheelhouse")
    return SessionBuilds(
        {major: venv_for(major) for major in MAJORS}, tmp_path_factory, wheelhouse.absolute() if wheelhouse else None
    )


@pytest.fixture(scope="session")
def venvs(builds: SessionBuilds) -> dict[int, Venv]:
    return builds.venvs


@pytest.fixture(scope="session")
def make_checkout(tmp_path_factory: pytest.TempPathFactory):
    """Factory of fresh scratch checkouts, for the tests that must own a whole tree."""

    def make(name: str) -> Path:
        return copy_checkout(tmp_path_factory.mktemp(name))

    return make


@pytest.fixture(scope="session")
def uv(venvs: dict[int, Venv]) -> Uv:
    """uv with a cache that outlives the session (beside the runners' venvs, on the checkout's filesystem)."""
    return Uv(venvs[MAJORS[-1]].bin / "uv", devenv.TEST_VENVS_DIR / "uv-cache")


@pytest.fixture(scope="session")
def constraints(venvs: dict[int, Venv], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's build tools as exact pins (builds.tool_constraints), for the isolated builds."""
    return tool_constraints(venvs[MAJORS[-1]], tmp_path_factory.mktemp("constraints") / "tools.txt")
