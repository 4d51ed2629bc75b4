# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Managed-memory operations: prefetch, discard and usage advice, for one buffer (the
ManagedBuffer methods and properties) and in batches (cuda.core.utils.prefetch_batch,
discard_batch, discard_prefetch_batch)."""

cimport cuda.bindings.cydriver as cydriver
from libc.stdlib cimport free, malloc
from libc.stdint cimport uintptr_t

from cuda.core._memory._buffer cimport Buffer, buffer_is_managed, required_stream
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

from cuda.core._memory._managed_location import _coerce_location, _LocSpec

# compat_mem_prefetch, compat_mem_advise, compat_mem_preferred_location, the batches, and
# COMPAT_HAS_MEM_DISCARD: the calls that differ between CUDA 12 and 13.
include "driver_compat.pxi"

__all__ = ['discard_batch', 'discard_prefetch_batch', 'prefetch_batch']

_SINGLE_MANAGED_HINT = 'the ManagedBuffer instance method'

_LOCATION_TYPES = {
    "device": cydriver.CU_MEM_LOCATION_TYPE_DEVICE,
    "host": cydriver.CU_MEM_LOCATION_TYPE_HOST,
    "host_numa": cydriver.CU_MEM_LOCATION_TYPE_HOST_NUMA,
    "host_numa_current": cydriver.CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
}

# Advice that names a location, and the kinds of location each accepts.
_ACCESSED_BY_KINDS = ("device", "host")
_ADVICE_NEEDING_LOCATION = (cydriver.CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                            cydriver.CU_MEM_ADVISE_SET_ACCESSED_BY,
                            cydriver.CU_MEM_ADVISE_UNSET_ACCESSED_BY)


# ---------------------------------------------------------------------------------------------
# Arguments

cdef int fill_location(cydriver.CUmemLocation* out, object spec) except -1:
    """The CUmemLocation of a ``_LocSpec`` (None: the host, for advice that ignores it)."""
    if spec is None:
        out.type = cydriver.CU_MEM_LOCATION_TYPE_HOST
        out.id = 0
        return 0
    out.type = _LOCATION_TYPES[spec.kind]
    out.id = spec.id
    return 0


cdef int _require_managed(Buffer buffer) except -1:
    buffer._live_ptr()
    if not buffer_is_managed(buffer):
        raise ValueError(f"{type(buffer).__name__} at {hex(<uintptr_t>buffer._ptr)} is not a managed-memory "
                         f"allocation: prefetch, discard and advice apply only to managed memory "
                         f"(ManagedMemoryResource, cuMemAllocManaged)")
    ensure_driver()
    return 0


cdef int _require_discard(str what) except -1:
    if not COMPAT_HAS_MEM_DISCARD:
        raise NotImplementedError(f"{what} needs CUDA 13 (cuMemDiscardBatchAsync and "
                                  f"cuMemDiscardAndPrefetchBatchAsync); this cuda.core is built for CUDA 12")
    return 0


cdef list _batch_buffers(object buffers, str what):
    if isinstance(buffers, Buffer):
        raise TypeError(f"{what} takes a sequence of Buffers, got a single {type(buffers).__name__}: for one "
                        f"buffer use {_SINGLE_MANAGED_HINT} (ManagedBuffer.prefetch, discard or discard_prefetch)")
    try:
        items = list(buffers)
    except TypeError:
        raise TypeError(f"{what} takes a sequence of Buffers, got {type(buffers).__name__}") from None
    for item in items:
        if not isinstance(item, Buffer):
            raise TypeError(f"{what} takes a sequence of Buffers, but it holds a {type(item).__name__}")
    return items


cdef list _batch_locations(object locations, Py_ssize_t count, str what):
    """One ``_LocSpec`` for all buffers, or one per buffer."""
    from cuda.core._device import Device
    from cuda.core._host import Host
    if locations is None or isinstance(locations, (Device, Host, _LocSpec)):
        return [_coerce_location(locations)]
    try:
        items = list(locations)
    except TypeError:
        raise TypeError(f"{what}: locations must be a Device, a Host, or a sequence of them; "
                        f"got {type(locations).__name__}") from None
    if len(items) != count:
        raise ValueError(f"{what}: locations has length {len(items)} but buffers has length {count}: "
                         f"pass one location per buffer, or one location for all")
    return [_coerce_location(item) for item in items]


# The three batched driver calls, by number.
cdef enum _BatchOp:
    _PREFETCH
    _DISCARD
    _DISCARD_PREFETCH


cdef int _run_batch(_BatchOp op, Stream stream, list buffers, list locations) except -1:
    cdef size_t count = len(buffers)
    cdef size_t location_count = len(locations)
    if count == 0:
        return 0
    cdef cydriver.CUstream handle = stream._live_handle()
    cdef cydriver.CUdeviceptr* ptrs = <cydriver.CUdeviceptr*>malloc(count * sizeof(cydriver.CUdeviceptr))
    cdef size_t* sizes = <size_t*>malloc(count * sizeof(size_t))
    cdef cydriver.CUmemLocation* targets = <cydriver.CUmemLocation*>malloc(
        (location_count + 1) * sizeof(cydriver.CUmemLocation))
    cdef size_t* starts = <size_t*>malloc((location_count + 1) * sizeof(size_t))
    cdef Buffer buffer
    cdef size_t i
    try:
        if ptrs == NULL or sizes == NULL or targets == NULL or starts == NULL:
            raise MemoryError("no host memory left for the batch's arrays")
        for i in range(count):
            buffer = buffers[i]
            _require_managed(buffer)
            ptrs[i] = buffer._ptr
            sizes[i] = buffer._size
        for i in range(location_count):
            fill_location(&targets[i], locations[i])
            starts[i] = i  # one location per buffer, or one (from index 0) for all
        with nogil:
            if op == _PREFETCH:
                HANDLE_RETURN(compat_mem_prefetch_batch(ptrs, sizes, count, targets, starts, location_count, handle))
            elif op == _DISCARD:
                HANDLE_RETURN(compat_mem_discard_batch(ptrs, sizes, count, handle))
            else:
                HANDLE_RETURN(compat_mem_discard_prefetch_batch(ptrs, sizes, count, targets, starts,
                                                                location_count, handle))
    finally:
        free(ptrs)
        free(sizes)
        free(targets)
        free(starts)
    return 0


# ---------------------------------------------------------------------------------------------
# Batches (exported by cuda.core.utils)

def prefetch_batch(stream, buffers, locations) -> None:
    """Prefetch each managed buffer of ``buffers`` to its location, ordered on ``stream``.

    ``locations`` is one Device or Host for all buffers, or a sequence of one per buffer.
    CUDA 13 issues one cuMemPrefetchBatchAsync (``stream`` must not be the legacy default
    stream); CUDA 12 one cuMemPrefetchAsync per buffer. For one buffer, use
    ``ManagedBuffer.prefetch``."""
    items = _batch_buffers(buffers, "prefetch_batch")
    targets = _batch_locations(locations, len(items), "prefetch_batch")
    for item in items:
        _require_managed(item)
    _run_batch(_PREFETCH, required_stream(stream), items, targets)


def discard_batch(stream, buffers) -> None:
    """Discard the contents of each managed buffer of ``buffers``, ordered on ``stream``: the
    pages are released without being migrated, and read as undefined until written (CUDA 13).
    For one buffer, use ``ManagedBuffer.discard``."""
    items = _batch_buffers(buffers, "discard_batch")
    cdef Stream ordered = required_stream(stream)
    for item in items:
        _require_managed(item)
    _require_discard("discard_batch")
    _run_batch(_DISCARD, ordered, items, [])


def discard_prefetch_batch(stream, buffers, locations) -> None:
    """Discard each managed buffer's contents and prefetch its pages to its location, ordered
    on ``stream`` (CUDA 13). ``locations`` as in ``prefetch_batch``. For one buffer, use
    ``ManagedBuffer.discard_prefetch``."""
    items = _batch_buffers(buffers, "discard_prefetch_batch")
    targets = _batch_locations(locations, len(items), "discard_prefetch_batch")
    cdef Stream ordered = required_stream(stream)
    for item in items:
        _require_managed(item)
    _require_discard("discard_prefetch_batch")
    _run_batch(_DISCARD_PREFETCH, ordered, items, targets)


# ---------------------------------------------------------------------------------------------
# One buffer (ManagedBuffer's methods and properties)

def _do_single_prefetch_py(Buffer buf, location, stream) -> None:
    """Prefetch ``buf`` to ``location`` on ``stream`` (cuMemPrefetchAsync, either major)."""
    cdef cydriver.CUmemLocation target
    fill_location(&target, _coerce_location(location))
    _require_managed(buf)
    cdef cydriver.CUstream handle = required_stream(stream)._live_handle()
    cdef cydriver.CUdeviceptr ptr = buf._ptr
    cdef size_t size = buf._size
    if size:
        with nogil:
            HANDLE_RETURN(compat_mem_prefetch(ptr, size, target, handle))


def _do_single_discard_py(Buffer buf, stream) -> None:
    """Discard ``buf``'s contents on ``stream`` (CUDA 13)."""
    _require_managed(buf)
    cdef Stream ordered = required_stream(stream)
    _require_discard("ManagedBuffer.discard")
    if buf._size:
        _run_batch(_DISCARD, ordered, [buf], [])


