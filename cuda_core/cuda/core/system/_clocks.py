# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's clocks and performance states: each clock domain's speeds and
offsets (ClockInfo, ClockOffsets), and the driver's utilization samples that steer P-state
changes (GpuDynamicPstatesInfo). Part of cuda.core.system._device, where users import them
(and whose __module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

from typing import Any

from cuda.core.system._nvml_support import require_nvml, struct_array

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system._conversions import by_name, to_nvml  # noqa: E402
from cuda.core.system.typing import ClockId, ClocksEventReasons, ClockType  # noqa: E402

_CLOCK_TYPE_MAPPING = by_name(ClockType, nvml.ClockType, {"MEMORY": "MEM"})
_CLOCK_ID_MAPPING = by_name(ClockId, nvml.ClockId)
_CLOCKS_EVENT_REASONS_MAPPING = {
    member: getattr(nvml.ClocksEventReasons, prefix + member.name, default)
    for member, prefix, default in (
        (ClocksEventReasons.NONE, "EVENT_REASON_", None),  # no bit: listed, never read from a mask
        (ClocksEventReasons.GPU_IDLE, "EVENT_REASON_", None),
        (ClocksEventReasons.APPLICATIONS_CLOCKS_SETTING, "EVENT_REASON_", None),
        (ClocksEventReasons.SW_POWER_CAP, "EVENT_REASON_", None),
        (ClocksEventReasons.HW_SLOWDOWN, "THROTTLE_REASON_", None),
        (ClocksEventReasons.SYNC_BOOST, "EVENT_REASON_", None),
        (ClocksEventReasons.SW_THERMAL_SLOWDOWN, "EVENT_REASON_", None),
        (ClocksEventReasons.HW_THERMAL_SLOWDOWN, "THROTTLE_REASON_", None),
        (ClocksEventReasons.HW_POWER_BRAKE_SLOWDOWN, "THROTTLE_REASON_", None),
        (ClocksEventReasons.DISPLAY_CLOCK_SETTING, "EVENT_REASON_", None),
        (ClocksEventReasons.BOARD_LIMIT, "EVENT_REASON_", 0x200),
        (ClocksEventReasons.RELIABILITY, "EVENT_REASON_", 0x400),
    )
}
PSTATE_UNKNOWN = int(nvml.Pstates.PSTATE_UNKNOWN)


def clock_event_reasons(mask: int) -> list[ClocksEventReasons]:
    """The reasons set in NVML's clock event ``mask`` ([NONE] for none)."""
    reasons = [reason for reason, bit in _CLOCKS_EVENT_REASONS_MAPPING.items() if bit and mask & int(bit)]
    return reasons or [ClocksEventReasons.NONE]


class ClockOffsets:
    """A clock domain's offset at one performance state: current, minimum and maximum, in MHz."""

    def __init__(self, clock_offset: Any) -> None:
        self._offset = clock_offset

    @property
    def clock_offset_mhz(self) -> int:
        """The current clock offset in MHz."""
        return int(self._offset.clock_offset_m_hz)

    @property
    def max_offset_mhz(self) -> int:
        """The largest clock offset allowed, in MHz."""
        return int(self._offset.max_clock_offset_m_hz)

    @property
    def min_offset_mhz(self) -> int:
        """The smallest clock offset allowed, in MHz."""
        return int(self._offset.min_clock_offset_m_hz)


class ClockInfo:
    """One clock domain (graphics, SM, memory or video) of a device."""

    def __init__(self, handle: int, clock_type: ClockType | str) -> None:
        self._handle = handle
        self._type = to_nvml(_CLOCK_TYPE_MAPPING, ClockType, clock_type, "clock_type")

    def get_current_mhz(self, clock_id: ClockId | str = ClockId.CURRENT) -> int:
        """The clock's speed in MHz: the current one, or the value ``clock_id`` names."""
        clock = to_nvml(_CLOCK_ID_MAPPING, ClockId, clock_id, "clock_id")
        return int(nvml.device_get_clock(self._handle, self._type, clock))

    def get_max_mhz(self) -> int:
        """The clock's maximum speed in MHz."""
        return int(nvml.device_get_max_clock_info(self._handle, self._type))

    def get_max_customer_boost_mhz(self) -> int:
        """The clock's OEM-defined maximum boost speed in MHz."""
        return int(nvml.device_get_max_customer_boost_clock(self._handle, self._type))

    def get_min_max_clock_of_pstate_mhz(self, pstate: int) -> tuple[int, int]:
        """(minimum, maximum) speed in MHz at performance state ``pstate`` (0, fastest, to 15)."""
        low, high = nvml.device_get_min_max_clock_of_p_state(self._handle, self._type, _pstate(pstate))
        return int(low), int(high)

    def get_offsets(self, pstate: int) -> ClockOffsets:
        """The clock's offsets at performance state ``pstate`` (0 to 15)."""
        return ClockOffsets(nvml.device_get_clock_offsets(self._handle, self._type, _pstate(pstate)))


def _pstate(pstate: int) -> int:
    """``pstate`` checked to be a performance state, 0 to 15."""
    if isinstance(pstate, bool) or not isinstance(pstate, int):
        raise TypeError(f"pstate must be an int from 0 to 15, got {type(pstate).__name__}")
    if not 0 <= pstate <= 15:
        raise ValueError(f"pstate must be from 0 (P0, fastest) to 15 (P15), got {pstate}")
    return pstate


class GpuDynamicPstatesUtilization:
    """The load of one utilization domain, as the driver weighs it for P-state changes."""

    def __init__(self, utilization: Any, owner: object = None) -> None:
        self._utilization = utilization
        self._owner = owner  # keeps the memory the NVML struct views alive

    @property
    def is_present(self) -> bool:
        """Whether this utilization domain exists on this GPU."""
        return bool(self._utilization.b_is_present)

    @property
    def percentage(self) -> int:
        """Percent of the last second during which the domain was busy."""
        return int(self._utilization.percentage)

    @property
    def inc_threshold(self) -> int:
        """The utilization above which the driver may raise performance."""
        return int(self._utilization.inc_threshold)

    @property
    def dec_threshold(self) -> int:
        """The utilization below which the driver may lower performance."""
        return int(self._utilization.dec_threshold)


class GpuDynamicPstatesInfo:
    """Performance monitor samples of a device, one per utilization domain."""

    def __init__(self, gpu_dynamic_pstates_info: Any) -> None:
        self._info = gpu_dynamic_pstates_info
        self._utilization = struct_array(gpu_dynamic_pstates_info.utilization)

    def __len__(self) -> int:
        return len(self._utilization)

    def __getitem__(self, idx: int) -> GpuDynamicPstatesUtilization:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"utilization domain {idx} out of range for {len(self)} domains")
        return GpuDynamicPstatesUtilization(self._utilization[idx % len(self)], self._info)
