# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's memory: device and BAR1 memory (MemoryInfo, BAR1MemoryInfo) and
the InfoROM, the board's non-volatile memory (InforomInfo). Part of cuda.core.system._device,
where users import them (and whose __module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system._conversions import by_name, to_nvml  # noqa: E402
from cuda.core.system.typing import InforomObject  # noqa: E402

if TYPE_CHECKING:
    from cuda.core.system._device import Device

_INFOROM_OBJECT_MAPPING = by_name(InforomObject, nvml.InforomObject)


class InforomInfo:
    """A device's InfoROM: the non-volatile memory holding its configuration and counts."""

    def __init__(self, device: Device) -> None:
        self._handle = device._handle

    def get_version(self, inforom: InforomObject | str) -> str:
        """The version of InfoROM object ``inforom``."""
        return nvml.device_get_inforom_version(
            self._handle, to_nvml(_INFOROM_OBJECT_MAPPING, InforomObject, inforom, "inforom")
        )

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
