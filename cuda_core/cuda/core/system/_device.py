"""cuda.core.system.Device: what NVML (the NVIDIA Management Library) reports about a GPU.

Pure Python over cuda.bindings.nvml. Each query is one NVML call, made when the property is
read, so the values are current; NVML's errors propagate as cuda.core.system's exception
classes (cuda.bindings.nvml's own). Importing this module needs the NVML bindings: without
them it raises an ImportError that says which cuda-bindings to install.
"""

from __future__ import annotations

import enum
import math
import os
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system import _nvml_context  # noqa: E402
from cuda.core.system.typing import (  # noqa: E402
    AddressingMode,
    AffinityScope,
    ClockId,
    ClocksEventReasons,
    ClockType,
    CoolerControl,
    CoolerTarget,
    DeviceArch,
    EventType,
    FanControlPolicy,
    FieldId,
    GpuP2PCapsIndex,
    GpuP2PStatus,
    GpuTopologyLevel,
    InforomObject,
    TemperatureThresholds,
    ThermalController,
    ThermalTarget,
)

if TYPE_CHECKING:
    import cuda.core

__all__ = ["Device", "get_p2p_status", "get_topology_common_ancestor", "NvlinkInfo"]


# --- Mappings between our string enumerations and NVML's integer ones -------------------------
# The *_MAPPING dicts pair our members (or values) with NVML's members, under the names NVIDIA's
# cuda.core gives them; the dicts keyed by int are their inverses, for reading NVML's answers.

def _by_name(ours: type[enum.Enum], theirs: Any, renames: dict[str, str] | None = None) -> dict:
    """{our member: NVML's member of the same (or renamed) name}, for the members NVML has."""
    renames = renames or {}
    mapping = {}
    for member in ours:
        value = getattr(theirs, renames.get(member.name, member.name), None)
        if value is not None:
            mapping[member] = value
    return mapping


def _inverse(mapping: dict) -> dict:
    """{int(NVML value): our member}."""
    return {int(value): member for member, value in mapping.items()}


_CLOCK_TYPE_MAPPING = _by_name(ClockType, nvml.ClockType, {"MEMORY": "MEM"})
_CLOCK_ID_MAPPING = _by_name(ClockId, nvml.ClockId)
_CLOCKS_EVENT_REASONS_MAPPING = {member: getattr(nvml.ClocksEventReasons, prefix + member.name, default)
                        for member, prefix, default in (
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
                            (ClocksEventReasons.RELIABILITY, "EVENT_REASON_", 0x400))}
_COOLER_CONTROL_MAPPING = _by_name(CoolerControl, nvml.CoolerControl)
_COOLER_CONTROLS = _inverse(_COOLER_CONTROL_MAPPING)
# THERMAL_GPU_RELATED is GPU | MEMORY | POWER_SUPPLY: targets are read bit by bit.
_COOLER_TARGET_MAPPING = {CoolerTarget.GPU: nvml.CoolerTarget.GPU, CoolerTarget.MEMORY: nvml.CoolerTarget.MEMORY,
                          CoolerTarget.POWER_SUPPLY: nvml.CoolerTarget.POWER_SUPPLY}
_COOLER_TARGET_BITS = {member: int(value) for member, value in _COOLER_TARGET_MAPPING.items()}
_EVENT_TYPE_MAPPING = _by_name(EventType, nvml.EventType)
_EVENT_TYPES = _inverse(_EVENT_TYPE_MAPPING)
_FAN_CONTROL_POLICY_MAPPING = _by_name(FanControlPolicy, nvml.FanControlPolicy,
                                       {"TEMPERATURE_CONTROLLED": "TEMPERATURE_CONTINUOUS_SW"})
_FAN_CONTROL_POLICIES = _inverse(_FAN_CONTROL_POLICY_MAPPING)
_INFOROM_OBJECT_MAPPING = _by_name(InforomObject, nvml.InforomObject)
_NVLINK_VERSION_MAPPING = {getattr(nvml.NvlinkVersion, f"VERSION_{major}_{minor}"): (major, minor)
                           for major, minor in ((1, 0), (2, 0), (2, 2), (3, 0), (3, 1), (4, 0), (5, 0), (6, 0))
                           if hasattr(nvml.NvlinkVersion, f"VERSION_{major}_{minor}")}
_NVLINK_VERSIONS = {int(member): version for member, version in _NVLINK_VERSION_MAPPING.items()}
_TEMPERATURE_THRESHOLD_MAPPING = _by_name(TemperatureThresholds, nvml.TemperatureThresholds)
_THERMAL_CONTROLLER_MAPPING = _by_name(ThermalController, nvml.ThermalController)
_THERMAL_CONTROLLERS = _inverse(_THERMAL_CONTROLLER_MAPPING)
_THERMAL_TARGET_MAPPING = _by_name(ThermalTarget, nvml.ThermalTarget)
_THERMAL_TARGETS = _inverse(_THERMAL_TARGET_MAPPING)
_ADDRESSING_MODE_MAPPING = _by_name(AddressingMode, nvml.DeviceAddressingModeType)
_ADDRESSING_MODES = _inverse(_ADDRESSING_MODE_MAPPING)
_AFFINITY_SCOPE_MAPPING = _by_name(AffinityScope, nvml.AffinityScope)
_GPU_P2P_CAPS_INDEX_MAPPING = _by_name(GpuP2PCapsIndex, nvml.GpuP2PCapsIndex)
_GPU_P2P_STATUS_MAPPING = _by_name(GpuP2PStatus, nvml.GpuP2PStatus)
_P2P_STATUSES = _inverse(_GPU_P2P_STATUS_MAPPING)
_GPU_TOPOLOGY_LEVEL_MAPPING = _by_name(GpuTopologyLevel, nvml.GpuTopologyLevel)
_TOPOLOGY_LEVELS = _inverse(_GPU_TOPOLOGY_LEVEL_MAPPING)
_BRANDS = {"UNKNOWN": "Unknown", "QUADRO": "Quadro", "TESLA": "Tesla", "NVS": "NVS", "GRID": "GRID",
           "GEFORCE": "GeForce", "TITAN": "Titan", "NVIDIA_VAPPS": "NVIDIA vApps", "NVIDIA_VPC": "NVIDIA VPC",
           "NVIDIA_VCS": "NVIDIA VCS", "NVIDIA_VWS": "NVIDIA VWS", "NVIDIA_CLOUD_GAMING": "NVIDIA Cloud Gaming",
           "NVIDIA_VGAMING": "NVIDIA vGaming", "QUADRO_RTX": "Quadro RTX", "NVIDIA_RTX": "NVIDIA RTX",
           "NVIDIA": "NVIDIA", "GEFORCE_RTX": "GeForce RTX", "TITAN_RTX": "Titan RTX"}
