# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.Stream: an ordered queue of GPU work, ours or another library's.

A Stream made here (``Device.create_stream()``) owns its CUstream and destroys it on
close() or when collected. A Stream over a foreign handle (``Stream.from_handle``) or
over an object speaking the ``__cuda_stream__`` protocol owns nothing; for the protocol
it keeps the object alive. The two default streams, LEGACY_DEFAULT_STREAM and
PER_THREAD_DEFAULT_STREAM, are the driver's special handles: they belong to no context
and act on whichever context is current when they are used.
"""

import sys
from dataclasses import dataclass
from typing import Any, Protocol

from libc.stdlib cimport getenv, strtol

cimport cuda.bindings.cydriver as cydriver
from cuda.core._event cimport Event, new_event
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device

__all__ = ['LEGACY_DEFAULT_STREAM', 'PER_THREAD_DEFAULT_STREAM', 'Stream', 'StreamOptions']


@dataclass
class StreamOptions:
    """How a Stream is made: ``nonblocking`` streams do not synchronize with the legacy
    default stream; ``priority`` is the stream's scheduling priority, lower numbers first
    (None: the lowest priority, the driver's default)."""

    nonblocking: Any = True
    priority: int | None = None


class IsStreamType(Protocol):
    """Any object usable as a CUDA stream: ``__cuda_stream__()`` returns (0, the
    CUstream's address as an int)."""

    def __cuda_stream__(self) -> tuple[int, int]: ...


cdef object _stream_options(object options):
    """``options`` as a StreamOptions: None gives the defaults, a dict gives its fields."""
    if options is None:
        return StreamOptions()
    if isinstance(options, StreamOptions):
        return options
    if isinstance(options, dict):
        return StreamOptions(**options)
    raise TypeError(f"stream options must be a StreamOptions, a dict of its fields, or None; "
                    f"got {type(options).__name__}")


cdef inline bint _is_default_handle(cydriver.CUstream handle) noexcept nogil:
    """The NULL stream and the two named default streams follow the current context."""
    return <size_t>handle <= <size_t>cydriver.CU_STREAM_PER_THREAD


cdef int _device_of_context(cydriver.CUcontext context) except -2:
    """The device of ``context`` (which need not be current), or -1 for NULL."""
    cdef cydriver.CUdevice device = -1
    cdef cydriver.CUcontext popped = NULL
    if context == NULL:
        return -1
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxPushCurrent(context))
        try:
            HANDLE_RETURN(cydriver.cuCtxGetDevice(&device))
        finally:
            HANDLE_RETURN(cydriver.cuCtxPopCurrent(&popped))
    return device


cdef Stream _new_stream_object(type cls, cydriver.CUstream handle, bint owned):
    """A Stream (of ``cls``: subclasses are supported) over ``handle``, attributes unknown yet."""
    cdef Stream stream = cls.__new__(cls)
    stream._handle = handle
    stream._owned = owned
    stream._device_id = -1
    stream._nonblocking = -1
    return stream


cdef Stream _create(type cls, object options, int device_id, object ctx):
    """A new owned stream on ``ctx`` (a Context) or else on the current context."""
    options = _stream_options(options)
    cdef unsigned int flags = cydriver.CU_STREAM_NON_BLOCKING if options.nonblocking else 0
    cdef cydriver.CUcontext context = NULL
    cdef cydriver.CUcontext popped = NULL
    cdef bint pushed = False
    if ctx is not None:
        context = <cydriver.CUcontext><size_t>int(ctx.handle)
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxPushCurrent(context))
        pushed = True
    cdef cydriver.CUstream handle = NULL
    cdef int priority
    try:
        priority = _checked_priority(options.priority)
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamCreateWithPriority(&handle, flags, priority))
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
    finally:
        if pushed:
            with nogil:
                HANDLE_RETURN(cydriver.cuCtxPopCurrent(&popped))
    cdef Stream stream = _new_stream_object(cls, handle, True)
    stream._context = context
    stream._device_id = device_id if device_id >= 0 else _device_of_context(context)
    stream._nonblocking = 1 if flags else 0
    stream._priority = priority
    stream._priority_known = True
    return stream


