# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""IPC on the real driver: pools and buffers shared with spawned processes, through
multiprocessing (resources and Buffers pickled by multiprocessing's reducers), by hand
(allocation handles and descriptors), and by plain pickle (the registry)."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import traceback

import numpy as np
import pytest

SIZE = 4096
CHILD_TIMEOUT = 120
spawn = multiprocessing.get_context("spawn")


def pattern(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, SIZE, dtype=np.uint8)


def write(buffer, data: np.ndarray, stream) -> None:
    from cuda.core import LegacyPinnedMemoryResource

    staging = LegacyPinnedMemoryResource().allocate(data.size)
    np.frombuffer(memoryview(staging), dtype=np.uint8)[:] = data
    buffer.copy_from(staging, stream=stream)
    stream.sync()
    staging.close()


def read(buffer, stream) -> np.ndarray:
    from cuda.core import LegacyPinnedMemoryResource

    staging = LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(staging, stream=stream)
    stream.sync()
    data = np.frombuffer(memoryview(staging), dtype=np.uint8).copy()
    staging.close()
    return data


def run_child(target, *args) -> dict:
    """Run ``target(results, *args)`` in a spawned process; its report, or its traceback
    as the failure."""
    results = spawn.Queue()
    process = spawn.Process(target=_guarded, args=(target, results, *args))
    process.start()
    try:
        report = results.get(timeout=CHILD_TIMEOUT)
    finally:
        process.join(timeout=CHILD_TIMEOUT)
        if process.is_alive():
            process.kill()
    assert "traceback" not in report, report["traceback"]
    assert process.exitcode == 0
    return report


def _guarded(target, results, *args) -> None:
    try:
        report = target(*args)
    except BaseException:
        report = {"traceback": traceback.format_exc()}
    results.put(report)


def make_resource(memory, device, kind: str):
    try:
        if kind == "device":
            return memory.DeviceMemoryResource(
                device, memory.DeviceMemoryResourceOptions(ipc_enabled=True, max_size=2 << 20)
            )
        return memory.PinnedMemoryResource(memory.PinnedMemoryResourceOptions(ipc_enabled=True, max_size=2 << 20))
    except Exception as err:  # containers without the right capabilities, hosts without NUMA pools
        pytest.skip(f"the driver refuses an IPC-enabled {kind} pool here: {err}")


@pytest.fixture(scope="module")
def memory(cuda_core):
    return cuda_core._memory


@pytest.fixture(params=["device", "pinned"])
def resource(request, memory, device):
    resource = make_resource(memory, device, request.param)
    yield resource
    device.sync()
    resource.close()


# --- children (module level: spawn imports them by name) -------------------------------------


def child_through_multiprocessing(resource, buffer) -> dict:
    from cuda.core import Device

    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    seen = read(buffer, stream)
    write(buffer, pattern(2), stream)
    report = {
        "seen": seen,
        "mapped": (resource.is_mapped, buffer.is_mapped),
        "same_resource": buffer.memory_resource is resource,
        "uuid": resource.uuid,
    }
    buffer.close()
    stream.sync()
    return report


def child_by_hand(kind, handle, descriptor, oversized, truncated) -> dict:
    from cuda.core import Buffer, Device, DeviceMemoryResource, PinnedMemoryResource

    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    if kind == "device":
        mapped = DeviceMemoryResource.from_allocation_handle(device, handle)
    else:
        mapped = PinnedMemoryResource.from_allocation_handle(handle)
    errors = {}
    for name, call in [
        ("allocate", lambda: mapped.allocate(64, stream=stream)),
        ("oversized", lambda: Buffer.from_ipc_descriptor(mapped, oversized, stream=stream)),
        ("truncated", lambda: Buffer.from_ipc_descriptor(mapped, truncated, stream=stream)),
        ("not_a_descriptor", lambda: Buffer.from_ipc_descriptor(mapped, b"x" * 64, stream=stream)),
    ]:
        try:
            call()
        except Exception as err:
            errors[name] = (type(err).__name__, str(err))
    first = Buffer.from_ipc_descriptor(mapped, descriptor, stream=stream)
    second = Buffer.from_ipc_descriptor(mapped, descriptor, stream=stream)
    same_address = int(first.handle) == int(second.handle)
    first.close()
    stream.sync()
    write(second, pattern(3), stream)  # still mapped: the first close did not unmap it
    second.close()
    stream.sync()
    return {
        "errors": errors,
        "same_address": same_address,
        "registered": type(mapped).from_registry(handle.uuid) is mapped,
    }


def child_plain_pickle(pickled: bytes, kind: str, handle) -> dict:
    from cuda.core import Device, DeviceMemoryResource, PinnedMemoryResource

    device = Device(0)
    device.set_current()
    try:
        pickle.loads(pickled)
        before = None
    except RuntimeError as err:
        before = str(err)
    if kind == "device":
        mapped = DeviceMemoryResource.from_allocation_handle(device, handle)
    else:
        mapped = PinnedMemoryResource.from_allocation_handle(handle)
    buffer = pickle.loads(pickled)
    stream = device.create_stream()
    seen = read(buffer, stream)
    found = buffer.memory_resource is mapped
    buffer.close()
    stream.sync()
    return {"before": before, "seen": seen, "found": found}


# --- tests -------------------------------------------------------------------------------------


def test_a_buffer_sent_through_multiprocessing_is_shared(resource, device) -> None:
    stream = device.create_stream()
    buffer = resource.allocate(SIZE, stream=stream)
    write(buffer, pattern(1), stream)
    report = run_child(child_through_multiprocessing, resource, buffer)
    np.testing.assert_array_equal(report["seen"], pattern(1))
    assert report["mapped"] == (True, True) and report["same_resource"] and report["uuid"] == resource.uuid
    np.testing.assert_array_equal(read(buffer, stream), pattern(2))
    assert not resource.is_mapped and not buffer.is_mapped
    buffer.close()
    stream.sync()


def test_handles_and_descriptors_by_hand(memory, resource, device) -> None:
    stream = device.create_stream()
    buffer = resource.allocate(SIZE, stream=stream)
    handle = resource.allocation_handle
    assert handle is resource.allocation_handle and handle.uuid == resource.uuid and not handle.is_closed
    descriptor = buffer.ipc_descriptor
    assert descriptor is buffer.ipc_descriptor and descriptor.size == SIZE
    payload, size = descriptor.__reduce__()[1]
    oversized = memory.IPCBufferDescriptor._init(payload, SIZE * 1000)
    truncated = memory.IPCBufferDescriptor._init(payload[:8], SIZE)
    kind = "device" if resource.device_id >= 0 else "pinned"
    report = run_child(child_by_hand, kind, handle, descriptor, oversized, truncated)
    errors = report["errors"]
    assert errors["allocate"] == ("TypeError", "Cannot allocate from a mapped IPC-enabled memory resource")
    assert errors["oversized"][0] == "ValueError" and "exceeds the mapped allocation extent" in errors["oversized"][1]
    assert (
        errors["truncated"][0] == "ValueError" and "payload is 8 bytes; expected at least 64" in errors["truncated"][1]
    )
    assert errors["not_a_descriptor"][0] == "TypeError" and errors["not_a_descriptor"][1].startswith(
        "Argument 'ipc_descriptor' has incorrect type"
    )
    assert report["same_address"] and report["registered"]
    np.testing.assert_array_equal(read(buffer, stream), pattern(3))
    buffer.close()
    stream.sync()


def test_plain_pickle_finds_the_mapping_through_the_registry(resource, device) -> None:
    stream = device.create_stream()
    buffer = resource.allocate(SIZE, stream=stream)
    write(buffer, pattern(4), stream)
    kind = "device" if resource.device_id >= 0 else "pinned"
    report = run_child(child_plain_pickle, pickle.dumps(buffer), kind, resource.allocation_handle)
    assert report["before"].startswith(f"Memory resource {resource.uuid} was not found")
    assert report["found"]
    np.testing.assert_array_equal(report["seen"], pattern(4))
    buffer.close()
    stream.sync()


def test_the_exporting_resource_checks_a_descriptor_then_refuses_it(memory, resource, device) -> None:
    """Imports go through the mapping: the exporting resource checks the payload first (as
    NVIDIA's does), then names the resource to use."""
    stream = device.create_stream()
    with pytest.raises(ValueError, match="payload is 8 bytes; expected at least 64"):
        memory.Buffer.from_ipc_descriptor(resource, memory.IPCBufferDescriptor._init(b"\0" * 8, 64), stream=stream)
    buffer = resource.allocate(SIZE, stream=stream)
    with pytest.raises(RuntimeError, match="from_allocation_handle"):
        memory.Buffer.from_ipc_descriptor(resource, buffer.ipc_descriptor, stream=stream)
    buffer.close()
    stream.sync()


def test_the_allocation_handle_is_made_once(resource) -> None:
    """No descriptor leaks: the handle is exported once and cached, whatever the reads."""
    first = resource.allocation_handle  # the export may open more than its own descriptor
    before = len(os.listdir("/proc/self/fd"))
    assert all(resource.allocation_handle is first for _ in range(10))
    assert len(os.listdir("/proc/self/fd")) == before


@pytest.mark.parametrize("kind", ["device", "pinned"])
def test_threads_asking_a_fresh_pool_for_its_handle_get_one_handle(memory, device, kind) -> None:
    """multiprocessing's queue feeder pickles a Buffer (asking its pool for the allocation handle)
    while Process.start() pickles the pool: two threads at once. They get one handle, whose
    descriptor stays open: a second export must not replace the first and close a descriptor
    already handed to a process being spawned."""
    import threading

    for _ in range(10):
        resource = make_resource(memory, device, kind)
        barrier, handles = threading.Barrier(6), []

        def ask() -> None:
            barrier.wait()
            handles.append(resource.allocation_handle)

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len({id(handle) for handle in handles}) == 1
        os.fstat(int(handles[0]))  # still open
        resource.close()
