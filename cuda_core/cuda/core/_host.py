# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Host: the host (CPU) as a memory location, the counterpart of Device."""

from __future__ import annotations

import threading
from typing import ClassVar

__all__ = ["Host"]


class Host:
    """The host (CPU) as a managed-memory location, where ``Device`` names a GPU.

    ``Host()`` is the host as a whole; ``Host(numa_id=N)`` its NUMA node ``N``;
    ``Host.numa_current()`` (or ``Host(is_numa_current=True)``) the NUMA node of whichever
    thread uses it. Each distinct location is one object, so ``Host(numa_id=1) is Host(numa_id=1)``
    and equality is identity. Instances are immutable.

    Prefetch, advice and ``ManagedBuffer.preferred_location`` take a ``Host`` or a ``Device``.
    NUMA-specific hosts need the driver's location-based managed-memory calls: CUDA 13 always
    has them; a CUDA 12 build uses them where the driver provides them (12.2 or newer).
    """

    __slots__ = ("__weakref__", "_is_numa_current", "_numa_id")

    _numa_id: int | None
    _is_numa_current: bool

    # One instance per (numa_id, is_numa_current); the lock makes first creation race-free.
    _instances: ClassVar[dict[tuple[int | None, bool], Host]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __new__(cls, numa_id: int | None = None, *, is_numa_current: bool = False) -> Host:
        if numa_id is not None:
            # bool is an int, but Host(True) must not alias Host(1).
            if isinstance(numa_id, bool) or not isinstance(numa_id, int) or numa_id < 0:
                raise ValueError(f"numa_id must be a non-negative int (a host NUMA node), got {numa_id!r}")
            if is_numa_current:
                raise ValueError(
                    "numa_id and is_numa_current are mutually exclusive: name one NUMA node, or the calling thread's"
                )
        key = (numa_id, bool(is_numa_current))
        found = cls._instances.get(key)
        if found is not None:
            return found
        with cls._lock:
            found = cls._instances.get(key)
            if found is None:
                found = object.__new__(cls)
                object.__setattr__(found, "_numa_id", numa_id)
                object.__setattr__(found, "_is_numa_current", bool(is_numa_current))
                cls._instances[key] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Host is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Host is immutable: cannot delete {name!r}")

    @classmethod
    def numa_current(cls) -> Host:
        """The NUMA node of the calling thread (resolved by the driver at each use)."""
        return cls(is_numa_current=True)

    @property
    def numa_id(self) -> int | None:
        """The NUMA node, or None for the whole host and for ``numa_current()``."""
        return self._numa_id

    @property
    def is_numa_current(self) -> bool:
        """Whether this is ``Host.numa_current()``: the calling thread's NUMA node."""
        return self._is_numa_current

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Host):
            return NotImplemented
        return self is other

    def __hash__(self) -> int:
        return hash((Host, self._numa_id, self._is_numa_current))

    def __reduce__(self) -> tuple[object, ...]:
        # Unpickling goes through the constructor, so it finds the same instance.
        if self._is_numa_current:
            return (_numa_current_host, ())
        return (Host, (self._numa_id,))

    def __repr__(self) -> str:
        if self._is_numa_current:
            return "Host.numa_current()"
        if self._numa_id is None:
            return "Host()"
        return f"Host(numa_id={self._numa_id})"


def _numa_current_host() -> Host:
    """``Host.numa_current()``, as a module-level function pickle can name."""
    return Host.numa_current()
