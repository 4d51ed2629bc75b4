"""Sharing memory with other processes (IPC): the names NVIDIA's cuda.core exports, as
placeholders. This cuda.core cannot export or import pools or buffers yet; the places that
would (``allocation_handle``, ``Buffer.ipc_descriptor``, ``Buffer.from_ipc_descriptor``...)
raise NotImplementedError, or RuntimeError for a resource that is not IPC-enabled."""

from __future__ import annotations

__all__ = ["IPCAllocationHandle", "IPCBufferDescriptor"]

_NOT_YET = "sharing memory between processes (IPC) is not supported by this cuda.core yet"


class IPCBufferDescriptor:
    """What describes a buffer to another process: its export data and its size. Only the
    record exists here; nothing can export or import one yet."""

    __slots__ = ("_payload", "_size")

    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"IPCBufferDescriptor objects come from Buffer.ipc_descriptor: {_NOT_YET}")

    @classmethod
    def _init(cls, reserved: bytes, size: int) -> IPCBufferDescriptor:
        descriptor = cls.__new__(cls)
        descriptor._payload = bytes(reserved)
        descriptor._size = int(size)
        return descriptor

    @property
    def size(self) -> int:
        """The size of the described buffer, in bytes."""
        return self._size

    def __reduce__(self):
        return (IPCBufferDescriptor._init, (self._payload, self._size))

    def __repr__(self) -> str:
        return f"IPCBufferDescriptor(size={self._size})"


class IPCAllocationHandle:
    """The shareable handle (a POSIX file descriptor) of an IPC-enabled pool: not supported yet."""

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"IPCAllocationHandle objects come from a resource's allocation_handle: {_NOT_YET}")
