"""cuda.core.Event: a CUDA event, recorded on a stream, optionally timed."""

from dataclasses import dataclass

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

# compat_event_elapsed_time: cuEventElapsedTime on 13, cuEventElapsedTime_v2 on 12.
include "driver_compat.pxi"

__all__ = ['Event', 'EventOptions']


@dataclass
class EventOptions:
    """How an event is made: ``enable_timing`` lets ``end - start`` give milliseconds;
    ``busy_waited_sync`` makes ``sync()`` spin instead of blocking the thread."""

    enable_timing: bool = False
    busy_waited_sync: bool = False


cdef class Event:
    """A CUDA event. Get one from ``Stream.record()`` or ``Device.create_event()``."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Event objects are made by Stream.record() or Device.create_event()")

    cdef cydriver.CUevent _live_handle(self) except? NULL:
        if self._handle == NULL:
            raise RuntimeError("this Event is closed")
        return self._handle

    @property
    def handle(self):
        """The driver's CUevent."""
        from cuda.bindings import driver
        return driver.CUevent(<size_t>self._live_handle())

    @property
    def is_timing_disabled(self) -> bool:
        return not self._timing

    @property
    def is_done(self) -> bool:
        """Whether all work captured by the event has completed."""
        cdef cydriver.CUevent event = self._live_handle()
        cdef cydriver.CUresult result
        with nogil:
            result = cydriver.cuEventQuery(event)
        if result == cydriver.CUDA_ERROR_NOT_READY:
            return False
        HANDLE_RETURN(result)
        return True

    def sync(self) -> None:
        """Wait until the work captured by the event has completed."""
        cdef cydriver.CUevent event = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuEventSynchronize(event))

    def __sub__(Event self, Event start) -> float:
        """``end - start``: the milliseconds between two recorded, completed events."""
        if not (self._timing and start._timing):
            raise RuntimeError("timing is disabled on this event: create both events with "
                               "EventOptions(enable_timing=True)")
        cdef float milliseconds = 0
        cdef cydriver.CUevent first = start._live_handle()
        cdef cydriver.CUevent last = self._live_handle()
        with nogil:
            HANDLE_RETURN(compat_event_elapsed_time(&milliseconds, first, last))
        return milliseconds

    def close(self) -> None:
        """Destroy the event; a second close does nothing."""
        cdef cydriver.CUevent event = self._handle
        self._handle = NULL
        if event != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuEventDestroy(event))

    def __dealloc__(self):
        if self._handle != NULL:
            cydriver.cuEventDestroy(self._handle)
            self._handle = NULL


cdef Event new_event(object options, int device_id):
    options = EventOptions() if options is None else options
    if not isinstance(options, EventOptions):
        raise TypeError(f"options must be an EventOptions or None, got {type(options).__name__}")
    cdef unsigned int flags = 0
    if not options.enable_timing:
        flags |= cydriver.CU_EVENT_DISABLE_TIMING
    if not options.busy_waited_sync:
        flags |= cydriver.CU_EVENT_BLOCKING_SYNC
    cdef Event event = Event.__new__(Event)
    cdef cydriver.CUevent handle = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuEventCreate(&handle, flags))
    event._handle = handle
    event._timing = options.enable_timing
    event._device_id = device_id
    return event


def _create_event(options, int device_id) -> Event:
    """Python-level entry to new_event, for Device.create_event."""
    return new_event(options, device_id)