cdef int _checked_priority(object priority) except? -1:
    """``priority`` (None: the lowest) checked against the current context's range."""
    cdef int least = 0, greatest = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetStreamPriorityRange(&least, &greatest))
    if priority is None:
        return least
    if not isinstance(priority, int) or isinstance(priority, bool) or not greatest <= priority <= least:
        raise ValueError(f"stream priority must be an int from {greatest} (highest) to {least} (lowest), "
                         f"got {priority!r}")
    return priority


cdef Stream _from_protocol(type cls, object obj, int device_id):
    """A non-owning Stream over ``obj.__cuda_stream__()``, keeping ``obj`` alive."""
    cdef Stream stream = _new_stream_object(cls, NULL, False)
    _init_from_protocol(stream, obj, device_id)
    return stream


cdef int _init_from_protocol(Stream stream, object obj, int device_id) except -1:
    protocol = getattr(obj, "__cuda_stream__", None)
    if protocol is None:
        raise TypeError(f"{type(obj).__name__} is not a stream: it has no __cuda_stream__ method")
    info = protocol()
    if not (isinstance(info, tuple) and len(info) == 2 and info[0] == 0 and isinstance(info[1], int)):
        raise TypeError(f"{type(obj).__name__}.__cuda_stream__() must return (0, address) with the CUstream's "
                        f"address as an int, got {info!r}")
    stream._handle = <cydriver.CUstream><size_t>info[1]
    stream._owned = False
    stream._foreign = obj
    stream._device_id = device_id
    stream._nonblocking = -1
    return 0


