# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Streams and events without a GPU: options, the default streams and how one is chosen, wrapping
foreign streams, stream conversion, IPC event descriptors, and the errors that need no driver."""

from __future__ import annotations

import dataclasses
import pickle
import weakref

import pytest


class ForeignStream:
    """Another library's stream, speaking only the protocol."""

    def __init__(self, address: int) -> None:
        self.address = address

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.address)


@pytest.fixture(scope="module")
def streams(cuda_core):
    from cuda.core import _stream

    return _stream


def fields(cls) -> list[tuple[str, object]]:
    return [(field.name, field.default) for field in dataclasses.fields(cls)]


def test_options_fields_and_defaults(cuda_core) -> None:
    assert fields(cuda_core.StreamOptions) == [("nonblocking", True), ("priority", None)]
    assert fields(cuda_core.EventOptions) == [
        ("timing_enabled", False),
        ("blocking_sync", False),
        ("ipc_enabled", False),
    ]


def test_public_names(cuda_core, streams) -> None:
    assert set(streams.__all__) == {"LEGACY_DEFAULT_STREAM", "PER_THREAD_DEFAULT_STREAM", "Stream", "StreamOptions"}
    from cuda.core import _event

    assert set(_event.__all__) == {"Event", "EventOptions"}
    for name in streams.__all__ + _event.__all__:
        assert getattr(cuda_core, name) is getattr(streams, name, None) or getattr(cuda_core, name) is getattr(
            _event, name
        )


def test_default_streams_are_the_driver_handles(streams) -> None:
    legacy, per_thread = streams.LEGACY_DEFAULT_STREAM, streams.PER_THREAD_DEFAULT_STREAM
    assert (int(legacy.handle), int(per_thread.handle)) == (1, 2)
    assert legacy.__cuda_stream__() == (0, 1) and per_thread.__cuda_stream__() == (0, 2)
    assert legacy != per_thread and hash(legacy) != hash(per_thread)
    assert len({legacy: 1, per_thread: 2, streams.Stream.from_handle(1): 3}) == 2
    assert legacy == streams.Stream._legacy_default() and not legacy.is_closed
    assert weakref.ref(legacy)() is legacy


@pytest.mark.parametrize(
    "value, per_thread", [(None, False), ("", False), ("0", False), ("x", False), ("1", True), ("2", True)]
)
def test_default_stream_follows_the_environment(streams, monkeypatch, value, per_thread) -> None:
    """CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM (a non-zero integer) picks the per-thread
    default stream; the variable is read on each call."""
    if value is None:
        monkeypatch.delenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", raising=False)
    else:
        monkeypatch.setenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", value)
    expected = streams.PER_THREAD_DEFAULT_STREAM if per_thread else streams.LEGACY_DEFAULT_STREAM
    assert streams.default_stream() is expected


def test_subclasses_get_their_own_class(streams) -> None:
    class MyStream(streams.Stream):
        pass

    assert type(MyStream._legacy_default()) is MyStream
    assert type(MyStream._per_thread_default()) is MyStream
    assert MyStream._per_thread_default() == streams.PER_THREAD_DEFAULT_STREAM


def test_direct_construction_is_refused(cuda_core) -> None:
    with pytest.raises(RuntimeError, match=r"^Stream objects cannot be instantiated directly\..*Device.create_stream"):
        cuda_core.Stream()
    with pytest.raises(RuntimeError, match=r"^Stream objects cannot be instantiated directly\."):
        cuda_core.Stream(42)
    with pytest.raises(RuntimeError, match=r"^Event objects cannot be instantiated directly\..*Stream.record"):
        cuda_core.Event()


def test_foreign_streams_are_wrapped_not_owned(cuda_core, streams) -> None:
    """Stream(obj) and Stream.from_handle wrap a foreign stream: equal to each other by handle,
    and closing lets go of it (no driver call: the stream is not ours to destroy)."""
    foreign = ForeignStream(0x1234)
    wrapped = cuda_core.Stream(foreign)
    same = cuda_core.Stream.from_handle(0x1234)
    assert int(wrapped.handle) == 0x1234 and wrapped == same and hash(wrapped) == hash(same)
    assert streams.as_stream(foreign) == wrapped and streams.as_stream(wrapped) is wrapped
    wrapped.close()
    wrapped.close()
    assert wrapped.is_closed and int(wrapped.handle) == 0 and not same.is_closed
    assert wrapped == same and hash(wrapped) == hash(same)  # identity outlives close()
    with pytest.raises(RuntimeError, match="Stream has been closed"):
        wrapped.__cuda_stream__()
    with pytest.raises(RuntimeError, match="Stream has been closed"):
        wrapped.sync()


