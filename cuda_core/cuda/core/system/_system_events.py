# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""System events: a GPU unbound from or bound to the NVIDIA driver, waited for through
register_events() (Linux). Pure Python over cuda.bindings.nvml; importing it without the
NVML bindings raises an ImportError that says what to install."""

from __future__ import annotations

from typing import Any

from cuda.core.system._nvml_support import require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.register_events")

from cuda.core.system import _device, _nvml_context  # noqa: E402
from cuda.core.system._conversions import inverse  # noqa: E402
from cuda.core.system._events import event_mask  # noqa: E402
from cuda.core.system.typing import SystemEventType  # noqa: E402

__all__ = ["register_events"]

_SYSTEM_EVENT_TYPE_MAPPING = {
    SystemEventType.UNBIND: nvml.SystemEventType.GPU_DRIVER_UNBIND,
    SystemEventType.BIND: nvml.SystemEventType.GPU_DRIVER_BIND,
}
_SYSTEM_EVENT_TYPES_BY_VALUE = inverse(_SYSTEM_EVENT_TYPE_MAPPING)


def _pci_bus_id_from_gpu_id(gpu_id: int) -> str:
    """The PCI bus id, domain:bus:device.function, of a system event's ``gpu_id``, which packs
    them as domain << 16 | bus << 8 | device << 3 | function."""
    domain, bus = gpu_id >> 16, gpu_id >> 8 & 0xFF
    device, function = gpu_id >> 3 & 0x1F, gpu_id & 0x7
    return f"{domain:08x}:{bus:02x}:{device:02x}.{function:x}"


class SystemEvent:
    """One system event."""

    def __init__(self, event_data: Any) -> None:
        self._data = event_data

    @property
    def event_type(self) -> SystemEventType:
        """What happened: the GPU was unbound from or bound to the driver."""
        return _SYSTEM_EVENT_TYPES_BY_VALUE[int(self._data.event_type)]

    @property
    def gpu_id(self) -> int:
        """The GPU's id, its PCI location packed into one integer."""
        return int(self._data.gpu_id)

    @property
    def device(self) -> _device.Device:
        """The device the event is about, found by its PCI bus id."""
        return _device.Device(pci_bus_id=_pci_bus_id_from_gpu_id(self.gpu_id))


class SystemEvents:
    """The system events one wait() received."""

    def __init__(self, event_data: Any) -> None:
        self._data = event_data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, idx: int) -> SystemEvent:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"system event {idx} out of range for {len(self)} events")
        return SystemEvent(self._data[idx % len(self)])


class RegisteredSystemEvents:
    """The system event types registered by register_events(), to wait for with wait()."""

    def __init__(self, events: SystemEventType | str | list[SystemEventType | str]) -> None:
        self._set = 0
        mask = event_mask(events, _SYSTEM_EVENT_TYPE_MAPPING, SystemEventType, "events")
        _nvml_context.initialize()
        self._set = nvml.system_event_set_create()
        try:
            nvml.system_register_events(mask, self._set)
        except BaseException:
            self._free()
            raise

    def _free(self) -> None:
        if self._set:
            event_set, self._set = self._set, 0
            nvml.system_event_set_free(event_set)

    def __del__(self) -> None:
        try:
            self._free()
        except Exception:  # interpreter shutdown or NVML gone: nothing left to release
            pass

    def wait(self, timeout_ms: int = 0, buffer_size: int = 1) -> SystemEvents:
        """Up to ``buffer_size`` events (at least 1), waiting at most ``timeout_ms`` ms (0: no
        limit); cuda.core.system.TimeoutError when none came."""
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size < 1:
            raise ValueError(f"buffer_size must be an int of at least 1, got {buffer_size!r}")
        return SystemEvents(nvml.system_event_set_wait(self._set, timeout_ms, buffer_size))


def register_events(events: SystemEventType | str | list[SystemEventType | str]) -> RegisteredSystemEvents:
    """Starts recording the system events ``events`` (Linux): GPUs unbound from or bound to
    the driver from now on. Wait for them with wait() on the result."""
    return RegisteredSystemEvents(events)