cdef class Stream:
    """An ordered queue of GPU work. Get one from ``Device.create_stream()``, wrap a
    foreign one with ``Stream.from_handle()``, or use ``Device.default_stream``.

    Streams compare equal, and hash alike, when they wrap the same CUstream."""

    def __init__(self, *args, **kwargs):
        # Stream(obj) wraps an object speaking __cuda_stream__ (what the deprecation of implicit
        # protocol conversion in launch() points to); nothing else constructs a Stream directly.
        if len(args) == 1 and not kwargs and hasattr(args[0], "__cuda_stream__") and not self._closed \
                and self._handle == NULL and self._foreign is None:
            _init_from_protocol(self, args[0], -1)
            return
        raise RuntimeError("Stream objects cannot be instantiated directly. Make one with "
                           "Device.create_stream(), or wrap a foreign one with Stream.from_handle() "
                           "or Stream(obj) for an object with __cuda_stream__")

    @classmethod
    def _legacy_default(cls) -> Stream:
        """The legacy default stream, as an instance of ``cls``."""
        return _new_stream_object(cls, <cydriver.CUstream>cydriver.CU_STREAM_LEGACY, False)

    @classmethod
    def _per_thread_default(cls) -> Stream:
        """The per-thread default stream, as an instance of ``cls``."""
        return _new_stream_object(cls, <cydriver.CUstream>cydriver.CU_STREAM_PER_THREAD, False)

    @classmethod
    def _init(cls, obj=None, options=None, device_id=None, ctx=None) -> Stream:
        """A new stream (of ``cls``) on ``ctx`` or the current context, made with
        ``options``; or, given ``obj``, a Stream over its ``__cuda_stream__``."""
        cdef int device = -1 if device_id is None else device_id
        if obj is not None:
            if options is not None:
                raise ValueError("a foreign stream object and stream options cannot be given together: "
                                 "the foreign stream is already made")
            return _from_protocol(cls, obj, device)
        return _create(cls, options, device, ctx)

    @staticmethod
    def from_handle(handle) -> Stream:
        """A Stream over the CUstream at address ``handle`` (an int). It does not own the
        stream: keep the stream alive, in whatever made it, while this Stream is used."""
        if not isinstance(handle, int):
            from cuda.bindings import driver
            if not isinstance(handle, driver.CUstream):
                raise TypeError(f"handle must be an int (a CUstream address), got {type(handle).__name__}")
            handle = int(handle)
        return _new_stream_object(Stream, <cydriver.CUstream><size_t>handle, False)

    cdef cydriver.CUstream _live_handle(self) except? <cydriver.CUstream>1:
        if self._closed:
            raise RuntimeError("this Stream has been closed")
        return self._handle

    cdef int _resolve(self) except -1:
        """Learn the context and device of a stream that was not made here."""
        cdef cydriver.CUstream handle = self._live_handle()
        cdef cydriver.CUcontext context = NULL
        if _is_default_handle(handle):
            return 0
        if self._context == NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamGetCtx(handle, &context))
            self._context = context
        if self._device_id < 0:
            self._device_id = _device_of_context(self._context)
        return 0

    cdef cydriver.CUcontext _current_context(self) except? NULL:
        """The stream's context: for a default stream, the one current now."""
        cdef cydriver.CUcontext context = NULL
        if not _is_default_handle(self._live_handle()):
            self._resolve()
            return self._context
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        if context == NULL:
            raise RuntimeError("no CUDA context is current on this thread, and a default stream uses the current "
                               "one: call Device.set_current() first")
        return context

    cdef int _current_device_id(self) except -2:
        """The stream's device: for a default stream, the current device (else 0)."""
        if not _is_default_handle(self._live_handle()):
            self._resolve()
            return self._device_id
        return max(current_device(), 0)

    @property
    def is_closed(self) -> bool:
        """Whether close() ran."""
        return self._closed

    def __cuda_stream__(self) -> tuple[int, int]:
        """The stream protocol: (version 0, the CUstream's address)."""
        return (0, <size_t>self._live_handle())

    @property
    def handle(self):
        """The driver's CUstream (0 once closed); ``int(stream.handle)`` is its address."""
        from cuda.bindings import driver
        return driver.CUstream(0 if self._closed else <size_t>self._handle)

    @property
    def is_nonblocking(self) -> bool:
        """Whether the stream runs independently of the legacy default stream."""
        cdef cydriver.CUstream handle = self._live_handle()
        cdef unsigned int flags = 0
        if self._nonblocking < 0:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamGetFlags(handle, &flags))
            if _is_default_handle(handle):
                return bool(flags & cydriver.CU_STREAM_NON_BLOCKING)
            self._nonblocking = 1 if flags & cydriver.CU_STREAM_NON_BLOCKING else 0
        return self._nonblocking == 1

    @property
    def priority(self) -> int:
        """The stream's priority (lower numbers are scheduled first)."""
        cdef cydriver.CUstream handle = self._live_handle()
        cdef int priority = 0
        if not self._priority_known:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamGetPriority(handle, &priority))
            if _is_default_handle(handle):
                return priority
            self._priority = priority
            self._priority_known = True
        return self._priority

    @property
    def device(self):
        """The Device of the stream's context (for a default stream: the current device)."""
        from cuda.core._device import Device
        return Device(self._current_device_id())

    @property
    def context(self):
        """The stream's Context (for a default stream: the context current now)."""
        from cuda.core._context import Context
        cdef cydriver.CUcontext context = self._current_context()
        return Context._from_handle(<size_t>context, self._current_device_id())

    @property
    def resources(self):
        """The hardware resources provisioned for the stream's context: a green context's
        partition, or the whole device's."""
        return self.context.resources

    def sync(self) -> None:
        """Wait until all work queued on the stream has completed."""
        cdef cydriver.CUstream handle = self._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuStreamSynchronize(handle))

    def record(self, event: Event | None = None, options=None) -> Event:
        """Record ``event`` on the stream (a new one, made with ``options``, if None)
        and return it: it completes once all work queued before it has."""
        cdef cydriver.CUstream handle = self._live_handle()
        if event is None:
            event = _new_event_in_context(self, options)
        elif not isinstance(event, Event):
            raise TypeError(f"event must be an Event or None, got {type(event).__name__}")
        elif (<Event>event)._ipc:  # its descriptor names one recording; NVIDIA's message, matched whole
            raise TypeError("IPC-enabled events should not be re-recorded, instead create a new event by "
                            "supplying options.")
        cdef cydriver.CUevent event_handle = (<Event>event)._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuEventRecord(event_handle, handle))
        return event

    def wait(self, event_or_stream) -> None:
        """Make work queued on this stream from now on wait for an Event, or for all the
        work queued so far on another stream (a Stream or a ``__cuda_stream__`` object)."""
        cdef cydriver.CUstream handle = self._live_handle()
        cdef Event event
        cdef Stream other
        if isinstance(event_or_stream, Event):
            event = <Event>event_or_stream
            _wait_event(handle, event._live_handle())
            return
        if isinstance(event_or_stream, Stream):
            other = <Stream>event_or_stream
        elif hasattr(event_or_stream, "__cuda_stream__"):
            other = _from_protocol(Stream, event_or_stream, -1)
        else:
            raise ValueError(f"wait() takes an Event, a Stream or an object with __cuda_stream__; got "
                             f"{type(event_or_stream).__name__}")
        event = other.record()
        try:
            _wait_event(handle, event._live_handle())
        finally:
            event.close()

    def create_graph_builder(self):
        """A new GraphBuilder capturing the work queued on this stream (which stays this
        stream's: closing the builder leaves it open)."""
        self._live_handle()
        from cuda.core.graph._graph_builder import GraphBuilder
        return GraphBuilder._init(self)

    def close(self) -> None:
        """Destroy a stream made here; let go of a foreign one. Closing again does nothing.
        Do not close the module's default streams: they are shared."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._owned and self._handle != NULL:
                with nogil:
                    HANDLE_RETURN(cydriver.cuStreamDestroy(self._handle))
        finally:
            self._foreign = None  # after the destroy: it may hold the stream's green context

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already.
        cdef cydriver.CUstream handle = self._handle
        if not self._closed and self._owned and handle != NULL:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuStreamDestroy(handle)

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        return <size_t>self._handle == <size_t>(<Stream>other)._handle

    def __hash__(self) -> int:
        return hash(<size_t>self._handle)

    def __repr__(self) -> str:
        cdef size_t context = 0
        if not self._closed:
            try:
                context = <size_t>self._current_context()
            except Exception:
                context = 0  # e.g. a default stream with no current context: repr must not fail
        cdef size_t handle = 0 if self._closed else <size_t>self._handle
        return f"<Stream handle={handle:#x} context={context:#x}>"


cdef Event _new_event_in_context(Stream stream, object options):
    """A new event in the stream's own context, made current around the creation when it
    is not (a green context's stream): an event records only on streams of its context."""
    cdef cydriver.CUcontext context = NULL
    cdef cydriver.CUcontext current = NULL
    cdef cydriver.CUcontext popped = NULL
    if not _is_default_handle(stream._live_handle()):
        stream._resolve()
        context = stream._context
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&current))
    if context == NULL or context == current:
        return new_event(options, stream._current_device_id())
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxPushCurrent(context))
    try:
        return new_event(options, stream._device_id)
    finally:
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxPopCurrent(&popped))


