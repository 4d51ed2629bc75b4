# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Types of cuda.core.system's NVML API: the enumerations its queries take and return.

String-valued enumerations (a plain string of the value works wherever one is taken), plus
DeviceArch and FieldId, which come from cuda.bindings.nvml and so exist, as in NVIDIA's
cuda.core, only with NVML bindings: they are made on first use, so that importing this
module does not load NVML; without those bindings they are not attributes (an AttributeError
that says which cuda-bindings would define them).
"""

import enum as _enum
from typing import Any as _Any

from cuda.core._utils.pycompat import StrEnum as _StrEnum
from cuda.core.system import _nvml_support

__all__ = [
    "AddressingMode",
    "AffinityScope",
    "ClockId",
    "ClockType",
    "ClocksEventReasons",
    "CoolerControl",
    "CoolerTarget",
    "EventType",
    "FanControlPolicy",
    "GpuP2PCapsIndex",
    "GpuP2PStatus",
    "GpuTopologyLevel",
    "InforomObject",
    "SystemEventType",
    "TemperatureThresholds",
    "ThermalController",
    "ThermalTarget",
]
if _nvml_support.NVML_IS_COMPATIBLE:
    __all__ += ["DeviceArch", "FieldId"]  # noqa: F822  (defined above when NVML is usable)


class AddressingMode(_StrEnum):
    """How the device addresses system-allocated memory (malloc, mmap)."""

    HMM = "hmm"  # through software mirroring of the CPU page tables on the GPU
    ATS = "ats"  # through Address Translation Services: CPU and GPU share page tables


class AffinityScope(_StrEnum):
    """The scope of a CPU or memory affinity query: a NUMA node (default) or a CPU socket."""

    NODE = "node"
    SOCKET = "socket"


class ClockId(_StrEnum):
    """Which value of a clock to read: the current one or the OEM-defined boost maximum."""

    CURRENT = "current"
    CUSTOMER_BOOST_MAX = "customer_boost_max"


class ClocksEventReasons(_StrEnum):
    """Why the clocks are below their maximum (several may hold at once)."""

    NONE = "none"
    GPU_IDLE = "gpu_idle"
    APPLICATIONS_CLOCKS_SETTING = "applications_clocks_setting"
    SW_POWER_CAP = "sw_power_cap"
    HW_SLOWDOWN = "hw_slowdown"
    SYNC_BOOST = "sync_boost"
    SW_THERMAL_SLOWDOWN = "sw_thermal_slowdown"
    HW_THERMAL_SLOWDOWN = "hw_thermal_slowdown"
    HW_POWER_BRAKE_SLOWDOWN = "hw_power_brake_slowdown"
    DISPLAY_CLOCK_SETTING = "display_clock_setting"
    BOARD_LIMIT = "board_limit"
    RELIABILITY = "reliability"


class ClockType(_StrEnum):
    """A clock domain of the device; speeds are in MHz."""

    GRAPHICS = "graphics"
    SM = "sm"
    MEMORY = "memory"
    VIDEO = "video"


class CoolerControl(_StrEnum):
    """How a cooler is driven: switched on/off, or set to a level."""

    TOGGLE = "toggle"
    VARIABLE = "variable"


class CoolerTarget(_StrEnum):
    """What a cooler cools."""

    NONE = "none"
    GPU = "gpu"
    MEMORY = "memory"
    POWER_SUPPLY = "power_supply"


class EventType(_StrEnum):
    """Device events that Device.register_events can wait for."""

    NONE = "none"
    SINGLE_BIT_ECC_ERROR = "single_bit_ecc_error"
    DOUBLE_BIT_ECC_ERROR = "double_bit_ecc_error"
    PSTATE = "pstate"
    XID_CRITICAL_ERROR = "xid_critical_error"
    CLOCK = "clock"
    POWER_SOURCE_CHANGE = "power_source_change"
    MIG_CONFIG_CHANGE = "mig_config_change"
    SINGLE_BIT_ECC_ERROR_STORM = "single_bit_ecc_error_storm"
    DRAM_RETIREMENT_EVENT = "dram_retirement_event"
    DRAM_RETIREMENT_FAILURE = "dram_retirement_failure"
    NON_FATAL_POISON_ERROR = "non_fatal_poison_error"
    FATAL_POISON_ERROR = "fatal_poison_error"
    GPU_UNAVAILABLE_ERROR = "gpu_unavailable_error"
    GPU_RECOVERY_ACTION = "gpu_recovery_action"


class FanControlPolicy(_StrEnum):
    """Who sets a fan's speed: the driver, from the temperature, or the user."""

    TEMPERATURE_CONTROLLED = "temperature_controlled"
    MANUAL = "manual"


class GpuP2PCapsIndex(_StrEnum):
    """The peer-to-peer capability asked about by get_p2p_status."""

    READ = "read"
    WRITE = "write"
    NVLINK = "nvlink"
    ATOMICS = "atomics"
    PCI = "pci"
    PROP = "prop"
    UNKNOWN = "unknown"


