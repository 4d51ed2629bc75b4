# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Peer access to a DeviceMemoryResource's pool: the live set behind ``peer_accessible_by``.

Reads ask the driver each time (cuMemPoolGetAccess), so every resource over one pool sees the
same state. Every write, bulk ones included, is planned as one diff and issued as at most one
cuMemPoolSetAccess (``_set_pool_access``), since each change remaps all of the pool's memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableSet
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PeerAccessPlan:
    """The peer set asked for (``target_ids``) and what must change to get there."""

    target_ids: tuple[int, ...]
    to_add: tuple[int, ...]
    to_remove: tuple[int, ...]


def normalize_peer_access_targets(
    owner_device_id: int, requested_devices: Iterable[object], *, resolve_device_id: Callable[[object], int]
) -> tuple[int, ...]:
    """The requested devices as sorted, distinct ordinals, the owner left out."""
    ids = {resolve_device_id(device) for device in requested_devices}
    ids.discard(owner_device_id)
    return tuple(sorted(ids))


def plan_peer_access_update(
    owner_device_id: int,
    current_peer_ids: Iterable[int],
    requested_devices: Iterable[object],
    *,
    resolve_device_id: Callable[[object], int],
    can_access_peer: Callable[[int], bool],
) -> PeerAccessPlan:
    """The plan that takes the pool from ``current_peer_ids`` to ``requested_devices``.

    ValueError names every requested device that cannot access the owner's memory."""
    target = normalize_peer_access_targets(owner_device_id, requested_devices, resolve_device_id=resolve_device_id)
    current = set(current_peer_ids)
    to_add = tuple(device for device in target if device not in current)
    refused = [device for device in to_add if not can_access_peer(device)]
    if refused:
        raise ValueError(f"Device {owner_device_id} cannot access peer(s): {', '.join(map(str, refused))}")
    to_remove = tuple(sorted(current.difference(target)))
    return PeerAccessPlan(target_ids=target, to_add=to_add, to_remove=to_remove)


def _resolve_peer_device_id(value: Any) -> int:
    """A Device's or an ordinal's device id, checked by constructing the Device."""
    from cuda.core._device import Device

    if isinstance(value, Device):
        return value.device_id
    return Device(value).device_id


def _lenient_device_id(value: object) -> int | None:
    """The ordinal of a Device or an int in range; None for anything else (set semantics:
    asking about a non-member never raises)."""
    from cuda.core._device import Device

    if isinstance(value, Device):
        return value.device_id
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return Device(value).device_id
        except Exception:
            return None
    return None


def _set_pool_access(mr: Any, to_add: tuple[int, ...], to_remove: tuple[int, ...]) -> None:
    """One cuMemPoolSetAccess granting ``to_add`` and revoking ``to_remove`` (not both empty)."""
    mr._set_peer_access(to_add, to_remove)


def _apply_peer_access_diff(mr: Any, to_add: Iterable[int], to_remove: Iterable[int]) -> None:
    """Apply a diff with at most one driver call; an empty diff makes none."""
    to_add, to_remove = tuple(to_add), tuple(to_remove)
    if to_add or to_remove:
        _set_pool_access(mr, to_add, to_remove)


def _plan(mr: Any, requested: Iterable[object]) -> PeerAccessPlan:
    owner = mr.device_id
    return plan_peer_access_update(
        owner, mr._peer_ids(), requested, resolve_device_id=_resolve_peer_device_id, can_access_peer=mr._can_access_peer
    )


def replace_peer_accessible_by(mr: Any, devices: object) -> None:
    """Make exactly ``devices`` (Devices or ordinals; the owner ignored) the pool's peers."""
    if devices is None:
        devices = ()
    plan = _plan(mr, list(devices))  # a live proxy is read before anything changes
    _apply_peer_access_diff(mr, plan.to_add, plan.to_remove)


class PeerAccessibleBySetProxy(MutableSet):
    """The live set of Devices granted access to a DeviceMemoryResource's pool.

    Membership tests and ``add``/``discard`` take a Device or an ordinal; iteration yields
    Devices in ascending ordinal order. The owning device is never a member and is ignored
    when given. Each bulk operation (``update``, ``|=``, ``&=``, ``-=``, ``^=``, ``clear``...)
    changes the driver's state with one call."""

    __slots__ = ("_mr",)

    def __init__(self, mr: Any) -> None:
        self._mr = mr

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> set:
        # Operators such as & and | make plain sets, not proxies.
        return set(it)

    def _ids(self) -> tuple[int, ...]:
        return self._mr._peer_ids()

    def __contains__(self, value: object) -> bool:
        device_id = _lenient_device_id(value)
        return device_id is not None and device_id in self._ids()

    def __iter__(self) -> Iterator[Any]:
        from cuda.core._device import Device

        return iter([Device(device_id) for device_id in self._ids()])

    def __len__(self) -> int:
        return len(self._ids())

    def _change(self, target: Iterable[object]) -> None:
        plan = _plan(self._mr, list(target))
        _apply_peer_access_diff(self._mr, plan.to_add, plan.to_remove)

    def add(self, value: Any) -> None:
        """Grant ``value`` (a Device or an ordinal) access to the pool."""
        device_id = _resolve_peer_device_id(value)
        self._change([*self._ids(), device_id])

    def discard(self, value: Any) -> None:
        """Revoke ``value``'s access; a non-member (or not a device) is ignored."""
        device_id = _lenient_device_id(value)
        current = self._ids()
        if device_id in current:
            self._change([d for d in current if d != device_id])

    def clear(self) -> None:
        """Revoke every peer's access."""
        self._change(())

    def update(self, *others: Iterable[Any]) -> None:
        """Grant access to every device in ``others``."""
        added = [_resolve_peer_device_id(value) for other in others for value in other]
        self._change([*self._ids(), *added])

    def difference_update(self, *others: Iterable[Any]) -> None:
        """Revoke access from every device in ``others``."""
        removed = {_lenient_device_id(value) for other in others for value in other}
        self._change([d for d in self._ids() if d not in removed])

    def intersection_update(self, *others: Iterable[Any]) -> None:
        """Keep only the peers found in every one of ``others``."""
        kept = set(self._ids())
        for other in others:
            kept &= {_lenient_device_id(value) for value in other}
        self._change(sorted(kept))

    def symmetric_difference_update(self, other: Iterable[Any]) -> None:
        """Toggle the access of every device in ``other``."""
        current = set(self._ids())
        owner = self._mr.device_id
        toggled = {_resolve_peer_device_id(value) for value in other} - {owner}
        self._change(sorted(current ^ toggled))

    def __ior__(self, other: Iterable[Any]) -> PeerAccessibleBySetProxy:
        self.update(other)
        return self

    def __iand__(self, other: Iterable[Any]) -> PeerAccessibleBySetProxy:
        self.intersection_update(other)
        return self

    def __isub__(self, other: Iterable[Any]) -> PeerAccessibleBySetProxy:
        if other is self:
            self.clear()
        else:
            self.difference_update(other)
        return self

    def __ixor__(self, other: Iterable[Any]) -> PeerAccessibleBySetProxy:
        if other is self:
            self.clear()
        else:
            self.symmetric_difference_update(other)
        return self

    def __repr__(self) -> str:
        return f"PeerAccessibleBySetProxy({set(self)!r})"