_BRAND_TYPE_MAPPING = {getattr(nvml.BrandType, name): text for name, text in _BRANDS.items()
                       if hasattr(nvml.BrandType, name)}
_BRAND_NAMES = {int(member): text for member, text in _BRAND_TYPE_MAPPING.items()}
_PSTATE_UNKNOWN = int(nvml.Pstates.PSTATE_UNKNOWN)
_ENABLED = int(nvml.EnableState.ENABLED)
_WORD_BITS = 64  # NVML's CPU and node sets are arrays of 64-bit unsigned longs on 64-bit Linux


def _member(enum_type: type[enum.Enum], value: Any, what: str) -> Any:
    """``value`` (a member or its string) as a member of ``enum_type``; TypeError or ValueError
    naming the accepted values otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a {enum_type.__name__} or its string value, got {type(value).__name__}")
    try:
        return enum_type(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in enum_type)
        raise ValueError(f"{what} must be one of {choices}; got {value!r}") from None


def _to_nvml(mapping: dict, enum_type: type[enum.Enum], value: Any, what: str) -> int:
    """NVML's integer for ``value``, one of our ``enum_type``'s members or strings."""
    member = _member(enum_type, value, what)
    if member not in mapping:
        raise ValueError(f"{what} {member.value!r} is not known to the installed NVML bindings")
    return int(mapping[member])


def _event_list(events: Any, enum_type: type[enum.Enum], what: str) -> list:
    """``events`` (one member or string, or a list of them) as a list of members."""
    if isinstance(events, str):
        events = [events]
    if not isinstance(events, (list, tuple)):
        raise TypeError(f"{what} must be a {enum_type.__name__}, a string, or a list of them; "
                        f"got {type(events).__name__}")
    return [_member(enum_type, event, what) for event in events]


def _event_mask(events: Any, mapping: dict, enum_type: type[enum.Enum], what: str) -> int:
    """The NVML bitmask of ``events``."""
    mask = 0
    for member in _event_list(events, enum_type, what):
        mask |= int(mapping[member])
    return mask


def _unpack_bitmask(arr: object) -> list[int]:
    """The indices of the set bits of ``arr``, an array of 64-bit words (word i holds bits
    64*i to 64*i+63), as NVML returns CPU and NUMA node sets."""
    if isinstance(arr, (int, str, bytes)) or not isinstance(arr, Iterable):
        raise TypeError(f"expected an array of 64-bit bitmask words, got {type(arr).__name__}")
    indices: list[int] = []
    for word_index, word in enumerate(arr):
        word = int(word)
        base = word_index * _WORD_BITS
        indices.extend(base + bit for bit in range(_WORD_BITS) if word >> bit & 1)
    return indices


def _set_words(count: int) -> int:
    """How many 64-bit words hold a set of ``count`` items (at least 1024, for CPU numbering gaps)."""
    return math.ceil(max(count, 1024) / _WORD_BITS)


# --- Small value classes -----------------------------------------------------------------------

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
        self._type = _to_nvml(_CLOCK_TYPE_MAPPING, ClockType, clock_type, "clock_type")

    def get_current_mhz(self, clock_id: ClockId | str = ClockId.CURRENT) -> int:
        """The clock's speed in MHz: the current one, or the value ``clock_id`` names."""
        clock = _to_nvml(_CLOCK_ID_MAPPING, ClockId, clock_id, "clock_id")
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


class CoolerInfo:
    """A device's cooler: how it is controlled and what it cools."""

    def __init__(self, cooler_info: Any) -> None:
        self._info = cooler_info

    @property
    def signal_type(self) -> CoolerControl | None:
        """How the cooler is controlled (toggle or variable); None where NVML says neither."""
        return _COOLER_CONTROLS.get(int(self._info.signal_type))

    @property
    def target(self) -> list[CoolerTarget]:
        """What the cooler cools: some of GPU, memory and power supply, or [NONE]."""
        bits = int(self._info.target)
        targets = [target for target, bit in _COOLER_TARGET_BITS.items() if bits & bit]
        return targets or [CoolerTarget.NONE]


class DeviceAttributes:
    """Engine and slice counts and memory size of a device (NVML's device attributes)."""

    def __init__(self, attributes: Any) -> None:
        self._attributes = attributes

    @property
    def multiprocessor_count(self) -> int:
        """The number of streaming multiprocessors."""
        return int(self._attributes.multiprocessor_count)

    @property
    def shared_copy_engine_count(self) -> int:
        """The number of shared copy engines."""
        return int(self._attributes.shared_copy_engine_count)

    @property
    def shared_decoder_count(self) -> int:
        """The number of shared decoder engines."""
        return int(self._attributes.shared_decoder_count)

    @property
    def shared_encoder_count(self) -> int:
        """The number of shared encoder engines."""
        return int(self._attributes.shared_encoder_count)

    @property
    def shared_jpeg_count(self) -> int:
        """The number of shared JPEG engines."""
        return int(self._attributes.shared_jpeg_count)

    @property
    def shared_ofa_count(self) -> int:
        """The number of shared optical flow accelerators."""
        return int(self._attributes.shared_ofa_count)

    @property
    def gpu_instance_slice_count(self) -> int:
        """The number of GPU instance slices."""
        return int(self._attributes.gpu_instance_slice_count)

    @property
    def compute_instance_slice_count(self) -> int:
        """The number of compute instance slices."""
        return int(self._attributes.compute_instance_slice_count)

    @property
    def memory_size_mb(self) -> int:
        """Device memory size in MiB."""
        return int(self._attributes.memory_size_mb)


