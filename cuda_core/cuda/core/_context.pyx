# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Context and ContextOptions: CUDA contexts as Device and Stream hand them out."""

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

cimport cython
cimport cuda.bindings.cydriver as cydriver
from cuda.core._stream cimport new_green_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['Context', 'ContextOptions']

# What ContextOptions.resources holds: the device resources a green context is made of
# (SMResource and WorkqueueResource of cuda.core's device-resource API).
DeviceResourcesType = Sequence["SMResource | WorkqueueResource"]


@cython.auto_pickle(False)
cdef class Context:
    """A CUDA context.

    Not made directly: ``Device.context`` gives the context that ``Device.set_current()``
    made current, ``Stream.context`` a stream's. Two Context objects are equal when they
    wrap the same driver context.
    """

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("Context objects cannot be instantiated directly. Use Device.context, "
                           "Stream.context or Device.create_context() instead.")

    @classmethod
    def _from_handle(cls, handle, int device_id) -> Context:
        """A Context over the driver context ``handle`` (a CUcontext or its address) of device
        ``device_id``; it does not own the context: close() only forgets it."""
        return context_from_address(<size_t>int(handle), device_id)

    @property
    def handle(self):
        """The driver's ``CUcontext``; None once closed."""
        return self._handle

    @property
    def _handle(self):
        if self._closed:
            return None
        from cuda.bindings import driver
        return driver.CUcontext(self._address)

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._closed

    @property
    def is_green(self) -> bool:
        """Whether this is a green context, made by Device.create_context() from device resources."""
        return self._is_green

    @property
    def resources(self):
        """The hardware resources (SMs, work queues) provisioned for this context: a green
        context's own partition, or the whole device's for a primary context."""
        Context_check_open(self)
        from cuda.core._device_resources import _context_resources
        return _context_resources(self)

    def create_stream(self, options=None):
        """A new stream bound to this green context, without making it current (green
        contexts' streams are non-blocking). Primary and other contexts make streams with
        Device.create_stream()."""
        Context_check_open(self)
        if not self._is_green:
            raise RuntimeError("Context.create_stream() is only supported on green contexts; "
                               "use Device.create_stream() for this context")
        return new_green_stream(self._green, self._green._handle, self._green._context, self._device_id, options)

    cpdef close(self):
        """Release this wrapper: afterwards ``handle`` is None and ``is_closed`` True.
        A green context is destroyed once no Context or stream holds it any more; closing
        one that is current on this thread is an error. Other driver contexts (a primary
        context, one wrapped from a handle) belong to the driver or to whoever made them,
        and stay. Idempotent."""
        cdef cydriver.CUcontext current = NULL
        if self._closed:
            return
        if self._green is not None:
            with nogil:
                HANDLE_RETURN(cydriver.cuCtxGetCurrent(&current))
            if current == Context_handle(self):
                raise RuntimeError("cannot close a green context while it is current on this thread: make "
                                   "another context current first (device.set_current(previous))")
        self._closed = True
        self._green = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Context):
            return NotImplemented
        return self._address == (<Context>other)._address

    def __hash__(self) -> int:
        return hash((Context, self._address))

    def __repr__(self) -> str:
        closed = " closed" if self._closed else ""
        return f"<Context handle=0x{self._address:x} device={self._device_id}{closed}>"


cdef Context context_from_address(size_t context, int device_id):
    cdef Context wrapped = Context.__new__(Context)
    wrapped._address = context
    wrapped._device_id = device_id
    wrapped._closed = False
    wrapped._is_green = False
    # A green context made here (e.g. a green stream's context) is green again, and held.
    cdef GreenContext green = _green_contexts.get(context) if context else None
    if green is not None:
        wrapped._green = green
        wrapped._is_green = True
    return wrapped


# ---- Green contexts (device resources) ----

# CUcontext address -> the live GreenContext made here, so that Stream.context and
# Event.context know a green context again (while anything holds it).
_green_contexts = weakref.WeakValueDictionary()


@cython.auto_pickle(False)
cdef class GreenContext:
    """The owner of one CUgreenCtx (made by Device.create_context), destroyed with it."""

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("GreenContext objects are made by Device.create_context()")

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already.
        cdef cydriver.CUgreenCtx handle = self._handle
        self._handle = NULL
        if handle != NULL:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuGreenCtxDestroy(handle)


cdef Context green_context_from_handle(cydriver.CUgreenCtx handle, int device_id):
    """Take ownership of ``handle`` (on error too: it is then destroyed) and wrap it."""
    cdef GreenContext green = GreenContext.__new__(GreenContext)
    green._handle = handle
    green._device_id = device_id
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxFromGreenCtx(&green._context, handle))
    _green_contexts[<size_t>green._context] = green
    return context_from_address(<size_t>green._context, device_id)

# ---- end of green contexts ----


@dataclass
class ContextOptions:
    """How Device.create_context() makes a context.

    Attributes
    ----------
    resources : :obj:`~cuda.core.typing.DeviceResourcesType`
        The device resources (SM partitions, work-queue configuration) that the new green
        context is made of.
    """

    resources: DeviceResourcesType
