# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._stream: streams, the two default streams, and stream conversion."""

from dataclasses import dataclass
from typing import Any, Protocol

import cuda.bindings.driver
from cuda.core._context import Context
from cuda.core._device import Device
from cuda.core._device_resources import DeviceResources
from cuda.core._event import Event, EventOptions
from cuda.core.graph import GraphBuilder
from typing_extensions import disjoint_base

__all__ = ["LEGACY_DEFAULT_STREAM", "PER_THREAD_DEFAULT_STREAM", "Stream", "StreamOptions"]

LEGACY_DEFAULT_STREAM: Stream
PER_THREAD_DEFAULT_STREAM: Stream

@dataclass
class StreamOptions:
    """How a Stream is made: non-blocking or not, and its priority (None: the lowest)."""

    nonblocking: Any = True
    priority: int | None = None

class IsStreamType(Protocol):
    """Anything usable as a stream: ``__cuda_stream__()`` gives (0, CUstream address)."""
    def __cuda_stream__(self) -> tuple[int, int]: ...

@disjoint_base
class Stream:
    """An ordered queue of GPU work; equal to another Stream on the same CUstream."""
    def __init__(self, *args, **kwargs) -> None: ...
    @classmethod
    def _legacy_default(cls) -> Stream: ...
    @classmethod
    def _per_thread_default(cls) -> Stream: ...
    @classmethod
    def _init(
        cls,
        obj: IsStreamType | None = None,
        options: StreamOptions | None = None,
        device_id: int | None = None,
        ctx: Context | None = None,
    ) -> Stream: ...
    def close(self):
        """Destroy a stream made here, or let go of a foreign one; idempotent."""
    @property
    def is_closed(self) -> bool: ...
    def __cuda_stream__(self) -> tuple[int, int]: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __repr__(self) -> str: ...
    @property
    def handle(self) -> cuda.bindings.driver.CUstream:
        """The CUstream; ``int(stream.handle)`` is its address (0 once closed)."""
    @property
    def is_nonblocking(self) -> bool: ...
    @property
    def priority(self) -> int: ...
    def sync(self) -> None:
        """Wait for all work queued on the stream."""
    def record(self, event: Event | None = None, options: EventOptions | None = None) -> Event:
        """Record ``event`` (or a new one made with ``options``) on the stream."""
    def wait(self, event_or_stream: Event | Stream) -> None:
        """Make later work on this stream wait for an event, or for another stream's work so far."""
    @property
    def device(self) -> Device: ...
    @property
    def context(self) -> Context: ...
    @property
    def resources(self) -> DeviceResources:
        """The hardware resources provisioned for the stream's context."""
    @staticmethod
    def from_handle(handle) -> Stream:
        """A non-owning Stream over the CUstream at address ``handle``."""
    def create_graph_builder(self) -> GraphBuilder:
        """A new GraphBuilder capturing this stream (which stays open when the builder closes)."""

def default_stream() -> Stream:
    """PER_THREAD_DEFAULT_STREAM if CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM is a non-zero
    integer (read on each call), else LEGACY_DEFAULT_STREAM."""

def Stream_accept(arg, allow_stream_protocol: bool = False) -> Stream:
    """``arg`` as a Stream; None and non-streams are a TypeError."""

def as_stream(obj, device_id: int = -1) -> Stream:
    """``obj`` if a Stream, else a non-owning Stream over its ``__cuda_stream__``."""

def new_stream(device_id: int, options: StreamOptions | dict | None = None) -> Stream:
    """A new stream on the current context (Device.create_stream)."""
