"""API tests that need no GPU: they run against a built cuda.core, once per major.

In the CPU suite each test runs in the worker of each major (tests/remote.py); with
``CUDA_CORE_TEST_LOCAL=1`` (the GPU machine) against the cuda.core importable here, where
the tests that check the no-driver behaviour skip.
"""

from __future__ import annotations

import pytest


def driver_available() -> bool:
    """Whether a CUDA driver can be loaded here."""
    import cuda.core
    try:
        cuda.core.system.get_num_devices()
    except cuda.core.DriverNotFoundError:
        return False
    return True


@pytest.fixture(scope="session", autouse=True)
def cuda_major() -> int:
    """The CUDA major under test: the worker's parameter, or the importable build's major."""
    from cuda.core import _build_info
    return _build_info.cuda_major


@pytest.fixture(scope="session")
def cuda_core(cuda_major: int):
    import cuda.core
    assert cuda.core._build_info.cuda_major == cuda_major, "the cuda.core imported is not of the major under test"
    return cuda.core


@pytest.fixture(scope="session")
def build_major(cuda_core) -> int:
    """The CUDA major the importable cuda.core was built for."""
    from cuda.core import _build_info
    return _build_info.cuda_major


@pytest.fixture(scope="session")
def no_driver(cuda_core) -> None:
    """Skip unless this machine has no CUDA driver (the CPU suite's case)."""
    if driver_available():
        pytest.skip("a CUDA driver is present: the no-driver behaviour cannot be seen here")