cdef int _wait_event(cydriver.CUstream stream, cydriver.CUevent event) except -1:
    with nogil:
        HANDLE_RETURN(cydriver.cuStreamWaitEvent(stream, event, 0))
    return 0


LEGACY_DEFAULT_STREAM = Stream._legacy_default()
PER_THREAD_DEFAULT_STREAM = Stream._per_thread_default()
cdef Stream _legacy = LEGACY_DEFAULT_STREAM
cdef Stream _per_thread = PER_THREAD_DEFAULT_STREAM


cpdef Stream default_stream():
    """The default stream: PER_THREAD_DEFAULT_STREAM where the environment variable
    CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM is set to a non-zero integer, else
    LEGACY_DEFAULT_STREAM. The variable is read on each call."""
    cdef const char* value = getenv(b"CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM")
    if value != NULL and strtol(value, NULL, 10) != 0:
        return _per_thread
    return _legacy


cpdef Stream Stream_accept(arg, bint allow_stream_protocol=False):
    """``arg`` as a Stream: a Stream is itself; with ``allow_stream_protocol``, an object
    with ``__cuda_stream__`` is wrapped (deprecated: a DeprecationWarning says so).
    Anything else, None included, is a TypeError: there is no implicit default stream."""
    if isinstance(arg, Stream):
        return <Stream>arg
    cdef Stream captured = _graph_builder_stream(arg)
    if captured is not None:
        return captured
    if arg is None:
        raise TypeError("stream is required and must not be None: pass device.default_stream to use the "
                        "default stream")
    if allow_stream_protocol and hasattr(arg, "__cuda_stream__"):
        import warnings
        warnings.warn("Passing foreign stream objects to this function via the stream protocol is deprecated. "
                      "Convert the object explicitly using Stream(obj) instead.", DeprecationWarning, stacklevel=2)
        return _from_protocol(Stream, arg, -1)
    raise TypeError(f"Stream or GraphBuilder expected, got {type(arg).__name__}")