def _do_single_discard_prefetch_py(Buffer buf, location, stream) -> None:
    """Discard ``buf``'s contents and prefetch it to ``location`` on ``stream`` (CUDA 13)."""
    spec = _coerce_location(location)
    _require_managed(buf)
    cdef Stream ordered = required_stream(stream)
    _require_discard("ManagedBuffer.discard_prefetch")
    if buf._size:
        _run_batch(_DISCARD_PREFETCH, ordered, [buf], [spec])


def _advise_one(Buffer buf, advice, location) -> None:
    """Apply ``advice`` (a CUmem_advise) for ``location`` (a Device, a Host, or None where the
    advice takes no location) to ``buf``."""
    cdef int code = int(advice)
    spec = _coerce_location(location, allow_none=code not in _ADVICE_NEEDING_LOCATION)
    if spec is not None and code in (cydriver.CU_MEM_ADVISE_SET_ACCESSED_BY,
                                     cydriver.CU_MEM_ADVISE_UNSET_ACCESSED_BY) \
            and spec.kind not in _ACCESSED_BY_KINDS:
        from cuda.bindings import driver
        raise ValueError(f"advise {driver.CUmem_advise(code).name} does not support location_type='{spec.kind}': "
                         f"accessed-by advice names a Device or the whole host, Host()")
    _require_managed(buf)
    cdef cydriver.CUmemLocation target
    fill_location(&target, spec)
    cdef cydriver.CUdeviceptr ptr = buf._ptr
    cdef size_t size = buf._size
    cdef cydriver.CUmem_advise how = <cydriver.CUmem_advise>code
    if size:
        with nogil:
            HANDLE_RETURN(compat_mem_advise(ptr, size, how, target))


