"""cuda.core.Device: one CUDA device, and its primary context."""

import threading
from collections import namedtuple

cimport cuda.bindings.cydriver as cydriver
from cuda.core._context import Context
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, device_count, ensure_driver

# compat_device_get_uuid: cuDeviceGetUuid on 13, cuDeviceGetUuid_v2 on 12.
include "driver_compat.pxi"

__all__ = ['Device']

cdef extern from "uuid_format.hpp" nogil:
    void cuda_core_format_uuid(const unsigned char* bytes, char* out)

ComputeCapability = namedtuple("ComputeCapability", ("major", "minor"))

# DeviceProperties attribute -> the driver's CUdevice_attribute, read on first access.
_PROPERTY_ATTRIBUTES = {
    "multiprocessor_count": cydriver.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    "max_threads_per_block": cydriver.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
    "max_threads_per_multiprocessor": cydriver.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
    "max_blocks_per_multiprocessor": cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
    "max_block_dim_x": cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
    "max_block_dim_y": cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
    "max_block_dim_z": cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
    "max_grid_dim_x": cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
    "max_grid_dim_y": cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
    "max_grid_dim_z": cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    "max_shared_memory_per_block": cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
    "max_shared_memory_per_block_optin": cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
    "max_shared_memory_per_multiprocessor": cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
    "max_registers_per_block": cydriver.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
    "max_registers_per_multiprocessor": cydriver.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
    "total_constant_memory": cydriver.CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
    "warp_size": cydriver.CU_DEVICE_ATTRIBUTE_WARP_SIZE,
    "clock_rate": cydriver.CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
    "memory_clock_rate": cydriver.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
    "global_memory_bus_width": cydriver.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
    "l2_cache_size": cydriver.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
    "compute_capability_major": cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    "compute_capability_minor": cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    "async_engine_count": cydriver.CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
    "concurrent_kernels": cydriver.CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS,
    "integrated": cydriver.CU_DEVICE_ATTRIBUTE_INTEGRATED,
    "can_map_host_memory": cydriver.CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
    "ecc_enabled": cydriver.CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
    "pci_bus_id": cydriver.CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
    "pci_device_id": cydriver.CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID,
    "pci_domain_id": cydriver.CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
    "unified_addressing": cydriver.CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
    "managed_memory": cydriver.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
    "concurrent_managed_access": cydriver.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
    "memory_pools_supported": cydriver.CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
    "cooperative_launch": cydriver.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH,
}

# One Device object per device per thread, as in NVIDIA's cuda.core.
_per_thread = threading.local()


cdef int _attribute(cydriver.CUdevice_attribute attribute, cydriver.CUdevice device) except? -1:
    cdef int value = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&value, attribute, device))
    return value


class DeviceProperties:
    """The driver's attributes of one device, each read once on first access:
    ``multiprocessor_count``, ``max_threads_per_block``, ``max_shared_memory_per_block``,
    ``warp_size``, ``clock_rate`` and ``memory_clock_rate`` (kHz), ``global_memory_bus_width``
    (bits), ``l2_cache_size`` (bytes), and the rest of the names in ``dir()``."""

    __slots__ = ("_device_id", "_values")

    def __init__(self, device_id: int) -> None:
        self._device_id = device_id
        self._values = {}

    def __getattr__(self, name: str) -> int:
        attribute = _PROPERTY_ATTRIBUTES.get(name)
        if attribute is None:
            raise AttributeError(f"DeviceProperties has no attribute {name!r}")
        if name not in self._values:
            self._values[name] = _attribute(attribute, self._device_id)
        return self._values[name]

    def __dir__(self) -> list[str]:
        return sorted(_PROPERTY_ATTRIBUTES)

    def __repr__(self) -> str:
        return f"<DeviceProperties of device {self._device_id}>"


