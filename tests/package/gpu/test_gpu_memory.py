# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Buffers and pool resources on the real driver: the device's current pool and pools of one's
own, their attributes and close, fill and copies checked through pinned host memory, DLPack,
Buffer.from_handle over each kind of pointer, user resources, deallocation streams, and peer
access on one GPU."""

from __future__ import annotations

import gc
import re

import numpy as np
import pytest

KIB = 1024
MIB = 1024 * KIB


def driver_call(call, *args):
    """The value(s) of a cuda.bindings driver call, asserting success."""
    from cuda.bindings import driver

    result = call(*args)
    assert result[0] == driver.CUresult.CUDA_SUCCESS, result[0]
    return None if len(result) == 1 else result[1] if len(result) == 2 else result[1:]


@pytest.fixture(scope="session")
def memory(cuda_core):
    from cuda.core import _memory

    return _memory


@pytest.fixture
def stream(device):
    stream = device.create_stream()
    yield stream
    stream.sync()
    stream.close()


def host_view(buffer) -> np.ndarray:
    """A host-accessible buffer's bytes as a writable uint8 array over its memory (buffer protocol)."""
    return np.frombuffer(memoryview(buffer), dtype=np.uint8)


def pattern(size: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8)


def read_back(memory, buffer, stream) -> np.ndarray:
    """A copy of any buffer's bytes, through pinned memory."""
    pinned = memory.LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(pinned, stream=stream)
    stream.sync()
    data = host_view(pinned).copy()
    pinned.close()
    return data


class DriverAllocResource:
    """A user's resource over cuMemAlloc that records the stream of each deallocation."""

    @staticmethod
    def make(memory, device_id: int):
        from cuda.bindings import driver

        class Resource(memory.MemoryResource):
            def __init__(self) -> None:
                self.freed: list[tuple[int, object]] = []

            def allocate(self, size, *, stream=None):
                ptr = driver_call(driver.cuMemAlloc, size)
                return memory.Buffer.from_handle(ptr, size, mr=self, stream=stream)

            def deallocate(self, ptr, size, *, stream=None):
                self.freed.append((int(ptr), stream))
                driver_call(driver.cuMemFree, ptr)

            @property
            def is_device_accessible(self):
                return True

            @property
            def is_host_accessible(self):
                return False

            @property
            def device_id(self):
                return device_id

        return Resource()


# ---------------------------------------------------------------------------------------------
# DeviceMemoryResource


def test_current_pool_resource(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device)
    # One pool, the device's current (as integers: cuda-bindings 12.8's CUmemoryPool has no __eq__).
    assert int(memory.DeviceMemoryResource(0).handle) == int(resource.handle)
    assert (resource.device_id, resource.is_device_accessible, resource.is_host_accessible) == (0, True, False)
    assert (resource.is_managed, resource.is_ipc_enabled, resource.is_mapped, resource.uuid) == (
        False,
        False,
        False,
        None,
    )
    assert resource.is_handle_owned is False
    assert resource.attributes.release_threshold > 0  # raised from 0: freed memory stays pooled
    buffer = resource.allocate(64 * KIB, stream=stream)
    assert buffer.size == 64 * KIB and buffer.handle != 0 and buffer.memory_resource is resource
    assert buffer.device_id == 0 and buffer.is_device_accessible and not buffer.is_host_accessible
    assert buffer.is_managed is False and buffer.__dlpack_device__() == (2, 0)
    buffer.close()
    resource.close()  # not owned: nothing happens
    assert not resource.is_closed
    resource.allocate(KIB, stream=stream).close()
    with pytest.raises(TypeError, match="stream is required"):
        resource.allocate(KIB, stream=None)
    with pytest.raises(ValueError, match="device_id must be in"):
        memory.DeviceMemoryResource(10_000)