@pytest.mark.parametrize(
    "handle, error", [("0x10", TypeError), (1.5, TypeError), (None, TypeError), (-1, OverflowError)]
)
def test_from_handle_takes_an_address(cuda_core, handle, error) -> None:
    with pytest.raises(error):
        cuda_core.Stream.from_handle(handle)


def test_from_handle_takes_a_driver_custream(cuda_core) -> None:
    from cuda.bindings import driver

    assert int(cuda_core.Stream.from_handle(driver.CUstream(0x40)).handle) == 0x40


@pytest.mark.parametrize("result", [(1, 0x10), (0, "0x10"), [0, 16], 16])
def test_bad_protocol_answers_are_refused(cuda_core, result) -> None:
    class Odd:
        def __cuda_stream__(self):
            return result

    with pytest.raises(TypeError, match=r"__cuda_stream__\(\) must return \(0, address\)"):
        cuda_core.Stream(Odd())


def test_stream_accept(streams) -> None:
    legacy = streams.LEGACY_DEFAULT_STREAM
    assert streams.Stream_accept(legacy) is legacy
    with pytest.raises(TypeError, match="stream is required and must not be None"):
        streams.Stream_accept(None)
    with pytest.raises(TypeError, match="Stream or GraphBuilder expected, got ForeignStream"):
        streams.Stream_accept(ForeignStream(8))
    with pytest.warns(DeprecationWarning, match="via the stream protocol is deprecated"):
        assert int(streams.Stream_accept(ForeignStream(8), allow_stream_protocol=True).handle) == 8


def test_stream_argument_checks_need_no_driver(streams) -> None:
    legacy = streams.LEGACY_DEFAULT_STREAM
    with pytest.raises(ValueError, match="wait\\(\\) takes an Event, a Stream or an object with __cuda_stream__"):
        legacy.wait("invalid_event")
    with pytest.raises(TypeError, match="expected cuda.core._event.Event, got int"):
        legacy.record(event=5)
    builder = legacy.create_graph_builder()  # no driver call until begin_building()
    assert type(builder).__name__ == "GraphBuilder" and builder.stream is legacy


def test_default_stream_repr_without_a_context(streams, no_driver) -> None:
    assert repr(streams.LEGACY_DEFAULT_STREAM) == "<Stream handle=0x1 context=0x0>"


def test_ipc_event_descriptors(cuda_core) -> None:
    from cuda.core import _event

    with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
        _event.IPCEventDescriptor()
    first = _event.IPCEventDescriptor._init(b"\x01" * 64, True)
    assert first == _event.IPCEventDescriptor._init(b"\x01" * 64, False)  # the sync mode is not identity
    assert first != _event.IPCEventDescriptor._init(b"\x02" * 64, True)
    assert first.__eq__(b"\x01" * 64) is NotImplemented and first != None  # noqa: E711
    copy = pickle.loads(pickle.dumps(first))
    assert type(copy) is _event.IPCEventDescriptor and copy == first
    with pytest.raises(TypeError):
        hash(first)
    with pytest.raises(ValueError, match="reserved field is 8 bytes; expected at least 64"):
        cuda_core.Event.from_ipc_descriptor(_event.IPCEventDescriptor._init(b"\x00" * 8, True))
    with pytest.raises(TypeError, match="IPCEventDescriptor"):
        cuda_core.Event.from_ipc_descriptor(b"\x00" * 64)


def test_event_options_from_a_dict_are_checked(cuda_core) -> None:
    """Options given as a dict are EventOptions fields; anything else is refused before the driver."""
    from cuda.core._event import _create_event
    from cuda.core._stream import new_stream

    with pytest.raises(TypeError, match="unexpected keyword argument 'enable_timing'"):
        _create_event({"enable_timing": True}, 0)
    with pytest.raises(TypeError, match="event options must be an EventOptions, a dict of its fields, or None"):
        _create_event(5, 0)
    with pytest.raises(TypeError, match="IPC-enabled events must be bound; use Stream.record"):
        _create_event({"ipc_enabled": True}, 0)
    with pytest.raises(TypeError, match="stream options must be a StreamOptions, a dict of its fields, or None"):
        new_stream(0, "nonblocking")
