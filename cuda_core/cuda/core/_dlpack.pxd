# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# DLPack, declared here from the DLPack specification (https://dmlc.github.io/dlpack/latest/),
# and the one exporter of cuda.core's memory as DLPack capsules.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# DLDeviceType values cuda.core exports and imports.
cdef enum:
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLCUDAManaged = 13

# DLDataTypeCode values.
cdef enum:
    kDLInt = 0
    kDLUInt = 1
    kDLFloat = 2
    kDLOpaqueHandle = 3
    kDLBfloat = 4
    kDLComplex = 5
    kDLBool = 6

# The DLPack version cuda.core speaks, and the read-only flag of a versioned tensor.
cdef enum:
    DLPACK_MAJOR_VERSION = 1
    DLPACK_MINOR_VERSION = 0
    DLPACK_FLAG_BITMASK_READ_ONLY = 1


cdef struct DLDevice:
    int32_t device_type  # a DLDeviceType: a C enum, int-sized
    int32_t device_id


cdef struct DLDataType:
    uint8_t code
    uint8_t bits
    uint16_t lanes


cdef struct DLTensor:
    void* data
    DLDevice device
    int32_t ndim
    DLDataType dtype
    int64_t* shape
    int64_t* strides
    uint64_t byte_offset


cdef struct DLManagedTensor:
    DLTensor dl_tensor
    void* manager_ctx
    void (*deleter)(DLManagedTensor*) noexcept nogil


cdef struct DLPackVersion:
    uint32_t major
    uint32_t minor


cdef struct DLManagedTensorVersioned:
    DLPackVersion version
    void* manager_ctx
    void (*deleter)(DLManagedTensorVersioned*) noexcept nogil
    uint64_t flags
    DLTensor dl_tensor


# A capsule, versioned or legacy, over the tensor ``described`` (its shape and strides, in
# elements, are copied; NULL strides: C-contiguous); it holds a reference to ``owner`` until
# its consumer releases it.
cdef object export_tensor(object owner, const DLTensor* described, bint versioned, bint readonly)

# The versioned managed tensor export_tensor wraps in a capsule, for C consumers.
cdef DLManagedTensorVersioned* new_versioned_tensor(object owner, const DLTensor* described,
                                                    bint readonly) except NULL

# A consumed DLPack tensor: exactly one of versioned and legacy is set while it is held.
cdef struct ImportedTensor:
    DLManagedTensorVersioned* versioned
    DLManagedTensor* legacy
    DLTensor* tensor
    bint readonly

# Consume ``capsule`` (renamed "used_..."), filling ``out``; BufferError for anything else.
cdef int import_capsule(object capsule, ImportedTensor* out) except -1

# Take ownership of a versioned tensor a C producer hands over (no capsule).
cdef int adopt_versioned(DLManagedTensorVersioned* tensor, ImportedTensor* out) except -1

# Call the producer's deleter of an imported tensor, once.
cdef void release_imported(ImportedTensor* imported) noexcept

# A capsule over ``size`` bytes at ``data`` as a 1-D int8 tensor, versioned or legacy; the
# tensor holds a reference to ``owner`` until its consumer releases it.
cdef object export_bytes(object owner, void* data, size_t size, bint versioned, int device_type, int device_id)
