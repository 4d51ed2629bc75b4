"""Buffers and memory resources on the real driver: device-pool, pinned and managed memory,
copies checked with numpy, DLPack, managed prefetch and advice, and freeing seen in the pool."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

KIB = 1024
MIB = 1024 * KIB


def driver_value(call, *args):
    from cuda.bindings import driver
    result = call(*args)
    assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
    return result[1] if len(result) == 2 else result[1:]


@pytest.fixture(scope="session")
def memory(cuda_core):
    from cuda.core import _memory
    return _memory


@pytest.fixture
def device(cuda_core):
    device = cuda_core.Device(0)
    device.set_current()
    return device


@pytest.fixture
def stream(device):
    stream = device.create_stream()
    yield stream
    stream.sync()
    stream.close()


class ForeignStream:
    """Another library's stream object, speaking only the protocol."""

    def __init__(self, address: int) -> None:
        self.address = address

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.address)


def host_bytes(buffer) -> np.ndarray:
    """A host-accessible buffer's bytes as a writable uint8 array over its memory (DLPack)."""
    return np.from_dlpack(buffer).view(np.uint8)


def pattern(size: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)


def pool_bytes_in_use(device_id: int) -> int:
    """What the device's default pool has handed out and not had back (the driver's count)."""
    from cuda.bindings import driver
    pool = driver_value(driver.cuDeviceGetDefaultMemPool, device_id)
    used = driver_value(driver.cuMemPoolGetAttribute, pool,
                        driver.CUmemPool_attribute.CU_MEMPOOL_ATTR_USED_MEM_CURRENT)
    return int(used)


def test_device_round_trip_through_pinned_buffers(memory, device, stream) -> None:
    pinned = memory.LegacyPinnedMemoryResource()
    on_device = memory.DeviceMemoryResource(device)
    size = MIB
    expected = pattern(size)
    source = pinned.allocate(size, stream)
    host_bytes(source)[:] = expected
    first = on_device.allocate(size, stream)
    first.copy_from(source, stream=stream)
    second = first.copy_to(stream=stream)  # a new buffer from the same resource
    assert second.memory_resource is on_device and second.size == size
    assert second.handle != first.handle
    back = pinned.allocate(size, stream)
    assert second.copy_to(back, stream=stream) is back
    stream.sync()
    np.testing.assert_array_equal(host_bytes(back), expected)
    for buffer in (source, first, second, back):
        buffer.close()


def test_device_memory_resource_and_its_buffers(memory, device) -> None:
    by_int, by_device = memory.DeviceMemoryResource(0), memory.DeviceMemoryResource(device)
    assert by_int.device_id == by_device.device_id == 0
    buffer = by_device.allocate(64 * KIB)  # no stream: the legacy default stream
    assert buffer.is_device_accessible and not buffer.is_host_accessible
    assert buffer.device_id == 0
    assert buffer.__dlpack_device__() == (2, 0)
    with pytest.raises((RuntimeError, BufferError), match="Unsupported device"):
        np.from_dlpack(buffer)  # numpy reads host memory only
    buffer.close()
    with pytest.raises(ValueError, match="device_id must be in"):
        memory.DeviceMemoryResource(10_000)


def test_pinned_buffers_speak_dlpack(memory, device) -> None:
    buffer = memory.LegacyPinnedMemoryResource().allocate(4 * KIB)
    assert buffer.is_host_accessible and buffer.is_device_accessible and buffer.device_id == -1
    assert buffer.__dlpack_device__() == (3, 0)
    expected = pattern(4 * KIB, seed=1)
    host_bytes(buffer)[:] = expected
    np.testing.assert_array_equal(np.from_dlpack(buffer).view(np.uint8), expected)
    np.testing.assert_array_equal(np.from_dlpack(buffer, device="cpu").view(np.uint8), expected)
    buffer.close()


def test_freeing_returns_memory_to_the_pool(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device)
    gc.collect()
    device.sync()
    before = pool_bytes_in_use(0)
    buffer = resource.allocate(MIB, stream)
    stream.sync()
    assert pool_bytes_in_use(0) >= before + MIB
    buffer.close()
    buffer.close()  # idempotent: one free
    stream.sync()
    assert pool_bytes_in_use(0) == before
    with pytest.raises(RuntimeError, match="this Buffer is closed"):
        buffer.handle
    with pytest.raises(RuntimeError, match="this Buffer is closed"):
        buffer.copy_to(stream=stream)
    dropped = resource.allocate(MIB, stream)
    stream.sync()
    assert pool_bytes_in_use(0) >= before + MIB
    del dropped  # garbage collection frees it, on the stream it was allocated on
    gc.collect()
    stream.sync()
    assert pool_bytes_in_use(0) == before


def test_allocations_on_created_and_foreign_streams(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device)
    pinned = memory.LegacyPinnedMemoryResource()
    foreign = ForeignStream(stream.__cuda_stream__()[1])
    other = device.create_stream()
    size = 256 * KIB
    expected = pattern(size, seed=2)
    source = pinned.allocate(size, foreign)
    host_bytes(source)[:] = expected
    a = resource.allocate(size, stream)
    b = resource.allocate(size, foreign)
    a.copy_from(source, stream=foreign)
    b.copy_from(a, stream=stream)
    back = b.copy_to(pinned.allocate(size), stream=stream)
    stream.sync()
    np.testing.assert_array_equal(host_bytes(back), expected)
    other.wait(stream)
    a.close(stream=other)  # freed in another stream's order
    b.close()
    other.sync()
    other.close()
    for buffer in (source, back):
        buffer.close()


