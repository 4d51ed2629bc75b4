// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
/*
 * DLPack, the in-memory tensor exchange ABI, declared for cuda.core's downstream extensions
 * from the DLPack specification (https://dmlc.github.io/dlpack/latest/), version 1.3: the
 * device and data type descriptions, the plain, managed and versioned managed tensors, the
 * flags of a versioned tensor, and the C exchange API a Python type publishes as
 * __dlpack_c_exchange_api__.
 *
 * The include guard is the one DLPack's own header uses, so a translation unit that includes
 * both gets one set of declarations.
 */

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif

/* The version of the ABI declared here. */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3

/* Symbol visibility for libraries that export DLPack functions on Windows. */
#ifdef _WIN32
#ifdef DLPACK_EXPORTS
#define DLPACK_DLL __declspec(dllexport)
#else
#define DLPACK_DLL __declspec(dllimport)
#endif
#else
#define DLPACK_DLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A DLPack ABI version: a consumer must not read a tensor of a major it does not know. */
typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

/* Where the memory of a tensor lives. The values are fixed by the specification; the type is
 * 32 bits wide in C++ as in C. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
    kDLCPU = 1,          /* host memory */
    kDLCUDA = 2,         /* CUDA device memory */
    kDLCUDAHost = 3,     /* pinned host memory (cudaMallocHost) */
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,        /* ROCm device memory */
    kDLROCMHost = 11,    /* pinned host memory (hipMallocHost) */
    kDLExtDev = 12,      /* reserved for extension devices */
    kDLCUDAManaged = 13, /* CUDA managed (unified) memory (cudaMallocManaged) */
    kDLOneAPI = 14,      /* oneAPI unified shared memory */
    kDLWebGPU = 15,
    kDLHexagon = 16,     /* Qualcomm Hexagon DSP */
    kDLMAIA = 17,        /* Microsoft MAIA */
    kDLTrn = 18,         /* AWS Trainium */
} DLDeviceType;

/* A device: its type and its ordinal among the devices of that type (0 for the host). */
typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;

/* The kind of number an element holds (DLDataType.code). */
typedef enum {
    kDLInt = 0U,
    kDLUInt = 1U,
    kDLFloat = 2U,
    kDLOpaqueHandle = 3U, /* opaque bytes: only their size is known */
    kDLBfloat = 4U,
    kDLComplex = 5U,      /* real and imaginary parts side by side, each bits / 2 wide */
    kDLBool = 6U,
    /* 8-bit floats, by exponent and mantissa widths and their special-value conventions */
    kDLFloat8_e3m4 = 7U,
    kDLFloat8_e4m3 = 8U,
    kDLFloat8_e4m3b11fnuz = 9U,
    kDLFloat8_e4m3fn = 10U,
    kDLFloat8_e4m3fnuz = 11U,
    kDLFloat8_e5m2 = 12U,
    kDLFloat8_e5m2fnuz = 13U,
    kDLFloat8_e8m0fnu = 14U,
    /* sub-byte floats (bits 6 and 4) */
    kDLFloat6_e2m3fn = 15U,
    kDLFloat6_e3m2fn = 16U,
    kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

/* An element type: its code (a DLDataTypeCode), its width in bits, and its number of lanes
 * (1 for scalars, more for vector types). float32 is {kDLFloat, 32, 1}. */
typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

/* A strided tensor, borrowed: nobody owns its memory through this struct. */
typedef struct {
    /* The base address: a host pointer, or an address in the device's own space (a CUdeviceptr
     * for CUDA). */
    void* data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    /* ndim extents. */
    int64_t* shape;
    /* ndim strides, in elements (not bytes); NULL means compact row-major (C order). */
    int64_t* strides;
    /* Bytes from data to the first element. */
    uint64_t byte_offset;
} DLTensor;

/* A tensor with the means to release it (DLPack before 1.0): the consumer calls deleter(self)
 * once, when done. */
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    /* The producer's own context, for its deleter. */
    void* manager_ctx;
    /* Releases the tensor; NULL when there is nothing to release. */
    void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/* Flags of DLManagedTensorVersioned.flags. */
/* The consumer must not write the memory. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/* The producer copied the data for this export: writes do not reach the original. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/* Sub-byte elements are each padded to a whole byte rather than packed. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/* A tensor with its ABI version, flags and release function (DLPack 1.0 and later). A consumer
 * checks version.major before reading anything after it. */
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void* manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned* self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* ---- The C exchange API -------------------------------------------------------------------
 * A Python type publishes one static DLPackExchangeAPI, as a capsule named
 * "dlpack_exchange_api" in its __dlpack_c_exchange_api__ attribute, so native code exchanges
 * tensors without calling __dlpack__. Every function returns 0 on success and -1 on failure,
 * with a Python exception set unless said otherwise. "NoSync" functions order nothing between
 * streams: the caller orders the work itself (current_work_stream says on what stream). */

/* A new versioned managed tensor like `prototype` (its device, dtype, ndim and shape), its
 * memory allocated by the producer; on failure it calls SetError(error_ctx, kind, message)
 * instead of setting a Python exception. */
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));

/* The tensor of the Python object `py_object` (a PyObject*), owned by the caller. */
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void* py_object, DLManagedTensorVersioned** out);

/* The tensor of `py_object`, borrowed: valid while the object lives and is not changed. */
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void* py_object, DLTensor* out);

/* The stream the producer's framework currently works on, for the device given. */
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id, void** out_current_stream);

/* A new Python object (a new reference, as a PyObject*) that takes ownership of `tensor`. */
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned* tensor, void** out_py_object);

/* The start of every exchange API table: the version of the table, and an older table the
 * producer still offers (NULL if none). */
typedef struct DLPackExchangeAPIHeader {
    DLPackVersion version;
    struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

/* The exchange API table. */
typedef struct DLPackExchangeAPI {
    DLPackExchangeAPIHeader header;
    DLPackManagedTensorAllocator managed_tensor_allocator;
    DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
    DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
    DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
    DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* DLPACK_DLPACK_H_ */
