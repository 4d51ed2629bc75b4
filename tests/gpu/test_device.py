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
    assert cuda_core.system.get_user_mode_driver_version() == (version // 1000, version % 1000 // 10)
    assert cuda_core.system.get_num_devices() == driver_value(driver.cuDeviceGetCount) >= 1


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
        cuda_core.Device(cuda_core.system.get_num_devices())


ATTRIBUTE = "CU_DEVICE_ATTRIBUTE_"
CHECKED_PROPERTIES = {
    "multiprocessor_count": "MULTIPROCESSOR_COUNT",
    "max_threads_per_block": "MAX_THREADS_PER_BLOCK",
    "max_shared_memory_per_block": "MAX_SHARED_MEMORY_PER_BLOCK",
    "warp_size": "WARP_SIZE",
    "clock_rate": "CLOCK_RATE",
    "memory_clock_rate": "MEMORY_CLOCK_RATE",
    "global_memory_bus_width": "GLOBAL_MEMORY_BUS_WIDTH",
    "l2_cache_size": "L2_CACHE_SIZE",
    "max_block_dim_x": "MAX_BLOCK_DIM_X",
    "max_grid_dim_x": "MAX_GRID_DIM_X",
}


def test_properties_match_the_driver(cuda_core) -> None:
    from cuda.bindings import driver
    properties = cuda_core.Device(0).properties
    for name, attribute in CHECKED_PROPERTIES.items():
        expected = driver_value(driver.cuDeviceGetAttribute, getattr(driver.CUdevice_attribute, ATTRIBUTE + attribute), 0)
        assert getattr(properties, name) == expected, name
    assert properties.warp_size == 32 and properties.multiprocessor_count >= 1
    assert properties.max_threads_per_block >= 1024 and properties.l2_cache_size > 0
    assert set(CHECKED_PROPERTIES) <= set(dir(properties))
    with pytest.raises(AttributeError, match="no attribute 'no_such_property'"):
        properties.no_such_property
    print(f"\n{properties.multiprocessor_count} SMs, {properties.clock_rate} kHz, L2 {properties.l2_cache_size} B, "
          f"bus {properties.global_memory_bus_width} bit")


def test_pci_bus_id_matches_the_driver(cuda_core) -> None:
    from cuda.bindings import driver
    expected = driver_value(driver.cuDeviceGetPCIBusId, 64, 0).split(b"\0")[0].decode()
    bus_id = cuda_core.Device(0).pci_bus_id
    assert bus_id == expected and bus_id.count(":") == 2
    assert int(bus_id.split(":")[1], 16) == cuda_core.Device(0).properties.pci_bus_id


def test_context_is_the_current_primary_context(cuda_core) -> None:
    from cuda.bindings import driver
    device = cuda_core.Device(0)
    device.set_current()
    context = device.context
    assert int(context.handle) == int(driver_value(driver.cuCtxGetCurrent)) != 0
    stream = device.create_stream()
    assert stream.context == context
    stream.close()


def test_one_device_object_per_thread(cuda_core) -> None:
    import threading
    seen = []
    thread = threading.Thread(target=lambda: seen.append(cuda_core.Device(0)))
    thread.start()
    thread.join()
    assert seen[0] is not cuda_core.Device(0) and seen[0].device_id == 0
    assert cuda_core.Device(0) is cuda_core.Device(0)


def test_allocate_uses_the_device_memory_resource(cuda_core) -> None:
    device = cuda_core.Device(0)
    device.set_current()
    assert isinstance(device.memory_resource, cuda_core.DeviceMemoryResource)
    buffer = device.allocate(1 << 20)
    assert buffer.size == 1 << 20 and buffer.memory_resource is device.memory_resource
    assert buffer.device_id == 0 and buffer.is_device_accessible and not buffer.is_host_accessible
    buffer.close()
    with pytest.raises(TypeError, match="MemoryResource"):
        device.memory_resource = object()
