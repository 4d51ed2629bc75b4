# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""GPU tests: they skip cleanly, naming the reason, where no driver or no device is found
(the CPU suite checks that they do)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def cuda_core(cuda_core):
    """The package's cuda.core, where a driver sees a device; else every GPU test skips."""
    try:
        count = cuda_core.system.get_num_devices()
    except cuda_core.DriverNotFoundError as err:
        pytest.skip(str(err))
    if count == 0:
        pytest.skip("the CUDA driver sees no device")
    return cuda_core


@pytest.fixture
def device(cuda_core):
    """Device 0, made current for each test (tests switch devices and contexts)."""
    device = cuda_core.Device(0)
    device.set_current()
    return device


@pytest.fixture(scope="module")
def module_device(cuda_core):
    """Device 0, made current once, for the module-wide fixtures (compiled kernels and the like)."""
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
