# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The types that cuda.core's signatures name: aliases, protocols and string enumerations.

The enumerations are ``StrEnum``s: each member is also the plain string it stands for
(``SourceCodeType.PTX == "ptx"``), so an API that takes one accepts either spelling.
"""

from __future__ import annotations

from typing import Literal

from cuda.core._context import DeviceResourcesType
from cuda.core._stream import IsStreamType
from cuda.core._utils.pycompat import StrEnum

__all__ = [
    "AddressModeType",
    "ArrayFormatType",
    "CompilerBackendType",
    "DevicePointerType",
    "DeviceResourcesType",
    "FilterModeType",
    "GraphConditionalType",
    "GraphMemoryType",
    "IsStreamType",
    "ManagedMemoryLocationType",
    "ObjectCodeFormatType",
    "PCHStatusType",
    "ProcessStateType",
    "ReadModeType",
    "SourceCodeType",
    "VirtualMemoryAccessType",
    "VirtualMemoryAllocationType",
    "VirtualMemoryGranularityType",
    "VirtualMemoryHandleType",
    "VirtualMemoryLocationType",
    "WorkqueueSharingScopeType",
]


# The states of a process that cuda.core.checkpoint reports.
ProcessStateType = Literal["running", "locked", "checkpointed", "failed"]


class SourceCodeType(StrEnum):
    """The language of a Program's source: CUDA C++, PTX text or NVVM IR."""

    CXX = "c++"
    PTX = "ptx"
    NVVM = "nvvm"


class ObjectCodeFormatType(StrEnum):
    """What Program.compile() and Linker.link() produce: PTX text, a cubin, LTO IR, a fatbin,
    a relocatable device object, or a device library."""

    PTX = "ptx"
    CUBIN = "cubin"
    LTOIR = "ltoir"
    FATBIN = "fatbin"
    OBJECT = "object"
    LIBRARY = "library"


class CompilerBackendType(StrEnum):
    """Which compiler a Program uses (Program.backend): NVRTC, NVVM, nvJitLink, or the
    driver's PTX JIT."""

    NVRTC = "NVRTC"
    NVVM = "NVVM"
    NVJITLINK = "nvJitLink"
    DRIVER = "driver"


class PCHStatusType(StrEnum):
    """What became of a precompiled header in Program.compile(): written, not tried, or failed."""

    CREATED = "created"
    NOT_ATTEMPTED = "not_attempted"
    FAILED = "failed"


class GraphConditionalType(StrEnum):
    """The kind of a conditional graph node: run once if, loop while, or pick by switch."""

    IF = "if"
    WHILE = "while"
    SWITCH = "switch"


class GraphMemoryType(StrEnum):
    """Where memory of a graph memory node lives: device, host, or managed memory."""

    DEVICE = "device"
    HOST = "host"
    MANAGED = "managed"


class ManagedMemoryLocationType(StrEnum):
    """A location of managed memory: a device, the host, or a host NUMA node."""

    DEVICE = "device"
    HOST = "host"
    HOST_NUMA = "host_numa"


class VirtualMemoryHandleType(StrEnum):
    """How virtual-memory allocations are shared: POSIX file descriptor, Win32 KMT handle,
    or fabric handle."""

    POSIX_FD = "posix_fd"
    WIN32_KMT = "win32_kmt"
    FABRIC = "fabric"


class VirtualMemoryLocationType(StrEnum):
    """Where a virtual-memory allocation lives: a device, the host, a host NUMA node, or the
    NUMA node of the calling thread."""

    DEVICE = "device"
    HOST = "host"
    HOST_NUMA = "host_numa"
    HOST_NUMA_CURRENT = "host_numa_current"


class VirtualMemoryGranularityType(StrEnum):
    """Which allocation granularity to ask the driver for: the minimum or the recommended one."""

    MINIMUM = "minimum"
    RECOMMENDED = "recommended"


class VirtualMemoryAccessType(StrEnum):
    """Access granted to a mapping: read-write or read-only."""

    READ_WRITE = "rw"
    READ = "r"


class VirtualMemoryAllocationType(StrEnum):
    """The kind of physical memory behind a virtual-memory allocation: pinned or managed."""

    PINNED = "pinned"
    MANAGED = "managed"


class ArrayFormatType(StrEnum):
    """The element type of a CUDA array's channels (the driver's CUarray_format), named as
    the matching NumPy dtype."""

    UINT8 = "uint8"
    UINT16 = "uint16"
    UINT32 = "uint32"
    INT8 = "int8"
    INT16 = "int16"
    INT32 = "int32"
    FLOAT16 = "float16"
    FLOAT32 = "float32"


class AddressModeType(StrEnum):
    """What a texture fetch outside [0, size) reads (the driver's CUaddress_mode): wrap around,
    clamp to the edge, mirror, or a border value."""

    WRAP = "wrap"
    CLAMP = "clamp"
    MIRROR = "mirror"
    BORDER = "border"


class FilterModeType(StrEnum):
    """How a texture fetch filters (the driver's CUfilter_mode): nearest point or linear."""

    POINT = "point"
    LINEAR = "linear"


class ReadModeType(StrEnum):
    """What a texture fetch returns: the element type as stored, or integer formats converted
    to a normalized float."""

    ELEMENT_TYPE = "element_type"
    NORMALIZED_FLOAT = "normalized_float"


class WorkqueueSharingScopeType(StrEnum):
    """With which contexts a green context shares its work queues: the device's contexts, or
    only balanced green contexts."""

    DEVICE_CTX = "device_ctx"
    GREEN_CTX_BALANCED = "green_ctx_balanced"


del StrEnum


def __getattr__(name: str) -> object:
    """DevicePointerType, made at first use: it names cuda.bindings.driver.CUdeviceptr, and
    loading cuda.bindings.driver costs a quarter of ``import cuda.core``."""
    if name != "DevicePointerType":
        raise AttributeError(f"module 'cuda.core.typing' has no attribute {name!r}")
    # What Buffer.handle and device pointers may be: a CUdeviceptr, an int address, or None.
    global DevicePointerType
    from cuda.bindings import driver

    DevicePointerType = driver.CUdeviceptr | int | None
    return DevicePointerType


def __dir__() -> list[str]:
    """This module's names, DevicePointerType among them before its first use, as NVIDIA's lists it."""
    return sorted({*globals(), "DevicePointerType"})