cpdef Stream as_stream(object obj, int device_id=-1):
    """``obj`` itself if it is a Stream, else a non-owning Stream over its ``__cuda_stream__``."""
    if isinstance(obj, Stream):
        return <Stream>obj
    cdef Stream captured = _graph_builder_stream(obj)
    if captured is not None:
        return captured
    return _from_protocol(Stream, obj, device_id)


cdef Stream _graph_builder_stream(object obj):
    """The stream of a cuda.core.graph GraphBuilder, else None. The class is looked up among
    the loaded modules: a GraphBuilder exists only once cuda.core.graph is imported, and
    importing cuda.core must not import it."""
    builders = sys.modules.get("cuda.core.graph._graph_builder")
    if builders is not None and isinstance(obj, builders.GraphBuilder):
        return obj.stream
    return None


def new_stream(int device_id, options=None) -> Stream:
    """A new stream on the current context for device ``device_id``, made with
    ``options`` (a StreamOptions, a dict of its fields, or None): Device.create_stream."""
    return _create(Stream, options, device_id, None)


# ---- Green contexts (device resources) ----

cdef Stream new_green_stream(object owner, cydriver.CUgreenCtx green, cydriver.CUcontext context,
                             int device_id, object options):
    """A new owned stream on a green context (Context.create_stream), holding ``owner``."""
    options = _stream_options(options)
    if not options.nonblocking:
        raise ValueError("streams of a green context must be non-blocking: use StreamOptions(nonblocking=True)")
    cdef cydriver.CUcontext popped = NULL
    cdef cydriver.CUstream handle = NULL
    cdef int priority
    # The priority range is the current context's: the green context's, pushed for the query.
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxPushCurrent(context))
    try:
        priority = _checked_priority(options.priority)
    finally:
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxPopCurrent(&popped))
    with nogil:
        HANDLE_RETURN(cydriver.cuGreenCtxStreamCreate(&handle, green, cydriver.CU_STREAM_NON_BLOCKING, priority))
    cdef Stream stream = _new_stream_object(Stream, handle, True)
    stream._context = context
    stream._device_id = device_id
    stream._nonblocking = 1
    stream._priority = priority
    stream._priority_known = True
    stream._foreign = owner
    return stream

# ---- end of green contexts ----