def test_a_closed_allocation_stream_still_frees(memory, device) -> None:
    resource = memory.DeviceMemoryResource(device)
    gc.collect()
    device.sync()
    before = pool_bytes_in_use(0)
    stream = device.create_stream()
    buffer = resource.allocate(MIB, stream)
    stream.close()
    buffer.close()  # falls back to a context sync and an unordered free
    device.sync()
    assert pool_bytes_in_use(0) == before


def test_no_current_context_is_a_clear_error(memory, device) -> None:
    resource = memory.DeviceMemoryResource(device)
    errors: list[BaseException] = []

    def allocate_on_a_fresh_thread() -> None:
        try:
            resource.allocate(KIB)
        except BaseException as err:  # handed to the main thread
            errors.append(err)

    worker = threading.Thread(target=allocate_on_a_fresh_thread)
    worker.start()
    worker.join()
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert "Device(0).set_current()" in str(errors[0])


def test_from_handle_asks_the_driver(memory, device) -> None:
    owners = (memory.DeviceMemoryResource(device).allocate(4 * KIB),
              memory.LegacyPinnedMemoryResource().allocate(4 * KIB),
              memory.ManagedMemoryResource().allocate(4 * KIB))
    device.sync()
    expected = [((2, 0), True, False, 0), ((3, 0), True, True, -1), ((13, 0), True, True, -1)]
    for owner, (dlpack_device, on_device, on_host, device_id) in zip(owners, expected):
        view = memory.Buffer.from_handle(owner.handle, owner.size)
        assert view.__dlpack_device__() == dlpack_device
        assert (view.is_device_accessible, view.is_host_accessible, view.device_id) == (on_device, on_host, device_id)
        view.close()  # owns nothing: the owners stay usable (copied through below)
    array = pattern(64, seed=3)
    plain = memory.Buffer.from_handle(array.ctypes.data, array.size)
    assert plain.is_host_accessible
    np.testing.assert_array_equal(np.from_dlpack(plain).view(np.uint8), array)
    # The owners still hold their memory: a copy through all three works.
    stream = device.create_stream()
    owners[0].copy_from(owners[2], stream=stream)
    owners[1].copy_from(owners[0], stream=stream)
    stream.sync()
    for owner in owners:
        owner.close()
    stream.close()


def concurrent_managed_access(device_id: int) -> bool:
    from cuda.bindings import driver
    attribute = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS
    return bool(driver_value(driver.cuDeviceGetAttribute, attribute, device_id))


def test_managed_prefetch_to_device_and_host(memory, device, stream) -> None:
    if not concurrent_managed_access(0):
        pytest.skip("device 0 has no concurrent managed access: prefetching to it is not allowed")
    buffer = memory.ManagedMemoryResource().allocate(64 * KIB, stream)
    assert isinstance(buffer, memory.ManagedBuffer)
    assert buffer.is_host_accessible and buffer.is_device_accessible
    assert buffer.__dlpack_device__() == (13, 0)
    expected = pattern(64 * KIB, seed=4)
    host_bytes(buffer)[:] = expected
    assert buffer.last_prefetch_location is None
    buffer.prefetch(device, stream=stream)
    stream.sync()
    assert buffer.last_prefetch_location is device
    # Read it on the device side: copy to pinned memory through the driver.
    pinned = memory.LegacyPinnedMemoryResource().allocate(64 * KIB)
    buffer.copy_to(pinned, stream=stream)
    buffer.prefetch(memory.Host(), stream=ForeignStream(stream.__cuda_stream__()[1]))
    stream.sync()
    assert buffer.last_prefetch_location is memory.Host()
    np.testing.assert_array_equal(host_bytes(pinned), expected)
    np.testing.assert_array_equal(host_bytes(buffer), expected)
    with pytest.raises(TypeError, match="Device or Host"):
        buffer.prefetch("gpu", stream=stream)
    pinned.close()
    buffer.close()
    buffer.close()
    with pytest.raises(RuntimeError, match="this Buffer is closed"):
        buffer.prefetch(device, stream=stream)


def test_managed_advice_round_trips(memory, device) -> None:
    buffer = memory.ManagedMemoryResource().allocate(64 * KIB)
    assert buffer.read_mostly is False
    buffer.read_mostly = True
    assert buffer.read_mostly is True
    buffer.read_mostly = False
    assert buffer.read_mostly is False

    assert buffer.preferred_location is None
    buffer.preferred_location = device
    assert buffer.preferred_location is device
    buffer.preferred_location = memory.Host()
    assert buffer.preferred_location is memory.Host()
    buffer.preferred_location = None
    assert buffer.preferred_location is None

    assert device not in buffer.accessed_by
    buffer.accessed_by.add(device)
    assert device in buffer.accessed_by and list(buffer.accessed_by) == [device]
    buffer.accessed_by.discard(device)
    assert len(buffer.accessed_by) == 0
    buffer.accessed_by = [device]
    assert set(buffer.accessed_by) == {device}
    buffer.accessed_by = []
    assert set(buffer.accessed_by) == set()
    buffer.close()
    with pytest.raises(RuntimeError, match="this Buffer is closed"):
        buffer.read_mostly