class EventData:
    """One event that DeviceEvents.wait received."""

    def __init__(self, event_data: Any) -> None:
        self._data = event_data

    @property
    def device(self) -> Device:
        """The device on which the event occurred."""
        return Device._from_handle(int(self._data.device_))

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
        mask = _event_mask(events, _EVENT_TYPE_MAPPING, EventType, "events")
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


class FanInfo:
    """One fan of a device."""

    def __init__(self, handle: int, fan: int) -> None:
        self._handle = handle
        self._fan = fan

    @property
    def speed(self) -> int:
        """The fan's intended speed, in percent of its maximum (may exceed 100); settable."""
        return int(nvml.device_get_fan_speed_v2(self._handle, self._fan))

    @speed.setter
    def speed(self, speed: int) -> None:
        nvml.device_set_fan_speed_v2(self._handle, self._fan, speed)

    @property
    def speed_rpm(self) -> int:
        """The fan's intended speed in rotations per minute."""
        return int(nvml.device_get_fan_speed_rpm(self._handle, self._fan))

    @property
    def target_speed(self) -> int:
        """The speed the driver is steering the fan to, in percent of its maximum."""
        return int(nvml.device_get_target_fan_speed(self._handle, self._fan))

    @property
    def min_max_speed(self) -> tuple[int, int]:
        """(minimum, maximum) fan speed, in percent."""
        low, high = nvml.device_get_min_max_fan_speed(self._handle)
        return int(low), int(high)

    @property
    def control_policy(self) -> FanControlPolicy:
        """Who sets the fan's speed: the driver from the temperature, or the user."""
        return _FAN_CONTROL_POLICIES[int(nvml.device_get_fan_control_policy_v2(self._handle, self._fan))]

    def set_default_speed(self) -> None:
        """Gives the fan's speed back to the driver's default policy."""
        nvml.device_set_default_fan_speed_v2(self._handle, self._fan)


_VALUE_MEMBERS = {"DOUBLE": "d_val", "UNSIGNED_INT": "ui_val", "UNSIGNED_LONG": "ul_val",
                  "UNSIGNED_LONG_LONG": "ull_val", "SIGNED_LONG_LONG": "sll_val", "SIGNED_INT": "si_val",
                  "UNSIGNED_SHORT": "us_val"}
_VALUE_FIELDS = {int(getattr(nvml.ValueType, name)): field for name, field in _VALUE_MEMBERS.items()}


def _scalar(value: Any) -> Any:
    """A Python int or float from a NumPy scalar or one-element array."""
    item = value.item() if hasattr(value, "item") and getattr(value, "size", 1) == 1 else value
    return item[0] if isinstance(item, (list, tuple)) else item


class FieldValue:
    """One value of Device.get_field_values; reading ``value`` raises the field's own NVML error."""

    def __init__(self, field_value: Any) -> None:
        self._value = field_value

    @property
    def field_id(self) -> FieldId:
        """The field read."""
        field_id = int(self._value.field_id)
        try:
            return FieldId(field_id)
        except ValueError:
            return field_id

    @property
    def scope_id(self) -> int:
        """The scope (e.g. link) the field was read for."""
        return int(self._value.scope_id)

    @property
    def timestamp(self) -> int:
        """When the value was sampled, in microseconds since 1970 (CPU clock)."""
        return int(self._value.timestamp)

    @property
    def latency_usec(self) -> int:
        """How long NVML took to refresh this value, in microseconds."""
        return int(self._value.latency_usec)

    @property
    def value(self) -> int | float:
        """The value, as an int or a float as NVML typed it; the field's NVML error if it has one."""
        nvml.check_status(int(self._value.nvml_return))
        field = _VALUE_FIELDS.get(int(self._value.value_type))
        if field is None:
            raise ValueError(f"field {int(self._value.field_id)} has a value type NVML bindings do not know: "
                             f"{int(self._value.value_type)}")
        return _scalar(self._value.value[field])


class FieldValues:
    """The values of several fields, read at once by Device.get_field_values."""

    def __init__(self, field_values: Any) -> None:
        self._values = field_values

    def __getitem__(self, idx: int) -> FieldValue:
        if isinstance(idx, bool) or not isinstance(idx, int):
            raise TypeError(f"field value indices must be integers, not {type(idx).__name__}")
        if not -len(self) <= idx < len(self):
            raise IndexError(f"field value index {idx} out of range for {len(self)} values")
        return FieldValue(self._values[idx % len(self)])

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[FieldValue]:
        return (self[i] for i in range(len(self)))

    def validate(self) -> None:
        """Raises the NVML error of the first field that has one."""
        for value in self:
            nvml.check_status(int(value._value.nvml_return))

    def get_all_values(self) -> list[int | float]:
        """Every value, in order; the first field's NVML error if any has one."""
        return [value.value for value in self]


def _field_ids(field_ids: list[int | tuple[int, int]]) -> list:
    """Field ids (FieldId members or ints, or (id, scope) pairs) as the plain ints NVML takes."""
    return [(int(f[0]), int(f[1])) if isinstance(f, tuple) else int(f) for f in field_ids]


