# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Device, DeviceProperties and Context on the real driver, checked against independent sources:
cuda.bindings' Python driver API and nvidia-smi."""

from __future__ import annotations

import pickle
import shutil
import subprocess
import threading
import weakref

import pytest


def driver_value(call, *args):
    from cuda.bindings import driver

    result = call(*args)
    assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
    return result[1] if len(result) == 2 else result[1:]


def current_context() -> int:
    from cuda.bindings import driver

    return int(driver_value(driver.cuCtxGetCurrent))


@pytest.fixture
def raw_context(cuda_core, device):
    """A second, non-primary context of device 0, made through cuda.bindings and not left current."""
    from cuda.bindings import driver

    try:
        context = driver_value(driver.cuCtxCreate, None, 0, 0)  # CUDA 13: (params, flags, device)
    except TypeError:
        context = driver_value(driver.cuCtxCreate, 0, 0)  # CUDA 12: (flags, device)
    driver_value(driver.cuCtxPopCurrent)
    yield context
    driver_value(driver.cuCtxDestroy, context)
    device.set_current()


def in_a_new_thread(function):
    """function()'s result, or the exception it raised, on a thread with no current context."""
    outcome = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as err:  # handed to the calling thread
            outcome.append(err)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return outcome[0]


# ----------------------------------------------------------------------------------------
# Device facts


def test_build_major_matches_bindings(cuda_core) -> None:
    import cuda.bindings
    from cuda.core import _build_info

    assert int(cuda.bindings.__version__.split(".")[0]) == _build_info.cuda_major


