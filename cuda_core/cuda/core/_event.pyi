# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._event: events, their options, and IPC descriptors."""

from dataclasses import dataclass

import cuda.bindings.driver
from cuda.core._context import Context
from cuda.core._device import Device
from typing_extensions import disjoint_base

__all__ = ["Event", "EventOptions"]

@dataclass
class EventOptions:
    """How an Event is made: timestamped, blocking sync, shareable between processes."""

    timing_enabled: bool | None = False
    blocking_sync: bool | None = False
    ipc_enabled: bool | None = False

@disjoint_base
class Event:
    """A point in a stream's work; ``end - start`` is the milliseconds between two timed events."""
    def __init__(self, *args, **kwargs) -> None: ...
    def close(self):
        """Destroy the event; idempotent."""
    @property
    def is_closed(self) -> bool: ...
    def __isub__(self, other: object, /): ...
    def __rsub__(self, other: object, /): ...
    def __sub__(self, other: Event, /) -> float: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __repr__(self) -> str: ...
    @property
    def ipc_descriptor(self) -> IPCEventDescriptor:
        """What another process opens this event with (IPC-enabled events only)."""
    @classmethod
    def from_ipc_descriptor(cls, ipc_descriptor: IPCEventDescriptor) -> Event:
        """Open an event another process exported."""
    @property
    def is_ipc_enabled(self) -> bool: ...
    @property
    def is_timing_enabled(self) -> bool: ...
    @property
    def is_blocking_sync(self) -> bool: ...
    def sync(self) -> None:
        """Wait for the work the event was recorded after."""
    @property
    def is_done(self) -> bool: ...
    @property
    def handle(self) -> cuda.bindings.driver.CUevent:
        """The CUevent; ``int(event.handle)`` is its address (0 once closed)."""
    @property
    def device(self) -> Device: ...
    @property
    def context(self) -> Context: ...

@disjoint_base
class IPCEventDescriptor:
    """The 64-byte IPC handle of an event and its sync mode; it pickles."""
    def __init__(self, *arg, **kwargs) -> None: ...
    @staticmethod
    def _init(reserved: bytes, is_blocking_sync) -> IPCEventDescriptor: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[object, ...]: ...

def _reduce_event(event: Event) -> tuple[object, ...]: ...
def _create_event(options: EventOptions | dict | None, device_id: int) -> Event: ...
