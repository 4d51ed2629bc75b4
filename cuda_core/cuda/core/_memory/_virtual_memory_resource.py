# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core VirtualMemoryResource: memory reserved, created and mapped through the driver's
virtual memory management (VMM) API (cuMemAddressReserve, cuMemCreate, cuMemMap,
cuMemSetAccess), so that an allocation can grow in place and carry exportable handles.

VMM is not a hot path: the resource is plain Python over ``cuda.bindings.driver``, looked up
at call time. It keeps its own record of every physical chunk and VA reservation it made, so
freeing a grown allocation needs no driver query.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cuda.core._memory._buffer import Buffer, MemoryResource
from cuda.core.typing import (
    VirtualMemoryAccessType,
    VirtualMemoryAllocationType,
    VirtualMemoryGranularityType,
    VirtualMemoryHandleType,
    VirtualMemoryLocationType,
)

__all__ = ["VirtualMemoryResource", "VirtualMemoryResourceOptions"]

_HOST_LOCATIONS = frozenset(
    {VirtualMemoryLocationType.HOST, VirtualMemoryLocationType.HOST_NUMA, VirtualMemoryLocationType.HOST_NUMA_CURRENT}
)

# Each option value -> (driver enum class, member name). Names, not members, so that importing
# cuda.core does not import cuda.bindings.driver.
_ACCESS = {
    VirtualMemoryAccessType.READ_WRITE: ("CUmemAccess_flags", "CU_MEM_ACCESS_FLAGS_PROT_READWRITE"),
    VirtualMemoryAccessType.READ: ("CUmemAccess_flags", "CU_MEM_ACCESS_FLAGS_PROT_READ"),
}
_HANDLE = {
    None: ("CUmemAllocationHandleType", "CU_MEM_HANDLE_TYPE_NONE"),
    VirtualMemoryHandleType.POSIX_FD: ("CUmemAllocationHandleType", "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR"),
    VirtualMemoryHandleType.WIN32_KMT: ("CUmemAllocationHandleType", "CU_MEM_HANDLE_TYPE_WIN32_KMT"),
    VirtualMemoryHandleType.FABRIC: ("CUmemAllocationHandleType", "CU_MEM_HANDLE_TYPE_FABRIC"),
}
_GRANULARITY = {
    VirtualMemoryGranularityType.RECOMMENDED: (
        "CUmemAllocationGranularity_flags",
        "CU_MEM_ALLOC_GRANULARITY_RECOMMENDED",
    ),
    VirtualMemoryGranularityType.MINIMUM: ("CUmemAllocationGranularity_flags", "CU_MEM_ALLOC_GRANULARITY_MINIMUM"),
}
_LOCATION = {
    VirtualMemoryLocationType.DEVICE: ("CUmemLocationType", "CU_MEM_LOCATION_TYPE_DEVICE"),
    VirtualMemoryLocationType.HOST: ("CUmemLocationType", "CU_MEM_LOCATION_TYPE_HOST"),
    VirtualMemoryLocationType.HOST_NUMA: ("CUmemLocationType", "CU_MEM_LOCATION_TYPE_HOST_NUMA"),
    VirtualMemoryLocationType.HOST_NUMA_CURRENT: ("CUmemLocationType", "CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT"),
}
_ALLOCATION = {
    VirtualMemoryAllocationType.PINNED: ("CUmemAllocationType", "CU_MEM_ALLOCATION_TYPE_PINNED"),
    # CUDA 12's driver API has no managed VMM allocations; _allocation_type_to_driver says so.
    VirtualMemoryAllocationType.MANAGED: ("CUmemAllocationType", "CU_MEM_ALLOCATION_TYPE_MANAGED"),
}


class _DriverMembers:
    """A class attribute holding one of the tables above as {option value: driver enum member},
    built at first access: importing cuda.core leaves cuda.bindings.driver unloaded."""

    def __init__(self, table: dict) -> None:
        self._table = table
        self._members: dict | None = None

    def __get__(self, instance: object, owner: type | None = None) -> dict:
        if self._members is None:
            driver = _driver()
            self._members = {
                key: getattr(getattr(driver, enum_name), member)
                for key, (enum_name, member) in self._table.items()
                if key is not None
            }
        return self._members


def _driver() -> Any:
    from cuda.bindings import driver

    return driver