def test_driver_version_and_count(cuda_core) -> None:
    from cuda.bindings import driver
    from cuda.core._utils.version import driver_version

    version = driver_value(driver.cuDriverGetVersion)
    assert cuda_core.system.get_user_mode_driver_version() == (version // 1000, version % 1000 // 10)
    assert driver_version() == (version // 1000, version % 1000 // 10, version % 10)
    assert cuda_core.system.get_num_devices() == driver_value(driver.cuDeviceGetCount) >= 1


def test_device_identity(cuda_core) -> None:
    from cuda.bindings import driver

    device = cuda_core.Device(0)
    assert device is cuda_core.Device(0) is cuda_core.Device(device) and device.device_id == int(device) == 0
    name = driver_value(driver.cuDeviceGetName, 256, 0).split(b"\0")[0].decode()
    assert device.name == name and name
    assert repr(device) == f"<Device 0 ({name})>"
    major = driver_value(
        driver.cuDeviceGetAttribute, driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0
    )
    minor = driver_value(
        driver.cuDeviceGetAttribute, driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0
    )
    assert device.compute_capability == (major, minor) and device.arch == f"{major}{minor}"
    assert type(device.compute_capability).__name__ == "ComputeCapability"
    print(f"\n{device!r}: sm_{device.arch}, uuid {device.uuid}")


def test_uuid_matches_the_driver_and_nvidia_smi(cuda_core) -> None:
    """The uuid goes through the per-major compat call (cuDeviceGetUuid_v2 on 12)."""
    from cuda.bindings import driver

    device = cuda_core.Device(0)
    uuid = device.uuid
    raw = driver_value(driver.cuDeviceGetUuid, 0).bytes
    expected = raw.hex() if isinstance(raw, bytes) else bytes(b & 0xFF for b in raw).hex()
    assert uuid.replace("-", "") == expected
    assert [len(part) for part in uuid.split("-")] == [8, 4, 4, 4, 12]
    assert device.uuid is uuid  # read once
    if shutil.which("nvidia-smi"):
        listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
        assert f"GPU-{uuid}" in listing, listing


def test_pci_bus_id_matches_the_driver(cuda_core) -> None:
    from cuda.bindings import driver

    expected = driver_value(driver.cuDeviceGetPCIBusId, 64, 0).split(b"\0")[0].decode()
    bus_id = cuda_core.Device(0).pci_bus_id
    assert bus_id == expected and bus_id.count(":") == 2
    assert int(bus_id.split(":")[1], 16) == cuda_core.Device(0).properties.pci_bus_id


def test_all_devices_and_peers(cuda_core) -> None:
    from cuda.bindings import driver

    devices = cuda_core.Device.get_all_devices()
    count = driver_value(driver.cuDeviceGetCount)
    assert isinstance(devices, tuple) and devices == tuple(cuda_core.Device(i) for i in range(count))
    for device in devices:
        assert device.can_access_peer(device) and device.can_access_peer(device.device_id)
        for peer in devices:
            if peer is not device:
                expected = bool(driver_value(driver.cuDeviceCanAccessPeer, device.device_id, peer.device_id))
                assert device.can_access_peer(peer) is expected
    with pytest.raises(ValueError, match=rf"device_id must be within \[0, {count}\)"):
        devices[0].can_access_peer(count)


def test_device_ids_are_checked(cuda_core) -> None:
    count = cuda_core.system.get_num_devices()
    for bad in (count, -1):
        with pytest.raises(ValueError, match=rf"device_id must be within \[0, {count}\), got {bad}"):
            cuda_core.Device(bad)
    with pytest.raises(TypeError, match="device_id must be an int"):
        cuda_core.Device("0")


def test_device_object_protocols(cuda_core) -> None:
    device = cuda_core.Device(0)
    assert device == cuda_core.Device(0) and hash(device) == hash(cuda_core.Device(0))
    assert device != 0 and (device == "device") is False
    assert weakref.ref(device)() is device
    assert pickle.loads(pickle.dumps(device)) is device
    other_thread = in_a_new_thread(lambda: cuda_core.Device(0))
    assert other_thread is not device and other_thread == device and hash(other_thread) == hash(device)
    assert {device: 1}[other_thread] == 1


def test_default_device_is_the_current_ones(cuda_core) -> None:
    assert in_a_new_thread(lambda: cuda_core.Device().device_id) == 0
    last = cuda_core.system.get_num_devices() - 1

    def current_after_setting_the_last() -> int:
        cuda_core.Device(last).set_current()
        return cuda_core.Device().device_id

    assert in_a_new_thread(current_after_setting_the_last) == last


# ----------------------------------------------------------------------------------------
# DeviceProperties


def test_every_property_is_the_drivers_attribute_with_nvidias_type(cuda_core) -> None:
    from cuda.bindings import driver
    from cuda.core import _build_info
    from cuda.core._device import _PROPERTIES

    properties = cuda_core.Device(0).properties
    assert properties is cuda_core.Device(0).properties
    checked = missing = 0
    for name, kind, _, _ in _PROPERTIES:
        attribute = getattr(driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name.upper()}", None)
        if attribute is None:
            assert _build_info.cuda_major == 12, name
            with pytest.raises(AttributeError, match="needs (CUDA 13|cuda-bindings 12.9)"):
                getattr(properties, name)
            missing += 1
            continue
        value = getattr(properties, name)
        assert type(value) is kind, (name, value)
        status, expected = driver.cuDeviceGetAttribute(attribute, 0)
        if status == driver.CUresult.CUDA_ERROR_INVALID_VALUE:
            expected = 0  # an attribute this driver does not know reads as 0
        assert value == kind(expected), name
        assert getattr(properties, name) is value  # cached
        checked += 1
    assert checked + missing == len(_PROPERTIES) and checked >= 130  # cuda-bindings 12.8 lacks a few


def test_properties_on_a_hopper_class_gpu(cuda_core) -> None:
    properties = cuda_core.Device(0).properties
    assert properties.warp_size == 32 and properties.multiprocessor_count >= 1
    assert properties.max_threads_per_block >= 1024 and properties.l2_cache_size > 0
    assert properties.unified_addressing is True and properties.managed_memory is True
    with pytest.raises(AttributeError, match="no attribute 'no_such_property'"):
        properties.no_such_property
    print(
        f"\n{properties.multiprocessor_count} SMs, {properties.clock_rate} kHz, L2 {properties.l2_cache_size} B, "
        f"bus {properties.global_memory_bus_width} bit, pools {properties.memory_pools_supported}"
    )


# ----------------------------------------------------------------------------------------
# Contexts and initialization


def test_set_current_makes_the_primary_context_current(cuda_core) -> None:
    from cuda.bindings import driver

    device = cuda_core.Device(0)
    assert device.set_current() is None
    context = device.context
    assert device.set_current() is None and device.context is context  # same primary context, same object
    primary = driver_value(driver.cuDevicePrimaryCtxRetain, 0)
    driver_value(driver.cuDevicePrimaryCtxRelease, 0)
    assert current_context() == int(primary) == int(context.handle) != 0
    assert int(driver_value(driver.cuCtxGetDevice)) == 0
    assert repr(context) == f"<Context handle={int(primary):#x} device=0>"


def test_uninitialized_device_is_a_clear_cuda_error(cuda_core) -> None:
    from cuda.core._utils.cuda_utils import CUDAError

    for action in (
        lambda d: d.context,
        lambda d: d.create_stream(),
        lambda d: d.create_event(),
        lambda d: d.sync(),
        lambda d: d.allocate(16, stream=d.default_stream),
    ):
        error = in_a_new_thread(lambda: action(cuda_core.Device(0)))
        assert isinstance(error, CUDAError), error
        assert "Device 0 is not yet initialized" in str(error) and "set_current()" in str(error)


def test_set_current_with_a_context_round_trip(cuda_core, device, raw_context) -> None:
    primary = device.context
    mine = cuda_core.Context._from_handle(raw_context, 0)
    previous = device.set_current(mine)
    assert previous is primary  # the Context object set_current() had made current
    assert current_context() == int(raw_context) and device.context is mine
    restored = device.set_current(previous)
    assert restored is mine and current_context() == int(primary.handle)
    assert device.context is primary


def test_set_current_with_a_context_pops_what_others_pushed(cuda_core, device, raw_context) -> None:
    from cuda.bindings import driver

    primary = device.context
    driver_value(driver.cuCtxPushCurrent, raw_context)  # another library's context, on top
    popped = device.set_current(primary)
    assert popped == cuda_core.Context._from_handle(raw_context, 0) and popped is not primary
    assert current_context() == int(primary.handle)
    driver_value(driver.cuCtxPopCurrent)  # the primary context pushed in place of the popped one
    assert current_context() == int(primary.handle)


def test_set_current_with_nothing_current_returns_none(cuda_core, device) -> None:
    primary = device.context

    def on_a_fresh_thread():
        fresh = cuda_core.Device(0)
        return fresh.set_current(primary), current_context()

    assert in_a_new_thread(on_a_fresh_thread) == (None, int(primary.handle))


def test_set_current_refuses_wrong_contexts(cuda_core, device) -> None:
    with pytest.raises(TypeError, match="ctx must be a Context"):
        device.set_current("context")
    foreign = cuda_core.Context._from_handle(device.context.handle, 1)
    with pytest.raises(RuntimeError, match="belongs to device 1"):
        device.set_current(foreign)
    closed = cuda_core.Context._from_handle(device.context.handle, 0)
    closed.close()
    with pytest.raises(RuntimeError, match="Context has been closed"):
        device.set_current(closed)


def test_contexts_of_streams_equal_the_devices(cuda_core, device) -> None:
    stream = device.create_stream()
    assert stream.context == device.context and hash(stream.context) == hash(device.context)
    assert weakref.ref(device.context)() is device.context
    stream.close()


def test_a_reset_thread_cache_gives_fresh_devices(cuda_core, device) -> None:
    """What NVIDIA's test harness does between tests: pop the context, drop the thread's Devices."""
    from cuda.core import _device

    saved = _device._tls.devices
    try:
        del _device._tls.devices
        fresh = cuda_core.Device(0)
        assert fresh is not device and fresh == device
        with pytest.raises(cuda_core.CUDAError, match="not yet initialized"):
            fresh.context
        fresh.set_current()
        assert fresh.context == device.context
    finally:
        _device._tls.devices = saved
        device.set_current()


def test_create_context_needs_device_resources(cuda_core, device) -> None:
    with pytest.raises(ValueError, match="resources must be provided"):
        device.create_context()
    with pytest.raises(ValueError, match="resources must be provided"):
        device.create_context(cuda_core.ContextOptions(resources=None))
    with pytest.raises(TypeError):
        device.create_context(object())
    with pytest.raises(TypeError, match="SMResource and WorkqueueResource"):
        device.create_context(cuda_core.ContextOptions(resources=[object()]))


def test_to_system_device_without_nvml_bindings_says_so(cuda_core, device) -> None:
    if not cuda_core.system.CUDA_BINDINGS_NVML_IS_COMPATIBLE:  # else tests/gpu/test_gpu_system_nvml.py
        with pytest.raises(NotImplementedError, match="requires NVML support"):
            device.to_system_device()


# ----------------------------------------------------------------------------------------
# What a device makes


def test_streams_events_and_sync(cuda_core, device) -> None:
    stream = device.create_stream()
    assert stream.handle and stream.device is device
    event = device.create_event()
    assert event.handle
    stream.record(event)
    device.sync()
    assert event.is_done
    stream.close()


def test_default_stream_follows_the_environment(cuda_core, device, monkeypatch) -> None:
    monkeypatch.delenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", raising=False)
    assert int(device.default_stream.handle) == 1  # CU_STREAM_LEGACY
    monkeypatch.setenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "1")
    assert int(device.default_stream.handle) == 2  # CU_STREAM_PER_THREAD
    monkeypatch.setenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "0")
    assert int(device.default_stream.handle) == 1