def _range_int_attribute(Buffer buf, int attribute) -> int:
    """A 32-bit range attribute (cuMemRangeGetAttribute) of ``buf``'s whole range."""
    cdef cydriver.CUdeviceptr ptr = buf._live_ptr()
    cdef size_t size = buf._size
    cdef int value = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(&value, sizeof(int), <cydriver.CUmem_range_attribute>attribute,
                                                      ptr, size))
    return value


def _accessed_by_ids(Buffer buf) -> list:
    """The device ordinals (-1: the host) advised to access ``buf``'s whole range."""
    cdef cydriver.CUdeviceptr ptr = buf._live_ptr()
    cdef size_t size = buf._size
    cdef size_t slots = device_count() + 1
    cdef int* ids = <int*>malloc(slots * sizeof(int))
    if ids == NULL:
        raise MemoryError("no host memory left to read accessed-by advice")
    try:
        with nogil:
            HANDLE_RETURN(cydriver.cuMemRangeGetAttribute(ids, slots * sizeof(int),
                                                          cydriver.CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr, size))
        return [ids[i] for i in range(slots) if ids[i] != cydriver.CU_DEVICE_INVALID]
    finally:
        free(ids)


def _read_preferred_location_v2(Buffer buf):
    """``buf``'s preferred location: a Device, Host(), Host(numa_id=N), or None."""
    cdef cydriver.CUdeviceptr ptr = buf._live_ptr()
    cdef size_t size = buf._size
    cdef cydriver.CUmemLocation location
    ensure_driver()
    with nogil:
        HANDLE_RETURN(compat_mem_preferred_location(&location, ptr, size))
    from cuda.core._host import Host
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_DEVICE:
        from cuda.core._device import Device
        return Device(location.id)
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_HOST:
        return Host()
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_HOST_NUMA:
        return Host(numa_id=location.id)
    return None
