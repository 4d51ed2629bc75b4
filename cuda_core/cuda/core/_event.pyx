# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.Event: a marker recorded on a stream, for ordering, completion checks and timing.

An Event owns its CUevent and destroys it on close() or when collected. Events made with
``EventOptions(ipc_enabled=True)`` can be shared with other processes through an
IPCEventDescriptor (pickling such an Event sends the descriptor).
"""

from dataclasses import dataclass

from libc.string cimport memcpy

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

# compat_event_elapsed_time: cuEventElapsedTime on 13, cuEventElapsedTime_v2 on 12.
include "driver_compat.pxi"

__all__ = ['Event', 'EventOptions']

cdef enum:
    # The bytes of a CUipcEventHandle.
    _IPC_HANDLE_BYTES = 64


@dataclass
class EventOptions:
    """How an Event is made.

    ``timing_enabled``: the event records a timestamp, so ``end - start`` gives the
    milliseconds between two such events. ``blocking_sync``: ``Event.sync()`` puts the
    calling thread to sleep until the event completes instead of spinning on it.
    ``ipc_enabled``: the event can be shared with other processes (through
    ``Event.ipc_descriptor``); such an event cannot have timing enabled.
    """

    timing_enabled: bool | None = False
    blocking_sync: bool | None = False
    ipc_enabled: bool | None = False


cdef object _event_options(object options):
    """``options`` as an EventOptions: None gives the defaults, a dict gives its fields."""
    if options is None:
        return EventOptions()
    if isinstance(options, EventOptions):
        return options
    if isinstance(options, dict):
        return EventOptions(**options)
    raise TypeError(f"event options must be an EventOptions, a dict of its fields, or None; "
                    f"got {type(options).__name__}")


cdef class IPCEventDescriptor:
    """What another process needs to open an IPC-enabled Event: the driver's 64-byte IPC
    handle and whether the event syncs by blocking. It pickles; get one from
    ``Event.ipc_descriptor`` and open it with ``Event.from_ipc_descriptor``."""

    cdef bytes _reserved
    cdef bint _is_blocking_sync

    def __init__(self, *args, **kwargs):
        raise RuntimeError("IPCEventDescriptor objects cannot be instantiated directly: get one from "
                           "Event.ipc_descriptor of an event made with EventOptions(ipc_enabled=True)")

    @staticmethod
    def _init(bytes reserved, is_blocking_sync) -> IPCEventDescriptor:
        cdef IPCEventDescriptor descriptor = IPCEventDescriptor.__new__(IPCEventDescriptor)
        descriptor._reserved = reserved
        descriptor._is_blocking_sync = bool(is_blocking_sync)
        return descriptor

    def __eq__(self, other):
        # Two descriptors name the same event when their IPC handles match; the sync mode
        # is a property of how it is opened, not of which event it is.
        if not isinstance(other, IPCEventDescriptor):
            return NotImplemented
        return self._reserved == (<IPCEventDescriptor>other)._reserved

    def __reduce__(self):
        return IPCEventDescriptor._init, (self._reserved, self._is_blocking_sync)

    def __repr__(self) -> str:
        return f"<IPCEventDescriptor blocking_sync={bool(self._is_blocking_sync)}>"


def _reduce_event(Event event) -> tuple:
    """Pickle support for IPC-enabled events: another process reopens the event from its
    descriptor. Warns (once) where the start method is 'fork', which IPC does not survive."""
    try:
        from cuda.core._utils.cuda_utils import check_multiprocessing_start_method
    except ImportError:
        pass
    else:
        check_multiprocessing_start_method()
    return Event.from_ipc_descriptor, (event.ipc_descriptor,)


cdef class Event:
    """A point in a stream's work. Get one from ``Stream.record()`` or
    ``Device.create_event()``; check it with ``is_done``, wait for it with ``sync()``,
    make another stream wait for it with ``Stream.wait()``, and subtract two
    timing-enabled events to get the milliseconds between them."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Event objects cannot be instantiated directly. They are made by Stream.record() "
                           "or Device.create_event()")

    cdef cydriver.CUevent _live_handle(self) except? NULL:
        if self._handle == NULL:
            raise RuntimeError("this Event has been closed")
        return self._handle

    @property
    def handle(self):
        """The driver's CUevent (0 once the event is closed); ``int(event.handle)`` is its address."""
        from cuda.bindings import driver
        return driver.CUevent(<size_t>self._handle)

    @property
    def is_closed(self) -> bool:
        """Whether close() ran."""
        return self._handle == NULL

    @property
    def is_timing_enabled(self) -> bool:
        """Whether the event records a timestamp (EventOptions.timing_enabled)."""
        return self._timing

    @property
    def is_blocking_sync(self) -> bool:
        """Whether sync() sleeps rather than spins (EventOptions.blocking_sync)."""
        return self._blocking

    @property
    def is_ipc_enabled(self) -> bool:
        """Whether the event can be shared with other processes (EventOptions.ipc_enabled)."""
        return self._ipc

    @property
    def is_done(self) -> bool:
        """Whether all the work the event was recorded after has completed."""
        cdef cydriver.CUevent event = self._live_handle()
        cdef cydriver.CUresult result
        with nogil:
            result = cydriver.cuEventQuery(event)
        if result == cydriver.CUDA_ERROR_NOT_READY:
            return False
        HANDLE_RETURN(result)
        return True

    def sync(self) -> None:
        """Wait until the work the event was recorded after has completed."""
        cdef cydriver.CUevent event = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuEventSynchronize(event))

    @property
    def device(self):
        """The Device the event was made for; None for an event opened from another process
        (``from_ipc_descriptor``), whose device this process does not know."""
        if self._device_id < 0:
            return None
        from cuda.core._device import Device
        return Device(self._device_id)

    @property
    def context(self):
        """The Context that was current when the event was made; None for an event opened
        from another process."""
        if self._context == NULL:
            return None
        from cuda.core._context import Context
        return Context._from_handle(<size_t>self._context, self._device_id)

    @property
    def ipc_descriptor(self) -> IPCEventDescriptor:
        """The descriptor another process opens this event with (``Event.from_ipc_descriptor``)."""
        if not self._ipc:
            raise RuntimeError("this Event is not IPC-enabled: make it with EventOptions(ipc_enabled=True)")
        if self._ipc_descriptor is None:
            self._ipc_descriptor = _export(self._live_handle(), self._blocking)
        return self._ipc_descriptor

    @classmethod
    def from_ipc_descriptor(cls, IPCEventDescriptor ipc_descriptor not None) -> Event:
        """Open, in this process, the event another process exported as ``ipc_descriptor``.
        The current context's device is the event's device."""
        cdef bytes reserved = ipc_descriptor._reserved
        if len(reserved) < _IPC_HANDLE_BYTES:
            raise ValueError(f"IPC event descriptor reserved field is {len(reserved)} bytes; expected at least "
                             f"{_IPC_HANDLE_BYTES}")
        cdef cydriver.CUipcEventHandle ipc_handle
        memcpy(ipc_handle.reserved, <const char*>reserved, _IPC_HANDLE_BYTES)
        cdef cydriver.CUevent handle = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuIpcOpenEventHandle(&handle, ipc_handle))
        cdef Event event = _wrap(cls, handle, -1, False, ipc_descriptor._is_blocking_sync, True)
        event._context = NULL  # opened, not made here: the exporter's device and context are unknown
        event._ipc_descriptor = ipc_descriptor
        return event

    def __reduce__(self):
        return _reduce_event(self)

    def __sub__(self, other):
        """``end - start``: the milliseconds from ``start`` to ``end`` (both recorded,
        completed, and made with timing enabled)."""
        if not isinstance(other, Event):
            return NotImplemented
        cdef Event start = <Event>other
        if not (self._timing and start._timing):
            raise RuntimeError("Both Events must be created with timing enabled (EventOptions(timing_enabled=True)) "
                               "for their difference to be a time")
        cdef cydriver.CUevent first = start._live_handle()
        cdef cydriver.CUevent last = self._live_handle()
        cdef float milliseconds = 0
        cdef cydriver.CUresult result
        with nogil:
            result = compat_event_elapsed_time(&milliseconds, first, last)
        if result == cydriver.CUDA_ERROR_INVALID_HANDLE:
            raise RuntimeError("Both Events must be recorded (Stream.record) before their elapsed time can be "
                               "measured")
        if result == cydriver.CUDA_ERROR_NOT_READY:
            raise RuntimeError("One or both events have not completed. Call sync() on the later one before "
                               "subtracting")
        HANDLE_RETURN(result)
        return milliseconds

    def __rsub__(self, other):
        # Only Event - Event is defined, and __sub__ handles it.
        return NotImplemented

    def __isub__(self, other):
        # An elapsed time is a float, not an Event: never subtract in place.
        return NotImplemented

    def __eq__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return self._address == (<Event>other)._address

    def __hash__(self) -> int:
        return hash(self._address)

    def __repr__(self) -> str:
        return f"<Event handle={<size_t>self._handle:#x}>"

    def close(self) -> None:
        """Destroy the event; closing again does nothing."""
        cdef cydriver.CUevent event = self._handle
        self._handle = NULL
        if event != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuEventDestroy(event))

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already.
        cdef cydriver.CUevent handle = self._handle
        self._handle = NULL
        if handle != NULL:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuEventDestroy(handle)


