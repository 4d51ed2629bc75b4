# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device: what NVML (the NVIDIA Management Library) reports about a GPU.

Pure Python over cuda.bindings.nvml. Each query is one NVML call, made when the property is
read, so the values are current; NVML's errors propagate as cuda.core.system's exception
classes (cuda.bindings.nvml's own). Importing this module needs the NVML bindings: without
them it raises an ImportError that says which cuda-bindings to install.

Device is here, with its identity, topology and affinity; the classes its queries return
are written by topic beside it (_clocks, _thermal, _memory, _pci_nvlink, _events, _fields,
_device_info) and are importable from here, whose __module__ they carry, as in NVIDIA's
cuda.core, where they are all of this module. They stand below Device and never import this
module: what they need of it they are given (MigInfo(self), a handle, and for EventData
Device's own constructor of handles, handed to _events on import here).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import nvml_member, require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system import _clocks, _events, _memory, _nvml_context, _pci_nvlink, _thermal  # noqa: E402
from cuda.core.system._clocks import (  # noqa: E402
    PSTATE_UNKNOWN,
    ClockInfo,
    ClockOffsets,
    GpuDynamicPstatesInfo,
    GpuDynamicPstatesUtilization,
    clock_event_reasons,
)
from cuda.core.system._conversions import ENABLED, by_name, inverse, to_nvml  # noqa: E402
from cuda.core.system._device_info import DeviceAttributes, MigInfo, ProcessInfo, RepairStatus, Utilization  # noqa: E402
from cuda.core.system._events import DeviceEvents, EventData, event_types  # noqa: E402
from cuda.core.system._fields import FieldValue, FieldValues, as_field_ids  # noqa: E402
from cuda.core.system._memory import BAR1MemoryInfo, InforomInfo, MemoryInfo  # noqa: E402
from cuda.core.system._pci_nvlink import NvlinkInfo, PciInfo, _NvlinkInfo, _NvlinkInfoMeta  # noqa: E402
from cuda.core.system._thermal import CoolerInfo, FanInfo, Temperature, ThermalSensor, ThermalSettings  # noqa: E402
from cuda.core.system.typing import (  # noqa: E402
    AddressingMode,
    AffinityScope,
    ClocksEventReasons,
    ClockType,
    DeviceArch,
    EventType,
    FieldId,
    GpuP2PCapsIndex,
    GpuP2PStatus,
    GpuTopologyLevel,
)

if TYPE_CHECKING:
    import cuda.core

__all__ = ["Device", "get_p2p_status", "get_topology_common_ancestor", "NvlinkInfo"]

# NVIDIA's tables between cuda.core.system.typing's enumerations and NVML's are all of this module
# in NVIDIA's cuda.core, and its tests read them here (cuda.core.system._device._CLOCK_TYPE_MAPPING).
# Those that the topic modules use are made there and are these same dicts here.
_CLOCK_ID_MAPPING = _clocks._CLOCK_ID_MAPPING
_CLOCK_TYPE_MAPPING = _clocks._CLOCK_TYPE_MAPPING
_CLOCKS_EVENT_REASONS_MAPPING = _clocks._CLOCKS_EVENT_REASONS_MAPPING
_COOLER_CONTROL_MAPPING = _thermal._COOLER_CONTROL_MAPPING
_COOLER_TARGET_MAPPING = _thermal._COOLER_TARGET_MAPPING
_EVENT_TYPE_MAPPING = _events._EVENT_TYPE_MAPPING
_FAN_CONTROL_POLICY_MAPPING = _thermal._FAN_CONTROL_POLICY_MAPPING
_INFOROM_OBJECT_MAPPING = _memory._INFOROM_OBJECT_MAPPING
_NVLINK_VERSION_MAPPING = _pci_nvlink._NVLINK_VERSION_MAPPING
_TEMPERATURE_THRESHOLD_MAPPING = _thermal._TEMPERATURE_THRESHOLD_MAPPING
_THERMAL_CONTROLLER_MAPPING = _thermal._THERMAL_CONTROLLER_MAPPING
_THERMAL_TARGET_MAPPING = _thermal._THERMAL_TARGET_MAPPING

# The classes of the topic modules are this module's, as in NVIDIA's cuda.core: they say so
# (repr, pickle, documentation), and are importable from here.
for _cls in (
    BAR1MemoryInfo,
    ClockInfo,
    ClockOffsets,
    CoolerInfo,
    DeviceAttributes,
    DeviceEvents,
    EventData,
    FanInfo,
    FieldValue,
    FieldValues,
    GpuDynamicPstatesInfo,
    GpuDynamicPstatesUtilization,
    InforomInfo,
    MemoryInfo,
    MigInfo,
    NvlinkInfo,
    PciInfo,
    ProcessInfo,
    RepairStatus,
    Temperature,
    ThermalSensor,
    ThermalSettings,
    Utilization,
    _NvlinkInfo,
    _NvlinkInfoMeta,
):
    _cls.__module__ = __name__
del _cls


# --- Identity, topology and affinity --------------------------------------------------------------

_ADDRESSING_MODE_MAPPING = by_name(AddressingMode, nvml.DeviceAddressingModeType)
_ADDRESSING_MODES = inverse(_ADDRESSING_MODE_MAPPING)
_AFFINITY_SCOPE_MAPPING = by_name(AffinityScope, nvml.AffinityScope)
_GPU_P2P_CAPS_INDEX_MAPPING = by_name(GpuP2PCapsIndex, nvml.GpuP2PCapsIndex)
_GPU_P2P_STATUS_MAPPING = by_name(GpuP2PStatus, nvml.GpuP2PStatus)
_P2P_STATUSES = inverse(_GPU_P2P_STATUS_MAPPING)
_GPU_TOPOLOGY_LEVEL_MAPPING = by_name(GpuTopologyLevel, nvml.GpuTopologyLevel)
_TOPOLOGY_LEVELS = inverse(_GPU_TOPOLOGY_LEVEL_MAPPING)
_BRANDS = {
    "UNKNOWN": "Unknown",
    "QUADRO": "Quadro",
    "TESLA": "Tesla",
    "NVS": "NVS",
    "GRID": "GRID",
    "GEFORCE": "GeForce",
    "TITAN": "Titan",
    "NVIDIA_VAPPS": "NVIDIA vApps",
    "NVIDIA_VPC": "NVIDIA VPC",
    "NVIDIA_VCS": "NVIDIA VCS",
    "NVIDIA_VWS": "NVIDIA VWS",
    "NVIDIA_CLOUD_GAMING": "NVIDIA Cloud Gaming",
    "NVIDIA_VGAMING": "NVIDIA vGaming",
    "QUADRO_RTX": "Quadro RTX",
    "NVIDIA_RTX": "NVIDIA RTX",
    "NVIDIA": "NVIDIA",
    "GEFORCE_RTX": "GeForce RTX",
    "TITAN_RTX": "Titan RTX",
    "NVIDIA_DLA": "NVIDIA DLA",
    "NVIDIA_VGAMEDEV": "NVIDIA vGameDev",
    "NVIDIA_NPU": "NVIDIA NPU",
}
_BRAND_TYPE_MAPPING = {
    nvml_member(nvml.BrandType, name): text
    for name, text in _BRANDS.items()
    if nvml_member(nvml.BrandType, name, None) is not None
}
_BRAND_NAMES = {int(member): text for member, text in _BRAND_TYPE_MAPPING.items()}
_WORD_BITS = 64  # NVML's CPU and node sets are arrays of 64-bit unsigned longs on 64-bit Linux


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

    def __init__(
        self, *, index: int | None = None, uuid: bytes | str | None = None, pci_bus_id: bytes | str | None = None
    ) -> None:
        given = [
            name for name, value in (("index", index), ("uuid", uuid), ("pci_bus_id", pci_bus_id)) if value is not None
        ]
        if len(given) != 1:
            raise ValueError(
                "cuda.core.system.Device takes exactly one of index=, uuid= or pci_bus_id=; "
                f"got {', '.join(given) if given else 'none'}"
            )
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
        return int(nvml.device_get_persistence_mode(self._handle)) == ENABLED

    @is_persistence_mode_enabled.setter
    def is_persistence_mode_enabled(self, enabled: bool) -> None:
        nvml.device_set_persistence_mode(self._handle, ENABLED if enabled else 0)

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
        raise RuntimeError(
            f"no CUDA device has the UUID {uuid} of NVML device {self.index}: CUDA does not "
            "expose this device (e.g. a GPU in MIG mode, or one hidden by CUDA_VISIBLE_DEVICES)"
        )

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
        scope_value = to_nvml(_AFFINITY_SCOPE_MAPPING, AffinityScope, scope, "scope")
        return _unpack_bitmask(nvml.device_get_memory_affinity(self._handle, words, scope_value))

    def get_cpu_affinity(self, scope: AffinityScope | str = AffinityScope.NODE) -> list[int]:
        """The CPUs with the ideal affinity to this device, within ``scope`` (Linux)."""
        words = _set_words(os.cpu_count() or 1)
        scope_value = to_nvml(_AFFINITY_SCOPE_MAPPING, AffinityScope, scope, "scope")
        return _unpack_bitmask(nvml.device_get_cpu_affinity_within_scope(self._handle, words, scope_value))

    def set_cpu_affinity(self) -> None:
        """Binds the calling thread to the CPUs ideal for this device (Linux)."""
        nvml.device_set_cpu_affinity(self._handle)

    def clear_cpu_affinity(self) -> None:
        """Clears the calling thread's CPU binding (Linux)."""
        nvml.device_clear_cpu_affinity(self._handle)

    def get_topology_nearest_gpus(self, level: GpuTopologyLevel | str) -> Iterable[Device]:
        """The GPUs connected to this one at topology ``level`` (Linux)."""
        level_value = to_nvml(_GPU_TOPOLOGY_LEVEL_MAPPING, GpuTopologyLevel, level, "level")
        return [Device._from_handle(h) for h in nvml.device_get_topology_nearest_gpus(self._handle, level_value)]

    # Clocks
    def get_clock(self, clock_type: ClockType | str) -> ClockInfo:
        """The clock domain ``clock_type``."""
        return ClockInfo(self._handle, clock_type)

    @property
    def is_auto_boosted_clocks_enabled(self) -> tuple[bool, bool]:
        """(enabled now, enabled by default) for auto boosted clocks."""
        current, default = nvml.device_get_auto_boosted_clocks_enabled(self._handle)
        return int(current) == ENABLED, int(default) == ENABLED

    @staticmethod
    def _reasons(mask: int) -> list[ClocksEventReasons]:
        return clock_event_reasons(mask)

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
        return int(nvml.device_get_display_mode(self._handle)) == ENABLED

    @property
    def is_display_active(self) -> bool:
        """Whether a display is initialized on the device (e.g. an X server uses it)."""
        return int(nvml.device_get_display_active(self._handle)) == ENABLED

    # Events
    def register_events(self, events: EventType | str | list[EventType | str]) -> DeviceEvents:
        """Starts recording ``events`` on this device (Linux); wait on the result.

        TypeError for anything but event types, their strings, or a list of them.
        """
        return DeviceEvents(self._handle, events)

    def get_supported_event_types(self) -> list[EventType]:
        """The event types this device can report."""
        mask = int(nvml.device_get_supported_event_types(self._handle))
        return event_types(mask)

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
        return FieldValues(nvml.device_get_field_values(self._handle, as_field_ids(field_ids)))

    def clear_field_values(self, field_ids: list[int | tuple[int, int]]) -> None:
        """Resets the counters of several fields."""
        ids = as_field_ids(field_ids)
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
        return None if pstate == PSTATE_UNKNOWN else pstate

    @property
    def dynamic_pstates_info(self) -> GpuDynamicPstatesInfo:
        """Performance monitor samples, one per utilization domain."""
        return GpuDynamicPstatesInfo(nvml.device_get_dynamic_pstates_info(self._handle))

    @property
    def supported_pstates(self) -> list[int]:
        """The performance states the device supports, 0 (fastest) to 15."""
        return [int(p) for p in nvml.device_get_supported_performance_states(self._handle) if int(p) != PSTATE_UNKNOWN]

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


# EventData (of _events, below this module) makes the Device of each event's handle with this.
_events.bind_device(Device._from_handle)


def _check_device(device: Any, what: str) -> int:
    if not isinstance(device, Device):
        raise TypeError(f"{what} must be a cuda.core.system.Device, got {type(device).__name__}")
    return device._handle


def get_topology_common_ancestor(device1: Device, device2: Device) -> GpuTopologyLevel:
    """The closest topology level that connects ``device1`` and ``device2`` (Linux)."""
    level = int(
        nvml.device_get_topology_common_ancestor(_check_device(device1, "device1"), _check_device(device2, "device2"))
    )
    return _TOPOLOGY_LEVELS[level]


def get_p2p_status(device1: Device, device2: Device, index: GpuP2PCapsIndex | str) -> GpuP2PStatus:
    """Whether peer-to-peer capability ``index`` works between ``device1`` and ``device2``."""
    caps = to_nvml(_GPU_P2P_CAPS_INDEX_MAPPING, GpuP2PCapsIndex, index, "index")
    status = int(nvml.device_get_p2p_status(_check_device(device1, "device1"), _check_device(device2, "device2"), caps))
    return _P2P_STATUSES.get(status, GpuP2PStatus.UNKNOWN)
