# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What a cuda.core.system.Device is made of and what runs on it: engine and slice counts
(DeviceAttributes), Multi-Instance GPU partitioning (MigInfo), the processes using it
(ProcessInfo), how busy it is (Utilization) and pending repairs (RepairStatus). Part of
cuda.core.system._device, where users import them (and whose __module__ they carry, as in
NVIDIA's cuda.core)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cuda.core.system._nvml_support import require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system import _nvml_context  # noqa: E402
from cuda.core.system._conversions import ENABLED  # noqa: E402

if TYPE_CHECKING:
    from cuda.core.system._device import Device


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


class MigInfo:
    """Multi-Instance GPU (MIG) information of a device."""

    def __init__(self, device: Device) -> None:
        self._device = device
        self._handle = device._handle

    def _device_at(self, handle: int) -> Device:
        """The Device of an NVML handle NVML gave out for this one (its parent, its MIG devices),
        made by the class of the device this was built for: Device is defined above this module."""
        return type(self._device)._from_handle(handle)

    @property
    def is_mig_device(self) -> bool:
        """Whether this handle is a MIG device (a compute instance), not a whole GPU."""
        return bool(nvml.device_is_mig_device_handle(self._handle))

    @property
    def mode(self) -> bool:
        """Whether MIG mode is enabled now; settable (a change may need a GPU reset)."""
        return int(nvml.device_get_mig_mode(self._handle)[0]) == ENABLED

    @mode.setter
    def mode(self, mode: bool) -> None:
        nvml.device_set_mig_mode(self._handle, ENABLED if mode else 0)

    @property
    def pending_mode(self) -> bool:
        """Whether MIG mode will be enabled after the next reset."""
        return int(nvml.device_get_mig_mode(self._handle)[1]) == ENABLED

    @property
    def device_count(self) -> int:
        """The most MIG devices this GPU can hold (0 without MIG)."""
        return int(nvml.device_get_max_mig_device_count(self._handle))

    @property
    def parent(self) -> Device:
        """The GPU this MIG device belongs to."""
        return self._device_at(nvml.device_get_device_handle_from_mig_device_handle(self._handle))

    def get_device_by_index(self, index: int) -> Device:
        """The MIG device at ``index`` (0 to device_count - 1) of this GPU."""
        return self._device_at(nvml.device_get_mig_device_handle_by_index(self._handle, index))

    def get_all_devices(self) -> Iterable[Device]:
        """The MIG devices that exist now on this GPU."""
        devices = []
        for index in range(self.device_count):
            try:
                devices.append(self.get_device_by_index(index))
            except nvml.NotFoundError:  # a slot without a compute instance
                continue
        return devices


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
            raise _nvml_context._error(
                nvml.NotSupportedError,
                int(nvml.Return.ERROR_NOT_SUPPORTED),
                f"{what} is defined for processes on MIG devices only",
            )
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
