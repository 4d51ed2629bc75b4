# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Managed and pinned memory on the real driver: ManagedMemoryResource pools (CUDA 13) and their
preferred locations, ManagedBuffer's advice and prefetch over pool and cuMemAllocManaged memory,
the batched operations, NUMA hosts, and PinnedMemoryResource pools."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

PAGE = mmap.PAGESIZE  # prefetch works on whole pages: one page per buffer keeps them apart


def driver_call(call, *args):
    from cuda.bindings import driver

    result = call(*args)
    assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
    return None if len(result) == 1 else result[1] if len(result) == 2 else result[1:]


def device_attribute(name: str, device_id: int = 0) -> int:
    from cuda.bindings import driver

    return driver_call(driver.cuDeviceGetAttribute, getattr(driver.CUdevice_attribute, name), device_id)


@pytest.fixture(scope="session")
def memory(cuda_core):
    from cuda.core import _memory

    return _memory


@pytest.fixture(autouse=True)
def concurrent_managed_access(device) -> None:
    """Every test here needs device 0 to access managed memory concurrently with the host."""
    if not device_attribute("CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS"):
        pytest.skip("device 0 has no concurrent managed access")


@pytest.fixture
def stream(device):
    stream = device.create_stream()
    yield stream
    stream.sync()
    stream.close()


@pytest.fixture
def managed_pool(memory, device, cuda_major):
    if cuda_major < 13:
        pytest.skip("managed memory pools need a CUDA 13 build")
    return memory.ManagedMemoryResource()


@pytest.fixture
def external(memory, device):
    """A ManagedBuffer over cuMemAllocManaged memory, kept alive by its owner."""
    from cuda.bindings import driver

    class Owner:
        def __init__(self) -> None:
            self.ptr = driver_call(driver.cuMemAllocManaged, PAGE, driver.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value)

        def __del__(self) -> None:
            driver.cuMemFree(self.ptr)

    owner = Owner()
    yield memory.ManagedBuffer.from_handle(owner.ptr, PAGE, owner=owner)


def read_back(memory, buffer, stream) -> np.ndarray:
    """A copy of a buffer's bytes, through pinned memory."""
    pinned = memory.LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(pinned, stream=stream)
    stream.sync()
    data = np.frombuffer(memoryview(pinned), dtype=np.uint8).copy()
    pinned.close()
    return data


def last_prefetch(buffer) -> int:
    from cuda.bindings import driver
    from cuda.core._memory._managed_buffer import _get_int_attr

    return _get_int_attr(buffer, driver.CUmem_range_attribute.CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION)


# ---------------------------------------------------------------------------------------------
# ManagedMemoryResource


def test_managed_pools(memory, managed_pool, device, stream) -> None:
    assert managed_pool.preferred_location is None and managed_pool.device_id == -1
    assert (managed_pool.is_managed, managed_pool.is_device_accessible, managed_pool.is_host_accessible) == (True,) * 3
    assert not managed_pool.is_handle_owned and not managed_pool.is_ipc_enabled
    buffer = managed_pool.allocate(PAGE, stream=stream)
    assert isinstance(buffer, memory.ManagedBuffer) and buffer.memory_resource is managed_pool
    assert buffer.is_managed and buffer.__dlpack_device__() == (13, 0)
    buffer.fill(9, stream=stream)
    np.testing.assert_array_equal(read_back(memory, buffer, stream), np.full(PAGE, 9, dtype=np.uint8))
    buffer.close()
    # The host reads and writes a device-preferring pool's memory directly (as NVIDIA's
    # memory_pool_resources example does).
    own = memory.ManagedMemoryResource({"preferred_location": 0, "preferred_location_type": "device"})
    buffer = own.allocate(PAGE, stream=stream)
    stream.sync()
    host = np.frombuffer(memoryview(buffer), dtype=np.uint8)
    host[:] = 5
    buffer.fill(9, stream=stream)
    stream.sync()
    assert (host == 9).all()
    del host
    buffer.close()
    cases = [
        (memory.ManagedMemoryResourceOptions(preferred_location=0), ("device", 0), 0),
        (memory.ManagedMemoryResourceOptions(preferred_location=0, preferred_location_type="device"), ("device", 0), 0),
        (memory.ManagedMemoryResourceOptions(preferred_location=-1), ("host", None), -1),
        ({"preferred_location_type": "host"}, ("host", None), -1),
        (memory.ManagedMemoryResourceOptions(), None, -1),
    ]
    for options, location, device_id in cases:
        resource = memory.ManagedMemoryResource(options)
        assert resource.is_handle_owned and resource.preferred_location == location and resource.device_id == device_id
        owned = resource.allocate(PAGE, stream=stream)
        assert owned.device_id == device_id and owned.is_managed
        owned.close()
        zero = resource.allocate(0, stream=stream)
        assert (zero.handle, zero.size, zero.device_id) == (0, 0, device_id)
        stream.sync()
        assert resource.attributes.used_mem_current == 0
        resource.close()


