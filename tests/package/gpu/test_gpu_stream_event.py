# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Streams and events on the real driver: options, the default streams, foreign streams, ordering,
timing and its errors, IPC events across processes, and lifetime."""

from __future__ import annotations

import pickle
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

SLEEP = r"""
extern "C" __global__ void sleep_ms(unsigned int ms) {
    for (unsigned int i = 0; i < ms; ++i) __nanosleep(1000000);
}
"""


def build(cuda_core, device, source: str, tmp_path: Path):
    """``source`` (extern "C" kernels) as an ObjectCode for this device: nvcc's cubin where nvcc is
    installed (it loads under either major), else NVRTC's."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is not None:
        (tmp_path / "k.cu").write_text(source)
        subprocess.run(
            [nvcc, "-cubin", f"-arch=sm_{device.arch}", "-o", tmp_path / "k.cubin", tmp_path / "k.cu"],
            check=True,
            capture_output=True,
        )
        return cuda_core.ObjectCode.from_cubin(tmp_path / "k.cubin")
    options = cuda_core.ProgramOptions(arch=f"sm_{device.arch}")
    return cuda_core.Program(source, code_type="c++", options=options).compile("cubin")


@pytest.fixture
def sleep(cuda_core, device, tmp_path):
    """launch(stream, ms): a kernel that keeps ``stream`` busy for about ``ms`` milliseconds."""
    kernel = build(cuda_core, device, SLEEP, tmp_path).get_kernel("sleep_ms")
    config = cuda_core.LaunchConfig(grid=1, block=1)

    def launch(stream, ms: int) -> None:
        import numpy as np

        cuda_core.launch(stream, config, kernel, np.uint32(ms))

    return launch


class ForeignStream:
    """A stand-in for another library's stream object, speaking only the protocol."""

    def __init__(self, address: int) -> None:
        self.address = address

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.address)


def current_context() -> int:
    from cuda.bindings import driver

    err, context = driver.cuCtxGetCurrent()
    assert err == driver.CUresult.CUDA_SUCCESS
    return int(context)


def test_stream_options(cuda_core, device) -> None:
    from cuda.bindings import driver

    _, least, greatest = driver.cuCtxGetStreamPriorityRange()
    high = device.create_stream(options=cuda_core.StreamOptions(nonblocking=False, priority=greatest))
    assert (high.priority, high.is_nonblocking) == (greatest, False)
    default = device.create_stream()
    assert (default.priority, default.is_nonblocking) == (least, True)
    assert device.create_stream(options={"priority": greatest}).priority == greatest
    with pytest.raises(ValueError, match="stream priority must be an int"):
        device.create_stream(options=cuda_core.StreamOptions(priority=least + 1))
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        device.create_stream(options={"blocking": True})


def test_created_stream_knows_its_device_and_context(cuda_core, device) -> None:
    stream = device.create_stream()
    assert stream.device.device_id == 0
    assert int(stream.context.handle) == current_context()
    assert re.fullmatch(r"<Stream handle=0x[0-9a-f]+ context=0x[0-9a-f]+>", repr(stream))
    assert f"context={current_context():#x}" in repr(stream)
    from cuda.bindings import driver

    assert isinstance(stream.handle, driver.CUstream) and int(stream.handle) != 0


def test_from_handle_is_the_same_stream(cuda_core, device) -> None:
    from cuda.bindings import driver

    stream = device.create_stream(options={"nonblocking": False})
    other = cuda_core.Stream.from_handle(int(stream.handle))
    assert other == stream and hash(other) == hash(stream) and {stream: 1}[other] == 1
    assert other.device.device_id == 0 and int(other.context.handle) == int(stream.context.handle)
    assert other.is_nonblocking is False and other.priority == stream.priority
    other.close()  # not ours: nothing is destroyed
    stream.sync()
    assert device.create_stream() != stream
    assert cuda_core.Stream.from_handle(driver.CUstream(int(stream.handle))) == stream


def test_default_streams_follow_the_current_context(cuda_core, device) -> None:
    from cuda.core._stream import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, default_stream

    for stream in (LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, cuda_core.Stream.from_handle(0)):
        assert stream.device.device_id == 0
        assert int(stream.context.handle) == current_context()
        assert stream.is_nonblocking is False and stream.priority == 0
        stream.record().sync()
        stream.sync()
        assert f"context={current_context():#x}>" in repr(stream)
    assert device.default_stream == default_stream()
    assert device.default_stream in (LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM)


def test_per_thread_default_stream_by_environment(cuda_core, device, monkeypatch) -> None:
    from cuda.core._stream import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM

    monkeypatch.setenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "1")
    assert device.default_stream == PER_THREAD_DEFAULT_STREAM
    monkeypatch.setenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "0")
    assert device.default_stream == LEGACY_DEFAULT_STREAM


def test_wait_orders_streams(cuda_core, device, sleep) -> None:
    """A stream that waits for a busy stream's work (by event, stream, or protocol object)
    cannot finish before it."""
    busy = device.create_stream()
    for how in ("event", "stream", "protocol"):
        waiting = device.create_stream()
        sleep(busy, 100)
        target = {
            "event": lambda: busy.record(),
            "stream": lambda: busy,
            "protocol": lambda: ForeignStream(int(busy.handle)),
        }[how]()
        waiting.wait(target)
        marker = waiting.record()
        assert not marker.is_done, how
        marker.sync()
        assert busy.record().is_done, how
    with pytest.raises(ValueError, match="wait\\(\\) takes an Event, a Stream"):
        busy.wait("invalid_event")


