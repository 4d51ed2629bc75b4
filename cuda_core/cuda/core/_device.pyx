# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.Device and DeviceProperties: one CUDA device, its attributes and its contexts."""

import operator
import threading

cimport cuda.bindings.cydriver as cydriver
cimport cython
from cuda.core._context cimport Context, Context_check_open, Context_handle, context_from_address
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, device_count, ensure_driver

from cuda.core._utils.cuda_utils import ComputeCapability, CUDAError, DriverNotFoundError

# compat_device_get_uuid: cuDeviceGetUuid on 13, cuDeviceGetUuid_v2 on 12.
# compat_major_only_device_attributes: the CUDA 13-only CUdevice_attribute values by property name.
include "driver_compat.pxi"
include "attributes_compat.pxi"

__all__ = ['Device']

cdef extern from "uuid_format.hpp" nogil:
    void cuda_core_format_uuid(const unsigned char* bytes, char* out)


# ----------------------------------------------------------------------------------------
# DeviceProperties

# Every DeviceProperties attribute: (name, Python type, CUdevice_attribute, description).
# Where only some builds have the attribute (CUDA 13 on, or cuda-bindings 12.9 on), the table
# names what it needs instead; the compat layer gives the attribute to the builds that have
# it, and without it the property raises AttributeError naming that need.
def _property_table() -> tuple:
    """The rows of _PROPERTIES, appended one at a time. As one tuple literal, every row was a live
    temporary of the module's init code at once, which the C compiler turned into code
    quadratic in the rows (406 of the module's 595 KiB)."""
    cdef list table = []
    table.append(("max_threads_per_block", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                  "Most threads a block can have."))
    table.append(("max_block_dim_x", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                  "Largest block size along x, in threads."))
    table.append(("max_block_dim_y", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                  "Largest block size along y, in threads."))
    table.append(("max_block_dim_z", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
                  "Largest block size along z, in threads."))
    table.append(("max_grid_dim_x", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                  "Largest grid size along x, in blocks."))
    table.append(("max_grid_dim_y", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                  "Largest grid size along y, in blocks."))
    table.append(("max_grid_dim_z", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
                  "Largest grid size along z, in blocks."))
    table.append(("max_shared_memory_per_block", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                  "Shared memory a block can use by default, in bytes."))
    table.append(("total_constant_memory", int, cydriver.CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
                  "Constant memory (__constant__ variables) of the device, in bytes."))
    table.append(("warp_size", int, cydriver.CU_DEVICE_ATTRIBUTE_WARP_SIZE,
                  "Threads per warp."))
    table.append(("max_pitch", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_PITCH,
                  "Largest pitch that memory copies accept, in bytes."))
    table.append(("maximum_texture1d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH,
                  "Largest width of a 1D texture."))
    table.append(("maximum_texture1d_linear_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH,
                  "Largest width of a 1D texture over linear memory."))
    table.append(("maximum_texture1d_mipmapped_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH,
                  "Largest width of a mipmapped 1D texture."))
    table.append(("maximum_texture2d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
                  "Largest width of a 2D texture."))
    table.append(("maximum_texture2d_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
                  "Largest height of a 2D texture."))
    table.append(("maximum_texture2d_linear_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH,
                  "Largest width of a 2D texture over linear memory."))
    table.append(("maximum_texture2d_linear_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT,
                  "Largest height of a 2D texture over linear memory."))
    table.append(("maximum_texture2d_linear_pitch", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH,
                  "Largest pitch of a 2D texture over linear memory, in bytes."))
    table.append(("maximum_texture2d_mipmapped_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH,
                  "Largest width of a mipmapped 2D texture."))
    table.append(("maximum_texture2d_mipmapped_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT,
                  "Largest height of a mipmapped 2D texture."))
    table.append(("maximum_texture3d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
                  "Largest width of a 3D texture."))
    table.append(("maximum_texture3d_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
                  "Largest height of a 3D texture."))
    table.append(("maximum_texture3d_depth", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH,
                  "Largest depth of a 3D texture."))
    table.append(("maximum_texture3d_width_alternate", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE,
                  "Alternate largest width of a 3D texture (0 without an alternate limit)."))
    table.append(("maximum_texture3d_height_alternate", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE,
                  "Alternate largest height of a 3D texture (0 without an alternate limit)."))
    table.append(("maximum_texture3d_depth_alternate", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE,
                  "Alternate largest depth of a 3D texture (0 without an alternate limit)."))
    table.append(("maximum_texturecubemap_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH,
                  "Largest width (and height) of a cubemap texture."))
    table.append(("maximum_texture1d_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH,
                  "Largest width of a layered 1D texture."))
    table.append(("maximum_texture1d_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS,
                  "Most layers of a layered 1D texture."))
    table.append(("maximum_texture2d_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH,
                  "Largest width of a layered 2D texture."))
    table.append(("maximum_texture2d_layered_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT,
                  "Largest height of a layered 2D texture."))
    table.append(("maximum_texture2d_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
                  "Most layers of a layered 2D texture."))
    table.append(("maximum_texturecubemap_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH,
                  "Largest width (and height) of a layered cubemap texture."))
    table.append(("maximum_texturecubemap_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS,
                  "Most layers of a layered cubemap texture."))
    table.append(("maximum_surface1d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH,
                  "Largest width of a 1D surface."))
    table.append(("maximum_surface2d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH,
                  "Largest width of a 2D surface."))
    table.append(("maximum_surface2d_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT,
                  "Largest height of a 2D surface."))
    table.append(("maximum_surface3d_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH,
                  "Largest width of a 3D surface."))
    table.append(("maximum_surface3d_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT,
                  "Largest height of a 3D surface."))
    table.append(("maximum_surface3d_depth", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH,
                  "Largest depth of a 3D surface."))
    table.append(("maximum_surface1d_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH,
                  "Largest width of a layered 1D surface."))
    table.append(("maximum_surface1d_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS,
                  "Most layers of a layered 1D surface."))
    table.append(("maximum_surface2d_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH,
                  "Largest width of a layered 2D surface."))
    table.append(("maximum_surface2d_layered_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT,
                  "Largest height of a layered 2D surface."))
    table.append(("maximum_surface2d_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS,
                  "Most layers of a layered 2D surface."))
    table.append(("maximum_surfacecubemap_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH,
                  "Largest width (and height) of a cubemap surface."))
    table.append(("maximum_surfacecubemap_layered_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH,
                  "Largest width (and height) of a layered cubemap surface."))
    table.append(("maximum_surfacecubemap_layered_layers", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS,
                  "Most layers of a layered cubemap surface."))
    table.append(("max_registers_per_block", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
                  "32-bit registers available to one block."))
    table.append(("clock_rate", int, cydriver.CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
                  "Typical clock rate, in kHz."))
    table.append(("texture_alignment", int, cydriver.CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
                  "Alignment that texture base addresses need, in bytes."))
    table.append(("texture_pitch_alignment", int, cydriver.CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT,
                  "Alignment that the pitch of pitched textures needs, in bytes."))
    table.append(("gpu_overlap", bool, cydriver.CU_DEVICE_ATTRIBUTE_GPU_OVERLAP,
                  "Whether the device can copy memory while it runs a kernel (deprecated: see async_engine_count)."))
    table.append(("multiprocessor_count", int, cydriver.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                  "Number of streaming multiprocessors (SMs)."))
    table.append(("kernel_exec_timeout", bool, cydriver.CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT,
                  "Whether kernels have a run-time limit (e.g. a watchdog on a display GPU)."))
    table.append(("integrated", bool, cydriver.CU_DEVICE_ATTRIBUTE_INTEGRATED,
                  "Whether the device is integrated with the host memory system."))
    table.append(("can_map_host_memory", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
                  "Whether host memory can be mapped into the device's address space."))
    table.append(("compute_mode", int, cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_MODE,
                  "Compute mode (a CUcomputemode value)."))
    table.append(("concurrent_kernels", bool, cydriver.CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS,
                  "Whether the device may run several kernels at once."))
    table.append(("ecc_enabled", bool, cydriver.CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
                  "Whether ECC is enabled on the device memory."))
    table.append(("pci_bus_id", int, cydriver.CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
                  "PCI bus number of the device."))
    table.append(("pci_device_id", int, cydriver.CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID,
                  "PCI device (slot) number of the device."))
    table.append(("pci_domain_id", int, cydriver.CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
                  "PCI domain number of the device."))
    table.append(("tcc_driver", bool, cydriver.CU_DEVICE_ATTRIBUTE_TCC_DRIVER,
                  "Whether the device runs under the TCC driver model (Windows)."))
    table.append(("memory_clock_rate", int, cydriver.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                  "Peak memory clock rate, in kHz."))
    table.append(("global_memory_bus_width", int, cydriver.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                  "Width of the global memory bus, in bits."))
    table.append(("l2_cache_size", int, cydriver.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                  "L2 cache size, in bytes."))
    table.append(("max_threads_per_multiprocessor", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                  "Most threads resident on one SM."))
    table.append(("unified_addressing", bool, cydriver.CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
                  "Whether the device shares one virtual address space with the host."))
    table.append(("compute_capability_major", int, cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                  "Major number of the compute capability."))
    table.append(("compute_capability_minor", int, cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                  "Minor number of the compute capability."))
    table.append(("global_l1_cache_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED,
                  "Whether global memory accesses can be cached in L1."))
    table.append(("local_l1_cache_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED,
                  "Whether local memory accesses can be cached in L1."))
    table.append(("max_shared_memory_per_multiprocessor", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                  "Shared memory of one SM, in bytes."))
    table.append(("max_registers_per_multiprocessor", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
                  "32-bit registers of one SM."))
    table.append(("managed_memory", bool, cydriver.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
                  "Whether managed (unified) memory can be allocated for the device."))
    table.append(("multi_gpu_board", bool, cydriver.CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD,
                  "Whether the device sits on a board with other GPUs."))
    table.append(("multi_gpu_board_group_id", int, cydriver.CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID,
                  "Identifier shared by the devices of one multi-GPU board."))
    table.append(("host_native_atomic_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED,
                  "Whether the host link supports all native atomic operations."))
    table.append(("single_to_double_precision_perf_ratio", int, cydriver.CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO,
                  "Single-precision to double-precision throughput ratio."))
    table.append(("pageable_memory_access", bool, cydriver.CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
                  "Whether the device accesses pageable host memory coherently, without registration."))
    table.append(("concurrent_managed_access", bool, cydriver.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                  "Whether device and host can access managed memory concurrently and coherently."))
    table.append(("compute_preemption_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED,
                  "Whether compute work can be preempted."))
    table.append(("can_use_host_pointer_for_registered_mem", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
                  "Whether registered host memory has the same address on the device as on the host."))
    table.append(("cooperative_launch", bool, cydriver.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH,
                  "Whether cooperative kernels can be launched."))
    table.append(("max_shared_memory_per_block_optin", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                  "Shared memory a block can use when it opts in, in bytes."))
    table.append(("pageable_memory_access_uses_host_page_tables", bool, cydriver.CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
                  "Whether pageable memory is accessed through the host's page tables."))
    table.append(("direct_managed_mem_access_from_host", bool, cydriver.CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST,
                  "Whether the host accesses managed memory on the device directly, without migration."))
    table.append(("virtual_memory_management_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                  "Whether the virtual memory management API (cuMemCreate, cuMemMap, ...) is supported."))
    table.append(("handle_type_posix_file_descriptor_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                  "Whether memory can be exported as a POSIX file descriptor."))
    table.append(("handle_type_win32_handle_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED,
                  "Whether memory can be exported as a Win32 NT handle."))
    table.append(("handle_type_win32_kmt_handle_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED,
                  "Whether memory can be exported as a Win32 KMT handle."))
    table.append(("max_blocks_per_multiprocessor", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
                  "Most blocks resident on one SM."))
    table.append(("generic_compression_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
                  "Whether compressible memory is supported."))
    table.append(("max_persisting_l2_cache_size", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE,
                  "Largest L2 set-aside for persisting accesses, in bytes."))
    table.append(("max_access_policy_window_size", int, cydriver.CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE,
                  "Largest access-policy window (CUaccessPolicyWindow.num_bytes), in bytes."))
    table.append(("gpu_direct_rdma_with_cuda_vmm_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED,
                  "Whether cuMemCreate accepts the GPUDirect RDMA flag."))
    table.append(("reserved_shared_memory_per_block", int, cydriver.CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
                  "Shared memory the driver reserves in each block, in bytes."))
    table.append(("sparse_cuda_array_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED,
                  "Whether sparse CUDA arrays (and mipmapped arrays) are supported."))
    table.append(("read_only_host_register_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED,
                  "Whether host memory can be registered read-only for the device."))
    table.append(("memory_pools_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                  "Whether stream-ordered allocation (cuMemAllocAsync, memory pools) is supported."))
    table.append(("gpu_direct_rdma_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED,
                  "Whether GPUDirect RDMA is supported."))
    table.append(("gpu_direct_rdma_flush_writes_options", int, cydriver.CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS,
                  "Bitmask of CUflushGPUDirectRDMAWritesOptions that the device supports."))
    table.append(("gpu_direct_rdma_writes_ordering", int, cydriver.CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING,
                  "Ordering scope of GPUDirect RDMA writes (a CUGPUDirectRDMAWritesOrdering value)."))
    table.append(("mempool_supported_handle_types", int, cydriver.CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES,
                  "Bitmask of the handle types that memory pools can export for IPC."))
    table.append(("deferred_mapping_cuda_array_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED,
                  "Whether CUDA arrays (and mipmapped arrays) can be mapped deferred."))
    table.append(("numa_config", int, cydriver.CU_DEVICE_ATTRIBUTE_NUMA_CONFIG,
                  "NUMA configuration of the device (a CUdeviceNumaConfig value)."))
    table.append(("numa_id", int, cydriver.CU_DEVICE_ATTRIBUTE_NUMA_ID,
                  "NUMA node of the device memory."))
    table.append(("multicast_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED,
                  "Whether multicast objects (switch multicast and reductions) are supported."))
    table.append(("surface_alignment", int, cydriver.CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT,
                  "Alignment that surfaces need, in bytes."))
    table.append(("async_engine_count", int, cydriver.CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
                  "Number of asynchronous copy engines."))
    table.append(("can_tex2d_gather", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER,
                  "Whether 2D texture gather is supported."))
    table.append(("maximum_texture2d_gather_width", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH,
                  "Largest width of a 2D texture used for gather."))
    table.append(("maximum_texture2d_gather_height", int, cydriver.CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT,
                  "Largest height of a 2D texture used for gather."))
    table.append(("stream_priorities_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED,
                  "Whether streams can have priorities."))
    table.append(("can_flush_remote_writes", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES,
                  "Whether remote writes can be flushed by stream memory operations."))
    table.append(("host_register_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED,
                  "Whether host memory can be registered (page-locked) for the device."))
    table.append(("timeline_semaphore_interop_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED,
                  "Whether external timeline semaphores can be imported."))
    table.append(("cluster_launch", bool, cydriver.CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH,
                  "Whether kernels can be launched with thread block clusters."))
    table.append(("can_use_64_bit_stream_mem_ops", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                  "Whether stream memory operations support 64-bit values."))
    table.append(("can_use_stream_wait_value_nor", bool, cydriver.CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
                  "Whether stream wait operations support the NOR condition."))
    table.append(("dma_buf_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED,
                  "Whether device memory can be shared as a dma_buf."))
    table.append(("ipc_event_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED,
                  "Whether events can be shared between processes."))
    table.append(("mem_sync_domain_count", int, cydriver.CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT,
                  "Number of memory synchronization domains."))
    table.append(("tensor_map_access_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED,
                  "Whether memory can be accessed through tensor maps."))
    table.append(("handle_type_fabric_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED,
                  "Whether memory can be exported as a fabric handle."))
    table.append(("unified_function_pointers", bool, cydriver.CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS,
                  "Whether function pointers are unified between host and device."))
    table.append(("mps_enabled", bool, cydriver.CU_DEVICE_ATTRIBUTE_MPS_ENABLED,
                  "Whether contexts on this device are shared through MPS."))
    table.append(("host_numa_id", int, cydriver.CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID,
                  "NUMA node of the host closest to the device (-1 without NUMA)."))
    table.append(("d3d12_cig_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED,
                  "Whether CUDA in graphics (CIG) with Direct3D 12 is supported."))
    table.append(("mem_decompress_algorithm_mask", int, cydriver.CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK,
                  "Bitmask of the CUmemDecompressAlgorithm values the device supports."))
    table.append(("mem_decompress_maximum_length", int, cydriver.CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH,
                  "Longest single decompression operation, in bytes."))
    table.append(("vulkan_cig_supported", bool, "cuda-bindings 12.9",
                  "Whether CUDA in graphics (CIG) with Vulkan is supported."))
    table.append(("gpu_pci_device_id", int, cydriver.CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID,
                  "PCI device id and vendor id, 16 bits each (0 if the driver cannot tell)."))
    table.append(("gpu_pci_subsystem_id", int, cydriver.CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID,
                  "PCI subsystem id and subsystem vendor id, 16 bits each (0 if the driver cannot tell)."))
    table.append(("host_numa_virtual_memory_management_supported", bool, "cuda-bindings 12.9",
                  "Whether the virtual memory management API accepts HOST_NUMA locations."))
    table.append(("host_numa_memory_pools_supported", bool, "cuda-bindings 12.9",
                  "Whether memory pools accept HOST_NUMA locations."))
    table.append(("host_numa_multinode_ipc_supported", bool, cydriver.CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED,
                  "Whether HOST_NUMA memory can be shared between nodes of a multi-node system."))
    table.append(("host_memory_pools_supported", bool, "CUDA 13",
                  "Whether memory pools accept HOST locations (CUDA 13+)."))
    table.append(("host_virtual_memory_management_supported", bool, "CUDA 13",
                  "Whether the virtual memory management API accepts HOST locations (CUDA 13+)."))
    table.append(("host_alloc_dma_buf_supported", bool, "CUDA 13",
                  "Whether page-locked host memory can be shared as a dma_buf (CUDA 13+)."))
    table.append(("only_partial_host_native_atomic_supported", bool, "CUDA 13",
                  "Whether the host link supports only some native atomic operations (CUDA 13+)."))
    return tuple(table)


_PROPERTIES = _property_table()

# The attributes that exist only from some CUDA major or cuda-bindings minor on (the table names
# what each needs instead of its enumerator): those this build has.
cdef dict _COMPAT_ATTRIBUTES = {**compat_major_only_device_attributes(), **compat_bindings_12_9_device_attributes()}


cdef int _read_attribute(int device, int attribute) except? -1:
    # An attribute the driver does not know (an older driver than the headers) reads as 0.
    cdef int value = 0
    cdef cydriver.CUresult result
    with nogil:
        result = cydriver.cuDeviceGetAttribute(&value, <cydriver.CUdevice_attribute>attribute, device)
    if result == cydriver.CUDA_ERROR_INVALID_VALUE:
        return 0
    HANDLE_RETURN(result)
    return value


def _current_arch(options: str) -> str:
    """'sm_XY' of the current device, for an ``options`` (ProgramOptions, LinkerOptions) whose
    arch is None; without a driver, the error says to give the target."""
    try:
        return "sm_" + Device().arch
    except DriverNotFoundError as err:
        raise DriverNotFoundError(f"{options}.arch=None means the current device's architecture, but no CUDA "
                                  f"driver was found: give the target, e.g. {options}(arch='sm_90')") from err


class DeviceProperties:
    """The attributes of one CUDA device (limits, sizes, clocks, capabilities), as the driver
    reports them: each is read on first access and then cached. Get one from
    ``Device.properties``."""

    __slots__ = ("_handle", "_cache")

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("DeviceProperties cannot be instantiated directly. Use Device.properties instead.")

    @classmethod
    def _init(cls, handle: int) -> DeviceProperties:
        """The properties of device ordinal ``handle``."""
        properties = object.__new__(cls)
        properties._handle = int(handle)
        properties._cache = {}
        return properties

    def __repr__(self) -> str:
        return f"<DeviceProperties of device {self._handle}>"


@cython.annotation_typing(False)  # Python annotations for readers: property is no C type
def _device_property(name: str, kind: type, attribute, description: str) -> property:
    """The read-once property ``name`` of DeviceProperties, of type ``kind``. ``attribute`` is its
    CUdevice_attribute, or what it needs where only some builds have it."""
    needs = None
    if isinstance(attribute, str):
        needs, attribute = attribute, _COMPAT_ATTRIBUTES.get(name)

    def read(self):
        cache = self._cache
        try:
            return cache[name]
        except KeyError:
            pass
        if attribute is None:
            from cuda.core._build_info import cuda_bindings_version
            raise AttributeError(f"DeviceProperties.{name} needs {needs}; this cuda.core was built for "
                                 f"CUDA {cydriver.CUDA_VERSION // 1000} with cuda-bindings {cuda_bindings_version}")
        value = kind(_read_attribute(self._handle, attribute))
        cache[name] = value
        return value

    read.__name__ = name
    return property(read, doc=f"{kind.__name__}: {description}")


for _name, _kind, _attribute, _description in _PROPERTIES:
    setattr(DeviceProperties, _name, _device_property(_name, _kind, _attribute, _description))
del _name, _kind, _attribute, _description


# ----------------------------------------------------------------------------------------
# Device

# The Device objects of each thread: _tls.devices[ordinal], made on first use.
_tls = threading.local()

# Each device's primary context, retained on first set_current() (and after a client's reset), never released.
_primary_contexts = {}
_primary_contexts_lock = threading.Lock()


def _primary_context(int device_id) -> int:
    """The address of device ``device_id``'s primary context, live: retained the first time, and
    retained again after a reset (``cuDevicePrimaryCtxReset`` by a client, numba among them, leaves
    it inactive, whoever retained it; a retain brings it back)."""
    cdef cydriver.CUcontext context = NULL
    cdef unsigned int flags = 0
    cdef int active = 0
    address = _primary_contexts.get(device_id)
    if address is not None:
        with nogil:
            HANDLE_RETURN(cydriver.cuDevicePrimaryCtxGetState(device_id, &flags, &active))
        if active:
            return address
    with _primary_contexts_lock:
        if address is not None or _primary_contexts.get(device_id) is None:
            with nogil:
                HANDLE_RETURN(cydriver.cuDevicePrimaryCtxRetain(&context, device_id))
            _primary_contexts[device_id] = <size_t>context
        address = _primary_contexts[device_id]
    return address


def _not_available(what: str, needs: str):
    return NotImplementedError(f"{what} needs {needs}, which this cuda.core does not have yet")


class Device:
    """A CUDA device, and the entry point for what runs on it.

    ``Device(device_id)`` is the device of that ordinal; ``Device()`` is the device of the
    context current on this thread, or device 0 when none is. There is one Device object per
    device per thread, so libraries in one process see and share the same objects. Creating
    one does not initialize the GPU: ``set_current()`` does, and the methods that create
    streams, events and memory need it first.

    Parameters
    ----------
    device_id : int or Device, optional
        Device ordinal; None (the default) means the current device.
    """

    __slots__ = ("_device_id", "_memory_resource", "_has_inited", "_properties", "_resources", "_uuid",
                 "_context", "__weakref__")

    def __new__(cls, device_id: Device | int | None = None) -> Device:
        ensure_driver()
        if device_id is None:
            ordinal = max(current_device(), 0)
        elif isinstance(device_id, Device):
            ordinal = device_id._device_id
        else:
            try:
                ordinal = operator.index(device_id)
            except TypeError:
                raise TypeError(f"device_id must be an int, a Device or None, got {type(device_id).__name__}") \
                    from None
        devices = _thread_devices()
        if not 0 <= ordinal < len(devices):
            raise ValueError(f"device_id must be within [0, {len(devices)}), got {device_id!r}")
        device = devices[ordinal]
        if device is None:
            device = devices[ordinal] = _new_device(cls, ordinal)
        return device

    def _check_context_initialized(self) -> None:
        """Raise CUDAError unless set_current() ran on this Device object (on this thread)."""
        if not self._has_inited:
            raise CUDAError(f"Device {self._device_id} is not yet initialized: call "
                            f"Device({self._device_id}).set_current() first")

    # The name other cuda.core modules use for the same check.
    _require_current = _check_context_initialized

    @classmethod
    def get_all_devices(cls) -> tuple[Device, ...]:
        """Every device the driver sees, in ordinal order."""
        return tuple(cls(ordinal) for ordinal in range(device_count()))

    @classmethod
    def _get_all_devices_from_cuda_driver(cls):
        return cls.get_all_devices()

    def to_system_device(self):
        """The :class:`cuda.core.system.Device` (NVML's view) of this device, matched by UUID."""
        # NVML is cuda.core.system's; without NVML bindings its error (ImportError and
        # NotImplementedError) says which cuda-bindings to install.
        from cuda.core.system._nvml_support import require_nvml
        require_nvml("cuda.core.Device.to_system_device()")
        from cuda.core import system
        return system.Device(uuid=self.uuid)

    @property
    def device_id(self) -> int:
        """The device ordinal."""
        return self._device_id

    @property
    def pci_bus_id(self) -> str:
        """The PCI bus id, as domain:bus:device.function, e.g. '0000:3B:00.0'."""
        cdef char buffer[64]
        cdef cydriver.CUdevice device = self._device_id
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGetPCIBusId(buffer, sizeof(buffer), device))
        return buffer.decode()

    def can_access_peer(self, peer: Device | int) -> bool:
        """Whether this device can access memory of device ``peer`` (a Device or an ordinal)
        through peer-to-peer access. A device can always access its own memory."""
        cdef int value = 0
        cdef int this_device = self._device_id
        cdef int peer_device = Device(peer)._device_id
        if peer_device == this_device:
            return True
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceCanAccessPeer(&value, this_device, peer_device))
        return value != 0

    @property
    def uuid(self) -> str:
        """The device UUID in 8-4-4-4-12 hex form (of the MIG instance, on a MIG device), read
        once and cached."""
        cdef cydriver.CUuuid uuid
        cdef cydriver.CUdevice device = self._device_id
        cdef char text[37]
        if self._uuid is None:
            with nogil:
                HANDLE_RETURN(compat_device_get_uuid(&uuid, device))
                cuda_core_format_uuid(<const unsigned char*>uuid.bytes, text)
            self._uuid = text.decode()
        return self._uuid

    @property
    def name(self) -> str:
        """The device's name, e.g. 'NVIDIA H200'."""
        cdef char buffer[256]
        cdef cydriver.CUdevice device = self._device_id
        with nogil:
            HANDLE_RETURN(cydriver.cuDeviceGetName(buffer, sizeof(buffer), device))
        return buffer.decode()

    @property
    def properties(self) -> DeviceProperties:
        """The device's attributes (limits, sizes, clocks, capabilities), read lazily."""
        if self._properties is None:
            self._properties = DeviceProperties._init(self._device_id)
        return self._properties

    # ---- Green contexts (device resources) ----
    @property
    def resources(self):
        """The device's hardware resources (SMs, work queues): what green contexts are made of."""
        if self._resources is None:
            from cuda.core._device_resources import _device_resources
            self._resources = _device_resources(self._device_id)
        return self._resources
    # ---- end of green contexts ----

    @property
    def compute_capability(self) -> ComputeCapability:
        """The compute capability as a named tuple (major, minor), e.g. (9, 0) on Hopper."""
        properties = self.properties
        return ComputeCapability(properties.compute_capability_major, properties.compute_capability_minor)

    @property
    def arch(self) -> str:
        """The compute capability as one string, e.g. '90' for 9.0."""
        major, minor = self.compute_capability
        return f"{major}{minor}"

    @property
    def context(self) -> Context:
        """The Context that set_current() made current on this thread through this Device."""
        self._check_context_initialized()
        return self._context

    @property
    def memory_resource(self):
        """Where ``allocate()`` takes memory from: by default the device's memory pool, through
        a DeviceMemoryResource."""
        cdef int pools = 0
        cdef cydriver.CUdevice device = self._device_id
        if self._memory_resource is None:
            with nogil:
                HANDLE_RETURN(cydriver.cuDeviceGetAttribute(
                    &pools, cydriver.CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device))
            if pools:
                from cuda.core._memory._device_memory_resource import DeviceMemoryResource
                self._memory_resource = DeviceMemoryResource(self._device_id)
            else:
                self._memory_resource = _synchronous_memory_resource(self._device_id)
        return self._memory_resource

    @memory_resource.setter
    def memory_resource(self, mr) -> None:
        from cuda.core._memory._buffer import MemoryResource
        if not isinstance(mr, MemoryResource):
            raise TypeError(f"memory_resource must be a MemoryResource, got {type(mr).__name__}")
        self._memory_resource = mr

    @property
    def default_stream(self):
        """The default stream: the legacy default stream, or the per-thread default stream when
        the environment variable CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM is a non-zero integer."""
        from cuda.core._stream import default_stream
        return default_stream()

    def __int__(self) -> int:
        """The device ordinal."""
        return self._device_id

    def __repr__(self) -> str:
        return f"<Device {self._device_id} ({self.name})>"

    def __hash__(self) -> int:
        return hash((Device, self._device_id))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Device):
            return NotImplemented
        return self._device_id == other._device_id

    def __reduce__(self) -> tuple[object, ...]:
        return Device, (self._device_id,)

    def set_current(self, ctx=None) -> Context | None:
        """Make this device current on the calling thread, initializing CUDA.

        Without ``ctx``, the device's primary context becomes current (the usual start of a
        program: ``Device(0).set_current()``) and None is returned. With a Context ``ctx`` of
        this device, the context current until now is popped off the thread's context stack,
        ``ctx`` is pushed in its place, and the popped Context is returned (None if there was
        none), so that ``device.set_current(previous)`` restores it.
        """
        cdef cydriver.CUcontext previous = NULL
        cdef cydriver.CUcontext target_handle
        cdef cydriver.CUdevice previous_device = -1
        cdef Context target
        if ctx is None:
            self._set_primary_current()
            return None
        if not isinstance(ctx, Context):
            raise TypeError(f"ctx must be a Context or None, got {type(ctx).__name__}")
        target = <Context>ctx
        Context_check_open(target)
        if target._device_id != self._device_id:
            raise RuntimeError(f"the given context belongs to device {target._device_id}, "
                               f"not to device {self._device_id}")
        known = self._context if self._has_inited else None
        target_handle = Context_handle(target)
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetCurrent(&previous))
            if previous != NULL:
                HANDLE_RETURN(cydriver.cuCtxGetDevice(&previous_device))
                HANDLE_RETURN(cydriver.cuCtxPopCurrent(&previous))
            HANDLE_RETURN(cydriver.cuCtxPushCurrent(target_handle))
        self._context = target
        self._has_inited = True
        if previous == NULL:
            return None
        if known is not None and (<Context>known)._address == <size_t>previous:
            return known
        return context_from_address(<size_t>previous, previous_device)

    def _set_primary_current(self) -> None:
        cdef size_t address = _primary_context(self._device_id)
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxSetCurrent(<cydriver.CUcontext>address))
        known = self._context
        if known is None or (<Context>known)._address != address or (<Context>known)._closed:
            self._context = context_from_address(address, self._device_id)
        self._has_inited = True

    def create_context(self, options=None) -> Context:
        """A new green context of this device, made of ``options.resources`` (a ContextOptions);
        it is not made current."""
        from cuda.core._context import ContextOptions
        if options is None:
            raise ValueError("ContextOptions.resources must be provided: a green context is made of "
                             "device resources (e.g. from Device.resources)")
        if not isinstance(options, ContextOptions):
            raise TypeError(f"options must be a ContextOptions, got {type(options).__name__}")
        if options.resources is None:
            raise ValueError("ContextOptions.resources must be provided: a green context is made of "
                             "device resources (e.g. from Device.resources)")
        # ---- Green contexts (device resources) ----
        from cuda.core._device_resources import _create_green_context
        return _create_green_context(self._device_id, options.resources)
        # ---- end of green contexts ----

    def create_stream(self, obj=None, options=None):
        """A new stream on this device's current context, made with StreamOptions ``options``;
        or, given ``obj`` that speaks ``__cuda_stream__``, a Stream over that foreign stream
        (which it keeps alive). Needs set_current() first."""
        from cuda.core._stream import as_stream, new_stream
        self._check_context_initialized()
        if obj is not None:
            if options is not None:
                raise ValueError("options cannot be given with a foreign stream object")
            return as_stream(obj, self._device_id)
        return new_stream(self._device_id, options)

    def create_event(self, options=None):
        """A new Event (made with EventOptions ``options``), not yet recorded. Needs
        set_current() first."""
        from cuda.core._event import _create_event
        self._check_context_initialized()
        return _create_event(options, self._device_id)

    def allocate(self, size: int, *, stream):
        """A Buffer of ``size`` bytes from ``memory_resource``, ordered on ``stream`` (a Stream;
        pass ``device.default_stream`` for the default stream). Needs set_current() first."""
        self._check_context_initialized()
        return self.memory_resource.allocate(size, stream=stream)

    def sync(self) -> None:
        """Wait until all work of the current context (this device's) has completed. Needs
        set_current() first."""
        self._check_context_initialized()
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxSynchronize())

    def create_graph_builder(self):
        """A new GraphBuilder capturing into a CUDA graph, on a new stream of this device that
        the builder owns (closed with it). Needs set_current() first."""
        self._check_context_initialized()
        from cuda.core._stream import new_stream
        from cuda.core.graph._graph_builder import GraphBuilder
        return GraphBuilder._init(new_stream(self._device_id), True)

    # ---- cuda.core.texture: CUDA arrays, texture and surface objects --------------------
    # Each imports its module at the call: import cuda.core must not import cuda.core.texture.

    def create_opaque_array(self, options):
        """A new cuda.core.texture.OpaqueArray (a CUDA array) on this device's current
        context, allocated as ``options`` (an OpaqueArrayOptions) says. Needs set_current()
        first."""
        self._check_context_initialized()
        from cuda.core.texture._array import _create_opaque_array
        return _create_opaque_array(options)

    def create_mipmapped_array(self, options):
        """A new cuda.core.texture.MipmappedArray on this device's current context, allocated
        as ``options`` (a MipmappedArrayOptions) says. Needs set_current() first."""
        self._check_context_initialized()
        from cuda.core.texture._mipmapped_array import _create_mipmapped_array
        return _create_mipmapped_array(options)

    def create_texture_object(self, *, resource, options=None):
        """A new cuda.core.texture.TextureObject over ``resource`` (a ResourceDescriptor),
        sampling as ``options`` (a TextureObjectOptions; None: the defaults) says. Needs
        set_current() first."""
        self._check_context_initialized()
        from cuda.core.texture._texture import _create_texture_object
        return _create_texture_object(resource, options)

    def create_surface_object(self, *, resource):
        """A new cuda.core.texture.SurfaceObject over ``resource`` (a ResourceDescriptor of an
        OpaqueArray made with is_surface_load_store=True). Needs set_current() first."""
        self._check_context_initialized()
        from cuda.core.texture._surface import _create_surface_object
        return _create_surface_object(resource)

    # ---- end of cuda.core.texture ---------------------------------------------------------


def _thread_devices() -> list:
    """This thread's Device objects, by ordinal (None until first asked for)."""
    try:
        return _tls.devices
    except AttributeError:
        devices = _tls.devices = [None] * device_count()
        return devices


def _new_device(type cls, int ordinal) -> Device:
    device = object.__new__(cls)
    device._device_id = ordinal
    device._memory_resource = None
    device._has_inited = False
    device._properties = None
    device._resources = None
    device._uuid = None
    device._context = None
    return device


def _synchronous_memory_resource(int device_id):
    """The memory resource of a device without memory pools (e.g. in TCC mode)."""
    try:
        from cuda.core._memory._legacy import _SynchronousMemoryResource
    except ImportError:
        raise _not_available(f"Device({device_id}).memory_resource (the device has no memory pools)",
                             "a synchronous memory resource (cuda.core._memory._legacy._SynchronousMemoryResource)") \
            from None
    return _SynchronousMemoryResource(device_id)
