# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system's NVML side on a real GPU, checked against independent sources: the CUDA
driver (through cuda.core.Device) and nvidia-smi. Skips without NVML bindings (cuda-bindings
13.0 has none) or without a driver.

Queries a product may not support (NotSupportedError) are tolerated where NVML documents
them as optional; the H200 supports all checked here except fans and coolers.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def system(cuda_core):
    if not cuda_core.system.CUDA_BINDINGS_NVML_IS_COMPATIBLE:
        pytest.skip("the installed cuda-bindings has no NVML bindings")
    return cuda_core.system


@pytest.fixture(scope="module")
def devices(system):
    return list(system.Device.get_all_devices())


@pytest.fixture(scope="module")
def nvml_device(devices):
    return devices[0]


def smi(field: str) -> list[str]:
    """nvidia-smi's value of ``field`` for each GPU, or a skip where nvidia-smi is missing."""
    if shutil.which("nvidia-smi") is None:
        pytest.skip("nvidia-smi is not installed")
    out = subprocess.run(
        ["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader,nounits"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def optional(system, read):
    """read(), or a skip where this product does not support it."""
    try:
        return read()
    except system.NotSupportedError as err:
        pytest.skip(f"not supported on this GPU: {err}")


def unless_unsupported(system, read):
    """read(), or None where this product (or a container) does not support it: for checks
    that should not end the test."""
    try:
        return read()
    except system.NotSupportedError:
        return None


def test_versions_and_branch(system) -> None:
    kmd = system.get_kernel_mode_driver_version()
    assert len(kmd) in (2, 3) and 400 <= kmd[0] < 1000
    assert ".".join(str(v) for v in kmd[:2]) == ".".join(str(int(v)) for v in smi("driver_version")[0].split(".")[:2])
    nvml_version = system.get_nvml_version()
    assert len(nvml_version) in (3, 4) and nvml_version[0] >= 10 and nvml_version[1] == kmd[0]
    branch = system.get_driver_branch()
    assert isinstance(branch, str) and branch


def test_devices_match_cuda(cuda_core, system, devices) -> None:
    assert system.Device.get_device_count() == system.get_num_devices() == len(devices)
    assert [d.index for d in devices] == list(range(len(devices)))
    for nvml_device in devices:
        cuda_device = nvml_device.to_cuda_device()
        assert isinstance(cuda_device, cuda_core.Device)
        assert cuda_device.uuid == nvml_device.uuid_without_prefix
        assert nvml_device.uuid == "GPU-" + cuda_device.uuid
        assert cuda_device.pci_bus_id.lower() == nvml_device.pci_info.bus_id[4:].lower()
        assert nvml_device.cuda_compute_capability == cuda_device.compute_capability
        assert cuda_device.to_system_device() == nvml_device
        assert system.Device(uuid=cuda_device.uuid) == nvml_device
        assert system.Device(pci_bus_id=nvml_device.pci_bus_id).index == nvml_device.index


def test_identity_matches_nvidia_smi(system, devices) -> None:
    names, uuids, serials = smi("name"), smi("uuid"), smi("serial")
    for nvml_device in devices:
        assert nvml_device.name == names[nvml_device.index]
        assert nvml_device.uuid == uuids[nvml_device.index]
        assert nvml_device.serial == serials[nvml_device.index]
        assert (
            isinstance(nvml_device.arch, system.typing.DeviceArch)
            and nvml_device.arch != system.typing.DeviceArch.UNKNOWN
        )
        assert isinstance(nvml_device.brand, str) and nvml_device.brand != "Unknown"
        for read, least in (
            (lambda: nvml_device.minor_number, 0),
            (lambda: nvml_device.module_id, 0),
            (lambda: nvml_device.numa_node_id, -1),
        ):
            value = unless_unsupported(system, read)
            assert value is None or value >= least
        assert isinstance(nvml_device.is_c2c_enabled, bool) and isinstance(
            nvml_device.is_persistence_mode_enabled, bool
        )
        assert isinstance(nvml_device.is_display_connected, bool) and isinstance(nvml_device.is_display_active, bool)


def test_memory_matches_nvidia_smi(system, devices) -> None:
    totals = smi("memory.total")  # MiB
    for nvml_device in devices:
        memory = nvml_device.memory_info
        assert memory.free + memory.used + memory.reserved == memory.total
        assert abs(memory.total / (1 << 20) - int(totals[nvml_device.index])) <= 0.02 * memory.total / (1 << 20)
        bar1 = nvml_device.bar1_memory_info
        assert bar1.free + bar1.used == bar1.total > 0
        # NVML's device attributes are MIG-oriented: not every GPU (or container) answers.
        sizes = unless_unsupported(
            system, lambda: (nvml_device.attributes.memory_size_mb, nvml_device.attributes.multiprocessor_count)
        )
        assert sizes is None or min(sizes) > 0


def test_pci_info(system, devices) -> None:
    for nvml_device in devices:
        pci = nvml_device.pci_info
        assert re.fullmatch(r"[0-9a-f]{8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]", pci.bus_id.lower())
        domain, bus, rest = pci.bus_id.split(":")
        assert (pci.domain, pci.bus, pci.device) == (int(domain, 16), int(bus, 16), int(rest[:2], 16))
        assert pci.vendor_id == 0x10DE
        assert 1 <= pci.current_link_generation <= pci.max_link_generation
        assert 1 <= pci.current_link_width <= 32 and pci.max_link_width >= 1
        assert pci.tx_throughput >= 0 and pci.rx_throughput >= 0 and pci.replay_counter >= 0


def test_clocks_and_pstates(system, nvml_device) -> None:
    typing = system.typing
    pstate = nvml_device.performance_state
    assert pstate is None or 0 <= pstate <= 15
    assert nvml_device.supported_pstates and all(0 <= p <= 15 for p in nvml_device.supported_pstates)
    for clock_type in typing.ClockType:
        clock = nvml_device.get_clock(clock_type)
        assert clock.get_max_mhz() > 0
        assert clock.get_current_mhz() >= 0
        if pstate is not None:
            low, high = clock.get_min_max_clock_of_pstate_mhz(pstate)
            assert 0 <= low <= high
    assert nvml_device.get_clock("sm").get_max_mhz() == int(smi("clocks.max.sm")[nvml_device.index])
    reasons = nvml_device.current_clock_event_reasons
    assert reasons and all(isinstance(r, typing.ClocksEventReasons) for r in reasons)
    assert len(nvml_device.dynamic_pstates_info) > 0


def test_temperature_and_utilization(system, nvml_device) -> None:
    temperature = nvml_device.temperature
    celsius = temperature.get_sensor()
    assert abs(celsius - int(smi("temperature.gpu")[nvml_device.index])) <= 5
    try:  # Ada and later may read thresholds through field values only
        assert temperature.get_threshold(system.typing.TemperatureThresholds.SLOWDOWN) > celsius
    except system.NotSupportedError:
        pass
    assert temperature.margin >= 0
    for sensor in optional(system, lambda: temperature.get_thermal_settings(system.typing.ThermalTarget.ALL)):
        assert isinstance(sensor.target, system.typing.ThermalTarget)
    utilization = nvml_device.utilization
    assert 0 <= utilization.gpu <= 100 and 0 <= utilization.memory <= 100


def test_field_values(system, nvml_device) -> None:
    typing = system.typing
    assert len(nvml_device.get_field_values([])) == 0
    values = nvml_device.get_field_values(
        [typing.FieldId.DEV_TOTAL_ENERGY_CONSUMPTION, (typing.FieldId.DEV_PCIE_REPLAY_COUNTER, 0)]
    )
    values.validate()
    assert [v.field_id for v in values] == [
        typing.FieldId.DEV_TOTAL_ENERGY_CONSUMPTION,
        typing.FieldId.DEV_PCIE_REPLAY_COUNTER,
    ]
    assert all(type(v) is int and v >= 0 for v in values.get_all_values())
    assert values[0].timestamp > 0 and values[0].latency_usec >= 0


def test_nvlinks(system, nvml_device) -> None:
    count = optional(system, nvml_device.get_nvlink_count)  # a GPU without NVLink answers "not supported"
    assert count >= 0 and len(list(nvml_device.get_nvlinks())) == count
    with pytest.raises(ValueError, match="NVLink number"):
        nvml_device.get_nvlink(count)
    for link in nvml_device.get_nvlinks():
        if link.state:
            assert link.version >= (1, 0)


def test_processes_include_this_one(cuda_core, system, nvml_device) -> None:
    cuda_device = nvml_device.to_cuda_device()
    cuda_device.set_current()
    cuda_device.allocate(
        1 << 20, stream=cuda_device.default_stream
    ).close()  # a context here, so NVML lists this process
    pids = [p.pid for p in nvml_device.compute_running_processes]
    if os.getpid() not in pids:
        pytest.skip("NVML does not list this process (a container's pid namespace)")
    assert "python" in system.get_process_name(os.getpid())


def test_affinity_and_topology(system, devices) -> None:
    for nvml_device in devices:
        cpus = nvml_device.get_cpu_affinity()
        assert cpus and set(cpus) <= set(range(max(cpus) + 1))
        assert isinstance(nvml_device.get_memory_affinity(system.typing.AffinityScope.SOCKET), list)
        assert nvml_device in system.Device.get_all_devices_with_cpu_affinity(cpus[0])
        for near in nvml_device.get_topology_nearest_gpus(system.typing.GpuTopologyLevel.SYSTEM):
            assert isinstance(near, system.Device)
    if len(devices) >= 2:
        level = system.get_topology_common_ancestor(devices[0], devices[1])
        assert isinstance(level, system.typing.GpuTopologyLevel)
        status = system.get_p2p_status(devices[0], devices[1], "read")
        assert isinstance(status, system.typing.GpuP2PStatus)


def test_mig_inforom_and_repair(system, nvml_device) -> None:
    mig = nvml_device.mig
    assert mig.is_mig_device is False
    assert isinstance(optional(system, lambda: mig.mode), bool)
    status = nvml_device.repair_status
    assert isinstance(status.channel_repair_pending, bool) and isinstance(status.tpc_repair_pending, bool)
    inforom = nvml_device.inforom
    assert optional(system, lambda: inforom.image_version) and inforom.get_version("oem")
    inforom.validate()


def test_events_time_out(system, nvml_device) -> None:
    supported = nvml_device.get_supported_event_types()
    assert all(isinstance(e, system.typing.EventType) for e in supported)
    for events in (["xid_critical_error"], system.typing.EventType.XID_CRITICAL_ERROR, []):
        registered = nvml_device.register_events(events)
        with pytest.raises(system.TimeoutError):
            registered.wait(timeout_ms=200)


def test_context_in_a_fresh_process(system) -> None:
    probe = (
        "from cuda.core.system import _nvml_context as c; c.initialize(); c.validate(); "
        "print(c._get_nvml_state(), c.is_initialized())"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "True"]