def test_foreign_stream_protocol_both_ways(cuda_core, device) -> None:
    ours = device.create_stream()
    version, address = ours.__cuda_stream__()
    assert version == 0 and address == int(ours.handle)
    for wrapped in (device.create_stream(ForeignStream(address)), cuda_core.Stream(ForeignStream(address))):
        assert wrapped == ours and wrapped.device.device_id == 0
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
    assert event.is_closed and int(event.handle) == 0
    with pytest.raises(RuntimeError, match="Event has been closed"):
        event.sync()
    with pytest.raises(RuntimeError, match="Event has been closed"):
        stream.record(event)
    stream.close()
    stream.close()
    assert stream.is_closed and int(stream.handle) == 0 and repr(stream) == "<Stream handle=0x0 context=0x0>"
    with pytest.raises(RuntimeError, match="Stream has been closed"):
        stream.sync()
    with pytest.raises(RuntimeError, match="Stream has been closed"):
        stream.record()


def test_events_flags_identity_and_context(cuda_core, device) -> None:
    stream = device.create_stream()
    plain = stream.record()
    assert (plain.is_timing_enabled, plain.is_blocking_sync, plain.is_ipc_enabled) == (False, False, False)
    timed = device.create_event(cuda_core.EventOptions(timing_enabled=True, blocking_sync=True))
    assert (timed.is_timing_enabled, timed.is_blocking_sync) == (True, True)
    assert device.create_event({"blocking_sync": True}).is_blocking_sync
    assert plain.device.device_id == 0 and int(plain.context.handle) == current_context()
    assert plain == plain and plain != timed and hash(plain) != hash(timed) and len({plain, timed}) == 2
    assert re.fullmatch(r"<Event handle=0x[0-9a-f]+>", repr(plain))
    assert plain.__rsub__(42) is NotImplemented and plain.__isub__(42) is NotImplemented
    with pytest.raises(RuntimeError, match="not IPC-enabled"):
        plain.ipc_descriptor
    with pytest.raises(TypeError, match=r"^IPC-enabled events cannot use timing\.$"):
        stream.record(options=cuda_core.EventOptions(timing_enabled=True, ipc_enabled=True))
    with pytest.raises(TypeError, match=r"^IPC-enabled events must be bound; use Stream.record for creation\.$"):
        device.create_event(cuda_core.EventOptions(ipc_enabled=True))


def test_timed_events_measure_the_work_between_them(cuda_core, device, sleep) -> None:
    stream = device.create_stream()
    timing = cuda_core.EventOptions(timing_enabled=True)
    start = stream.record(options=timing)
    sleep(stream, 20)
    end = stream.record(options=timing)
    end.sync()
    assert start.is_done and end.is_done
    elapsed = end - start
    assert isinstance(elapsed, float) and 10.0 < elapsed < 2000.0


def test_elapsed_time_errors(cuda_core, device, sleep) -> None:
    stream = device.create_stream()
    timing = cuda_core.EventOptions(timing_enabled=True)
    untimed = stream.record()
    timed = stream.record(options=timing)
    stream.sync()
    with pytest.raises(RuntimeError, match="^Both Events must be created with timing enabled"):
        timed - untimed
    never_recorded = device.create_event(timing)
    with pytest.raises(RuntimeError, match="^Both Events must be recorded"):
        never_recorded - timed
    with pytest.raises(RuntimeError, match="^Both Events must be recorded"):
        timed - never_recorded
    sleep(stream, 300)
    pending = stream.record(options=timing)
    assert not pending.is_done
    with pytest.raises(RuntimeError, match="^One or both events have not completed"):
        pending - timed
    pending.sync()
    assert pending - timed > 100.0


CHILD = """
import pickle, sys
from cuda.core import Device
Device(0).set_current()
event = pickle.loads(sys.stdin.buffer.read())
event.sync()
print(type(event).__name__, event.is_ipc_enabled, event.is_timing_enabled, event.is_blocking_sync, event.is_done,
      event.device, event.context)
"""


def test_ipc_event_is_waited_on_in_another_process(cuda_core, device, sleep) -> None:
    """An IPC-enabled Event pickles as its descriptor; another process opens and waits on it."""
    stream = device.create_stream()
    sleep(stream, 200)
    event = stream.record(options={"ipc_enabled": True, "blocking_sync": True})
    descriptor = event.ipc_descriptor
    assert event.ipc_descriptor is descriptor and pickle.loads(pickle.dumps(descriptor)) == descriptor
    # multiprocessing pickles a queued object on its feeder thread, where no context is current.
    pickled = []
    feeder = threading.Thread(target=lambda: pickled.append(pickle.dumps(event)))
    feeder.start()
    feeder.join()
    child = subprocess.run([sys.executable, "-c", CHILD], input=pickled[0], capture_output=True, timeout=120)
    assert child.returncode == 0, child.stderr.decode()
    # Opened there, the event has no device or context that process knows.
    assert child.stdout.decode().split() == ["Event", "True", "False", "True", "True", "None", "None"]
    assert event.is_done  # the child waited for it, and the work is the parent's
    with pytest.raises(TypeError, match="should not be re-recorded"):
        stream.record(event)
