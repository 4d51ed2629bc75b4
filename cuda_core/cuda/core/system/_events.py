# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's events: the event types registered on a device (DeviceEvents)
and what one wait() received (EventData); and the masks of event types that system events
(cuda.core.system._system_events) make too. Part of cuda.core.system._device, where users
import them (and whose __module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system._conversions import as_member, by_name, inverse  # noqa: E402
from cuda.core.system.typing import EventType  # noqa: E402

if TYPE_CHECKING:
    from cuda.core.system._device import Device

_EVENT_TYPE_MAPPING = by_name(EventType, nvml.EventType)
_EVENT_TYPES = inverse(_EVENT_TYPE_MAPPING)

# NVML's device handle -> its Device, for EventData.device. Device is defined above this module,
# in cuda.core.system._device, which hands its constructor down here when it is imported
# (bind_device), as it hands a MigInfo its Device: an EventData carries only NVML's struct.
_device_of: Callable[[int], Device] | None = None


def bind_device(device_of: Callable[[int], Device]) -> None:
    """Makes EventData.device build its Device with ``device_of`` (called by cuda.core.system._device,
    where users import EventData, once Device is defined there)."""
    global _device_of
    _device_of = device_of


def _event_list(events: Any, enum_type: type[enum.Enum], what: str) -> list:
    """``events`` (one member or string, or a list of them) as a list of members."""
    if isinstance(events, str):
        events = [events]
    if not isinstance(events, (list, tuple)):
        raise TypeError(
            f"{what} must be a {enum_type.__name__}, a string, or a list of them; got {type(events).__name__}"
        )
    return [as_member(enum_type, event, what) for event in events]


def event_mask(events: Any, mapping: dict, enum_type: type[enum.Enum], what: str) -> int:
    """The NVML bitmask of ``events``."""
    mask = 0
    for member in _event_list(events, enum_type, what):
        mask |= int(mapping[member])
    return mask


class EventData:
    """One event that DeviceEvents.wait received."""

    def __init__(self, event_data: Any) -> None:
        self._data = event_data

    @property
    def device(self) -> Device:
        """The device on which the event occurred."""
        if _device_of is None:  # this private module imported alone; cuda.core.system._device binds it
            raise RuntimeError("EventData.device needs cuda.core.system.Device: import cuda.core.system._device first")
        return _device_of(int(self._data.device_))

    @property
    def event_type(self) -> EventType:
        """The type of the event."""
        return _EVENT_TYPES.get(int(self._data.event_type), EventType.NONE)

    @property
    def event_data(self) -> int:
        """The event's data: the Xid error number for XID_CRITICAL_ERROR events."""
        return int(self._data.event_data)

    def _xid_only(self, what: str) -> int:
        if self.event_type != EventType.XID_CRITICAL_ERROR:
            raise ValueError(f"{what} is defined for XID_CRITICAL_ERROR events only, not {self.event_type.value!r}")
        return int(getattr(self._data, what))

    @property
    def gpu_instance_id(self) -> int:
        """The GPU instance of a MIG device (XID_CRITICAL_ERROR events only, else ValueError)."""
        return self._xid_only("gpu_instance_id")

    @property
    def compute_instance_id(self) -> int:
        """The compute instance of a MIG device (XID_CRITICAL_ERROR events only, else ValueError)."""
        return self._xid_only("compute_instance_id")


class DeviceEvents:
    """The event types registered on one device, to wait for with wait()."""

    def __init__(self, device_handle: int, events: EventType | str | list[EventType | str]) -> None:
        self._set = 0
        mask = event_mask(events, _EVENT_TYPE_MAPPING, EventType, "events")
        self._set = nvml.event_set_create()
        if mask:  # an empty registration is allowed; wait() then only times out
            try:
                nvml.device_register_events(device_handle, mask, self._set)
            except BaseException:
                self._free()
                raise

    def _free(self) -> None:
        if self._set:
            event_set, self._set = self._set, 0
            nvml.event_set_free(event_set)

    def __del__(self) -> None:
        try:
            self._free()
        except Exception:  # interpreter shutdown or NVML gone: nothing left to release
            pass

    def wait(self, timeout_ms: int = 0) -> EventData:
        """The next event, waiting at most ``timeout_ms`` ms (0: no limit); TimeoutError
        (cuda.core.system's) when none came."""
        return EventData(nvml.event_set_wait_v2(self._set, timeout_ms))


def event_types(mask: int) -> list[EventType]:
    """The event types set in NVML's ``mask``."""
    return [member for member, bit in _EVENT_TYPE_MAPPING.items() if int(bit) and mask & int(bit)]
