# DLPack, declared here from the DLPack specification (https://dmlc.github.io/dlpack/latest/),
# and the one exporter of cuda.core's memory as DLPack capsules.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# DLDeviceType values cuda.core exports, and DLDataTypeCode kDLInt.
cdef enum:
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLCUDAManaged = 13
    kDLInt = 0


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


# A capsule over ``size`` bytes at ``data`` as a 1-D int8 tensor, versioned or legacy; the
# tensor holds a reference to ``owner`` until its consumer releases it.
cdef object export_bytes(object owner, void* data, size_t size, bint versioned, int device_type, int device_id)
