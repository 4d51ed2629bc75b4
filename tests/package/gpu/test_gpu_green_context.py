# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Green contexts on the real driver: device resources, SM splits, green contexts and their
streams, events and kernels, and what a build before CUDA 13.1 says about work queues."""

from __future__ import annotations

import numpy as np
import pytest

FILL = r"""
extern "C" __global__ void fill(int* out, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
"""


@pytest.fixture
def sm(device):
    return device.resources.sm


@pytest.fixture
def green(cuda_core, device, sm):
    """A green context of one discovered SM group, closed after the test."""
    groups, _ = sm.split(cuda_core.SMResourceOptions())
    context = device.create_context(cuda_core.ContextOptions(resources=[groups[0]]))
    yield context
    device.set_current()
    context.close()


@pytest.fixture
def fill(cuda_core, device, nvrtc_loaded):
    options = cuda_core.ProgramOptions(arch=f"sm_{device.arch}")
    return cuda_core.Program(FILL, code_type="c++", options=options).compile("cubin").get_kernel("fill")


def run_fill(cuda_core, device, stream, kernel, value: int, n: int = 64) -> np.ndarray:
    """Fill ``n`` ints with ``value`` on ``stream`` and return them, copied to the host."""
    buffer = device.allocate(n * 4, stream=stream)
    cuda_core.launch(
        stream, cuda_core.LaunchConfig(grid=(n + 31) // 32, block=32), kernel, buffer, np.int32(value), np.int32(n)
    )
    host = cuda_core.LegacyPinnedMemoryResource().allocate(n * 4)
    buffer.copy_to(host, stream=stream)
    stream.sync()
    result = np.from_dlpack(host).view(np.int32).copy()
    buffer.close(stream)
    host.close()
    return result


def test_device_sm_resource(cuda_core, device, sm) -> None:
    assert isinstance(device.resources, cuda_core.DeviceResources) and device.resources is device.resources
    assert sm.sm_count == device.properties.multiprocessor_count
    assert sm.min_partition_size >= 2 and sm.coscheduled_alignment >= 2 and sm.handle != 0
    assert isinstance(sm.flags, int)
    assert repr(sm) == f"<SMResource sm_count={sm.sm_count} device=0>"


def test_discovery_split_gives_one_aligned_group(cuda_core, sm) -> None:
    groups, remainder = sm.split(cuda_core.SMResourceOptions())
    assert len(groups) == 1
    assert groups[0].sm_count >= sm.min_partition_size
    assert groups[0].sm_count % sm.coscheduled_alignment == 0
    assert groups[0].sm_count + remainder.sm_count <= sm.sm_count


def test_two_equal_groups(cuda_core, sm) -> None:
    size = sm.min_partition_size
    groups, remainder = sm.split(cuda_core.SMResourceOptions(count=(size, size)))
    assert [group.sm_count >= size for group in groups] == [True, True]
    assert sum(group.sm_count for group in groups) + remainder.sm_count <= sm.sm_count


def test_dry_run_matches_and_cannot_make_a_context(cuda_core, device, sm) -> None:
    dry, _ = sm.split(cuda_core.SMResourceOptions(), dry_run=True)
    real, _ = sm.split(cuda_core.SMResourceOptions())
    assert [group.sm_count for group in dry] == [group.sm_count for group in real]
    assert "dry-run" in repr(dry[0])
    with pytest.raises(ValueError, match="dry-run SMResource"):
        device.create_context(cuda_core.ContextOptions(resources=[dry[0]]))


def test_too_many_groups_is_an_invalid_configuration(cuda_core, sm) -> None:
    count = sm.sm_count // 2 + sm.coscheduled_alignment
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"):
        sm.split(cuda_core.SMResourceOptions(count=(count, count)))


def test_create_context_checks_resources(cuda_core, device) -> None:
    with pytest.raises(ValueError, match="resources must be provided"):
        device.create_context()
    with pytest.raises(ValueError, match="resources must be provided"):
        device.create_context(cuda_core.ContextOptions(resources=[]))
    with pytest.raises(TypeError, match="SMResource and WorkqueueResource"):
        device.create_context(cuda_core.ContextOptions(resources=[object()]))


def test_green_context_basics(cuda_core, device, green, sm) -> None:
    assert green.is_green and green.handle is not None and not green.is_closed
    assert green != device.context and hash(green) != hash(device.context)
    provisioned = green.resources.sm
    assert 0 < provisioned.sm_count <= sm.sm_count
    assert not device.context.is_green
    assert device.context.resources.sm.sm_count == sm.sm_count


def test_green_streams_and_events_know_their_context(cuda_core, device, green) -> None:
    stream = green.create_stream()
    assert stream.is_nonblocking and stream.context == green and stream.context.is_green
    assert stream.resources.sm.sm_count == green.resources.sm.sm_count
    event = stream.record()
    assert event.context == green and event.context.is_green
    stream.sync()
    event.sync()
    with pytest.raises(ValueError, match="must be non-blocking"):
        green.create_stream(cuda_core.StreamOptions(nonblocking=False))
    with pytest.raises(RuntimeError, match="only supported on green contexts"):
        device.context.create_stream()


def test_kernel_runs_on_a_green_stream(cuda_core, device, green, fill) -> None:
    stream = green.create_stream()
    assert (run_fill(cuda_core, device, stream, fill, 42) == 42).all()


def test_two_green_contexts_on_disjoint_partitions(cuda_core, device, sm, fill) -> None:
    size = sm.min_partition_size
    groups, _ = sm.split(cuda_core.SMResourceOptions(count=(size, size)))
    first, second = (device.create_context(cuda_core.ContextOptions(resources=[group])) for group in groups)
    try:
        assert first.resources.sm.sm_count + second.resources.sm.sm_count <= sm.sm_count
        for context, value in ((first, 10), (second, 20)):
            assert (run_fill(cuda_core, device, context.create_stream(), fill, value) == value).all()
    finally:
        second.close()
        first.close()


def test_set_current_round_trip_and_close_while_current(cuda_core, device, green) -> None:
    previous = device.set_current(green)
    try:
        assert previous is not None and not previous.is_green and device.context is green
        with pytest.raises(RuntimeError, match="while it is current"):
            green.close()
    finally:
        restored = device.set_current(previous)
    assert restored is green and restored.is_green


def test_stream_keeps_a_closed_green_context_alive(cuda_core, device, sm, fill) -> None:
    groups, _ = sm.split(cuda_core.SMResourceOptions())
    context = device.create_context(cuda_core.ContextOptions(resources=groups))
    stream = context.create_stream()
    context.close()
    assert context.is_closed and context.handle is None
    assert (run_fill(cuda_core, device, stream, fill, 7) == 7).all()
    stream.close()


def test_workqueue(cuda_core, device) -> None:
    """A CUDA 13.1+ build on a 13.1+ driver configures work queues; others say what they need."""
    try:
        queue = device.resources.workqueue
    except RuntimeError as err:
        assert "13.1+ headers" in str(err)
        pytest.skip(str(err))
    except ValueError as err:
        assert "driver of CUDA 13.1+" in str(err)
        pytest.skip(str(err))
    from cuda.core.typing import WorkqueueSharingScopeType

    assert queue.handle != 0 and queue.concurrency_limit >= 1 and queue.device is device
    for scope in WorkqueueSharingScopeType:
        queue.configure(cuda_core.WorkqueueResourceOptions(sharing_scope=scope, concurrency_limit=4))
        assert queue.sharing_scope is scope and queue.concurrency_limit == 4
    groups, _ = device.resources.sm.split(cuda_core.SMResourceOptions())
    context = device.create_context(cuda_core.ContextOptions(resources=[groups[0], queue]))
    assert context.is_green
    context.close()
