# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's links: its PCI attributes and PCIe link (PciInfo) and its
NVLinks (NvlinkInfo). Part of cuda.core.system._device, where users import them (and whose
__module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import nvml_member, require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system._conversions import ENABLED  # noqa: E402

if TYPE_CHECKING:
    from cuda.core.system._device import Device

_NVLINK_VERSION_MAPPING = {
    nvml_member(nvml.NvlinkVersion, f"VERSION_{major}_{minor}"): (major, minor)
    for major, minor in ((1, 0), (2, 0), (2, 2), (3, 0), (3, 1), (4, 0), (5, 0), (6, 0))
    if nvml_member(nvml.NvlinkVersion, f"VERSION_{major}_{minor}", None) is not None
}
_NVLINK_VERSIONS = {int(member): version for member, version in _NVLINK_VERSION_MAPPING.items()}


class _NvlinkInfoMeta(type):
    @property
    def max_links(cls) -> int:
        """NVML's static maximum number of NVLinks (deprecated: use Device.get_nvlink_count())."""
        warnings.warn(
            "NvlinkInfo.max_links is deprecated: use Device.get_nvlink_count(), the device's own count",
            DeprecationWarning,
            stacklevel=2,
        )
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
        return int(nvml.device_get_nvlink_state(self._handle, self._link)) == ENABLED


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
        return int(nvml.device_get_pcie_throughput(self._handle, nvml_member(nvml.PcieUtilCounter, "RX_BYTES")))

    @property
    def tx_throughput(self) -> int:
        """PCIe transmission throughput over the last 20 ms, in KB/s."""
        return int(nvml.device_get_pcie_throughput(self._handle, nvml_member(nvml.PcieUtilCounter, "TX_BYTES")))

    @property
    def replay_counter(self) -> int:
        """The PCIe replay counter."""
        return int(nvml.device_get_pcie_replay_counter(self._handle))