class Device:
    """A CUDA device. ``Device()`` is the current context's device, or device 0.
    There is one Device object per device per thread."""

    __slots__ = ("_device_id", "_primary_context", "_properties", "_memory_resource", "__weakref__")

    def __new__(cls, device_id: int | None = None) -> "Device":
        ensure_driver()
        if device_id is None:
            device_id = max(current_device(), 0)
        count = device_count()
        if not isinstance(device_id, int) or not 0 <= device_id < count:
            raise ValueError(f"device_id must be an int in [0, {count}), got {device_id!r}")
        devices = getattr(_per_thread, "devices", None)
        if devices is None:
            devices = _per_thread.devices = [None] * count
        if devices[device_id] is None:
            device = object.__new__(cls)
            device._device_id = device_id
            device._primary_context = 0
            device._properties = None
            device._memory_resource = None
            devices[device_id] = device
        return devices[device_id]

    @property
    def device_id(self) -> int:
        """The ordinal of this device."""
        return self._device_id

    @property
    def name(self) -> str:
        """The device's marketing name, e.g. 'NVIDIA H200'."""
        cdef char buffer[256]
        cdef cydriver.CUdevice device = self._device_id
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGetName(buffer, sizeof(buffer), device))
        return buffer.decode()

    @property
    def compute_capability(self) -> ComputeCapability:
        """(major, minor) compute capability, e.g. (9, 0) on Hopper."""
        return ComputeCapability(
            _attribute(cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, self._device_id),
            _attribute(cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, self._device_id))

    @property
    def arch(self) -> str:
        """The compute capability as one string, e.g. '90'."""
        major, minor = self.compute_capability
        return f"{major}{minor}"

    @property
    def uuid(self) -> str:
        """The device UUID in 8-4-4-4-12 hex form."""
        cdef cydriver.CUuuid uuid
        cdef cydriver.CUdevice device = self._device_id
        cdef char text[37]
        with nogil:
            HANDLE_RETURN(compat_device_get_uuid(&uuid, device))
            cuda_core_format_uuid(<const unsigned char*>uuid.bytes, text)
        return text.decode()

    @property
    def pci_bus_id(self) -> str:
        """The PCI bus id, as domain:bus:device.function, e.g. '0000:3B:00.0'."""
        cdef char buffer[64]
        cdef cydriver.CUdevice device = self._device_id
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGetPCIBusId(buffer, sizeof(buffer), device))
        return buffer.decode()

    @property
    def properties(self) -> DeviceProperties:
        """The device's attributes (SM count, limits, clocks, memory), read lazily."""
        if self._properties is None:
            self._properties = DeviceProperties(self._device_id)
        return self._properties

    @property
    def context(self) -> Context:
        """The context current on this thread, which must be this device's (call set_current() first)."""
        cdef cydriver.CUcontext context = NULL
        self._require_current()
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        return Context._from_handle(<size_t>context, self._device_id)

    @property
    def memory_resource(self):
        """Where ``allocate`` takes memory from: by default this device's stream-ordered
        DeviceMemoryResource (the device's memory pool)."""
        if self._memory_resource is None:
            from cuda.core._memory._device_memory_resource import DeviceMemoryResource
            self._memory_resource = DeviceMemoryResource(self._device_id)
        return self._memory_resource

    @memory_resource.setter
    def memory_resource(self, resource) -> None:
        from cuda.core._memory._buffer import MemoryResource
        if not isinstance(resource, MemoryResource):
            raise TypeError(f"memory_resource must be a MemoryResource, got {type(resource).__name__}")
        self._memory_resource = resource

    def allocate(self, size: int, stream=None):
        """A Buffer of ``size`` bytes from ``memory_resource``, ordered on ``stream``."""
        self._require_current()
        return self.memory_resource.allocate(size, stream)

    def set_current(self) -> None:
        """Make this device's primary context current on this thread, retaining it once."""
        cdef cydriver.CUcontext context = <cydriver.CUcontext><size_t>self._primary_context
        cdef cydriver.CUdevice device = self._device_id
        with nogil:
            if context == NULL:
                HANDLE_RETURN(cydriver.cuDevicePrimaryCtxRetain(&context, device))
            HANDLE_RETURN(cydriver.cuCtxSetCurrent(context))
        self._primary_context = <size_t>context

    def _require_current(self) -> None:
        if current_device() != self._device_id:
            raise RuntimeError(f"device {self._device_id} is not current on this thread: call "
                               f"Device({self._device_id}).set_current() first")

    def create_stream(self, obj=None, options=None):
        """A new Stream (made with StreamOptions ``options``), or one over a foreign
        ``obj`` that has ``__cuda_stream__``."""
        from cuda.core._stream import as_stream, new_stream
        self._require_current()
        if obj is not None:
            if options is not None:
                raise ValueError("options cannot be given with a foreign stream object")
            return as_stream(obj, self._device_id)
        return new_stream(self._device_id, options)

    def create_event(self, options=None):
        """A new Event (made with EventOptions ``options``) on this device."""
        from cuda.core._event import _create_event
        self._require_current()
        return _create_event(options, self._device_id)

    def sync(self) -> None:
        """Wait until all work on this device's current context has completed."""
        self._require_current()
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxSynchronize())

    def __repr__(self) -> str:
        return f"<Device {self._device_id} ({self.name})>"