class InforomInfo:
    """A device's InfoROM: the non-volatile memory holding its configuration and counts."""

    def __init__(self, device: Device) -> None:
        self._handle = device._handle

    def get_version(self, inforom: InforomObject | str) -> str:
        """The version of InfoROM object ``inforom``."""
        return nvml.device_get_inforom_version(self._handle, _to_nvml(_INFOROM_OBJECT_MAPPING, InforomObject, inforom,
                                                                      "inforom"))

    @property
    def image_version(self) -> str:
        """The version of the InfoROM image flashed on the board."""
        return nvml.device_get_inforom_image_version(self._handle)

    @property
    def configuration_checksum(self) -> int:
        """The checksum of the InfoROM's configuration: equal on identically configured GPUs."""
        return int(nvml.device_get_inforom_configuration_checksum(self._handle))

    def validate(self) -> None:
        """Reads the InfoROM and checks its checksums; CorruptedInforomError if they fail."""
        nvml.device_validate_inforom(self._handle)

    @property
    def bbx_flush_time(self) -> tuple[int, int]:
        """(timestamp, duration in microseconds) of the last flush of the blackbox InfoROM object."""
        timestamp, duration_us = nvml.device_get_last_bbx_flush_time(self._handle)
        return int(timestamp), int(duration_us)

    @property
    def board_part_number(self) -> str:
        """The board part number programmed into the InfoROM ("" where none is)."""
        return nvml.device_get_board_part_number(self._handle).strip()


class MemoryInfo:
    """A device's memory, in bytes: total = free + used + reserved."""

    def __init__(self, memory_info: Any) -> None:
        self._info = memory_info

    @property
    def free(self) -> int:
        """Unallocated device memory, in bytes."""
        return int(self._info.free)

    @property
    def total(self) -> int:
        """Total device memory, in bytes."""
        return int(self._info.total)

    @property
    def used(self) -> int:
        """Allocated device memory, in bytes."""
        return int(self._info.used)

    @property
    def reserved(self) -> int:
        """Device memory reserved by the driver and firmware, in bytes."""
        return int(self._info.reserved)


class BAR1MemoryInfo(MemoryInfo):
    """A device's BAR1 memory (the window through which the CPU and peers reach device memory)."""

    def __init__(self, memory_info: Any) -> None:
        super().__init__(memory_info)

    @property
    def free(self) -> int:
        """Unallocated BAR1 memory, in bytes."""
        return int(self._info.bar1_free)

    @property
    def total(self) -> int:
        """Total BAR1 memory, in bytes."""
        return int(self._info.bar1_total)

    @property
    def used(self) -> int:
        """Allocated BAR1 memory, in bytes."""
        return int(self._info.bar1_used)


class MigInfo:
    """Multi-Instance GPU (MIG) information of a device."""

    def __init__(self, device: Device) -> None:
        self._handle = device._handle

    @property
    def is_mig_device(self) -> bool:
        """Whether this handle is a MIG device (a compute instance), not a whole GPU."""
        return bool(nvml.device_is_mig_device_handle(self._handle))

    @property
    def mode(self) -> bool:
        """Whether MIG mode is enabled now; settable (a change may need a GPU reset)."""
        return int(nvml.device_get_mig_mode(self._handle)[0]) == _ENABLED

    @mode.setter
    def mode(self, mode: bool) -> None:
        nvml.device_set_mig_mode(self._handle, _ENABLED if mode else 0)

    @property
    def pending_mode(self) -> bool:
        """Whether MIG mode will be enabled after the next reset."""
        return int(nvml.device_get_mig_mode(self._handle)[1]) == _ENABLED

    @property
    def device_count(self) -> int:
        """The most MIG devices this GPU can hold (0 without MIG)."""
        return int(nvml.device_get_max_mig_device_count(self._handle))

    @property
    def parent(self) -> Device:
        """The GPU this MIG device belongs to."""
        return Device._from_handle(nvml.device_get_device_handle_from_mig_device_handle(self._handle))

    def get_device_by_index(self, index: int) -> Device:
        """The MIG device at ``index`` (0 to device_count - 1) of this GPU."""
        return Device._from_handle(nvml.device_get_mig_device_handle_by_index(self._handle, index))

    def get_all_devices(self) -> Iterable[Device]:
        """The MIG devices that exist now on this GPU."""
        devices = []
        for index in range(self.device_count):
            try:
                devices.append(self.get_device_by_index(index))
            except nvml.NotFoundError:  # a slot without a compute instance
                continue
        return devices


class _NvlinkInfoMeta(type):
    @property
    def max_links(cls) -> int:
        """NVML's static maximum number of NVLinks (deprecated: use Device.get_nvlink_count())."""
        warnings.warn("NvlinkInfo.max_links is deprecated: use Device.get_nvlink_count(), the device's own count",
                      DeprecationWarning, stacklevel=2)
        return int(nvml.NVLINK_MAX_LINKS)


class _NvlinkInfo:
    """One NVLink of a device."""

    def __init__(self, device: Device, link: int) -> None:
        self._handle = device._handle
        self._link = link

    @property
    def version(self) -> tuple[int, int]:
        """The link's NVLink version, as (major, minor)."""
        raw = int(nvml.device_get_nvlink_version(self._handle, self._link))
        try:
            return _NVLINK_VERSIONS[raw]
        except KeyError:
            raise ValueError(f"NVLink {self._link} reports a version NVML bindings do not know: {raw}") from None

    @property
    def state(self) -> bool:
        """Whether the link is active."""
        return int(nvml.device_get_nvlink_state(self._handle, self._link)) == _ENABLED


class NvlinkInfo(_NvlinkInfo, metaclass=_NvlinkInfoMeta):
    """One NVLink of a device: its version and whether it is active."""


