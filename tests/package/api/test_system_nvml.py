# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The NVML side of cuda.core.system as NVIDIA's cuda.core 1.2.2 declares it: its names and
signatures, where cuda-bindings has no NVML bindings the names absent (as NVIDIA's) and the
NVML modules and functions raising one error naming the cuda-bindings to install, and what it does
without a driver (NVML's data classes are checked over structs made by the bindings).

cuda-bindings 12.9.10 (the CUDA 12 environment) has NVML bindings and 13.0.3 (CUDA 13) has
not, so each major sees one side: the tests of the other side skip.
"""

from __future__ import annotations

import array
import inspect
import subprocess
import sys
import warnings

import pytest
from nvidia_names import NVML_EXCEPTIONS, SYSTEM_TYPING_NAMES

EMPTY = inspect.Parameter.empty

SYSTEM_DRIVER_NAMES = [
    "get_driver_branch",
    "get_kernel_mode_driver_version",
    "get_user_mode_driver_version",
    "get_nvml_version",
    "get_num_devices",
    "get_process_name",
    "CUDA_BINDINGS_NVML_IS_COMPATIBLE",
]
DEVICE_NAMES = ["Device", "get_p2p_status", "get_topology_common_ancestor", "NvlinkInfo"]
NVML_NAMES = DEVICE_NAMES + ["register_events"] + list(NVML_EXCEPTIONS)

# The public members of each class of NVIDIA's system/_device.pyi and _system_events.pyi.
DEVICE_MODULE_MEMBERS = {
    "ClockOffsets": ["clock_offset_mhz", "max_offset_mhz", "min_offset_mhz"],
    "ClockInfo": [
        "get_current_mhz",
        "get_max_customer_boost_mhz",
        "get_max_mhz",
        "get_min_max_clock_of_pstate_mhz",
        "get_offsets",
    ],
    "CoolerInfo": ["signal_type", "target"],
    "DeviceAttributes": [
        "compute_instance_slice_count",
        "gpu_instance_slice_count",
        "memory_size_mb",
        "multiprocessor_count",
        "shared_copy_engine_count",
        "shared_decoder_count",
        "shared_encoder_count",
        "shared_jpeg_count",
        "shared_ofa_count",
    ],
    "EventData": ["compute_instance_id", "device", "event_data", "event_type", "gpu_instance_id"],
    "DeviceEvents": ["wait"],
    "FanInfo": ["control_policy", "min_max_speed", "set_default_speed", "speed", "speed_rpm", "target_speed"],
    "FieldValue": ["field_id", "latency_usec", "scope_id", "timestamp", "value"],
    "FieldValues": ["get_all_values", "validate"],
    "InforomInfo": [
        "bbx_flush_time",
        "board_part_number",
        "configuration_checksum",
        "get_version",
        "image_version",
        "validate",
    ],
    "MemoryInfo": ["free", "reserved", "total", "used"],
    "BAR1MemoryInfo": ["free", "total", "used"],
    "MigInfo": [
        "device_count",
        "get_all_devices",
        "get_device_by_index",
        "is_mig_device",
        "mode",
        "parent",
        "pending_mode",
    ],
    "NvlinkInfo": ["state", "version"],
    "PciInfo": [
        "base_class",
        "bus",
        "bus_id",
        "current_link_generation",
        "current_link_width",
        "device",
        "device_id",
        "domain",
        "link_generation",
        "max_link_generation",
        "max_link_width",
        "replay_counter",
        "rx_throughput",
        "sub_class",
        "subsystem_id",
        "tx_throughput",
        "vendor_id",
    ],
    "GpuDynamicPstatesUtilization": ["dec_threshold", "inc_threshold", "is_present", "percentage"],
    "GpuDynamicPstatesInfo": [],
    "ProcessInfo": ["compute_instance_id", "gpu_instance_id", "pid", "used_gpu_memory"],
    "RepairStatus": ["channel_repair_pending", "tpc_repair_pending"],
    "ThermalSensor": ["controller", "current_temp", "default_max_temp", "default_min_temp", "target"],
    "ThermalSettings": [],
    "Temperature": ["get_sensor", "get_thermal_settings", "get_threshold", "margin"],
    "Utilization": ["gpu", "memory"],
    "Device": [
        "addressing_mode",
        "arch",
        "attributes",
        "bar1_memory_info",
        "brand",
        "clear_cpu_affinity",
        "clear_field_values",
        "compute_running_processes",
        "cooler",
        "cuda_compute_capability",
        "current_clock_event_reasons",
        "dynamic_pstates_info",
        "get_all_devices",
        "get_all_devices_with_cpu_affinity",
        "get_clock",
        "get_cpu_affinity",
        "get_device_count",
        "get_fan",
        "get_field_values",
        "get_memory_affinity",
        "get_nvlink",
        "get_nvlink_count",
        "get_nvlinks",
        "get_supported_event_types",
        "get_topology_nearest_gpus",
        "index",
        "inforom",
        "is_auto_boosted_clocks_enabled",
        "is_c2c_enabled",
        "is_display_active",
        "is_display_connected",
        "is_persistence_mode_enabled",
        "memory_info",
        "mig",
        "minor_number",
        "module_id",
        "name",
        "num_fans",
        "numa_node_id",
        "pci_bus_id",
        "pci_info",
        "performance_state",
        "register_events",
        "repair_status",
        "serial",
        "set_cpu_affinity",
        "supported_clock_event_reasons",
        "supported_pstates",
        "temperature",
        "to_cuda_device",
        "utilization",
        "uuid",
        "uuid_without_prefix",
    ],
}
EVENTS_MODULE_MEMBERS = {
    "SystemEvent": ["device", "event_type", "gpu_id"],
    "SystemEvents": [],
    "RegisteredSystemEvents": ["wait"],
}


def parameters(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


@pytest.fixture(scope="module")
def system(cuda_core):
    return cuda_core.system


@pytest.fixture(scope="module")
def with_nvml(system):
    if not system.CUDA_BINDINGS_NVML_IS_COMPATIBLE:
        pytest.skip("the installed cuda-bindings has no NVML bindings")


@pytest.fixture(scope="module")
def without_nvml(system):
    if system.CUDA_BINDINGS_NVML_IS_COMPATIBLE:
        pytest.skip("the installed cuda-bindings has NVML bindings: the missing-NVML error cannot be seen here")


@pytest.fixture(scope="module")
def nvml(with_nvml):
    from cuda.bindings import nvml

    return nvml


def test_all_is_nvidias(system) -> None:
    expected = SYSTEM_DRIVER_NAMES + (NVML_NAMES if system.CUDA_BINDINGS_NVML_IS_COMPATIBLE else [])
    assert sorted(system.__all__) == sorted(expected)
    assert len(system.__all__) == (44 if system.CUDA_BINDINGS_NVML_IS_COMPATIBLE else 7)
    assert set(SYSTEM_TYPING_NAMES) <= set(system.typing.__all__)


def test_import_cuda_core_leaves_nvml_unloaded(cuda_core) -> None:
    """NVML's bindings load at the first NVML name, not with cuda.core, cuda.core.system or its typing."""
    probe = (
        "import sys, cuda.core, cuda.core.system, cuda.core.system.typing; print('cuda.bindings.nvml' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False"]


def test_typing_values(system) -> None:
    typing = system.typing
    assert typing.ClockType("memory") is typing.ClockType.MEMORY
    assert typing.GpuP2PStatus.CHIPSET_NOT_SUPPORTED == "chipset not supported"
    assert typing.FanControlPolicy.TEMPERATURE_CONTROLLED == "temperature_controlled"
    assert [m.value for m in typing.SystemEventType] == ["unbind", "bind"]
    assert len(typing.EventType) == 15 and len(typing.ThermalController) == 18 and len(typing.ThermalTarget) == 9
    assert all(isinstance(member, str) for name in SYSTEM_TYPING_NAMES for member in getattr(typing, name))


# --- Without NVML bindings: one ImportError, the driver side unharmed -------------------------------------


@pytest.mark.parametrize("name", NVML_NAMES)
def test_nvml_names_are_not_attributes(system, without_nvml, name) -> None:
    """As in NVIDIA's cuda.core: hasattr is False (tab completion, pydoc and getmembers carry on),
    and reading one says which cuda-bindings would define it."""
    assert not hasattr(system, name) and name not in dir(system)
    with pytest.raises(AttributeError, match=r"has no attribute.*requires NVML support.*cuda-bindings") as raised:
        getattr(system, name)
    assert raised.value.name == name


@pytest.mark.parametrize(
    "module",
    [
        "_device",
        "_system_events",
        "_nvml_context",
        "exceptions",
        "_clocks",
        "_conversions",
        "_device_info",
        "_events",
        "_fields",
        "_memory",
        "_pci_nvlink",
        "_thermal",
    ],
)
def test_nvml_modules_raise_the_import_error(without_nvml, module) -> None:
    import importlib

    with pytest.raises(ImportError, match=r"requires NVML support.*pip install"):
        importlib.import_module(f"cuda.core.system.{module}")


def test_exceptions_is_no_attribute_and_its_import_names_the_bindings(system, without_nvml) -> None:
    assert not hasattr(system, "exceptions")
    with pytest.raises(AttributeError, match=r"cuda.core.system.exceptions requires NVML support"):
        system.exceptions  # noqa: B018
    with pytest.raises(ImportError, match=r"cuda.core.system.exceptions requires NVML support"):
        import cuda.core.system.exceptions  # noqa: F401


def test_from_import_of_an_nvml_name_fails(without_nvml) -> None:
    """Python's own ImportError, as with NVIDIA's cuda.core: the name is not there."""
    with pytest.raises(ImportError, match="cannot import name 'Device'"):
        from cuda.core.system import Device  # noqa: F401
    from cuda.core.system import typing

    assert not hasattr(typing, "DeviceArch") and "DeviceArch" not in dir(typing)
    with pytest.raises(AttributeError, match="DeviceArch requires NVML support"):
        typing.DeviceArch  # noqa: B018
    assert "DeviceArch" not in typing.__all__


@pytest.mark.parametrize(
    "function, args",
    [
        ("get_kernel_mode_driver_version", ()),
        ("get_nvml_version", ()),
        ("get_driver_branch", ()),
        ("get_process_name", (1,)),
    ],
)
def test_nvml_functions_raise_runtime_and_import_error(system, without_nvml, function, args) -> None:
    """NVIDIA's tests expect a RuntimeError matching "requires NVML support"; it is the same ImportError."""
    with pytest.raises(RuntimeError, match="requires NVML support") as raised:
        getattr(system, function)(*args)
    assert isinstance(raised.value, ImportError)


def test_driver_side_works_without_nvml(system, without_nvml) -> None:
    from cuda.core import DriverNotFoundError

    try:
        count = system.get_num_devices()
    except DriverNotFoundError:
        return  # no driver here: the driver's own error, not the NVML one
    assert isinstance(count, int) and count >= 0


# --- With NVML bindings: names, signatures ------------------------------------------------------------------


def test_exceptions_are_nvmls_own(system, nvml) -> None:
    from cuda.core.system import exceptions

    assert system.exceptions is exceptions and "exceptions" in dir(system)  # an attribute, as in NVIDIA's
    assert sorted(exceptions.__all__) == sorted(NVML_EXCEPTIONS)
    for name in NVML_EXCEPTIONS:
        assert getattr(system, name) is getattr(nvml, name) is getattr(exceptions, name)
        assert issubclass(getattr(system, name), nvml.NvmlError)


def test_module_members_match_nvidias_stubs(with_nvml) -> None:
    from cuda.core.system import _device, _system_events

    for module, members in ((_device, DEVICE_MODULE_MEMBERS), (_system_events, EVENTS_MODULE_MEMBERS)):
        for class_name, names in members.items():
            cls = getattr(module, class_name)
            missing = [name for name in names if not hasattr(cls, name)]
            assert not missing, f"{class_name} lacks {missing}"
    assert _device.__all__ == DEVICE_NAMES and _system_events.__all__ == ["register_events"]
    assert issubclass(_device.BAR1MemoryInfo, _device.MemoryInfo)


def test_classes_are_of_nvidias_module(with_nvml) -> None:
    """Written by topic in modules of their own, the classes are cuda.core.system._device's, as
    in NVIDIA's cuda.core: their __module__ says so, and pickle finds them there."""
    import pickle

    from cuda.core.system import _device

    for name in [*DEVICE_MODULE_MEMBERS, "_NvlinkInfo", "_NvlinkInfoMeta"]:
        cls = getattr(_device, name)
        assert cls.__module__ == "cuda.core.system._device", name
        assert pickle.loads(pickle.dumps(cls)) is cls, name


def test_signatures_match_nvidias_stubs(system, with_nvml) -> None:
    from cuda.core.system import _device, _nvml_context, _system_events, typing

    assert parameters(system.Device.__init__) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("index", None, "KEYWORD_ONLY"),
        ("uuid", None, "KEYWORD_ONLY"),
        ("pci_bus_id", None, "KEYWORD_ONLY"),
    ]
    assert parameters(system.Device.get_memory_affinity)[1][1] == typing.AffinityScope.NODE
    assert parameters(system.Device.get_cpu_affinity)[1][1] == typing.AffinityScope.NODE
    assert parameters(system.Device.get_fan)[1][:2] == ("fan", 0)
    assert [p[:2] for p in parameters(_device.DeviceEvents.wait)] == [("self", EMPTY), ("timeout_ms", 0)]
    assert [p[:2] for p in parameters(_system_events.RegisteredSystemEvents.wait)] == [
        ("self", EMPTY),
        ("timeout_ms", 0),
        ("buffer_size", 1),
    ]
    assert parameters(_device.ClockInfo.get_current_mhz)[1][:2] == ("clock_id", typing.ClockId.CURRENT)
    assert [p[0] for p in parameters(system.get_p2p_status)] == ["device1", "device2", "index"]
    assert [p[0] for p in parameters(system.get_topology_common_ancestor)] == ["device1", "device2"]
    assert [p[0] for p in parameters(system.register_events)] == ["events"]
    for name in ("_get_nvml_state", "_initialize", "initialize", "is_initialized", "validate"):
        assert callable(getattr(_nvml_context, name)), name


def test_device_arch_and_field_id_come_from_nvml(system, nvml) -> None:
    typing = system.typing
    assert {"DeviceArch", "FieldId"} <= set(typing.__all__)
    assert typing.FieldId is nvml.FieldId
    assert typing.DeviceArch.KEPLER < typing.DeviceArch.AMPERE < typing.DeviceArch.BLACKWELL
    assert int(typing.DeviceArch.HOPPER) == int(nvml.DeviceArch.HOPPER)


# --- With NVML bindings: behaviour that needs no driver -----------------------------------------------------


@pytest.mark.parametrize(
    "words, bits",
    [
        ([0x0FFFFF00000FFFFF, 0], list(range(20)) + list(range(40, 60))),
        ([0, (1 << 64) - 1], list(range(64, 128))),
        ([5], [0, 2]),
        ([], []),
    ],
)
def test_unpack_bitmask(with_nvml, words, bits) -> None:
    from cuda.core.system import _device

    assert _device._unpack_bitmask(array.array("Q", words)) == bits


def test_unpack_bitmask_takes_arrays_only(with_nvml) -> None:
    from cuda.core.system import _device

    with pytest.raises(TypeError, match="64-bit bitmask words"):
        _device._unpack_bitmask(1)


def test_device_takes_exactly_one_selector(system, with_nvml) -> None:
    with pytest.raises(ValueError, match="exactly one of index=, uuid= or pci_bus_id=; got none"):
        system.Device()
    with pytest.raises(ValueError, match="got index, uuid"):
        system.Device(index=0, uuid="GPU-0")
    with pytest.raises(TypeError):
        system.Device(0)  # keyword-only, as in NVIDIA's


def test_enum_arguments_are_checked_before_nvml(system, with_nvml) -> None:
    from cuda.core.system import _device

    with pytest.raises(ValueError, match="clock_type must be one of 'graphics', 'sm', 'memory', 'video'"):
        _device.ClockInfo(0, "bogus")
    with pytest.raises(TypeError, match="events must be a EventType"):
        _device.DeviceEvents(0, 0)
    with pytest.raises(ValueError, match="events must be one of"):
        _device.DeviceEvents(0, ["no_such_event"])
    with pytest.raises(TypeError, match="events must be a SystemEventType"):
        system.register_events(0)
    with pytest.raises(ValueError, match="pstate must be from 0"):
        _device.ClockInfo(0, "sm").get_min_max_clock_of_pstate_mhz(16)
    with pytest.raises(TypeError, match="must be a cuda.core.system.Device"):
        system.get_topology_common_ancestor(0, 1)


def test_max_links_is_deprecated(system, nvml) -> None:
    with pytest.warns(DeprecationWarning, match="max_links"):
        assert system.NvlinkInfo.max_links == nvml.NVLINK_MAX_LINKS


def test_memory_info_over_nvml_structs(nvml) -> None:
    from cuda.core.system import _device

    memory = nvml.Memory_v2()
    memory.free, memory.used, memory.reserved, memory.total = 1, 2, 3, 6
    info = _device.MemoryInfo(memory)
    assert (info.free, info.used, info.reserved, info.total) == (1, 2, 3, 6)
    bar1 = nvml.BAR1Memory()
    bar1.bar1_free, bar1.bar1_used, bar1.bar1_total = 5, 4, 9
    info = _device.BAR1MemoryInfo(bar1)
    assert (info.free, info.used, info.total) == (5, 4, 9)


def test_field_values_over_nvml_structs(system, nvml) -> None:
    from cuda.core.system import _device

    raw = nvml.FieldValue(1)
    raw[0].field_id = int(nvml.FieldId.DEV_PCIE_REPLAY_COUNTER)
    raw[0].value_type = int(nvml.ValueType.UNSIGNED_LONG_LONG)
    raw[0].nvml_return = 0
    raw[0].value.ull_val = 7
    values = _device.FieldValues(raw)
    assert len(values) == 1
    assert values[0].field_id == system.typing.FieldId.DEV_PCIE_REPLAY_COUNTER
    assert values[0].value == 7 and type(values[0].value) is int
    assert values.get_all_values() == [7]
    values.validate()
    with pytest.raises(TypeError, match="indices must be integers"):
        values["invalid_index"]
    with pytest.raises(IndexError):
        values[1]


def test_pci_cooler_and_event_data_over_nvml_structs(system, nvml) -> None:
    from cuda.core.system import _device

    typing = system.typing
    pci = nvml.PciInfoExt_v1()
    pci.pci_device_id = 0x233510DE
    assert (_device.PciInfo(pci, 0).vendor_id, _device.PciInfo(pci, 0).device_id) == (0x10DE, 0x2335)
    cooler = nvml.CoolerInfo_v1()
    from cuda.core.system._nvml_support import nvml_member

    cooler.signal_type = int(nvml_member(nvml.CoolerControl, "VARIABLE"))  # THERMAL_COOLER_SIGNAL_VARIABLE in 13.2-13.4
    cooler.target = int(nvml_member(nvml.CoolerTarget, "GPU_RELATED"))
    info = _device.CoolerInfo(cooler)
    assert info.signal_type is typing.CoolerControl.VARIABLE
    assert info.target == [typing.CoolerTarget.GPU, typing.CoolerTarget.MEMORY, typing.CoolerTarget.POWER_SUPPLY]
    event = nvml.EventData()
    event.event_type, event.gpu_instance_id = int(nvml.EventType.XID_CRITICAL_ERROR), 3
    data = _device.EventData(event)
    assert (data.event_type, data.gpu_instance_id) == (typing.EventType.XID_CRITICAL_ERROR, 3)
    event.event_type = int(nvml.EventType.PSTATE)
    with pytest.raises(ValueError, match="XID_CRITICAL_ERROR events only"):
        data.compute_instance_id  # noqa: B018


def test_event_data_device_is_a_device_of_its_handle(system, nvml) -> None:
    """EventData, written below Device, makes the event's Device with the constructor that
    cuda.core.system._device hands it: a system.Device of NVML's handle, as NVIDIA's does."""
    from cuda.core.system import _device

    event = nvml.EventData()
    event.device_ = 0x1234
    device = _device.EventData(event).device
    assert type(device) is system.Device and device == system.Device._from_handle(0x1234)


def test_thermal_and_pstates_over_nvml_structs(system, nvml) -> None:
    from cuda.core.system import _device

    settings = nvml.GpuThermalSettings()
    settings.count = 2
    sensors = list(_device.ThermalSettings(settings))
    from cuda.core.system._nvml_support import struct_array

    exposed = len(struct_array(settings.sensor))  # 3; 1 where the bindings show only the first
    assert exposed >= 1
    assert len(sensors) == min(2, exposed) and all(isinstance(s, _device.ThermalSensor) for s in sensors)
    assert isinstance(sensors[0].target, system.typing.ThermalTarget)
    pstates = _device.GpuDynamicPstatesInfo(nvml.GpuDynamicPstatesInfo())
    assert len(pstates) == len(struct_array(nvml.GpuDynamicPstatesInfo().utilization)) >= 1
    assert all(isinstance(u.is_present, bool) and isinstance(u.percentage, int) for u in pstates)


def test_system_events_over_nvml_structs(system, nvml) -> None:
    from cuda.core.system import _system_events

    data = nvml.SystemEventData_v1(2)
    data[0].event_type, data[0].gpu_id = int(nvml.SystemEventType.GPU_DRIVER_UNBIND), 0x3B00
    events = _system_events.SystemEvents(data)
    assert len(events) == 2 and events[0].event_type is system.typing.SystemEventType.UNBIND
    assert _system_events._pci_bus_id_from_gpu_id(0x3B00) == "00000000:3b:00.0"
    assert _system_events._pci_bus_id_from_gpu_id(1 << 16 | 0x41 << 8 | 1 << 3 | 2) == "00000001:41:01.2"


def test_clock_event_reasons_from_a_bitmask(system, nvml) -> None:
    from cuda.core.system import _device

    reasons = system.typing.ClocksEventReasons
    assert _device.Device._reasons(0) == [reasons.NONE]
    mask = int(nvml.ClocksEventReasons.EVENT_REASON_GPU_IDLE) | int(nvml.ClocksEventReasons.EVENT_REASON_SW_POWER_CAP)
    assert _device.Device._reasons(mask) == [reasons.GPU_IDLE, reasons.SW_POWER_CAP]


def test_without_a_driver_nvml_queries_name_the_driver(system, nvml, no_driver) -> None:
    """No NVML library: the loader's error names the driver; the context is then disabled."""
    from cuda.core.system import _nvml_context

    with pytest.raises(RuntimeError, match="NVIDIA display driver"):
        system.Device(index=0)
    with pytest.raises(RuntimeError, match="NVIDIA display driver"):
        system.Device.get_device_count()
    with pytest.raises(RuntimeError, match="NVIDIA display driver"):
        system.get_driver_branch()
    assert _nvml_context._get_nvml_state() == _nvml_context.DISABLED_LIBRARY_NOT_FOUND
    assert not _nvml_context.is_initialized()
    with pytest.raises(system.LibraryNotFoundError, match="libnvidia-ml"):
        _nvml_context.validate()


def test_state_starts_uninitialized_in_a_fresh_process(with_nvml) -> None:
    probe = "from cuda.core.system import _nvml_context as c; print(c._get_nvml_state(), c.is_initialized())"
    with warnings.catch_warnings():
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False"]