def test_allocate_uses_the_device_memory_resource(cuda_core, device) -> None:
    assert isinstance(device.memory_resource, cuda_core.DeviceMemoryResource)
    assert device.memory_resource is device.memory_resource
    buffer = device.allocate(1 << 20, stream=device.default_stream)
    device.sync()
    assert buffer.size == 1 << 20 and buffer.memory_resource is device.memory_resource
    assert buffer.device_id == 0 and buffer.is_device_accessible and not buffer.is_host_accessible
    buffer.close()
    with pytest.raises(TypeError):
        device.allocate(16)  # the stream is keyword-only and required, as NVIDIA's
    with pytest.raises(TypeError, match="MemoryResource"):
        device.memory_resource = object()


def test_one_device_object_per_thread(cuda_core) -> None:
    seen = in_a_new_thread(lambda: cuda_core.Device(0))
    assert seen is not cuda_core.Device(0) and seen.device_id == 0
    assert cuda_core.Device(0) is cuda_core.Device(0)


# ----------------------------------------------------------------------------------------
# Errors with a driver loaded


def test_errors_carry_the_explanation_not_the_terse_string(cuda_core) -> None:
    from cuda.bindings import driver
    from cuda.core._utils import cuda_utils

    error = driver.CUresult.CUDA_ERROR_INVALID_VALUE
    name = driver_value(driver.cuGetErrorName, error).decode()
    terse = driver_value(driver.cuGetErrorString, error).decode()
    with pytest.raises(cuda_utils.CUDAError) as raised:
        cuda_utils._check_driver_error(error)
    explanation = cuda_utils.DRIVER_CU_RESULT_EXPLANATIONS.get(int(error))
    assert str(raised.value) == f"{name}: {explanation}" and explanation != terse


def test_handle_return_on_real_calls(cuda_core, device) -> None:
    from cuda.bindings import driver
    from cuda.core._utils.cuda_utils import CUDAError, handle_return

    assert int(handle_return(driver.cuCtxGetDevice())) == 0
    with pytest.raises(CUDAError, match="^CUDA_ERROR_INVALID_DEVICE: "):
        handle_return(driver.cuDeviceGet(10_000))
