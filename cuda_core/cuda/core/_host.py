"""cuda.core Host: the host (CPU) as a memory location, the counterpart of Device."""

from __future__ import annotations

__all__ = ["Host"]


class Host:
    """The host (CPU) as a managed-memory location, the counterpart of ``Device``.

    ``Host()`` is the host as a whole (any NUMA node), one instance: ``Host() is Host()``.
    NUMA-specific hosts are not supported by this build."""

    __slots__ = ()

    def __new__(cls, numa_id: int | None = None, *, is_numa_current: bool = False) -> "Host":
        if numa_id is not None or is_numa_current:
            raise NotImplementedError(
                "Host(numa_id=...) and Host.numa_current() are not supported: CUDA 12's cuMemPrefetchAsync "
                "and cuMemAdvise name the host only as a whole (CU_DEVICE_CPU), and both majors share one "
                "API here, so use Host()")
        return _THE_HOST

    @classmethod
    def numa_current(cls) -> "Host":
        """The calling thread's NUMA node: not supported (see ``Host``)."""
        return cls(is_numa_current=True)

    @property
    def numa_id(self) -> int | None:
        """None: the host as a whole."""
        return None

    @property
    def is_numa_current(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "Host()"


_THE_HOST = object.__new__(Host)