def test_owned_pool_lifecycle(cuda_core, memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions(max_size=2 * MIB))
    assert resource.is_handle_owned and not resource.is_ipc_enabled
    assert resource.handle != memory.DeviceMemoryResource(device).handle
    attributes = resource.attributes
    assert attributes is resource.attributes
    before = attributes.used_mem_current
    buffers = [resource.allocate(KIB, stream=stream), resource.allocate(2 * KIB, stream=stream)]
    assert buffers[0].handle != buffers[1].handle
    assert attributes.used_mem_current >= before + 3 * KIB
    assert attributes.used_mem_high >= attributes.used_mem_current
    assert attributes.reserved_mem_high >= attributes.reserved_mem_current >= attributes.used_mem_current
    assert all(
        isinstance(getattr(attributes, name), bool)
        for name in (
            "reuse_follow_event_dependencies",
            "reuse_allow_opportunistic",
            "reuse_allow_internal_dependencies",
        )
    )
    assert re.fullmatch(
        r"_MemPoolAttributes\(release_threshold=\d+, reserved_mem_current=\d+, reserved_mem_high=\d+, "
        r"reuse_allow_internal_dependencies=(True|False), reuse_allow_opportunistic=(True|False), "
        r"reuse_follow_event_dependencies=(True|False), used_mem_current=\d+, used_mem_high=\d+\)",
        repr(attributes),
    )
    resource.close()
    assert resource.is_closed
    for use in (lambda: resource.allocate(KIB, stream=stream), lambda: resource.attributes, lambda: resource.handle):
        with pytest.raises(RuntimeError, match="DeviceMemoryResource has been closed"):
            use()
    for buffer in buffers:  # still freed after close, through the closed resource
        buffer.close(stream)
    stream.sync()
    resource = None
    gc.collect()
    assert attributes.used_mem_current == 0  # the attributes kept the pool alive
    small = memory.DeviceMemoryResource(device, {"max_size": 2 * MIB})
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_OUT_OF_MEMORY"):
        small.allocate(64 * MIB, stream=stream)  # max_size holds


def test_options_as_a_dict_and_bad_options(memory, device) -> None:
    resource = memory.DeviceMemoryResource(0, {"max_size": 4 * MIB})
    assert resource.is_handle_owned
    resource.close()
    with pytest.raises(ValueError, match="max_size must be a non-negative int"):
        memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions(max_size=-1))
    with pytest.raises(TypeError):
        memory.DeviceMemoryResource(device, {"size": 1})


def test_not_ipc_enabled_errors_are_nvidias(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions(max_size=2 * MIB))
    buffer = resource.allocate(64, stream=stream)
    for use in (
        lambda: resource.allocation_handle,
        lambda: buffer.ipc_descriptor,
        lambda: memory.Buffer.from_ipc_descriptor(resource, memory.IPCBufferDescriptor._init(b"", 0), stream=stream),
    ):
        with pytest.raises(RuntimeError, match="Memory resource is not IPC-enabled"):
            use()
    buffer.close()
    stream.sync()


def test_zero_byte_allocations(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device)
    buffer = resource.allocate(0, stream=stream)
    assert (buffer.handle, buffer.size, buffer.device_id) == (0, 0, 0)
    buffer.fill(7, stream=stream)
    buffer.copy_from(resource.allocate(0, stream=stream), stream=stream)
    buffer.close()
    assert memory.LegacyPinnedMemoryResource().allocate(0).handle == 0


def test_freeing_returns_memory_to_the_pool(memory, device, stream) -> None:
    resource = memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions())
    used = resource.attributes
    buffer = resource.allocate(MIB, stream=stream)
    stream.sync()
    assert used.used_mem_current >= MIB
    buffer.close()
    buffer.close()  # idempotent: one free
    stream.sync()
    assert used.used_mem_current == 0
    dropped = resource.allocate(MIB, stream=stream)
    assert used.used_mem_current >= MIB
    del dropped  # collection frees it on the stream it was allocated on
    gc.collect()
    stream.sync()
    assert used.used_mem_current == 0
    with resource.allocate(MIB, stream=stream) as scoped:
        assert used.used_mem_current >= MIB
    stream.sync()
    assert scoped.is_closed and used.used_mem_current == 0


def test_a_closed_allocation_stream_still_frees(memory, device) -> None:
    resource = memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions())
    stream = device.create_stream()
    buffer = resource.allocate(MIB, stream=stream)
    stream.close()
    buffer.close()  # falls back to a context synchronization and the default stream
    device.sync()
    assert resource.attributes.used_mem_current == 0


def test_deallocation_stream_can_change(memory, device) -> None:
    resource = memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions())
    stream, other = device.create_stream(), device.create_stream()
    buffer = resource.allocate(KIB, stream=stream)
    with pytest.raises(TypeError, match="stream is required"):
        buffer.set_deallocation_stream(None)
    stream.sync()
    buffer.set_deallocation_stream(other)
    stream.close()  # the allocation stream is gone; the buffer frees on `other`
    buffer.close()
    other.sync()
    assert resource.attributes.used_mem_current == 0
    other.close()


# ---------------------------------------------------------------------------------------------
# Contents: fill and copies


