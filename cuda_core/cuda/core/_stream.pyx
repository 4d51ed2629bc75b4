"""cuda.core.Stream: a CUDA stream, ours or a foreign one that speaks ``__cuda_stream__``."""

from dataclasses import dataclass

cimport cuda.bindings.cydriver as cydriver
from cuda.core._event cimport Event, new_event
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device

__all__ = ['Stream', 'StreamOptions']


@dataclass
class StreamOptions:
    """How a stream is made: ``nonblocking`` streams do not synchronize with the legacy
    default stream; ``priority`` (None: the default) lower numbers run first."""

    nonblocking: bool = True
    priority: int | None = None


cdef class Stream:
    """A CUDA stream. Get one from ``Device.create_stream()``."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Stream objects are made by Device.create_stream()")

    cdef cydriver.CUstream _live_handle(self) except? <cydriver.CUstream>1:
        if self._closed:
            raise RuntimeError("this Stream is closed")
        return self._handle

    def __cuda_stream__(self) -> tuple[int, int]:
        """The stream protocol: (version 0, the CUstream address)."""
        return (0, <size_t>self._live_handle())

    @property
    def handle(self):
        """The driver's CUstream."""
        from cuda.bindings import driver
        return driver.CUstream(<size_t>self._live_handle())

    @property
    def device(self):
        """The Device this stream was made on."""
        if self._device_id < 0:
            raise RuntimeError("this foreign stream was wrapped with no current context: its device is unknown")
        from cuda.core._device import Device
        return Device(self._device_id)

    @property
    def context(self):
        """The Context the stream belongs to."""
        cdef cydriver.CUcontext context = NULL
        cdef cydriver.CUstream stream = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamGetCtx(stream, &context))
        from cuda.core._context import Context
        return Context._from_handle(<size_t>context, self._device_id)

    @property
    def priority(self) -> int:
        cdef int priority = 0
        cdef cydriver.CUstream stream = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamGetPriority(stream, &priority))
        return priority

    def sync(self) -> None:
        """Wait until all work queued on the stream has completed."""
        cdef cydriver.CUstream stream = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamSynchronize(stream))

    def record(self, event: Event | None = None, options=None) -> Event:
        """Record ``event`` (a new one made with ``options`` if None) on this stream."""
        cdef cydriver.CUstream stream = self._live_handle()
        if event is None:
            event = new_event(options, self._device_id)
        elif not isinstance(event, Event):
            raise TypeError(f"event must be an Event or None, got {type(event).__name__}")
        cdef cydriver.CUevent handle = (<Event>event)._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuEventRecord(handle, stream))
        return event

    def wait(self, event_or_stream) -> None:
        """Make later work on this stream wait for an Event, or for all work queued so far on a stream."""
        cdef cydriver.CUstream stream = self._live_handle()
        cdef Event event
        if isinstance(event_or_stream, Event):
            event = event_or_stream
            owned_event = False
        else:
            other = as_stream(event_or_stream)
            event = (<Stream>other).record()
            owned_event = True
        cdef cydriver.CUevent handle = event._live_handle()
        try:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamWaitEvent(stream, handle, 0))
        finally:
            if owned_event:
                event.close()

    def close(self) -> None:
        """Destroy a stream this package made (a foreign one is only let go); idempotent."""
        if self._closed:
            return
        self._closed = True
        self._foreign = None
        if self._owned and self._handle != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamDestroy(self._handle))

    def __dealloc__(self):
        if not self._closed and self._owned and self._handle != NULL:
            cydriver.cuStreamDestroy(self._handle)

    def __repr__(self) -> str:
        return f"<Stream {'closed' if self._closed else hex(<size_t>self._handle)} on device {self._device_id}>"


def new_stream(int device_id, options=None) -> Stream:
    """A new stream on the current context (the device's primary context once set_current ran)."""
    options = StreamOptions() if options is None else options
    if not isinstance(options, StreamOptions):
        raise TypeError(f"options must be a StreamOptions or None, got {type(options).__name__}")
    cdef unsigned int flags = cydriver.CU_STREAM_NON_BLOCKING if options.nonblocking else 0
    cdef int least = 0, greatest = 0
    cdef int priority
    cdef cydriver.CUstream handle = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetStreamPriorityRange(&least, &greatest))
    if options.priority is None:
        priority = least
    elif not isinstance(options.priority, int) or not greatest <= options.priority <= least:
        raise ValueError(f"priority must be an int in [{greatest}, {least}] (lower runs first), "
                         f"got {options.priority!r}")
    else:
        priority = options.priority
    with nogil:
        HANDLE_RETURN(cydriver.cuStreamCreateWithPriority(&handle, flags, priority))
    cdef Stream stream = Stream.__new__(Stream)
    stream._handle = handle
    stream._owned = True
    stream._device_id = device_id
    return stream


cpdef Stream as_stream(object obj, int device_id=-1):
    """``obj`` itself if it is a Stream, else a non-owning Stream over its ``__cuda_stream__``."""
    if type(obj) is Stream:
        return <Stream>obj
    if isinstance(obj, Stream):
        return obj
    protocol = getattr(obj, "__cuda_stream__", None)
    if protocol is None:
        raise TypeError(f"{type(obj).__name__} is not a stream: it has no __cuda_stream__ method")
    info = protocol()
    if not (isinstance(info, tuple) and len(info) == 2 and info[0] == 0 and isinstance(info[1], int)):
        raise TypeError(f"{type(obj).__name__}.__cuda_stream__() must return (0, address), got {info!r}")
    cdef Stream stream = Stream.__new__(Stream)
    stream._handle = <cydriver.CUstream><size_t>info[1]
    stream._owned = False
    stream._foreign = obj
    stream._device_id = device_id if device_id >= 0 else current_device()
    return stream

