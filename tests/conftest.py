"""The suite's fixtures and modes; the shared pieces themselves are in builds.py.

Test modes, by environment:
- default: the CPU suite. tests/api and tests/gpu run once per major, each item in a
  worker of that major's venv against that major's session build (remote.py);
- ``CUDA_CORE_TEST_LOCAL=1``: tests/api and tests/gpu run in this process against the
  cuda.core importable here (the GPU machine: tools/gpu_check.sh);
- ``CUDA_CORE_TEST_WORKER=N``: this process is the worker of major N.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from builds import MAJORS, SessionBuilds, Venv, copy_checkout, is_package_test, session_builds

LOCAL = os.environ.get("CUDA_CORE_TEST_LOCAL") == "1"
WORKER_MAJOR = int(os.environ["CUDA_CORE_TEST_WORKER"]) if os.environ.get("CUDA_CORE_TEST_WORKER") else None


@pytest.fixture(scope="session")
def venvs(pytestconfig: pytest.Config) -> dict[int, Venv]:
    return session_builds(pytestconfig).venvs


@pytest.fixture(scope="session")
def builds(pytestconfig: pytest.Config) -> SessionBuilds:
    return session_builds(pytestconfig)


@pytest.fixture(scope="session")
def make_checkout(tmp_path_factory: pytest.TempPathFactory):
    """Factory of fresh scratch checkouts, for the tests that must own a whole tree."""
    def make(name: str) -> Path:
        return copy_checkout(tmp_path_factory.mktemp(name))
    return make


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds the package in full beyond the session's shared builds")
    config.addinivalue_line("markers", "network: downloads packages from PyPI")
    if not LOCAL and WORKER_MAJOR is None:
        import remote
        config.pluginmanager.register(remote.Dispatcher(config, lambda: session_builds(config)), "cuda-core-remote")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Outside local mode every package test runs once per major: a ``cuda_major`` parameter
    (only the worker's own major inside a worker, so its node ids match the controller's)."""
    if LOCAL or "cuda_major" not in metafunc.fixturenames or not is_package_test(Path(metafunc.definition.path)):
        return
    majors = (WORKER_MAJOR,) if WORKER_MAJOR is not None else MAJORS
    metafunc.parametrize("cuda_major", majors, ids=[f"cu{m}" for m in majors], scope="session")
