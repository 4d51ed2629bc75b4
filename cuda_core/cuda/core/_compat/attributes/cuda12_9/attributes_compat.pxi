# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Device attributes of cuda-bindings 12.9+ (every CUDA 13 release too). Beside
# ../before12_9: cuda_core_build.environment links cuda-config/attributes_compat.pxi to one of
# them by the cuda-bindings minor; each difference is one function here and one there.

cdef inline dict compat_bindings_12_9_device_attributes():
    # DeviceProperties names whose CUdevice_attribute cuda-bindings declares from 12.9 on.
    return {
        "vulkan_cig_supported": cydriver.CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED,
        "host_numa_virtual_memory_management_supported":
            cydriver.CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
        "host_numa_memory_pools_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED,
    }