class PciInfo:
    """A device's PCI attributes and PCIe link state."""

    def __init__(self, pci_info_ext: Any, handle: int) -> None:
        self._info = pci_info_ext
        self._handle = handle

    @property
    def bus(self) -> int:
        """The bus on which the device sits, 0 to 255."""
        return int(self._info.bus)

    @property
    def bus_id(self) -> str:
        """The PCI id, domain:bus:device.function, e.g. '00000000:3B:00.0'."""
        bus_id = self._info.bus_id
        return bus_id.decode() if isinstance(bus_id, bytes) else str(bus_id)

    @property
    def device(self) -> int:
        """The device's number on the bus, 0 to 31."""
        return int(self._info.device_)

    @property
    def domain(self) -> int:
        """The PCI domain of the device's bus, 0 to 0xffffffff."""
        return int(self._info.domain)

    @property
    def vendor_id(self) -> int:
        """The PCI vendor id (0x10de for NVIDIA): the low 16 bits of NVML's combined id."""
        return int(self._info.pci_device_id) & 0xFFFF

    @property
    def device_id(self) -> int:
        """The PCI device id: the high 16 bits of NVML's combined id."""
        return int(self._info.pci_device_id) >> 16 & 0xFFFF

    @property
    def subsystem_id(self) -> int:
        """The PCI subsystem id."""
        return int(self._info.pci_sub_system_id)

    @property
    def base_class(self) -> int:
        """The 8-bit PCI base class code."""
        return int(self._info.base_class)

    @property
    def sub_class(self) -> int:
        """The 8-bit PCI sub class code."""
        return int(self._info.sub_class)

    @property
    def link_generation(self) -> int:
        """The highest PCIe generation this device and system can use together."""
        return int(nvml.device_get_max_pcie_link_generation(self._handle))

    @property
    def max_link_generation(self) -> int:
        """The highest PCIe generation the GPU supports."""
        return int(nvml.device_get_gpu_max_pcie_link_generation(self._handle))

    @property
    def max_link_width(self) -> int:
        """The widest PCIe link this device and system can use together."""
        return int(nvml.device_get_max_pcie_link_width(self._handle))

    @property
    def current_link_generation(self) -> int:
        """The PCIe generation in use now."""
        return int(nvml.device_get_curr_pcie_link_generation(self._handle))

    @property
    def current_link_width(self) -> int:
        """The PCIe link width in use now."""
        return int(nvml.device_get_curr_pcie_link_width(self._handle))

    @property
    def rx_throughput(self) -> int:
        """PCIe reception throughput over the last 20 ms, in KB/s."""
        return int(nvml.device_get_pcie_throughput(self._handle, nvml.PcieUtilCounter.RX_BYTES))

    @property
    def tx_throughput(self) -> int:
        """PCIe transmission throughput over the last 20 ms, in KB/s."""
        return int(nvml.device_get_pcie_throughput(self._handle, nvml.PcieUtilCounter.TX_BYTES))

    @property
    def replay_counter(self) -> int:
        """The PCIe replay counter."""
        return int(nvml.device_get_pcie_replay_counter(self._handle))


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
        self._utilization = gpu_dynamic_pstates_info.utilization

    def __len__(self) -> int:
        return len(self._utilization)

    def __getitem__(self, idx: int) -> GpuDynamicPstatesUtilization:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"utilization domain {idx} out of range for {len(self)} domains")
        return GpuDynamicPstatesUtilization(self._utilization[idx % len(self)], self._info)


class ProcessInfo:
    """A process with a compute context on a device."""

    def __init__(self, device: Device, process_info: Any) -> None:
        self._device = device
        self._info = process_info

    @property
    def pid(self) -> int:
        """The process id."""
        return int(self._info.pid)

    @property
    def used_gpu_memory(self) -> int:
        """Device memory the process uses, in bytes."""
        return int(self._info.used_gpu_memory)

    def _mig_only(self, what: str) -> int:
        if not self._device.mig.is_mig_device:
            raise _nvml_context._error(nvml.NotSupportedError, int(nvml.Return.ERROR_NOT_SUPPORTED),
                                       f"{what} is defined for processes on MIG devices only")
        return int(getattr(self._info, what))

    @property
    def gpu_instance_id(self) -> int:
        """The GPU instance the process runs on (MIG devices only, else NotSupportedError)."""
        return self._mig_only("gpu_instance_id")

    @property
    def compute_instance_id(self) -> int:
        """The compute instance the process runs on (MIG devices only, else NotSupportedError)."""
        return self._mig_only("compute_instance_id")


class RepairStatus:
    """Whether TPC or channel repairs of a device are pending."""

    def __init__(self, handle: int) -> None:
        self._status = nvml.device_get_repair_status(handle)

    @property
    def channel_repair_pending(self) -> bool:
        """Whether a channel repair is pending."""
        return bool(self._status.b_channel_repair_pending)

    @property
    def tpc_repair_pending(self) -> bool:
        """Whether a TPC repair is pending."""
        return bool(self._status.b_tpc_repair_pending)


class ThermalSensor:
    """One thermal sensor: what it measures, its controller and its readings in degrees C."""

    def __init__(self, sensor: Any, owner: object = None) -> None:
        self._sensor = sensor
        self._owner = owner  # keeps the memory the NVML struct views alive

    @property
    def controller(self) -> ThermalController:
        """The chip that reads the sensor."""
        return _THERMAL_CONTROLLERS.get(int(self._sensor.controller), ThermalController.UNKNOWN)

    @property
    def default_min_temp(self) -> int:
        """The sensor's default minimum temperature, in degrees C."""
        return int(self._sensor.default_min_temp)

    @property
    def default_max_temp(self) -> int:
        """The sensor's default maximum temperature, in degrees C."""
        return int(self._sensor.default_max_temp)

    @property
    def current_temp(self) -> int:
        """The sensor's current temperature, in degrees C."""
        return int(self._sensor.current_temp)

    @property
    def target(self) -> ThermalTarget:
        """What the sensor measures."""
        return _THERMAL_TARGETS.get(int(self._sensor.target), ThermalTarget.NONE)


class ThermalSettings:
    """The thermal sensors Temperature.get_thermal_settings found."""

    def __init__(self, thermal_settings: Any) -> None:
        self._settings = thermal_settings

    def __len__(self) -> int:
        return min(int(self._settings.count), len(self._settings.sensor))

    def __getitem__(self, idx: int) -> ThermalSensor:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"thermal sensor {idx} out of range for {len(self)} sensors")
        return ThermalSensor(self._settings.sensor[idx % len(self)], self._settings)


