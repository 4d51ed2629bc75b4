// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
/*
 * Declarations of the part of PyTorch's AOT Inductor stable C ABI ("AOTI shim",
 * torch/csrc/inductor/aoti_torch/c/shim.h in PyTorch) that reads a tensor's memory, layout,
 * dtype and device: enough to view a torch.Tensor without compiling against PyTorch.
 *
 * Only declarations: libtorch defines these symbols. An extension that calls them is linked
 * without PyTorch and resolves them when it is loaded into a process where libtorch's symbols
 * are global (on Linux, after ctypes.CDLL(torch._C.__file__, mode=ctypes.RTLD_GLOBAL)); on
 * Windows they come from torch_cpu.dll through an import library.
 *
 * Every function returning AOTITorchError returns 0 on success.
 */

#ifndef CUDA_CORE_AOTI_SHIM_H
#define CUDA_CORE_AOTI_SHIM_H

#include <stdint.h>

#ifdef _WIN32
#define AOTI_SHIM_API __declspec(dllimport)
#else
#define AOTI_SHIM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 0 on success. */
typedef int32_t AOTITorchError;

/* A tensor (an at::Tensor inside libtorch), seen only through these functions. */
struct AtenTensorOpaque;
typedef struct AtenTensorOpaque* AtenTensorHandle;

/* Memory and layout: the data pointer, the number of dimensions, and pointers to the
 * tensor's own extents and strides (in elements), valid while the tensor lives. */
AOTI_SHIM_API AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr);
AOTI_SHIM_API AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t* ret_dim);
AOTI_SHIM_API AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes);
AOTI_SHIM_API AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t** ret_strides);

/* The dtype code of a tensor, and the code of each dtype to compare it with (libtorch's
 * numbering, asked for rather than assumed). */
AOTI_SHIM_API AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype);
AOTI_SHIM_API int32_t aoti_torch_dtype_float16(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_float32(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_float64(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_bfloat16(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_uint8(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_uint16(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_uint32(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_uint64(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_int8(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_int16(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_int32(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_int64(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_bool(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_complex32(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_complex64(void);
AOTI_SHIM_API int32_t aoti_torch_dtype_complex128(void);

/* The device type code and index of a tensor, and the codes of the host and of CUDA. */
AOTI_SHIM_API AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t* ret_device_type);
AOTI_SHIM_API AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t* ret_device_index);
AOTI_SHIM_API int32_t aoti_torch_device_type_cpu(void);
AOTI_SHIM_API int32_t aoti_torch_device_type_cuda(void);

/* (The current CUDA stream, aoti_torch_get_current_cuda_stream, lives in libtorch_cuda rather
 * than libtorch_cpu and is not declared here: look it up at run time where CUDA torch loaded.) */

#ifdef __cplusplus
}
#endif

#endif /* CUDA_CORE_AOTI_SHIM_H */
