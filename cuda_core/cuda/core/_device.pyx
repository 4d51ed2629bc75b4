"""cuda.core.Device: one CUDA device, and its primary context."""

import threading
from collections import namedtuple

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver

# compat_device_get_uuid: cuDeviceGetUuid on 13, cuDeviceGetUuid_v2 on 12.
include "driver_compat.pxi"

cdef extern from "uuid_format.hpp" nogil:
    void cuda_core_format_uuid(const unsigned char* bytes, char* out)

ComputeCapability = namedtuple("ComputeCapability", ("major", "minor"))

# One Device object per device per thread, as in NVIDIA's cuda.core.
_per_thread = threading.local()


cdef int _attribute(cydriver.CUdevice_attribute attribute, cydriver.CUdevice device) except? -1:
    cdef int value = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&value, attribute, device))
    return value


cdef int _device_count() except -1:
    cdef int count = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetCount(&count))
    return count


class Device:
    """A CUDA device. ``Device()`` is the current context's device, or device 0."""

    __slots__ = ("_device_id", "_primary_context", "__weakref__")

    def __new__(cls, device_id: int | None = None) -> "Device":
        ensure_driver()
        if device_id is None:
            device_id = max(current_device(), 0)
        count = _device_count()
        if not isinstance(device_id, int) or not 0 <= device_id < count:
            raise ValueError(f"device_id must be an int in [0, {count}), got {device_id!r}")
        devices = getattr(_per_thread, "devices", None)
        if devices is None:
            devices = _per_thread.devices = [None] * count
        if devices[device_id] is None:
            device = object.__new__(cls)
            device._device_id = device_id
            device._primary_context = 0
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
