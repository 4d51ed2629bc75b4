"""cuda.core Context and ContextOptions: CUDA contexts as Device and Stream hand them out."""

from collections.abc import Sequence
from dataclasses import dataclass

cimport cython
cimport cuda.bindings.cydriver as cydriver

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
        """The hardware resources (SMs, work queues) provisioned for this context."""
        Context_check_open(self)
        raise NotImplementedError("Context.resources needs cuda.core's device-resource API (DeviceResources, "
                                  "SMResource, WorkqueueResource), which this cuda.core does not have yet")

    def create_stream(self, options=None):
        """A new stream bound to this green context. Primary and other contexts make
        streams with Device.create_stream()."""
        Context_check_open(self)
        if not self._is_green:
            raise RuntimeError("Context.create_stream() is only supported on green contexts; "
                               "use Device.create_stream() for this context")
        raise NotImplementedError("streams of green contexts are not available in this cuda.core yet")

    cpdef close(self):
        """Release this wrapper: afterwards ``handle`` is None and ``is_closed`` True. The
        driver context itself (a primary context, or one wrapped from a handle) belongs to
        the driver or to whoever made it, and stays. Idempotent."""
        self._closed = True

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
    return wrapped


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