class Temperature:
    """A device's temperatures and thresholds, in degrees C."""

    def __init__(self, handle: int) -> None:
        self._handle = handle

    def get_sensor(self) -> int:
        """The GPU's temperature, in degrees C."""
        return int(nvml.device_get_temperature_v(self._handle, nvml.TemperatureSensors.GPU))

    def get_threshold(self, threshold_type: TemperatureThresholds | str) -> int:
        """The temperature threshold ``threshold_type``, in degrees C."""
        kind = _to_nvml(_TEMPERATURE_THRESHOLD_MAPPING, TemperatureThresholds, threshold_type, "threshold_type")
        return int(nvml.device_get_temperature_threshold(self._handle, kind))

    @property
    def margin(self) -> int:
        """How far the GPU is from its nearest slowdown threshold, in degrees C."""
        return int(nvml.device_get_margin_temperature(self._handle))

    def get_thermal_settings(self, sensor_index: ThermalTarget | str) -> ThermalSettings:
        """The thermal sensors of target ``sensor_index`` (ALL: every one)."""
        target = _to_nvml(_THERMAL_TARGET_MAPPING, ThermalTarget, sensor_index, "sensor_index")
        return ThermalSettings(nvml.device_get_thermal_settings(self._handle, target))


class Utilization:
    """How busy a device was over the last sample period, in percent."""

    def __init__(self, utilization: Any) -> None:
        self._utilization = utilization

    @property
    def gpu(self) -> int:
        """Percent of the time during which a kernel ran on the GPU."""
        return int(self._utilization.gpu)

    @property
    def memory(self) -> int:
        """Percent of the time during which device memory was read or written."""
        return int(self._utilization.memory)


# --- Device ------------------------------------------------------------------------------------

def _handle_from_uuid(uuid: bytes | str) -> int:
    """The NVML handle of the device with ``uuid``, with or without NVML's GPU-/MIG- prefix."""
    text = uuid.decode() if isinstance(uuid, bytes) else str(uuid)
    if not text.upper().startswith(("GPU-", "MIG-")):
        text = "GPU-" + text  # CUDA writes UUIDs without NVML's prefix
    return nvml.device_get_handle_by_uuid(text)