def test_managed_pool_on_a_host_numa_node(memory, managed_pool, device, stream) -> None:
    numa = device_attribute("CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID")
    if numa < 0:
        pytest.skip("no host NUMA node reported")
    for options in (
        {"preferred_location_type": "host_numa"},
        {"preferred_location_type": "host_numa", "preferred_location": numa},
    ):
        resource = memory.ManagedMemoryResource(options)
        assert resource.preferred_location == ("host_numa", numa)
        resource.allocate(PAGE, stream=stream).close()


def test_managed_resource_on_cuda_12(memory, device, cuda_major) -> None:
    if cuda_major >= 13:
        pytest.skip("a CUDA 13 build has managed pools")
    with pytest.raises(RuntimeError, match="requires CUDA 13.0 or later"):
        memory.ManagedMemoryResource()


# ---------------------------------------------------------------------------------------------
# ManagedBuffer


def test_advice_round_trips(cuda_core, memory, device, external) -> None:
    Host = cuda_core.Host
    buffer = external
    assert buffer.read_mostly is False
    buffer.read_mostly = True
    assert buffer.read_mostly is True
    buffer.read_mostly = False
    assert buffer.read_mostly is False
    assert buffer.preferred_location is None
    buffer.preferred_location = device
    assert buffer.preferred_location == device
    buffer.preferred_location = Host()
    assert buffer.preferred_location is Host()
    buffer.preferred_location = None
    assert buffer.preferred_location is None
    numa = device_attribute("CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID")
    if numa >= 0:
        buffer.preferred_location = Host(numa_id=numa)
        # The driver may keep the node, collapse it to the host, or report no single location.
        assert buffer.preferred_location in (Host(numa_id=numa), Host(), None)
        buffer.preferred_location = None


def test_accessed_by_is_a_live_set(cuda_core, memory, device, external) -> None:
    Host = cuda_core.Host
    buffer = external
    assert device not in buffer.accessed_by and len(buffer.accessed_by) == 0
    buffer.accessed_by.add(device)
    assert device in buffer.accessed_by and list(buffer.accessed_by) == [device]
    buffer.accessed_by.discard(device)
    assert device not in buffer.accessed_by
    buffer.accessed_by = {device, Host()}
    assert set(buffer.accessed_by) == {device, Host()}
    for bad in (Host(numa_id=0), Host.numa_current()):
        with pytest.raises(ValueError, match=f"does not support location_type='{_kind(bad)}'"):
            buffer.accessed_by.add(bad)
        with pytest.raises(ValueError, match="does not support location_type"):
            buffer.accessed_by = {device, bad}  # checked before anything changes
        buffer.accessed_by.discard(bad)  # never a member: ignored
    assert set(buffer.accessed_by) == {device, Host()}
    with pytest.raises(TypeError, match="Devices and Host"):
        buffer.accessed_by.add(0)
    assert buffer.accessed_by & {device} == {device} and isinstance(buffer.accessed_by | set(), set)
    buffer.accessed_by = set()
    assert set(buffer.accessed_by) == set() and "AccessedBySetProxy" in repr(buffer.accessed_by)


def _kind(host) -> str:
    return "host_numa_current" if host.is_numa_current else "host_numa"


def test_prefetch_moves_pages(cuda_core, memory, device, stream, external, cuda_major) -> None:
    Host = cuda_core.Host
    buffers = [external]
    if cuda_major >= 13:
        buffers.append(memory.ManagedMemoryResource().allocate(PAGE, stream=stream))
    for buffer in buffers:
        buffer.prefetch(device, stream=stream)
        stream.sync()
        assert last_prefetch(buffer) == 0
        buffer.prefetch(Host(), stream=stream)
        stream.sync()
        assert last_prefetch(buffer) == -1
        with pytest.raises(ValueError, match="location is required"):
            buffer.prefetch(None, stream=stream)
        with pytest.raises(TypeError, match="Device, Host, or None"):
            buffer.prefetch(0, stream=stream)
    numa = device_attribute("CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID")
    if numa >= 0:
        external.prefetch(Host(numa_id=numa), stream=stream)
        external.prefetch(Host.numa_current(), stream=stream)
        stream.sync()