def _check(result: Any) -> Any:
    """The values of a ``cuda.bindings.driver`` call's result tuple, or its CUDAError."""
    from cuda.core._utils.cuda_utils import handle_return

    return handle_return(result if isinstance(result, tuple) else (result,))


def _lookup(table: dict, spec: object, what: str, verb: str = "Unsupported") -> int:
    try:
        entry = table.get(spec)
    except TypeError:  # an unhashable spec
        entry = None
    if entry is None:
        choices = ", ".join(repr(str(key)) for key in table if key is not None)
        raise ValueError(f"{verb} {what}: {spec!r} (expected one of {choices})")
    enum_name, member = entry
    return getattr(getattr(_driver(), enum_name), member)


def _starts_within(records: dict[int, Any], base: int, size: int) -> list[int]:
    """The addresses, in order, of the records (chunks or reservations) that start inside
    the allocation of ``size`` bytes at ``base``: the ones it owns, grown or not."""
    end = base + max(size, 1)
    return sorted(va for va in records if base <= va < end)


def _align_up(size: int, granularity: int) -> int:
    return -(-size // granularity) * granularity


@dataclass
class VirtualMemoryResourceOptions:
    """How a VirtualMemoryResource allocates: each field takes its enum from
    ``cuda.core.typing`` or that enum's string.

    allocation_type: pinned, or managed (CUDA 13).
    location_type: where the physical memory lives: the device, the host or a host NUMA node.
    handle_type: the exportable handle of each physical allocation (None: not exportable).
    granularity: the driver's minimum or recommended granularity, which sizes are rounded to.
    gpu_direct_rdma: ask for GPUDirect RDMA capable memory.
    addr_hint: the virtual address to try to reserve at (0: the driver chooses).
    addr_align: the alignment of the reservation (None: the granularity).
    peers: device ordinals that get ``peer_access`` besides the owning device.
    self_access, peer_access: "rw" or "r" (None: no access granted).
    """

    allocation_type: VirtualMemoryAllocationType = VirtualMemoryAllocationType.PINNED
    location_type: VirtualMemoryLocationType = VirtualMemoryLocationType.DEVICE
    handle_type: VirtualMemoryHandleType = VirtualMemoryHandleType.POSIX_FD
    granularity: VirtualMemoryGranularityType = VirtualMemoryGranularityType.RECOMMENDED
    gpu_direct_rdma: bool = False
    addr_hint: int | None = 0
    addr_align: int | None = None
    peers: Iterable[int] = field(default_factory=tuple)
    self_access: VirtualMemoryAccessType = VirtualMemoryAccessType.READ_WRITE
    peer_access: VirtualMemoryAccessType = VirtualMemoryAccessType.READ_WRITE

    # Each option enum's driver members, as NVIDIA's class attributes of these names (its enum
    # coverage test reads them); not dataclass fields, having no annotation.
    _access_flags = _DriverMembers(_ACCESS)
    _handle_types = _DriverMembers(_HANDLE)
    _granularity = _DriverMembers(_GRANULARITY)

    @staticmethod
    def _access_to_flags(spec: VirtualMemoryAccessType | None) -> int:
        """The driver's CUmemAccess_flags for an access spec; None grants nothing (0)."""
        if spec is None:
            return 0
        return _lookup(_ACCESS, spec, "access spec", verb="Unknown")

    @staticmethod
    def _allocation_type_to_driver(spec: VirtualMemoryAllocationType) -> int:
        """The driver's CUmemAllocationType; managed needs a CUDA 13 build."""
        from cuda.core import _build_info

        if spec == VirtualMemoryAllocationType.MANAGED and _build_info.cuda_major < 13:
            raise ValueError(
                "Unsupported allocation_type: 'managed' VMM allocations need CUDA 13; this "
                "cuda.core is built for CUDA 12 (use 'pinned', or a CUDA 13 build)"
            )
        return _lookup(_ALLOCATION, spec, "allocation_type")

    @staticmethod
    def _location_type_to_driver(spec: VirtualMemoryLocationType) -> int:
        """The driver's CUmemLocationType for a location spec."""
        return _lookup(_LOCATION, spec, "location_type")

    @staticmethod
    def _handle_type_to_driver(spec: VirtualMemoryHandleType | None) -> int:
        """The driver's CUmemAllocationHandleType; None means not exportable."""
        if spec == "win32":
            raise NotImplementedError(
                "win32 is currently not supported as a VMM handle_type: use 'win32_kmt' on Windows, 'posix_fd' on Linux"
            )
        return _lookup(_HANDLE, spec, "handle_type")

    @staticmethod
    def _granularity_to_driver(spec: VirtualMemoryGranularityType) -> int:
        """The driver's CUmemAllocationGranularity_flags for a granularity spec."""
        return _lookup(_GRANULARITY, spec, "granularity")


class VirtualMemoryResource(MemoryResource):
    """Memory of one device (or of the host) allocated with the CUDA VMM API.

    Each allocation reserves a virtual address range, creates physical memory rounded up to
    the granularity, maps it and grants access to the device and its ``peers``.
    ``modify_allocation`` grows an allocation, in place where the driver lets the range
    extend, else by remapping it to a larger range. Allocation is synchronous; ``stream``
    only orders freeing.

    This is a low-level resource: DeviceMemoryResource serves the common needs.
    """

    def __init__(self, device_id: Any, config: VirtualMemoryResourceOptions | None = None) -> None:
        from cuda.core._device import Device
        from cuda.core._utils.cuda_utils import check_or_create_options

        self.config: VirtualMemoryResourceOptions = check_or_create_options(
            VirtualMemoryResourceOptions, config, "VirtualMemoryResource options"
        )
        self.device = None if self.config.location_type in _HOST_LOCATIONS else Device(device_id)
        # Physical chunks (VA -> (size, handle)) and reservations (VA -> size) made here, so that
        # freeing an allocation, grown or not, unmaps, releases and frees exactly what it owns.
        self._chunks: dict[int, tuple[int, Any]] = {}
        self._reservations: dict[int, int] = {}
        if self.device is None:
            return
        properties = self.device.properties
        if not properties.virtual_memory_management_supported:
            raise RuntimeError(
                f"VirtualMemoryResource requires CUDA VMM API support, which device "
                f"{self.device.device_id} lacks: use DeviceMemoryResource"
            )
        if self.config.gpu_direct_rdma and not properties.gpu_direct_rdma_supported:
            raise RuntimeError(
                "GPU Direct RDMA is not supported on this device: set "
                "VirtualMemoryResourceOptions(gpu_direct_rdma=False)"
            )

    # ---- the MemoryResource interface ----

    def allocate(self, size: int, *, stream: Any = None) -> Buffer:
        """A Buffer of ``size`` bytes over newly reserved, created and mapped memory."""
        size = int(size)
        if size < 0:
            raise ValueError(f"size must be >= 0, got {size}")
        self._check_stream(stream)
        if size == 0:
            return Buffer._init(0, 0, self)
        driver = _driver()
        prop = self._allocation_prop()
        granularity = self._granularity(prop)
        aligned = _align_up(size, granularity)
        align = self.config.addr_align or granularity
        from cuda.core._utils.cuda_utils import Transaction

        with Transaction() as undo:
            ptr = int(_check(driver.cuMemAddressReserve(aligned, align, self.config.addr_hint or 0, 0)))
            undo.append(self._free_reservation, ptr, aligned)
            self._map_new_chunk(undo, ptr, aligned, prop)
            undo.commit()
        self._reservations[ptr] = aligned
        return Buffer._init(ptr, size, self)

    def deallocate(self, ptr: Any, size: int, *, stream: Any = None) -> None:
        """Unmap, release and unreserve what the allocation at ``ptr`` owns, after ``stream``
        (if given) has finished its work."""
        stream = self._check_stream(stream)
        if stream is not None:
            stream.sync()
        start = int(ptr)
        if start == 0:
            return
        for va in _starts_within(self._chunks, start, int(size)):
            chunk_size, handle = self._chunks.pop(va)
            self._unmap(va, chunk_size)
            self._release(handle)
        for va in _starts_within(self._reservations, start, int(size)):
            self._free_reservation(va, self._reservations.pop(va))

    @property
    def is_device_accessible(self) -> bool:
        """True: the owning device (and the peers) can reach the memory."""
        return True

    @property
    def is_host_accessible(self) -> bool:
        """Whether the physical memory lives on the host."""
        return self.config.location_type in _HOST_LOCATIONS

    @property
    def device_id(self) -> int:
        """The owning device's ordinal, or -1 for host-located memory."""
        return -1 if self.device is None else self.device.device_id

    def __repr__(self) -> str:
        return f"<VirtualMemoryResource device_id={self.device_id} location_type={str(self.config.location_type)!r}>"

    # ---- growing ----

    def modify_allocation(
        self, buf: Buffer, new_size: int, config: VirtualMemoryResourceOptions | None = None
    ) -> Buffer:
        """Grow ``buf`` to ``new_size`` bytes and return it; ``config`` (optional) replaces this
        resource's options first. The new memory follows the options; a size not above the
        current one only re-applies the access policy. The pointer stays where the driver lets
        the reservation extend; otherwise the whole allocation moves to a new range. A failed
        step undoes every earlier one, leaving ``buf`` as it was."""
        if not isinstance(buf, Buffer):
            raise TypeError(f"buf must be a Buffer, got {type(buf).__name__}")
        if buf.is_closed:
            raise RuntimeError("Buffer has been closed: modify_allocation needs an open Buffer")
        if buf.memory_resource is not self:
            raise ValueError("modify_allocation needs a Buffer allocated by this VirtualMemoryResource")
        if self.device is None:
            raise ValueError("modify_allocation grows device-located allocations only")
        if config is not None:
            from cuda.core._utils.cuda_utils import check_or_create_options

            self.config = check_or_create_options(VirtualMemoryResourceOptions, config, "VirtualMemoryResource options")
        driver = _driver()
        prop = self._allocation_prop()
        base = int(buf.handle)
        current = self._owned_size(base, buf.size)
        if new_size <= buf.size:
            self._set_access(base, current, prop)
            return buf
        granularity = self._granularity(prop)
        total = _align_up(new_size, granularity)
        if total <= current:  # the rounding already covers it
            buf._size = new_size
            return buf
        additional = total - current
        align = self.config.addr_align or granularity
        status, new_ptr = driver.cuMemAddressReserve(additional, align, base + current, 0)
        if status == driver.CUresult.CUDA_SUCCESS and int(new_ptr) == base + current:
            return self._grow_allocation_fast_path(buf, new_size, prop, additional, int(new_ptr))
        if status == driver.CUresult.CUDA_SUCCESS:  # reserved, but elsewhere
            _check(driver.cuMemAddressFree(new_ptr, additional))
        return self._grow_allocation_slow_path(buf, new_size, prop, additional, total, align)

    def _grow_allocation_fast_path(
        self, buf: Any, new_size: int, prop: Any, aligned_additional_size: int, new_ptr: int
    ) -> Any:
        """Back the range reserved at ``new_ptr``, right after ``buf``'s memory, with a new
        chunk; ``buf`` keeps its pointer and takes ``new_size``."""
        from cuda.core._utils.cuda_utils import Transaction

        with Transaction() as undo:
            undo.append(self._free_reservation, new_ptr, aligned_additional_size)
            self._map_new_chunk(undo, new_ptr, aligned_additional_size, prop)
            undo.commit()
        self._reservations[new_ptr] = aligned_additional_size
        buf._size = new_size
        return buf

    def _grow_allocation_slow_path(
        self,
        buf: Buffer,
        new_size: int,
        prop: Any,
        aligned_additional_size: int,
        total_aligned_size: int,
        addr_align: int,
    ) -> Buffer:
        """Reserve a range of ``total_aligned_size``, map ``buf``'s chunks at its start and a
        new chunk after them, then free the old range; ``buf`` takes the new pointer."""
        from cuda.core._utils.cuda_utils import Transaction

        driver = _driver()
        old_base = int(buf.handle)
        old_size = total_aligned_size - aligned_additional_size
        old_chunks = _starts_within(self._chunks, old_base, old_size)
        with Transaction() as undo:
            new_base = int(_check(driver.cuMemAddressReserve(total_aligned_size, addr_align, 0, 0)))
            undo.append(self._free_reservation, new_base, total_aligned_size)
            for va in old_chunks:
                chunk_size, handle = self._chunks[va]
                target = new_base + (va - old_base)
                _check(driver.cuMemMap(target, chunk_size, 0, handle, 0))
                undo.append(self._unmap, target, chunk_size)
            self._set_access(new_base, old_size, prop)
            self._map_new_chunk(undo, new_base + old_size, aligned_additional_size, prop)
            undo.commit()
        # The new range is complete: move the records, then drop the old mappings and ranges.
        for va in old_chunks:
            chunk_size, handle = self._chunks.pop(va)
            self._unmap(va, chunk_size)
            self._chunks[new_base + (va - old_base)] = (chunk_size, handle)
        for va in _starts_within(self._reservations, old_base, old_size):
            self._free_reservation(va, self._reservations.pop(va))
        self._reservations[new_base] = total_aligned_size
        buf._ptr = new_base
        buf._size = new_size
        return buf

    # ---- steps ----

    def _map_new_chunk(self, undo: Any, va: int, size: int, prop: Any) -> None:
        """Create ``size`` bytes of physical memory, map them at ``va`` and grant access;
        record the chunk. Each step registers its undo."""
        driver = _driver()
        handle = _check(driver.cuMemCreate(size, prop, 0))
        undo.append(self._release, handle)
        _check(driver.cuMemMap(va, size, 0, handle, 0))
        undo.append(self._unmap, va, size)
        self._set_access(va, size, prop)
        self._chunks[va] = (size, handle)
        undo.append(self._chunks.pop, va, None)

    def _set_access(self, va: int, size: int, prop: Any) -> None:
        descriptors = self._build_access_descriptors(prop)
        if descriptors and size:
            _check(_driver().cuMemSetAccess(va, size, descriptors, len(descriptors)))

    def _build_access_descriptors(self, prop: Any) -> list:
        """One CUmemAccessDesc for the owning device (or, for host memory, the current
        device) and one per peer, with the access the options grant; none for None."""
        driver = _driver()
        grants = []
        owner = self.device.device_id if self.device is not None else self._current_device_id()
        if self.config.self_access is not None:
            grants.append((owner, self.config.self_access))
        if self.config.peer_access is not None:
            grants.extend((int(peer), self.config.peer_access) for peer in self.config.peers if int(peer) != owner)
        descriptors = []
        for ordinal, access in grants:
            descriptor = driver.CUmemAccessDesc()
            descriptor.location.type = driver.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
            descriptor.location.id = ordinal
            descriptor.flags = VirtualMemoryResourceOptions._access_to_flags(access)
            descriptors.append(descriptor)
        return descriptors

    def _allocation_prop(self) -> Any:
        """The CUmemAllocationProp the options describe."""
        driver = _driver()
        options = VirtualMemoryResourceOptions
        prop = driver.CUmemAllocationProp()
        prop.type = options._allocation_type_to_driver(self.config.allocation_type)
        prop.location.type = options._location_type_to_driver(self.config.location_type)
        prop.location.id = self.device.device_id if self.device is not None else 0
        prop.requestedHandleTypes = options._handle_type_to_driver(self.config.handle_type)
        prop.allocFlags.gpuDirectRDMACapable = 1 if self.config.gpu_direct_rdma else 0
        return prop

    def _granularity(self, prop: Any) -> int:
        flag = VirtualMemoryResourceOptions._granularity_to_driver(self.config.granularity)
        return int(_check(_driver().cuMemGetAllocationGranularity(prop, flag)))

    def _owned_size(self, base: int, size: int) -> int:
        """The mapped size of the allocation at ``base``: the sum of its chunks."""
        return sum(self._chunks[va][0] for va in _starts_within(self._chunks, base, size))

    @staticmethod
    def _current_device_id() -> int:
        from cuda.core._device import Device

        return Device().device_id

    @staticmethod
    def _check_stream(stream: Any) -> Any:
        """None, or ``stream`` as a Stream (TypeError for anything else)."""
        if stream is None:
            return None
        from cuda.core._stream import Stream_accept

        return Stream_accept(stream, allow_stream_protocol=True)

    @staticmethod
    def _release(handle: Any) -> None:
        _check(_driver().cuMemRelease(handle))

    @staticmethod
    def _unmap(va: int, size: int) -> None:
        _check(_driver().cuMemUnmap(va, size))

    @staticmethod
    def _free_reservation(va: int, size: int) -> None:
        _check(_driver().cuMemAddressFree(va, size))