@pytest.mark.parametrize(
    "value, unit",
    [
        (0x42, b"\x42"),
        (b"\x7f", b"\x7f"),
        (b"\x34\x12", b"\x34\x12"),
        (b"\xef\xbe\xad\xde", b"\xef\xbe\xad\xde"),
        (np.uint16(0x1234), np.uint16(0x1234).tobytes()),
        (np.int32(-2), np.int32(-2).tobytes()),
        (np.float32(1.5), np.float32(1.5).tobytes()),
        (np.int8(-1), b"\xff"),
    ],
)
def test_fill_writes_the_pattern(memory, device, stream, value, unit) -> None:
    for resource in (memory.DeviceMemoryResource(device), memory.LegacyPinnedMemoryResource()):
        buffer = resource.allocate(64, stream=stream)
        buffer.fill(value, stream=stream)
        assert read_back(memory, buffer, stream).tobytes() == unit * (64 // len(unit))
        buffer.close()


def test_fill_refusals(memory, device, stream) -> None:
    buffer = memory.DeviceMemoryResource(device).allocate(66, stream=stream)
    for value, error in (
        (256, OverflowError),
        (-1, OverflowError),
        ("x", TypeError),
        (b"", ValueError),
        (b"abc", ValueError),
        (np.float64(0), ValueError),
        (b"\x01\x02\x03\x04", ValueError),
    ):
        with pytest.raises(error):
            buffer.fill(value, stream=stream)
    buffer.fill(b"\x01\x02", stream=stream)  # 66 is a multiple of 2
    buffer.close()


def test_round_trip_through_device_memory(memory, device, stream) -> None:
    pinned, on_device = memory.LegacyPinnedMemoryResource(), memory.DeviceMemoryResource(device)
    expected = pattern(MIB)
    source = pinned.allocate(MIB)
    host_view(source)[:] = expected
    first = on_device.allocate(MIB, stream=stream)
    first.copy_from(source, stream=stream)
    second = first.copy_to(stream=stream)  # a new buffer from the same resource
    assert second.memory_resource is on_device and second.handle != first.handle
    back = pinned.allocate(MIB)
    assert second.copy_to(back, stream=stream) is back
    stream.sync()
    np.testing.assert_array_equal(host_view(back), expected)
    np.testing.assert_array_equal(np.from_dlpack(back).view(np.uint8), expected)
    with pytest.raises(ValueError, match="buffer sizes mismatch"):
        first.copy_to(pinned.allocate(KIB), stream=stream)
    for buffer in (source, first, second, back):
        buffer.close()


def test_copies_on_a_foreign_stream(memory, device, stream) -> None:
    class ForeignStream:
        def __init__(self, address: int) -> None:
            self.address = address

        def __cuda_stream__(self) -> tuple[int, int]:
            return (0, self.address)

    foreign = ForeignStream(stream.__cuda_stream__()[1])
    resource = memory.DeviceMemoryResource(device)
    expected = pattern(4 * KIB, seed=2)
    source = memory.LegacyPinnedMemoryResource().allocate(4 * KIB, stream=foreign)
    host_view(source)[:] = expected
    on_device = resource.allocate(4 * KIB, stream=foreign)
    on_device.copy_from(source, stream=foreign)
    np.testing.assert_array_equal(read_back(memory, on_device, stream), expected)
    on_device.close()
    source.close()


# ---------------------------------------------------------------------------------------------
# Buffer.from_handle over each kind of pointer


def test_from_handle_asks_the_driver(memory, device, stream) -> None:
    from cuda.bindings import driver

    managed_ptr = driver_call(driver.cuMemAllocManaged, 4 * KIB, driver.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value)
    owners = (
        memory.DeviceMemoryResource(device).allocate(4 * KIB, stream=stream),
        memory.LegacyPinnedMemoryResource().allocate(4 * KIB),
    )
    stream.sync()
    cases = [
        (owners[0].handle, (2, 0), True, False, False, 0),
        (owners[1].handle, (3, 0), True, True, False, 0),
        (int(managed_ptr), (13, 0), True, True, True, 0),
    ]
    for ptr, dlpack_device, on_device, on_host, managed, device_id in cases:
        view = memory.Buffer.from_handle(ptr, 4 * KIB)
        assert view.__dlpack_device__() == dlpack_device
        assert (view.is_device_accessible, view.is_host_accessible, view.is_managed, view.device_id) == (
            on_device,
            on_host,
            managed,
            device_id,
        )
        assert view.memory_resource is None and view.owner is None
        view.close()  # owns nothing: the owners stay usable
    array = pattern(64, seed=3)
    plain = memory.Buffer.from_handle(array.ctypes.data, array.size, owner=array)
    assert (plain.is_device_accessible, plain.is_host_accessible, plain.device_id) == (False, True, -1)
    np.testing.assert_array_equal(np.from_dlpack(plain).view(np.uint8), array)
    driver_call(driver.cuMemHostRegister, array.ctypes.data, array.size, 0)
    try:
        registered = memory.Buffer.from_handle(array.ctypes.data, array.size, owner=array)
        assert (registered.is_device_accessible, registered.is_host_accessible, registered.device_id) == (True, True, 0)
    finally:
        driver_call(driver.cuMemHostUnregister, array.ctypes.data)
    for owner in owners:
        owner.close()
    driver_call(driver.cuMemFree, managed_ptr)


def test_user_resources_get_a_stream_to_free_on(memory, device, stream) -> None:
    resource = DriverAllocResource.make(memory, 0)
    buffer = resource.allocate(KIB)  # no stream given: the default stream is recorded
    ptr = buffer.handle
    buffer.close()
    assert resource.freed[0][0] == ptr and resource.freed[0][1] is not None
    assert hasattr(resource.freed[0][1], "__cuda_stream__")
    buffer = resource.allocate(KIB)
    buffer.close(stream)  # close(stream) forwards that stream
    assert int(resource.freed[1][1].handle) == int(stream.handle)
    buffer = resource.allocate(KIB, stream=stream)
    del buffer
    gc.collect()
    assert int(resource.freed[2][1].handle) == int(stream.handle)
    # A user's resource handing out managed memory without saying so: the driver tells.
    from cuda.bindings import driver

    class Unified(memory.MemoryResource):
        def allocate(self, size, *, stream=None):
            ptr = driver_call(driver.cuMemAllocManaged, size, driver.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value)
            return memory.Buffer.from_handle(ptr, size, mr=self)

        def deallocate(self, ptr, size, *, stream=None):
            driver_call(driver.cuMemFree, ptr)

        is_device_accessible = property(lambda self: True)
        is_host_accessible = property(lambda self: True)
        device_id = property(lambda self: 0)

    unified = Unified().allocate(KIB)
    assert unified.is_managed and unified.__dlpack_device__() == (13, 0)
    unified.close()


def test_buffer_protocol_on_pinned_memory(memory, device) -> None:
    buffer = memory.LegacyPinnedMemoryResource().allocate(16)
    with memoryview(buffer) as view:
        view[:] = bytes(range(16))
    assert bytes(memoryview(buffer)) == bytes(range(16))
    device_buffer = memory.DeviceMemoryResource(device).allocate(16, stream=device.create_stream())
    with pytest.raises(BufferError, match="not host-accessible"):
        memoryview(device_buffer)
    device_buffer.close()
    buffer.close()


def test_synchronous_resource(memory, device, stream) -> None:
    from cuda.core._memory._legacy import _SynchronousMemoryResource

    resource = _SynchronousMemoryResource(0)
    assert (resource.device_id, resource.is_device_accessible, resource.is_host_accessible) == (0, True, False)
    buffer = resource.allocate(64, stream=stream)
    buffer.fill(3, stream=stream)
    assert read_back(memory, buffer, stream).tolist() == [3] * 64
    buffer.close(stream=stream)
    assert resource.allocate(0).handle == 0
    with pytest.raises(RuntimeError, match="not bound to any GPU"):
        memory.LegacyPinnedMemoryResource().device_id


# ---------------------------------------------------------------------------------------------
# Peer access on one GPU


def test_peer_access_on_one_gpu(memory, device) -> None:
    from cuda.core._memory._device_memory_resource import DMR_mempool_get_access
    from cuda.core._memory._peer_access_utils import PeerAccessibleBySetProxy

    for resource in (
        memory.DeviceMemoryResource(device),
        memory.DeviceMemoryResource(device, memory.DeviceMemoryResourceOptions(max_size=2 * MIB)),
    ):
        peers = resource.peer_accessible_by
        assert isinstance(peers, PeerAccessibleBySetProxy)
        assert DMR_mempool_get_access(resource, 0) == "rw" and DMR_mempool_get_access(resource, device) == "rw"
        assert 0 not in peers and device not in peers and "not-a-device" not in peers and 10_000 not in peers
        if len(peers) == 0:  # another test may have granted peers on the shared current pool
            assert set(peers) == set() and "set()" in repr(peers)
        resource.peer_accessible_by = []
        resource.peer_accessible_by = [0, device]  # the owner is ignored
        peers.add(device)
        peers.discard(device)
        peers.discard("not-a-device")
        assert set(resource.peer_accessible_by) == set()
        with pytest.raises(KeyError):
            peers.remove(device)


# ---------------------------------------------------------------------------------------------
# VirtualMemoryResource: reserve, create, map and grow through the driver's VMM API


@pytest.fixture
def vmm(memory, device):
    if not device.properties.virtual_memory_management_supported:
        pytest.skip("the device has no virtual memory management")
    return memory.VirtualMemoryResource(device)


def vmm_granularity(vmm) -> int:
    return vmm._granularity(vmm._allocation_prop())


def test_vmm_allocation_is_mapped_and_freed(memory, device, stream, vmm) -> None:
    granularity = vmm_granularity(vmm)
    buffer = vmm.allocate(5000)
    assert (buffer.size, buffer.device_id, buffer.memory_resource) == (5000, device.device_id, vmm)
    assert int(buffer.handle) % granularity == 0 and buffer.is_device_accessible
    assert vmm._owned_size(int(buffer.handle), buffer.size) == granularity
    buffer.fill(0x5A, stream=stream)
    assert set(read_back(memory, buffer, stream).tolist()) == {0x5A}
    buffer.close(stream=stream)
    assert vmm._chunks == {} and vmm._reservations == {}
    assert vmm.allocate(0).handle == 0


def test_vmm_growth_keeps_the_contents(memory, device, stream, vmm) -> None:
    granularity = vmm_granularity(vmm)
    buffer = vmm.allocate(granularity)
    data = pattern(granularity, seed=3)
    staging = memory.LegacyPinnedMemoryResource().allocate(granularity)
    host_view(staging)[:] = data
    buffer.copy_from(staging, stream=stream)
    stream.sync()
    grown = vmm.modify_allocation(buffer, 3 * granularity + 1)
    assert grown is buffer and buffer.size == 3 * granularity + 1
    assert vmm._owned_size(int(buffer.handle), buffer.size) == 4 * granularity
    assert (read_back(memory, buffer, stream)[:granularity] == data).all()
    buffer.fill(7, stream=stream)  # the whole grown range is mapped and writable
    assert set(read_back(memory, buffer, stream).tolist()) == {7}
    # Not larger: the same buffer, its size kept, the access policy re-applied.
    assert vmm.modify_allocation(buffer, granularity).size == 3 * granularity + 1
    buffer.close(stream=stream)
    assert vmm._chunks == {} and vmm._reservations == {}


def test_vmm_new_options_and_refusals(memory, device, stream, vmm) -> None:
    buffer = vmm.allocate(1024)
    new = memory.VirtualMemoryResourceOptions(granularity="minimum", handle_type=None)
    assert vmm.modify_allocation(buffer, 2048, config=new) is buffer and vmm.config is new
    other = memory.DeviceMemoryResource(device).allocate(64, stream=stream)
    with pytest.raises(ValueError, match="allocated by this VirtualMemoryResource"):
        vmm.modify_allocation(other, 128)
    other.close(stream=stream)
    buffer.close()
    with pytest.raises(RuntimeError, match="Buffer has been closed"):
        vmm.modify_allocation(buffer, 4096)
    with pytest.raises(TypeError, match="stream must be|Stream or GraphBuilder expected"):
        vmm.allocate(64, stream=3)
    if not device.properties.gpu_direct_rdma_supported:
        with pytest.raises(RuntimeError, match="GPU Direct RDMA is not supported"):
            memory.VirtualMemoryResource(device, config={"gpu_direct_rdma": True})


# ---------------------------------------------------------------------------------------------
# Batched copies


def test_copy_batch_copies_every_pair(memory, device, stream) -> None:
    from cuda.core import Host
    from cuda.core.utils import CopyOptions, copy_batch

    pool = memory.DeviceMemoryResource(device)
    pinned = memory.LegacyPinnedMemoryResource()
    sizes = (64, 4 * KIB, 3 * MIB)
    sources = [pinned.allocate(size) for size in sizes]
    for seed, source in enumerate(sources):
        host_view(source)[:] = pattern(source.size, seed)
    middles = [pool.allocate(size, stream=stream) for size in sizes]
    ends = [pinned.allocate(size) for size in sizes]
    options = [
        CopyOptions(),
        CopyOptions(src_access_order="during_api_call"),
        CopyOptions(src_access_order="any", dst_location_hint=device, src_location_hint=Host()),
    ]
    copy_batch(stream, sources, middles, options=options)  # host -> device, three runs of options
    copy_batch(stream, middles, ends)  # device -> host, one for all
    stream.sync()
    for seed, end in enumerate(ends):
        assert (host_view(end) == pattern(end.size, seed)).all()
    for buffer in middles:
        buffer.close(stream)
