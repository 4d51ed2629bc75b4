# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Where managed memory goes: a Device or a Host, reduced to (kind, id) for the driver calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

_LocationKind = Literal["device", "host", "host_numa", "host_numa_current"]


@dataclass(frozen=True)
class _LocSpec:
    """A managed-memory location as the driver names it: the kind of location and its id (a
    device ordinal for "device", a NUMA node for "host_numa", 0 otherwise)."""

    kind: _LocationKind
    id: int = 0


def _coerce_location(value: object, *, allow_none: bool = False) -> _LocSpec | None:
    """The ``_LocSpec`` of a Device, a Host or a ``_LocSpec``; None for None where
    ``allow_none``, else ValueError. Anything else (ints included) is a TypeError."""
    from cuda.core._device import Device
    from cuda.core._host import Host

    if isinstance(value, _LocSpec):
        return value
    if isinstance(value, Device):
        return _LocSpec("device", value.device_id)
    if isinstance(value, Host):
        if value.is_numa_current:
            return _LocSpec("host_numa_current")
        if value.numa_id is not None:
            return _LocSpec("host_numa", value.numa_id)
        return _LocSpec("host")
    if value is None:
        if allow_none:
            return None
        raise ValueError("location is required: pass a Device or a Host")
    raise TypeError(f"location must be a Device, Host, or None; got {type(value).__name__}")
