"""Device facts through cuda.core, checked against independent sources: cuda.bindings' Python
driver API and nvidia-smi."""

from __future__ import annotations

import shutil
import subprocess

import pytest


def driver_value(call, *args):
    from cuda.bindings import driver
    result = call(*args)
    assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
    return result[1] if len(result) == 2 else result[1:]


def test_build_major_matches_bindings(cuda_core) -> None:
    import cuda.bindings
    from cuda.core import _build_info
    assert int(cuda.bindings.__version__.split(".")[0]) == _build_info.cuda_major


def test_driver_version_and_count(cuda_core) -> None:
    from cuda.bindings import driver
    version = driver_value(driver.cuDriverGetVersion)
    assert cuda_core.system.driver_version == (version // 1000, version % 1000 // 10)
    assert cuda_core.system.num_devices == driver_value(driver.cuDeviceGetCount) >= 1


def test_device_properties(cuda_core) -> None:
    from cuda.bindings import driver
    device = cuda_core.Device(0)
    assert device is cuda_core.Device(0) is cuda_core.Device()
    name = driver_value(driver.cuDeviceGetName, 256, 0).split(b"\0")[0].decode()
    assert device.name == name and name
    major = driver_value(driver.cuDeviceGetAttribute,
                         driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0)
    minor = driver_value(driver.cuDeviceGetAttribute,
                         driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0)
    assert device.compute_capability == (major, minor) and device.arch == f"{major}{minor}"
    print(f"\n{device!r}: sm_{device.arch}, uuid {device.uuid}")


def test_uuid_matches_the_driver_and_nvidia_smi(cuda_core) -> None:
    """The uuid goes through the per-major compat call (cuDeviceGetUuid_v2 on 12)."""
    from cuda.bindings import driver
    uuid = cuda_core.Device(0).uuid
    raw = driver_value(driver.cuDeviceGetUuid, 0).bytes
    expected = raw.hex() if isinstance(raw, bytes) else bytes(b & 0xFF for b in raw).hex()
    assert uuid.replace("-", "") == expected
    assert [len(part) for part in uuid.split("-")] == [8, 4, 4, 4, 12]
    if shutil.which("nvidia-smi"):
        listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
        assert f"GPU-{uuid}" in listing, listing


def test_set_current_makes_the_primary_context_current(cuda_core) -> None:
    from cuda.bindings import driver
    device = cuda_core.Device(0)
    device.set_current()
    device.set_current()  # retained once, current again
    context = driver_value(driver.cuCtxGetCurrent)
    assert int(context) != 0
    assert int(driver_value(driver.cuCtxGetDevice)) == 0


def test_invalid_device_id_is_a_clear_error(cuda_core) -> None:
    with pytest.raises(ValueError, match="device_id must be an int"):
        cuda_core.Device(cuda_core.system.num_devices)
