"""GPU tests: they run against the cuda.core importable here, and skip cleanly without a driver.

Run them on a GPU machine with ``CUDA_CORE_GPU_TESTS=1 python -m pytest tests/gpu``
(README, developer section); the CPU suite runs them too, expecting the clean skip.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def cuda_core():
    import cuda.core
    try:
        count = cuda.core.system.get_num_devices()
    except cuda.core.DriverNotFoundError as err:
        pytest.skip(str(err))
    if count == 0:
        pytest.skip("the CUDA driver sees no device")
    return cuda.core
