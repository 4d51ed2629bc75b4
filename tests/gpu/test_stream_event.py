"""Streams and events on the real driver: ordering, timing, the __cuda_stream__ protocol, lifetime."""

from __future__ import annotations

import pytest


@pytest.fixture
def device(cuda_core):
    device = cuda_core.Device(0)
    device.set_current()
    return device


class ForeignStream:
    """A stand-in for another library's stream object, speaking only the protocol."""

    def __init__(self, address: int) -> None:
        self.address = address

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.address)


def test_timed_events_measure_elapsed_milliseconds(cuda_core, device) -> None:
    stream = device.create_stream()
    timing = cuda_core.EventOptions(enable_timing=True)
    start = stream.record(options=timing)
    end = stream.record(options=timing)
    end.sync()
    assert start.is_done and end.is_done
    elapsed = end - start
    assert isinstance(elapsed, float) and 0.0 <= elapsed < 1000.0
    stream.close()


def test_elapsed_time_needs_timing(cuda_core, device) -> None:
    stream = device.create_stream()
    start, end = stream.record(), stream.record()
    end.sync()
    with pytest.raises(RuntimeError, match="timing is disabled"):
        end - start


def test_stream_options_and_priority(cuda_core, device) -> None:
    from cuda.bindings import driver
    _, least, greatest = driver.cuCtxGetStreamPriorityRange()
    high = device.create_stream(options=cuda_core.StreamOptions(priority=greatest))
    assert high.priority == greatest
    assert device.create_stream().priority == least
    with pytest.raises(ValueError, match="priority must be an int"):
        device.create_stream(options=cuda_core.StreamOptions(priority=least + 1))
    with pytest.raises(TypeError, match="StreamOptions"):
        device.create_stream(options={"priority": 0})


def test_wait_on_event_and_on_stream(cuda_core, device) -> None:
    first, second = device.create_stream(), device.create_stream()
    event = first.record()
    second.wait(event)
    second.wait(first)
    second.sync()
    assert event.is_done


def test_cuda_stream_protocol_both_ways(cuda_core, device) -> None:
    ours = device.create_stream()
    version, address = ours.__cuda_stream__()
    assert version == 0 and address == int(ours.handle)
    wrapped = device.create_stream(ForeignStream(address))
    assert int(wrapped.handle) == address and wrapped.device is device
    wrapped.record().sync()
    wrapped.close()  # lets go of the foreign stream without destroying it
    ours.sync()
    with pytest.raises(TypeError, match="__cuda_stream__"):
        device.create_stream(object())
    with pytest.raises(TypeError, match="must return"):
        device.create_stream(ForeignStream("not an address"))


def test_close_is_idempotent_and_use_after_close_is_an_error(cuda_core, device) -> None:
    stream = device.create_stream()
    event = stream.record()
    event.close()
    event.close()
    with pytest.raises(RuntimeError, match="Event is closed"):
        event.sync()
    stream.close()
    stream.close()
    with pytest.raises(RuntimeError, match="Stream is closed"):
        stream.sync()


def test_device_sync_and_create_event(cuda_core, device) -> None:
    event = device.create_event(cuda_core.EventOptions(enable_timing=True, busy_waited_sync=True))
    device.create_stream().record(event)
    device.sync()
    assert event.is_done