def test_discard_needs_cuda_13(cuda_core, memory, device, stream, external, cuda_major) -> None:
    from cuda.core import utils

    if cuda_major < 13:
        for call in (
            lambda: external.discard(stream=stream),
            lambda: external.discard_prefetch(device, stream=stream),
            lambda: utils.discard_batch(stream, [external]),
            lambda: utils.discard_prefetch_batch(stream, [external], device),
        ):
            with pytest.raises(NotImplementedError, match="CUDA 13"):
                call()
        return
    external.prefetch(device, stream=stream)
    external.discard(stream=stream)
    external.discard_prefetch(device, stream=stream)
    stream.sync()
    assert last_prefetch(external) == 0


def test_batches(cuda_core, memory, device, stream, cuda_major) -> None:
    from cuda.bindings import driver
    from cuda.core import utils

    Host = cuda_core.Host
    ptrs = [
        driver_call(driver.cuMemAllocManaged, PAGE, driver.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value)
        for _ in range(3)
    ]
    buffers = [memory.ManagedBuffer.from_handle(ptr, PAGE) for ptr in ptrs]
    try:
        utils.prefetch_batch(stream, buffers, device)
        stream.sync()
        assert [last_prefetch(b) for b in buffers] == [0, 0, 0]
        utils.prefetch_batch(stream, buffers, [Host(), device, Host()])
        stream.sync()
        assert [last_prefetch(b) for b in buffers] == [-1, 0, -1]
        with pytest.raises(TypeError, match="sequence of Buffers"):
            utils.prefetch_batch(stream, buffers[0], device)
        with pytest.raises(ValueError, match="length"):
            utils.prefetch_batch(stream, buffers, [device])
        if cuda_major >= 13:
            utils.discard_batch(stream, buffers)
            utils.discard_prefetch_batch(stream, buffers, device)
            stream.sync()
            assert [last_prefetch(b) for b in buffers] == [0, 0, 0]
    finally:
        for ptr in ptrs:
            driver_call(driver.cuMemFree, ptr)


def test_operations_refuse_memory_that_is_not_managed(cuda_core, memory, device, stream) -> None:
    plain = memory.DeviceMemoryResource(device).allocate(PAGE, stream=stream)
    buffer = memory.ManagedBuffer.from_handle(plain.handle, plain.size, owner=plain)
    for use in (
        lambda: setattr(buffer, "read_mostly", True),
        lambda: buffer.prefetch(device, stream=stream),
        lambda: buffer.discard_prefetch(device, stream=stream),
        lambda: buffer.accessed_by.add(device),
    ):
        with pytest.raises(ValueError, match="managed-memory allocation"):
            use()
    plain.close()


# ---------------------------------------------------------------------------------------------
# PinnedMemoryResource


def test_pinned_pools(memory, device, stream, cuda_major) -> None:
    try:
        resource = memory.PinnedMemoryResource(memory.PinnedMemoryResourceOptions(max_size=2 * 1024 * 1024))
    except Exception as err:
        pytest.skip(f"no host memory pools here: {err}")
    assert (resource.device_id, resource.numa_id, resource.is_handle_owned) == (-1, -1, True)
    assert (resource.is_device_accessible, resource.is_host_accessible, resource.is_managed) == (True, True, False)
    buffer = resource.allocate(4096, stream=stream)
    assert (buffer.device_id, buffer.is_managed, buffer.__dlpack_device__()) == (-1, False, (3, 0))
    stream.sync()
    expected = np.random.default_rng(7).integers(0, 256, 4096, dtype=np.uint8)
    np.frombuffer(memoryview(buffer), dtype=np.uint8)[:] = expected
    on_device = memory.DeviceMemoryResource(device).allocate(4096, stream=stream)
    on_device.copy_from(buffer, stream=stream)
    back = resource.allocate(4096, stream=stream)
    back.copy_from(on_device, stream=stream)
    stream.sync()
    np.testing.assert_array_equal(np.from_dlpack(back).view(np.uint8), expected)
    for each in (buffer, on_device, back):
        each.close()
    stream.sync()
    assert resource.attributes.used_mem_current == 0
    resource.close()
    if cuda_major >= 13:
        current = memory.PinnedMemoryResource()
        assert not current.is_handle_owned and current.numa_id == -1
        current.allocate(64, stream=stream).close()
    else:
        with pytest.raises(RuntimeError, match="requires CUDA 13.0 or later"):
            memory.PinnedMemoryResource()
    numa = device_attribute("CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID")
    if numa >= 0:
        on_node = memory.PinnedMemoryResource({"numa_id": numa})
        assert on_node.numa_id == numa
        on_node.allocate(64, stream=stream).close()
