"""DLPack export of cuda.core memory: capsules over raw bytes that keep their owner alive."""

from enum import IntEnum

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
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
# the 1-D shape and strides it points to.
cdef struct _LegacyExport:
    DLManagedTensor tensor
    int64_t shape
    int64_t stride


cdef struct _VersionedExport:
    DLManagedTensorVersioned tensor
    int64_t shape
    int64_t stride


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


cdef void _describe(DLTensor* tensor, void* data, size_t size, int64_t* shape, int64_t* stride,
                    int device_type, int device_id) noexcept:
    # The bytes as a 1-D, contiguous int8 tensor of length size.
    tensor.data = data
    tensor.device.device_type = device_type
    tensor.device.device_id = device_id
    tensor.ndim = 1
    tensor.dtype.code = kDLInt
    tensor.dtype.bits = 8
    tensor.dtype.lanes = 1
    shape[0] = <int64_t>size
    stride[0] = 1
    tensor.shape = shape
    tensor.strides = stride
    tensor.byte_offset = 0


cdef object export_bytes(object owner, void* data, size_t size, bint versioned, int device_type, int device_id):
    cdef _VersionedExport* new_block
    cdef _LegacyExport* old_block
    if versioned:
        new_block = <_VersionedExport*>malloc(sizeof(_VersionedExport))
        if new_block == NULL:
            raise MemoryError("no host memory left for a DLPack tensor descriptor")
        new_block.tensor.version.major = 1
        new_block.tensor.version.minor = 0
        new_block.tensor.flags = 0  # writable, and not a copy
        new_block.tensor.manager_ctx = <void*>owner
        new_block.tensor.deleter = _release_versioned
        _describe(&new_block.tensor.dl_tensor, data, size, &new_block.shape, &new_block.stride,
                  device_type, device_id)
        Py_XINCREF(<PyObject*>owner)
        try:
            return PyCapsule_New(new_block, b"dltensor_versioned", _versioned_capsule_gone)
        except BaseException:
            _release_versioned(&new_block.tensor)
            raise
    old_block = <_LegacyExport*>malloc(sizeof(_LegacyExport))
    if old_block == NULL:
        raise MemoryError("no host memory left for a DLPack tensor descriptor")
    old_block.tensor.manager_ctx = <void*>owner
    old_block.tensor.deleter = _release_legacy
    _describe(&old_block.tensor.dl_tensor, data, size, &old_block.shape, &old_block.stride,
              device_type, device_id)
    Py_XINCREF(<PyObject*>owner)
    try:
        return PyCapsule_New(old_block, b"dltensor", _legacy_capsule_gone)
    except BaseException:
        _release_legacy(&old_block.tensor)
        raise