class Device:
    """A GPU as NVML sees it: its identity, topology, clocks, memory, temperatures and more.

    Give exactly one of ``index`` (NVML's index, 0 to get_device_count() - 1), ``uuid`` or
    ``pci_bus_id``; ValueError otherwise. To run CUDA work use :class:`cuda.core.Device`
    (``to_cuda_device()`` maps one to the other).
    """

    _handle: int

    def __init__(self, *, index: int | None = None, uuid: bytes | str | None = None,
                 pci_bus_id: bytes | str | None = None) -> None:
        given = [name for name, value in (("index", index), ("uuid", uuid), ("pci_bus_id", pci_bus_id))
                 if value is not None]
        if len(given) != 1:
            raise ValueError("cuda.core.system.Device takes exactly one of index=, uuid= or pci_bus_id=; "
                             f"got {', '.join(given) if given else 'none'}")
        _nvml_context.initialize()
        if index is not None:
            self._handle = nvml.device_get_handle_by_index_v2(index)
        elif uuid is not None:
            self._handle = _handle_from_uuid(uuid)
        else:
            bus_id = pci_bus_id.decode() if isinstance(pci_bus_id, bytes) else str(pci_bus_id)
            self._handle = nvml.device_get_handle_by_pci_bus_id_v2(bus_id)

    @classmethod
    def _from_handle(cls, handle: int) -> Device:
        """A Device for an NVML handle NVML gave out (MIG devices, topology queries, events)."""
        device = cls.__new__(cls)
        device._handle = int(handle)
        return device

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash((Device, self._handle))

    def __repr__(self) -> str:
        return f"<cuda.core.system.Device handle={self._handle:#x}>"

    # Identity
    @property
    def index(self) -> int:
        """NVML's index of this device (may differ from the CUDA ordinal)."""
        return int(nvml.device_get_index(self._handle))

    @property
    def uuid(self) -> str:
        """The device's UUID as NVML writes it, with its 'GPU-' or 'MIG-' prefix."""
        return nvml.device_get_uuid(self._handle)

    @property
    def uuid_without_prefix(self) -> str:
        """The device's UUID without NVML's 'GPU-'/'MIG-' prefix, as CUDA writes it."""
        prefix, _, rest = self.uuid.partition("-")
        return rest if prefix.upper() in ("GPU", "MIG") else self.uuid

    @property
    def pci_bus_id(self) -> str:
        """The device's PCI bus id, domain:bus:device.function."""
        return self.pci_info.bus_id

    @property
    def numa_node_id(self) -> int:
        """The NUMA node of the GPU, on platforms where GPUs are NUMA nodes (-1: none)."""
        node = int(nvml.device_get_numa_node_id(self._handle))
        return node - (1 << 32) if node >= 1 << 31 else node

    @property
    def arch(self) -> DeviceArch:
        """The device's architecture (DeviceArch.UNKNOWN for ones this cuda.core does not name)."""
        raw = int(nvml.device_get_architecture(self._handle))
        try:
            return DeviceArch(raw)
        except ValueError:
            return DeviceArch.UNKNOWN

    @property
    def name(self) -> str:
        """The product name, e.g. 'NVIDIA H200'."""
        return nvml.device_get_name(self._handle)

    @property
    def brand(self) -> str:
        """The product brand, e.g. 'NVIDIA' or 'Tesla'; 'Unknown' where NVML does not say."""
        return _BRAND_NAMES.get(int(nvml.device_get_brand(self._handle)), "Unknown")

    @property
    def serial(self) -> str:
        """The board's serial number (boards with an InfoROM)."""
        return nvml.device_get_serial(self._handle)

    @property
    def module_id(self) -> int:
        """The id of the GPU module on its baseboard (0 for non-baseboard products)."""
        return int(nvml.device_get_module_id(self._handle))

    @property
    def minor_number(self) -> int:
        """The minor number of the device node /dev/nvidiaN (Linux)."""
        return int(nvml.device_get_minor_number(self._handle))

    @property
    def is_c2c_enabled(self) -> bool:
        """Whether chip-to-chip (C2C) mode is enabled."""
        return bool(nvml.device_get_c2c_mode_info_v(self._handle).is_c2c_enabled)

    @property
    def is_persistence_mode_enabled(self) -> bool:
        """Whether persistence mode is on (Linux); settable, with the permission to."""
        return int(nvml.device_get_persistence_mode(self._handle)) == _ENABLED

    @is_persistence_mode_enabled.setter
    def is_persistence_mode_enabled(self, enabled: bool) -> None:
        nvml.device_set_persistence_mode(self._handle, _ENABLED if enabled else 0)

    @property
    def cuda_compute_capability(self) -> tuple[int, int]:
        """The CUDA compute capability, (major, minor)."""
        major, minor = nvml.device_get_cuda_compute_capability(self._handle)
        return int(major), int(minor)

    def to_cuda_device(self) -> cuda.core.Device:
        """The :class:`cuda.core.Device` with this device's UUID; RuntimeError where CUDA has
        none (e.g. a GPU split into MIG devices)."""
        from cuda.core import Device as CudaDevice

        uuid = self.uuid_without_prefix
        for device in CudaDevice.get_all_devices():
            if device.uuid == uuid:
                return device
        raise RuntimeError(f"no CUDA device has the UUID {uuid} of NVML device {self.index}: CUDA does not "
                           "expose this device (e.g. a GPU in MIG mode, or one hidden by CUDA_VISIBLE_DEVICES)")

    @classmethod
    def get_device_count(cls) -> int:
        """The number of devices NVML sees."""
        _nvml_context.initialize()
        return int(nvml.device_get_count_v2())

    @classmethod
    def get_all_devices(cls) -> Iterable[Device]:
        """Every device NVML sees, in NVML's index order."""
        return [cls(index=index) for index in range(cls.get_device_count())]

    @property
    def addressing_mode(self) -> AddressingMode | None:
        """How the device addresses system-allocated memory (HMM or ATS); None for neither."""
        return _ADDRESSING_MODES.get(int(nvml.device_get_addressing_mode(self._handle).value))

    @property
    def mig(self) -> MigInfo:
        """Multi-Instance GPU (MIG) information."""
        return MigInfo(self)

    # Topology and affinity
    @classmethod
    def get_all_devices_with_cpu_affinity(cls, cpu_index: int) -> Iterable[Device]:
        """The devices with an affinity to CPU ``cpu_index`` (Linux)."""
        _nvml_context.initialize()
        return [cls._from_handle(handle) for handle in nvml.system_get_topology_gpu_set(cpu_index)]

    def get_memory_affinity(self, scope: AffinityScope | str = AffinityScope.NODE) -> list[int]:
        """The NUMA nodes (or CPU sockets, by ``scope``) with the ideal memory affinity (Linux)."""
        words = _set_words(0)
        scope_value = _to_nvml(_AFFINITY_SCOPE_MAPPING, AffinityScope, scope, "scope")
        return _unpack_bitmask(nvml.device_get_memory_affinity(self._handle, words, scope_value))

    def get_cpu_affinity(self, scope: AffinityScope | str = AffinityScope.NODE) -> list[int]:
        """The CPUs with the ideal affinity to this device, within ``scope`` (Linux)."""
        words = _set_words(os.cpu_count() or 1)
        scope_value = _to_nvml(_AFFINITY_SCOPE_MAPPING, AffinityScope, scope, "scope")
        return _unpack_bitmask(nvml.device_get_cpu_affinity_within_scope(self._handle, words, scope_value))

    def set_cpu_affinity(self) -> None:
        """Binds the calling thread to the CPUs ideal for this device (Linux)."""
        nvml.device_set_cpu_affinity(self._handle)

    def clear_cpu_affinity(self) -> None:
        """Clears the calling thread's CPU binding (Linux)."""
        nvml.device_clear_cpu_affinity(self._handle)

    def get_topology_nearest_gpus(self, level: GpuTopologyLevel | str) -> Iterable[Device]:
        """The GPUs connected to this one at topology ``level`` (Linux)."""
        level_value = _to_nvml(_GPU_TOPOLOGY_LEVEL_MAPPING, GpuTopologyLevel, level, "level")
        return [Device._from_handle(h) for h in nvml.device_get_topology_nearest_gpus(self._handle, level_value)]

    # Clocks
    def get_clock(self, clock_type: ClockType | str) -> ClockInfo:
        """The clock domain ``clock_type``."""
        return ClockInfo(self._handle, clock_type)

    @property
    def is_auto_boosted_clocks_enabled(self) -> tuple[bool, bool]:
        """(enabled now, enabled by default) for auto boosted clocks."""
        current, default = nvml.device_get_auto_boosted_clocks_enabled(self._handle)
        return int(current) == _ENABLED, int(default) == _ENABLED

    @staticmethod
    def _reasons(mask: int) -> list[ClocksEventReasons]:
        reasons = [reason for reason, bit in _CLOCKS_EVENT_REASONS_MAPPING.items() if bit and mask & int(bit)]
        return reasons or [ClocksEventReasons.NONE]

    @property
    def current_clock_event_reasons(self) -> list[ClocksEventReasons]:
        """Why the clocks are below their maximum now ([NONE]: they are not held back)."""
        return self._reasons(int(nvml.device_get_current_clocks_event_reasons(self._handle)))

    @property
    def supported_clock_event_reasons(self) -> list[ClocksEventReasons]:
        """The clock event reasons this device can report."""
        return self._reasons(int(nvml.device_get_supported_clocks_event_reasons(self._handle)))

    # Cooling and display
    @property
    def cooler(self) -> CoolerInfo:
        """The device's cooler."""
        return CoolerInfo(nvml.device_get_cooler_info(self._handle))

    @property
    def attributes(self) -> DeviceAttributes:
        """Engine counts, slice counts and memory size (Linux)."""
        return DeviceAttributes(nvml.device_get_attributes_v2(self._handle))

    @property
    def is_display_connected(self) -> bool:
        """Whether a display is physically connected to the device."""
        return int(nvml.device_get_display_mode(self._handle)) == _ENABLED

    @property
    def is_display_active(self) -> bool:
        """Whether a display is initialized on the device (e.g. an X server uses it)."""
        return int(nvml.device_get_display_active(self._handle)) == _ENABLED

    # Events
    def register_events(self, events: EventType | str | list[EventType | str]) -> DeviceEvents:
        """Starts recording ``events`` on this device (Linux); wait on the result.

        TypeError for anything but event types, their strings, or a list of them.
        """
        return DeviceEvents(self._handle, events)

    def get_supported_event_types(self) -> list[EventType]:
        """The event types this device can report."""
        mask = int(nvml.device_get_supported_event_types(self._handle))
        return [member for member, bit in _EVENT_TYPE_MAPPING.items() if int(bit) and mask & int(bit)]

    # Fans
    def get_fan(self, fan: int = 0) -> FanInfo:
        """Fan number ``fan`` of the device."""
        return FanInfo(self._handle, fan)

    @property
    def num_fans(self) -> int:
        """The number of fans (0 on fanless products)."""
        return int(nvml.device_get_num_fans(self._handle))

    # Field values
    def get_field_values(self, field_ids: list[int | tuple[int, int]]) -> FieldValues:
        """Several fields read at once: each a FieldId, or a (FieldId, scope id) pair."""
        return FieldValues(nvml.device_get_field_values(self._handle, _field_ids(field_ids)))

    def clear_field_values(self, field_ids: list[int | tuple[int, int]]) -> None:
        """Resets the counters of several fields."""
        ids = _field_ids(field_ids)
        if ids:
            nvml.device_clear_field_values(self._handle, ids)

    # Memory and InfoROM
    @property
    def inforom(self) -> InforomInfo:
        """The device's InfoROM."""
        return InforomInfo(self)

    @property
    def bar1_memory_info(self) -> BAR1MemoryInfo:
        """The device's BAR1 memory."""
        return BAR1MemoryInfo(nvml.device_get_bar1_memory_info(self._handle))

    @property
    def memory_info(self) -> MemoryInfo:
        """The device's memory: free, used, reserved and total."""
        return MemoryInfo(nvml.device_get_memory_info_v2(self._handle))

    # NVLink
    def get_nvlink_count(self) -> int:
        """The number of NVLinks of this device."""
        values = self.get_field_values([FieldId.DEV_NVLINK_LINK_COUNT])
        return int(values[0].value)

    def get_nvlink(self, link: int) -> NvlinkInfo:
        """NVLink number ``link``; ValueError for one this device does not have."""
        count = self.get_nvlink_count()
        if isinstance(link, bool) or not isinstance(link, int) or not 0 <= link < count:
            raise ValueError(f"link must be an NVLink number of this device, 0 to {count - 1}; got {link!r}")
        return NvlinkInfo(self, link)

    def get_nvlinks(self) -> Iterable[NvlinkInfo]:
        """Every NVLink of this device."""
        return [NvlinkInfo(self, link) for link in range(self.get_nvlink_count())]

    # PCI, performance, processes, repair, temperature, utilization
    @property
    def pci_info(self) -> PciInfo:
        """The device's PCI attributes (NVML errors for devices without, such as MIG devices)."""
        return PciInfo(nvml.device_get_pci_info_ext(self._handle), self._handle)

    @property
    def performance_state(self) -> int | None:
        """The current performance state, 0 (fastest) to 15; None where NVML does not know it."""
        pstate = int(nvml.device_get_performance_state(self._handle))
        return None if pstate == _PSTATE_UNKNOWN else pstate

    @property
    def dynamic_pstates_info(self) -> GpuDynamicPstatesInfo:
        """Performance monitor samples, one per utilization domain."""
        return GpuDynamicPstatesInfo(nvml.device_get_dynamic_pstates_info(self._handle))

    @property
    def supported_pstates(self) -> list[int]:
        """The performance states the device supports, 0 (fastest) to 15."""
        return [int(p) for p in nvml.device_get_supported_performance_states(self._handle)
                if int(p) != _PSTATE_UNKNOWN]

    @property
    def compute_running_processes(self) -> list[ProcessInfo]:
        """The processes with a compute (CUDA) context on the device, now."""
        processes = nvml.device_get_compute_running_processes_v3(self._handle)
        return [ProcessInfo(self, processes[i]) for i in range(len(processes))]

    @property
    def repair_status(self) -> RepairStatus:
        """Whether TPC or channel repairs are pending."""
        return RepairStatus(self._handle)

    @property
    def temperature(self) -> Temperature:
        """The device's temperatures and thresholds."""
        return Temperature(self._handle)

    @property
    def utilization(self) -> Utilization:
        """How busy the GPU and its memory were over the last sample period."""
        return Utilization(nvml.device_get_utilization_rates(self._handle))


def _check_device(device: Any, what: str) -> int:
    if not isinstance(device, Device):
        raise TypeError(f"{what} must be a cuda.core.system.Device, got {type(device).__name__}")
    return device._handle


def get_topology_common_ancestor(device1: Device, device2: Device) -> GpuTopologyLevel:
    """The closest topology level that connects ``device1`` and ``device2`` (Linux)."""
    level = int(nvml.device_get_topology_common_ancestor(_check_device(device1, "device1"),
                                                         _check_device(device2, "device2")))
    return _TOPOLOGY_LEVELS[level]


def get_p2p_status(device1: Device, device2: Device, index: GpuP2PCapsIndex | str) -> GpuP2PStatus:
    """Whether peer-to-peer capability ``index`` works between ``device1`` and ``device2``."""
    caps = _to_nvml(_GPU_P2P_CAPS_INDEX_MAPPING, GpuP2PCapsIndex, index, "index")
    status = int(nvml.device_get_p2p_status(_check_device(device1, "device1"), _check_device(device2, "device2"),
                                            caps))
    return _P2P_STATUSES.get(status, GpuP2PStatus.UNKNOWN)
