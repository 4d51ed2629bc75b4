"""API tests that need no GPU: they run against the cuda.core importable here, once per major.

tests/test_package.py runs this directory in each major's venv against a real install
(``CUDA_CORE_API_TESTS=1``); the GPU machine runs it too, where tests that check the
no-driver behaviour skip.
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


@pytest.fixture(scope="session")
def cuda_core():
    import cuda.core
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
