# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Batched copies between Buffers: cuda.core.utils.copy_batch, one cuMemcpyBatchAsync for
many (source, destination) pairs with per-copy hints (CopyOptions)."""

cimport cuda.bindings.cydriver as cydriver
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from cuda.core._memory._buffer cimport Buffer, required_stream
from cuda.core._memory._managed_memory_ops cimport fill_location
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

from cuda.core._memory._copy_enums import CopyOptions, MemcpyOverlapMode, MemcpySrcAccessOrder
from cuda.core._memory._managed_location import _coerce_location

# compat_memcpy_batch: CUDA 12's cuMemcpyBatchAsync reports the failing copy, 13's does not.
include "driver_compat.pxi"

__all__ = ['copy_batch']

_ACCESS_ORDERS = {
    MemcpySrcAccessOrder.STREAM: cydriver.CU_MEMCPY_SRC_ACCESS_ORDER_STREAM,
    MemcpySrcAccessOrder.DURING_API_CALL: cydriver.CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL,
    MemcpySrcAccessOrder.ANY: cydriver.CU_MEMCPY_SRC_ACCESS_ORDER_ANY,
}
_OVERLAP_FLAGS = {
    MemcpyOverlapMode.DEFAULT: cydriver.CU_MEMCPY_FLAG_DEFAULT,
    MemcpyOverlapMode.PREFER_OVERLAP_WITH_COMPUTE: cydriver.CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE,
}


def _normalize_copy_options(options, Py_ssize_t n) -> tuple:
    """One CopyOptions per copy: None is the defaults for all, one CopyOptions (or dict)
    applies to all, a sequence gives one each."""
    if options is None:
        return (CopyOptions(),) * n
    if isinstance(options, (CopyOptions, dict)):
        return (_as_options(options),) * n
    if isinstance(options, (str, bytes)) or not hasattr(options, "__len__"):
        raise TypeError(f"options must be a CopyOptions, a sequence of them, or None; got {type(options).__name__}")
    if len(options) != n:
        raise ValueError(f"options has {len(options)} entries for {n} copies: give one CopyOptions, or one per copy")
    return tuple(_as_options(option) for option in options)


cdef object _as_options(object option):
    if isinstance(option, CopyOptions):
        return option
    if isinstance(option, dict):
        return CopyOptions(**option)
    raise TypeError(f"each copy's options must be a CopyOptions (or a dict of its fields), got {type(option).__name__}")


cdef int _fill_attributes(cydriver.CUmemcpyAttributes* out, object option) except -1:
    # Zeroed first: a location hint left out stays the invalid type, which the driver reads as "none".
    memset(out, 0, sizeof(cydriver.CUmemcpyAttributes))
    out.srcAccessOrder = _ACCESS_ORDERS[option.src_access_order]
    out.flags = _OVERLAP_FLAGS[option.overlap_mode]
    if option.src_location_hint is not None:
        fill_location(&out.srcLocHint, _coerce_location(option.src_location_hint))
    if option.dst_location_hint is not None:
        fill_location(&out.dstLocHint, _coerce_location(option.dst_location_hint))
    return 0


cdef list _buffers(object values, str what):
    if isinstance(values, Buffer) or not hasattr(values, "__len__"):
        raise TypeError(f"{what} must be a sequence of Buffers, got {type(values).__name__}")
    result = list(values)
    for index, value in enumerate(result):
        if not isinstance(value, Buffer):
            raise TypeError(f"{what}[{index}] must be a Buffer, got {type(value).__name__}")
    return result


def copy_batch(stream, srcs, dsts, *, options=None) -> None:
    """Copy each ``srcs[i]`` into ``dsts[i]`` (of equal sizes) in one batched driver call,
    ordered on ``stream``. ``options``: None, one CopyOptions for every copy, or one per copy;
    consecutive copies with equal options share one set of driver attributes."""
    cdef Stream target = required_stream(stream)
    cdef list sources = _buffers(srcs, "srcs")
    cdef list destinations = _buffers(dsts, "dsts")
    cdef Py_ssize_t count = len(sources)
    if count != len(destinations):
        raise ValueError(f"srcs has {count} buffers and dsts {len(destinations)}: each copy needs both")
    if count == 0:
        raise ValueError("copy_batch needs at least one copy (srcs and dsts are empty)")
    cdef tuple per_copy = _normalize_copy_options(options, count)
    for index in range(count):
        if (<Buffer>sources[index])._size != (<Buffer>destinations[index])._size:
            raise ValueError(f"copy {index}: the source has {(<Buffer>sources[index])._size} bytes and the "
                             f"destination {(<Buffer>destinations[index])._size}; a copy needs equal sizes")
    # Runs of equal options: attributes[k] applies from copy starts[k] on.
    runs = [index for index in range(count) if index == 0 or per_copy[index] != per_copy[index - 1]]
    cdef size_t run_count = len(runs)
    cdef cydriver.CUdeviceptr* to = <cydriver.CUdeviceptr*>malloc(count * sizeof(cydriver.CUdeviceptr))
    cdef cydriver.CUdeviceptr* source = <cydriver.CUdeviceptr*>malloc(count * sizeof(cydriver.CUdeviceptr))
    cdef size_t* sizes = <size_t*>malloc(count * sizeof(size_t))
    cdef cydriver.CUmemcpyAttributes* attributes = <cydriver.CUmemcpyAttributes*>malloc(
        run_count * sizeof(cydriver.CUmemcpyAttributes))
    cdef size_t* starts = <size_t*>malloc(run_count * sizeof(size_t))
    cdef size_t failed = <size_t>-1
    cdef cydriver.CUstream handle = target._live_handle()
    cdef cydriver.CUresult result
    try:
        if to == NULL or source == NULL or sizes == NULL or attributes == NULL or starts == NULL:
            raise MemoryError()
        for index in range(count):
            to[index] = (<Buffer>destinations[index])._live_ptr()
            source[index] = (<Buffer>sources[index])._live_ptr()
            sizes[index] = (<Buffer>sources[index])._size
        for run, start in enumerate(runs):
            starts[run] = start
            _fill_attributes(&attributes[run], per_copy[start])
        with nogil:
            result = compat_memcpy_batch(to, source, sizes, <size_t>count, attributes, starts, run_count, &failed,
                                         handle)
        if result != cydriver.CUDA_SUCCESS and failed < <size_t>count:
            from cuda.core._utils.cuda_utils import CUDAError, error_for_result
            error = error_for_result(<int>result)
            raise CUDAError(<int>result, error.name, f"{error.description} (copy {failed} of the batch failed)")
        HANDLE_RETURN(result)
    finally:
        free(to)
        free(source)
        free(sizes)
        free(attributes)
        free(starts)
