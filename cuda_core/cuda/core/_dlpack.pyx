# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""DLPack for cuda.core: export of memory and views as capsules that keep their owner alive, and
import of other libraries' capsules (StridedMemoryView)."""

from enum import IntEnum

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New, PyCapsule_SetName
from cpython.ref cimport PyObject, Py_XDECREF, Py_XINCREF
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc


class DLDeviceType(IntEnum):
    """The DLPack device types cuda.core's buffers are exported as (values of the DLPack spec)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLCUDAManaged = 13


# One allocation per export: the managed tensor first (so its address is the block's), then
# the shape and strides it points to (2 * ndim int64 values right after the struct).
cdef size_t _block_size(size_t header, int ndim) noexcept:
    return header + 2 * <size_t>max(ndim, 1) * sizeof(int64_t)


cdef void _release_legacy(DLManagedTensor* tensor) noexcept nogil:
    # The consumer is done (from any thread, GIL held or not): let go of the owner, free the block.
    if tensor == NULL:
        return
    with gil:
        Py_XDECREF(<PyObject*>tensor.manager_ctx)
    free(tensor)


cdef void _release_versioned(DLManagedTensorVersioned* tensor) noexcept nogil:
    if tensor == NULL:
        return
    with gil:
        Py_XDECREF(<PyObject*>tensor.manager_ctx)
    free(tensor)


cdef void _legacy_capsule_gone(object capsule) noexcept:
    # A capsule still named "dltensor" was never consumed: deleting its tensor is still ours to do.
    if PyCapsule_IsValid(capsule, b"dltensor"):
        _release_legacy(<DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor"))


cdef void _versioned_capsule_gone(object capsule) noexcept:
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        _release_versioned(<DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned"))


cdef void _describe(DLTensor* tensor, int64_t* room, const DLTensor* described) noexcept:
    # ``described``, with its shape and strides copied into the block's room (NULL strides
    # stay NULL: C-contiguous), so the tensor needs nothing of the exporter's memory.
    cdef int ndim = described.ndim
    cdef int axis
    tensor[0] = described[0]
    for axis in range(ndim):
        room[axis] = described.shape[axis]
        if described.strides != NULL:
            room[ndim + axis] = described.strides[axis]
    tensor.shape = room if ndim > 0 else NULL
    tensor.strides = room + ndim if described.strides != NULL and ndim > 0 else NULL


cdef DLManagedTensorVersioned* new_versioned_tensor(object owner, const DLTensor* described,
                                                    bint readonly) except NULL:
    cdef DLManagedTensorVersioned* tensor = <DLManagedTensorVersioned*>malloc(
        _block_size(sizeof(DLManagedTensorVersioned), described.ndim))
    if tensor == NULL:
        raise MemoryError("no host memory left for a DLPack tensor descriptor")
    tensor.version.major = DLPACK_MAJOR_VERSION
    tensor.version.minor = DLPACK_MINOR_VERSION
    tensor.flags = DLPACK_FLAG_BITMASK_READ_ONLY if readonly else 0
    tensor.manager_ctx = <void*>owner
    tensor.deleter = _release_versioned
    _describe(&tensor.dl_tensor, <int64_t*>(tensor + 1), described)
    Py_XINCREF(<PyObject*>owner)
    return tensor


cdef object export_tensor(object owner, const DLTensor* described, bint versioned, bint readonly):
    cdef DLManagedTensorVersioned* new_tensor
    cdef DLManagedTensor* old_tensor
    if versioned:
        new_tensor = new_versioned_tensor(owner, described, readonly)
        try:
            return PyCapsule_New(new_tensor, b"dltensor_versioned", _versioned_capsule_gone)
        except BaseException:
            _release_versioned(new_tensor)
            raise
    old_tensor = <DLManagedTensor*>malloc(_block_size(sizeof(DLManagedTensor), described.ndim))
    if old_tensor == NULL:
        raise MemoryError("no host memory left for a DLPack tensor descriptor")
    old_tensor.manager_ctx = <void*>owner
    old_tensor.deleter = _release_legacy
    _describe(&old_tensor.dl_tensor, <int64_t*>(old_tensor + 1), described)
    Py_XINCREF(<PyObject*>owner)
    try:
        return PyCapsule_New(old_tensor, b"dltensor", _legacy_capsule_gone)
    except BaseException:
        _release_legacy(old_tensor)
        raise


cdef object export_bytes(object owner, void* data, size_t size, bint versioned, int device_type, int device_id):
    # The bytes as a 1-D, contiguous int8 tensor of length size.
    cdef int64_t length = <int64_t>size
    cdef int64_t unit = 1
    cdef DLTensor described
    described.data = data
    described.device.device_type = device_type
    described.device.device_id = device_id
    described.ndim = 1
    described.dtype.code = kDLInt
    described.dtype.bits = 8
    described.dtype.lanes = 1
    described.shape = &length
    described.strides = &unit
    described.byte_offset = 0
    return export_tensor(owner, &described, versioned, False)


# ---- import ----

cdef int import_capsule(object capsule, ImportedTensor* out) except -1:
    cdef DLManagedTensor* old_tensor
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        adopt_versioned(<DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned"), out)
        PyCapsule_SetName(capsule, b"used_dltensor_versioned")
        return 0
    if PyCapsule_IsValid(capsule, b"dltensor"):
        old_tensor = <DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor")
        PyCapsule_SetName(capsule, b"used_dltensor")
        out.versioned = NULL
        out.legacy = old_tensor
        out.tensor = &old_tensor.dl_tensor
        out.readonly = False
        return 0
    raise BufferError("__dlpack__() did not return an unconsumed DLPack capsule (named 'dltensor' or "
                      "'dltensor_versioned')")


cdef int adopt_versioned(DLManagedTensorVersioned* tensor, ImportedTensor* out) except -1:
    if tensor.version.major > DLPACK_MAJOR_VERSION:
        raise BufferError(f"the DLPack tensor is of version {tensor.version.major}.{tensor.version.minor}; "
                          f"cuda.core reads DLPack up to {DLPACK_MAJOR_VERSION}.{DLPACK_MINOR_VERSION}")
    out.versioned = tensor
    out.legacy = NULL
    out.tensor = &tensor.dl_tensor
    out.readonly = (tensor.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0
    return 0


cdef void release_imported(ImportedTensor* imported) noexcept:
    cdef DLManagedTensorVersioned* new_tensor = imported.versioned
    cdef DLManagedTensor* old_tensor = imported.legacy
    imported.versioned = NULL
    imported.legacy = NULL
    imported.tensor = NULL
    if new_tensor != NULL and new_tensor.deleter != NULL:
        new_tensor.deleter(new_tensor)
    elif old_tensor != NULL and old_tensor.deleter != NULL:
        old_tensor.deleter(old_tensor)