class GpuP2PStatus(_StrEnum):
    """Whether a peer-to-peer capability is available between two devices, and if not, why."""

    OK = "ok"
    CHIPSET_NOT_SUPPORTED = "chipset not supported"
    GPU_NOT_SUPPORTED = "GPU not supported"
    IOH_TOPOLOGY_NOT_SUPPORTED = "IOH topology not supported"
    DISABLED_BY_REGKEY = "disabled by regkey"
    NOT_SUPPORTED = "not supported"
    UNKNOWN = "unknown"


class GpuTopologyLevel(_StrEnum):
    """How two GPUs are connected, from the closest (same board) to the farthest (across sockets)."""

    INTERNAL = "internal"
    SINGLE = "single"
    MULTIPLE = "multiple"
    HOSTBRIDGE = "hostbridge"
    NODE = "node"
    SYSTEM = "system"


class InforomObject(_StrEnum):
    """An object stored in the InfoROM: OEM data, ECC, power management, DRAM encryption."""

    OEM = "oem"
    ECC = "ecc"
    POWER = "power"
    DEN = "den"


class SystemEventType(_StrEnum):
    """System events that register_events can wait for: a GPU unbound from or bound to the driver."""

    UNBIND = "unbind"
    BIND = "bind"


class TemperatureThresholds(_StrEnum):
    """A temperature threshold of the device."""

    SHUTDOWN = "shutdown"
    SLOWDOWN = "slowdown"
    MEM_MAX = "mem_max"
    GPU_MAX = "gpu_max"
    ACOUSTIC_MIN = "acoustic_min"
    ACOUSTIC_CURR = "acoustic_curr"
    ACOUSTIC_MAX = "acoustic_max"
    GPS_CURR = "gps_curr"


class ThermalController(_StrEnum):
    """The chip that reads a thermal sensor."""

    GPU_INTERNAL = "gpu_internal"
    ADM1032 = "adm1032"
    ADT7461 = "adt7461"
    MAX6649 = "max6649"
    MAX1617 = "max1617"
    LM99 = "lm99"
    LM89 = "lm89"
    LM64 = "lm64"
    G781 = "g781"
    ADT7473 = "adt7473"
    SBMAX6649 = "sbmax6649"
    VBIOSEVT = "vbiosevt"
    OS = "os"
    NVSYSCON_CANOAS = "nvsyscon_canoas"
    NVSYSCON_E551 = "nvsyscon_e551"
    MAX6649R = "max6649r"
    ADT7473S = "adt7473s"
    UNKNOWN = "unknown"


class ThermalTarget(_StrEnum):
    """What a thermal sensor measures (ALL: every sensor)."""

    NONE = "none"
    GPU = "gpu"
    MEMORY = "memory"
    POWER_SUPPLY = "power_supply"
    BOARD = "board"
    VCD_BOARD = "vcd_board"
    VCD_INLET = "vcd_inlet"
    VCD_OUTLET = "vcd_outlet"
    ALL = "all"


_ARCHITECTURES = ("KEPLER", "MAXWELL", "PASCAL", "VOLTA", "TURING", "AMPERE", "ADA", "HOPPER", "BLACKWELL", "UNKNOWN")


def _make_device_arch() -> type:
    """DeviceArch: an IntEnum with NVML's values, whose order is the architectures' order."""
    nvml = _nvml_support.require_nvml("cuda.core.system.typing.DeviceArch")
    members = {name: int(_nvml_support.nvml_member(nvml.DeviceArch, name)) for name in _ARCHITECTURES}
    # Functional form: the values are NVML's, known only once cuda.bindings.nvml is imported.
    arch = _enum.IntEnum("DeviceArch", members, module=__name__)  # type: ignore[misc]
    arch.__doc__ = "A device architecture; later ones compare greater."
    return arch


def _make_field_id() -> _Any:
    """FieldId: NVML's own enumeration of the fields Device.get_field_values reads."""
    return _nvml_support.require_nvml("cuda.core.system.typing.FieldId").FieldId


_LAZY = {"DeviceArch": _make_device_arch, "FieldId": _make_field_id}


def __getattr__(name: str) -> _Any:
    """DeviceArch and FieldId, made from cuda.bindings.nvml on first use; an AttributeError where
    the installed cuda-bindings has no usable NVML bindings (NVIDIA's module lacks them there)."""
    make = _LAZY.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name)
    if not _nvml_support.NVML_IS_COMPATIBLE:
        raise _nvml_support.missing_nvml_name(__name__, name)
    value = make()
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """This module's names, and DeviceArch and FieldId where they exist (made on first use)."""
    names = set(globals())
    if _nvml_support.NVML_IS_COMPATIBLE:
        names.update(_LAZY)
    return sorted(names)
