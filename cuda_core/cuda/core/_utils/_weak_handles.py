# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Private to cuda.core (no API): observe whether a Buffer's memory is still allocated,
without owning the Buffer or its memory.

A graph node that uses a Buffer keeps its memory allocated after ``Buffer.close()`` until no
graph may run the node any more. Tests check when that happens; a reference to the Buffer
would itself keep the Buffer (and, unclosed, its memory) alive, so they hold this instead.
"""

import weakref

from cuda.core._memory._buffer import Buffer, _allocation_is_live

__all__ = ["weak_handle"]


class _WeakAllocation:
    """True while the Buffer's memory is allocated (the Buffer is open, or closed with its
    deallocation deferred); False once the memory went back to its resource or the Buffer
    is gone. Holds only a weak reference to the Buffer."""

    __slots__ = ("_buffer",)

    def __init__(self, buffer) -> None:
        self._buffer = weakref.ref(buffer)

    def __bool__(self) -> bool:
        buffer = self._buffer()
        return buffer is not None and _allocation_is_live(buffer)

    def __repr__(self) -> str:
        return f"<weak allocation handle {'live' if self else 'released'}>"


def weak_handle(buffer) -> _WeakAllocation:
    """A weak handle on ``buffer``'s allocation: truthy while the memory is allocated."""
    if not isinstance(buffer, Buffer):
        raise TypeError(f"weak_handle() takes a Buffer, not {type(buffer).__name__}")
    return _WeakAllocation(buffer)
