"""cuda.core Context: a CUDA context, as Device.context and Stream.context give it."""

__all__ = ["Context"]


class Context:
    """A CUDA context; ``Device.context`` and ``Stream.context`` give one."""

    __slots__ = ("_handle", "_device_id")

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("Context objects are made by Device.context or Stream.context")

    @classmethod
    def _from_handle(cls, handle: int, device_id: int) -> "Context":
        context = object.__new__(cls)
        context._handle = handle
        context._device_id = device_id
        return context

    @property
    def handle(self):
        """The driver's CUcontext."""
        from cuda.bindings import driver
        return driver.CUcontext(self._handle)

    @property
    def device_id(self) -> int:
        return self._device_id

    def __eq__(self, other) -> bool:
        return isinstance(other, Context) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash(self._handle)

    def __repr__(self) -> str:
        return f"<Context {self._handle:#x} of device {self._device_id}>"
