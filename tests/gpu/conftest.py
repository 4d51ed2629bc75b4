"""GPU tests: they run against a built cuda.core, and skip cleanly without a driver.

On a GPU machine: ``CUDA_CORE_TEST_LOCAL=1 python -m pytest tests/gpu`` against the
cuda.core importable there (tools/gpu_check.sh). The CPU suite runs them in the worker of
each major (tests/remote.py), where each must skip, naming the missing driver.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def cuda_major() -> int:
    """The CUDA major under test: the worker's parameter, or the importable build's major."""
    from cuda.core import _build_info
    return _build_info.cuda_major


@pytest.fixture(scope="session")
def cuda_core(cuda_major: int):
    import cuda.core
    assert cuda.core._build_info.cuda_major == cuda_major, "the cuda.core imported is not of the major under test"
    try:
        count = cuda.core.system.get_num_devices()
    except cuda.core.DriverNotFoundError as err:
        pytest.skip(str(err))
    if count == 0:
        pytest.skip("the CUDA driver sees no device")
    return cuda.core


@pytest.fixture(scope="module")
def device(cuda_core):
    """Device 0, made current once per module (files whose tests change the current device
    or context override this with a fixture that sets it for each test)."""
    device = cuda_core.Device(0)
    device.set_current()
    return device


@pytest.fixture(scope="module")
def nvrtc_loaded(cuda_core) -> None:
    """Skip where this build's NVRTC cannot be loaded (e.g. a CUDA 12 build on a machine
    with only CUDA 13's libnvrtc): tried, not guessed from the major."""
    from cuda.bindings import nvrtc
    try:
        nvrtc.nvrtcVersion()
    except Exception as err:
        pytest.skip(f"NVRTC cannot be loaded here, so nothing can be compiled: {err}")
