# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core ManagedBuffer: a Buffer of managed memory, with prefetch, discard and the
driver's usage advice as properties."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSet
from typing import Any

from cuda.core._device import Device
from cuda.core._host import Host
from cuda.core._memory._buffer import Buffer
from cuda.core._memory._managed_location import _coerce_location
from cuda.core._memory._managed_memory_ops import (
    _accessed_by_ids,
    _advise_one,
    _do_single_discard_prefetch_py,
    _do_single_discard_py,
    _do_single_prefetch_py,
    _range_int_attribute,
    _read_preferred_location_v2,
)

__all__ = ["ManagedBuffer"]

# CUmem_advise and CUmem_range_attribute values (the same in CUDA 12 and 13).
_SET_READ_MOSTLY, _UNSET_READ_MOSTLY = 1, 2
_SET_PREFERRED_LOCATION, _UNSET_PREFERRED_LOCATION = 3, 4
_SET_ACCESSED_BY, _UNSET_ACCESSED_BY = 5, 6
_ATTRIBUTE_READ_MOSTLY = 1


def _get_int_attr(buf: Buffer, attribute: Any) -> int:
    """A 32-bit range attribute (a CUmem_range_attribute, or its int) of ``buf``'s whole range."""
    return _range_int_attribute(buf, int(attribute))


def _accessed_by(buf: Buffer) -> list[Device | Host]:
    return [Host() if device_id == -1 else Device(device_id) for device_id in _accessed_by_ids(buf)]


def _is_whole_host_or_device(location: object) -> bool:
    """Whether ``location`` can carry accessed-by advice: a Device or the whole host."""
    if isinstance(location, Device):
        return True
    return isinstance(location, Host) and location.numa_id is None and not location.is_numa_current


class AccessedBySetProxy(MutableSet):
    """The live set of locations (Devices, ``Host()``) advised to access a ManagedBuffer.

    Reading asks the driver (cuMemRangeGetAttribute); ``add`` and ``discard`` give the advice
    (cuMemAdvise). Operators such as ``&`` and ``|`` return plain sets."""

    __slots__ = ("_buf",)

    def __init__(self, buf: ManagedBuffer) -> None:
        self._buf = buf

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> set:
        return set(it)

    def __contains__(self, location: object) -> bool:
        if not isinstance(location, (Device, Host)):
            return False
        return location in _accessed_by(self._buf)

    def __iter__(self) -> Iterator[Device | Host]:
        return iter(_accessed_by(self._buf))

    def __len__(self) -> int:
        return len(_accessed_by(self._buf))

    def add(self, location: Device | Host) -> None:
        """Advise that ``location`` (a Device or ``Host()``) accesses this memory."""
        if not isinstance(location, (Device, Host)):
            raise TypeError(f"accessed_by holds Devices and Host(), got {type(location).__name__}")
        _advise_one(self._buf, _SET_ACCESSED_BY, location)

    def discard(self, location: Device | Host) -> None:
        """Withdraw the advice for ``location``; anything that cannot be a member is ignored."""
        if _is_whole_host_or_device(location):
            _advise_one(self._buf, _UNSET_ACCESSED_BY, location)

    def __repr__(self) -> str:
        return f"AccessedBySetProxy({set(_accessed_by(self._buf))!r})"


class ManagedBuffer(Buffer):
    """A Buffer of managed (unified) memory, with its usage advice as properties
    (``read_mostly``, ``preferred_location``, ``accessed_by``) and ``prefetch``, ``discard``
    and ``discard_prefetch``.

    ``ManagedMemoryResource.allocate`` returns them; ``ManagedBuffer.from_handle`` wraps managed
    memory allocated elsewhere. Locations are a ``Device`` or a ``Host``; whether the memory
    is managed is checked when an operation runs (ValueError if not)."""

    @classmethod
    def from_handle(cls, ptr, size: int, mr: Any = None, owner: object | None = None, *, stream: Any = None) -> Buffer:
        """A ManagedBuffer over managed memory at ``ptr``; arguments as ``Buffer.from_handle``."""
        return cls._init(ptr, size, mr=mr, owner=owner, stream=stream)

    @property
    def read_mostly(self) -> bool:
        """Whether the memory is advised as mostly read (the driver may then keep read-only
        copies near each reader). Settable."""
        return _get_int_attr(self, _ATTRIBUTE_READ_MOSTLY) != 0

    @read_mostly.setter
    def read_mostly(self, value: bool) -> None:
        _advise_one(self, _SET_READ_MOSTLY if value else _UNSET_READ_MOSTLY, None)

    @property
    def preferred_location(self) -> Device | Host | None:
        """The advised home of the memory: a Device, a Host, or None for no preference.
        Settable; None withdraws the advice."""
        return _read_preferred_location_v2(self)

    @preferred_location.setter
    def preferred_location(self, value: Device | Host | None) -> None:
        if value is None:
            _advise_one(self, _UNSET_PREFERRED_LOCATION, None)
        else:
            _advise_one(self, _SET_PREFERRED_LOCATION, value)

    @property
    def accessed_by(self) -> AccessedBySetProxy:
        """The live set of locations advised to access this memory. Assigning an iterable
        replaces it; every entry is checked before any advice changes."""
        if self.is_closed:
            raise RuntimeError("Buffer has been closed")
        return AccessedBySetProxy(self)

    @accessed_by.setter
    def accessed_by(self, locations: Iterable[Device | Host]) -> None:
        if self.is_closed:
            raise RuntimeError("Buffer has been closed")
        wanted: set[Device | Host] = set()
        for location in locations:
            if not isinstance(location, (Device, Host)):
                raise TypeError(f"accessed_by holds Devices and Host(), got {type(location).__name__}")
            spec = _coerce_location(location)
            if spec.kind not in ("device", "host"):
                raise ValueError(
                    f"advise CU_MEM_ADVISE_SET_ACCESSED_BY does not support location_type="
                    f"'{spec.kind}': accessed-by advice names a Device or the whole host, Host()"
                )
            wanted.add(location)
        current = set(_accessed_by(self))
        for location in current - wanted:
            _advise_one(self, _UNSET_ACCESSED_BY, location)
        for location in wanted - current:
            _advise_one(self, _SET_ACCESSED_BY, location)

    def prefetch(self, location: Device | Host, *, stream: Any) -> None:
        """Migrate the memory to ``location`` (a Device or a Host), ordered on ``stream``."""
        _do_single_prefetch_py(self, location, stream)

    def discard(self, *, stream: Any) -> None:
        """Release the memory's pages without migrating their contents, ordered on ``stream``:
        the contents are undefined until written again (CUDA 13)."""
        _do_single_discard_py(self, stream)

    def discard_prefetch(self, location: Device | Host, *, stream: Any) -> None:
        """Discard the contents and prefetch the pages to ``location``, ordered on ``stream`` (CUDA 13)."""
        _do_single_discard_prefetch_py(self, location, stream)