cdef IPCEventDescriptor _export(cydriver.CUevent event, bint blocking):
    cdef cydriver.CUipcEventHandle ipc_handle
    with nogil:
        HANDLE_RETURN(cydriver.cuIpcGetEventHandle(&ipc_handle, event))
    return IPCEventDescriptor._init(ipc_handle.reserved[:_IPC_HANDLE_BYTES], blocking)


cdef Event _wrap(type cls, cydriver.CUevent handle, int device_id, bint timing, bint blocking, bint ipc):
    """An Event (of ``cls``) owning ``handle``, with the current context as its context."""
    cdef Event event = cls.__new__(cls)
    cdef cydriver.CUcontext context = NULL
    event._handle = handle
    event._address = <size_t>handle
    event._device_id = device_id
    event._timing = timing
    event._blocking = blocking
    event._ipc = ipc
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
    event._context = context
    return event


cdef Event new_event(object options, int device_id):
    return _make_event(options, device_id, True)


cdef Event _make_event(object options, int device_id, bint for_record):
    options = _event_options(options)
    cdef bint timing = bool(options.timing_enabled)
    cdef bint blocking = bool(options.blocking_sync)
    cdef bint ipc = bool(options.ipc_enabled)
    # NVIDIA's messages, which its tests match whole.
    if ipc and not for_record:  # an IPC event is made where it is recorded, once
        raise TypeError("IPC-enabled events must be bound; use Stream.record for creation.")
    if ipc and timing:
        raise TypeError("IPC-enabled events cannot use timing.")
    cdef unsigned int flags = 0
    if not timing:
        flags |= cydriver.CU_EVENT_DISABLE_TIMING
    if blocking:
        flags |= cydriver.CU_EVENT_BLOCKING_SYNC
    if ipc:
        flags |= cydriver.CU_EVENT_INTERPROCESS
    cdef cydriver.CUevent handle = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuEventCreate(&handle, flags))
    cdef Event event = _wrap(Event, handle, device_id, timing, blocking, ipc)
    if ipc:
        # Exported now, while this thread has the context: multiprocessing pickles a queued
        # Event later, on its feeder thread, where no context is current.
        event._ipc_descriptor = _export(handle, blocking)
    return event


def _create_event(options, int device_id) -> Event:
    """A new event on the current context, for Device.create_event (IPC events are made by Stream.record)."""
    return _make_event(options, device_id, False)
