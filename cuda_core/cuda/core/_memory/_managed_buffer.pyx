"""cuda.core ManagedBuffer: a Buffer of managed memory, with prefetching and usage advice."""

from collections.abc import Iterable, MutableSet

cimport cython
cimport cuda.bindings.cydriver as cydriver
from libc.stdlib cimport free, malloc

from cuda.core._host import Host
from cuda.core._memory._buffer cimport Buffer, require_context, required_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

# compat_mem_prefetch, compat_mem_advise: a CUmemLocation on 13, a device ordinal on 12.
include "driver_compat.pxi"

_THE_HOST = Host()

__all__ = ['ManagedBuffer']



cdef int _location_ordinal(object location) except -3:
    """-1 for Host(), the ordinal for a Device (or a device-ordinal int, -1 meaning the host)."""
    if isinstance(location, Host):
        return -1
    from cuda.core._device import Device
    if isinstance(location, Device):
        return location.device_id
    if isinstance(location, int) and not isinstance(location, bool) and location >= -1:
        return location
    raise TypeError(f"a managed-memory location is a Device or Host(), got {location!r}")


cdef object _location_of(int ordinal):
    """Device(n) for n >= 0, Host() for CU_DEVICE_CPU, None for CU_DEVICE_INVALID."""
    if ordinal == cydriver.CU_DEVICE_CPU:
        return _THE_HOST
    if ordinal < 0:
        return None
    from cuda.core._device import Device
    return Device(ordinal)


cdef int _range_attribute(Buffer buffer, cydriver.CUmem_range_attribute attribute) except? -3:
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    cdef int value = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(&value, sizeof(int), attribute, ptr, size))
    return value


cdef int _advise(Buffer buffer, cydriver.CUmem_advise advice, int ordinal) except -1:
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    ensure_driver()
    with nogil:
        HANDLE_RETURN(compat_mem_advise(ptr, size, advice, ordinal))
    return 0


cdef list _accessed_by(Buffer buffer):
    """The locations advised to access the whole range (one slot per device, plus the host)."""
    cdef cydriver.CUdeviceptr ptr = buffer._live_ptr()
    cdef size_t size = buffer._size
    cdef size_t slots = device_count() + 1
    cdef int* ordinals = <int*>malloc(slots * sizeof(int))
    if ordinals == NULL:
        raise MemoryError("no host memory left to query accessed-by advice")
    try:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(
                ordinals, slots * sizeof(int), cydriver.CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr, size))
        return [_location_of(ordinals[i]) for i in range(slots) if ordinals[i] != cydriver.CU_DEVICE_INVALID]
    finally:
        free(ordinals)


class _AccessedBy(MutableSet):
    """The live set of locations advised to access a ManagedBuffer: ``add`` and ``discard``
    give the advice, reading asks the driver."""

    __slots__ = ("_buffer",)

    def __init__(self, buffer) -> None:
        self._buffer = buffer

    def __contains__(self, location) -> bool:
        return location in _accessed_by(self._buffer)

    def __iter__(self):
        return iter(_accessed_by(self._buffer))

    def __len__(self) -> int:
        return len(_accessed_by(self._buffer))

    def add(self, location) -> None:
        _advise(self._buffer, cydriver.CU_MEM_ADVISE_SET_ACCESSED_BY, _location_ordinal(location))

    def discard(self, location) -> None:
        _advise(self._buffer, cydriver.CU_MEM_ADVISE_UNSET_ACCESSED_BY, _location_ordinal(location))

    def __repr__(self) -> str:
        return f"accessed_by({_accessed_by(self._buffer)!r})"


@cython.no_gc_clear
cdef class ManagedBuffer(Buffer):
    """A Buffer of managed memory, with prefetching and the driver's usage advice as properties.
    Locations are a ``Device`` or ``Host()``."""

    def prefetch(self, location, *, stream) -> None:
        """Migrate the memory to ``location`` (a Device or Host()), ordered on ``stream``."""
        cdef cydriver.CUdeviceptr ptr = self._live_ptr()
        cdef size_t size = self._size
        cdef int ordinal = _location_ordinal(location)
        require_context(max(ordinal, 0))
        cdef cydriver.CUstream handle = required_stream(stream)._live_handle()
        with nogil:
            HANDLE_RETURN(compat_mem_prefetch(ptr, size, ordinal, handle))

    @property
    def read_mostly(self) -> bool:
        """Whether the memory is advised as mostly read (read-only copies may be made per processor)."""
        return _range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY) != 0

    @read_mostly.setter
    def read_mostly(self, value: bool) -> None:
        advice = cydriver.CU_MEM_ADVISE_SET_READ_MOSTLY if value else cydriver.CU_MEM_ADVISE_UNSET_READ_MOSTLY
        _advise(self, advice, 0)  # the location is ignored for this advice

    @property
    def preferred_location(self):
        """The advised home of the memory: a Device, Host(), or None (no preference); None unsets."""
        return _location_of(_range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION))

    @preferred_location.setter
    def preferred_location(self, location) -> None:
        if location is None:
            _advise(self, cydriver.CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 0)
        else:
            _advise(self, cydriver.CU_MEM_ADVISE_SET_PREFERRED_LOCATION, _location_ordinal(location))

    @property
    def last_prefetch_location(self):
        """Where the last explicit prefetch of the whole range was sent (a Device or Host()), or
        None when some page never was. It names the request, not where pages are now."""
        return _location_of(_range_attribute(self, cydriver.CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION))

    @property
    def accessed_by(self) -> _AccessedBy:
        """The live set of locations advised to access this memory (``add``/``discard``)."""
        self._live_ptr()
        return _AccessedBy(self)

    @accessed_by.setter
    def accessed_by(self, locations: Iterable) -> None:
        wanted = list(locations)
        view = _AccessedBy(self)
        for location in list(view):
            if location not in wanted:
                view.discard(location)
        for location in wanted:
            view.add(location)
