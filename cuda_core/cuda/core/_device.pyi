# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.Device and DeviceProperties (see _device.pyx)."""

from typing import NoReturn

import cuda.core.system
from cuda.core._context import Context, ContextOptions
from cuda.core._device_resources import DeviceResources
from cuda.core._event import Event, EventOptions
from cuda.core._memory._buffer import Buffer, MemoryResource
from cuda.core._stream import IsStreamType, Stream, StreamOptions
from cuda.core._utils.cuda_utils import ComputeCapability
from cuda.core.graph import GraphBuilder
from cuda.core.texture import (
    MipmappedArray,
    MipmappedArrayOptions,
    OpaqueArray,
    OpaqueArrayOptions,
    ResourceDescriptor,
    SurfaceObject,
    TextureObject,
    TextureObjectOptions,
)

__all__ = ["Device"]

class DeviceProperties:
    """The attributes of one CUDA device, each read on first access and cached."""
    def __init__(self, *args, **kwargs) -> None: ...
    @classmethod
    def _init(cls, handle: int) -> DeviceProperties: ...
    @property
    def max_threads_per_block(self) -> int:
        """int: Most threads a block can have."""
    @property
    def max_block_dim_x(self) -> int:
        """int: Largest block size along x, in threads."""
    @property
    def max_block_dim_y(self) -> int:
        """int: Largest block size along y, in threads."""
    @property
    def max_block_dim_z(self) -> int:
        """int: Largest block size along z, in threads."""
    @property
    def max_grid_dim_x(self) -> int:
        """int: Largest grid size along x, in blocks."""
    @property
    def max_grid_dim_y(self) -> int:
        """int: Largest grid size along y, in blocks."""
    @property
    def max_grid_dim_z(self) -> int:
        """int: Largest grid size along z, in blocks."""
    @property
    def max_shared_memory_per_block(self) -> int:
        """int: Shared memory a block can use by default, in bytes."""
    @property
    def total_constant_memory(self) -> int:
        """int: Constant memory (__constant__ variables) of the device, in bytes."""
    @property
    def warp_size(self) -> int:
        """int: Threads per warp."""
    @property
    def max_pitch(self) -> int:
        """int: Largest pitch that memory copies accept, in bytes."""
    @property
    def maximum_texture1d_width(self) -> int:
        """int: Largest width of a 1D texture."""
    @property
    def maximum_texture1d_linear_width(self) -> int:
        """int: Largest width of a 1D texture over linear memory."""
    @property
    def maximum_texture1d_mipmapped_width(self) -> int:
        """int: Largest width of a mipmapped 1D texture."""
    @property
    def maximum_texture2d_width(self) -> int:
        """int: Largest width of a 2D texture."""
    @property
    def maximum_texture2d_height(self) -> int:
        """int: Largest height of a 2D texture."""
    @property
    def maximum_texture2d_linear_width(self) -> int:
        """int: Largest width of a 2D texture over linear memory."""
    @property
    def maximum_texture2d_linear_height(self) -> int:
        """int: Largest height of a 2D texture over linear memory."""
    @property
    def maximum_texture2d_linear_pitch(self) -> int:
        """int: Largest pitch of a 2D texture over linear memory, in bytes."""
    @property
    def maximum_texture2d_mipmapped_width(self) -> int:
        """int: Largest width of a mipmapped 2D texture."""
    @property
    def maximum_texture2d_mipmapped_height(self) -> int:
        """int: Largest height of a mipmapped 2D texture."""
    @property
    def maximum_texture3d_width(self) -> int:
        """int: Largest width of a 3D texture."""
    @property
    def maximum_texture3d_height(self) -> int:
        """int: Largest height of a 3D texture."""
    @property
    def maximum_texture3d_depth(self) -> int:
        """int: Largest depth of a 3D texture."""
    @property
    def maximum_texture3d_width_alternate(self) -> int:
        """int: Alternate largest width of a 3D texture (0 without an alternate limit)."""
    @property
    def maximum_texture3d_height_alternate(self) -> int:
        """int: Alternate largest height of a 3D texture (0 without an alternate limit)."""
    @property
    def maximum_texture3d_depth_alternate(self) -> int:
        """int: Alternate largest depth of a 3D texture (0 without an alternate limit)."""
    @property
    def maximum_texturecubemap_width(self) -> int:
        """int: Largest width (and height) of a cubemap texture."""
    @property
    def maximum_texture1d_layered_width(self) -> int:
        """int: Largest width of a layered 1D texture."""
    @property
    def maximum_texture1d_layered_layers(self) -> int:
        """int: Most layers of a layered 1D texture."""
    @property
    def maximum_texture2d_layered_width(self) -> int:
        """int: Largest width of a layered 2D texture."""
    @property
    def maximum_texture2d_layered_height(self) -> int:
        """int: Largest height of a layered 2D texture."""
    @property
    def maximum_texture2d_layered_layers(self) -> int:
        """int: Most layers of a layered 2D texture."""
    @property
    def maximum_texturecubemap_layered_width(self) -> int:
        """int: Largest width (and height) of a layered cubemap texture."""
    @property
    def maximum_texturecubemap_layered_layers(self) -> int:
        """int: Most layers of a layered cubemap texture."""
    @property
    def maximum_surface1d_width(self) -> int:
        """int: Largest width of a 1D surface."""
    @property
    def maximum_surface2d_width(self) -> int:
        """int: Largest width of a 2D surface."""
    @property
    def maximum_surface2d_height(self) -> int:
        """int: Largest height of a 2D surface."""
    @property
    def maximum_surface3d_width(self) -> int:
        """int: Largest width of a 3D surface."""
    @property
    def maximum_surface3d_height(self) -> int:
        """int: Largest height of a 3D surface."""
    @property
    def maximum_surface3d_depth(self) -> int:
        """int: Largest depth of a 3D surface."""
    @property
    def maximum_surface1d_layered_width(self) -> int:
        """int: Largest width of a layered 1D surface."""
    @property
    def maximum_surface1d_layered_layers(self) -> int:
        """int: Most layers of a layered 1D surface."""
    @property
    def maximum_surface2d_layered_width(self) -> int:
        """int: Largest width of a layered 2D surface."""
    @property
    def maximum_surface2d_layered_height(self) -> int:
        """int: Largest height of a layered 2D surface."""
    @property
    def maximum_surface2d_layered_layers(self) -> int:
        """int: Most layers of a layered 2D surface."""
    @property
    def maximum_surfacecubemap_width(self) -> int:
        """int: Largest width (and height) of a cubemap surface."""
    @property
    def maximum_surfacecubemap_layered_width(self) -> int:
        """int: Largest width (and height) of a layered cubemap surface."""
    @property
    def maximum_surfacecubemap_layered_layers(self) -> int:
        """int: Most layers of a layered cubemap surface."""
    @property
    def max_registers_per_block(self) -> int:
        """int: 32-bit registers available to one block."""
    @property
    def clock_rate(self) -> int:
        """int: Typical clock rate, in kHz."""
    @property
    def texture_alignment(self) -> int:
        """int: Alignment that texture base addresses need, in bytes."""
    @property
    def texture_pitch_alignment(self) -> int:
        """int: Alignment that the pitch of pitched textures needs, in bytes."""
    @property
    def gpu_overlap(self) -> bool:
        """bool: Whether the device can copy memory while it runs a kernel (deprecated: see async_engine_count)."""
    @property
    def multiprocessor_count(self) -> int:
        """int: Number of streaming multiprocessors (SMs)."""
    @property
    def kernel_exec_timeout(self) -> bool:
        """bool: Whether kernels have a run-time limit (e.g. a watchdog on a display GPU)."""
    @property
    def integrated(self) -> bool:
        """bool: Whether the device is integrated with the host memory system."""
    @property
    def can_map_host_memory(self) -> bool:
        """bool: Whether host memory can be mapped into the device's address space."""
    @property
    def compute_mode(self) -> int:
        """int: Compute mode (a CUcomputemode value)."""
    @property
    def concurrent_kernels(self) -> bool:
        """bool: Whether the device may run several kernels at once."""
    @property
    def ecc_enabled(self) -> bool:
        """bool: Whether ECC is enabled on the device memory."""
    @property
    def pci_bus_id(self) -> int:
        """int: PCI bus number of the device."""
    @property
    def pci_device_id(self) -> int:
        """int: PCI device (slot) number of the device."""
    @property
    def pci_domain_id(self) -> int:
        """int: PCI domain number of the device."""
    @property
    def tcc_driver(self) -> bool:
        """bool: Whether the device runs under the TCC driver model (Windows)."""
    @property
    def memory_clock_rate(self) -> int:
        """int: Peak memory clock rate, in kHz."""
    @property
    def global_memory_bus_width(self) -> int:
        """int: Width of the global memory bus, in bits."""
    @property
    def l2_cache_size(self) -> int:
        """int: L2 cache size, in bytes."""
    @property
    def max_threads_per_multiprocessor(self) -> int:
        """int: Most threads resident on one SM."""
    @property
    def unified_addressing(self) -> bool:
        """bool: Whether the device shares one virtual address space with the host."""
    @property
    def compute_capability_major(self) -> int:
        """int: Major number of the compute capability."""
    @property
    def compute_capability_minor(self) -> int:
        """int: Minor number of the compute capability."""
    @property
    def global_l1_cache_supported(self) -> bool:
        """bool: Whether global memory accesses can be cached in L1."""
    @property
    def local_l1_cache_supported(self) -> bool:
        """bool: Whether local memory accesses can be cached in L1."""
    @property
    def max_shared_memory_per_multiprocessor(self) -> int:
        """int: Shared memory of one SM, in bytes."""
    @property
    def max_registers_per_multiprocessor(self) -> int:
        """int: 32-bit registers of one SM."""
    @property
    def managed_memory(self) -> bool:
        """bool: Whether managed (unified) memory can be allocated for the device."""
    @property
    def multi_gpu_board(self) -> bool:
        """bool: Whether the device sits on a board with other GPUs."""
    @property
    def multi_gpu_board_group_id(self) -> int:
        """int: Identifier shared by the devices of one multi-GPU board."""
    @property
    def host_native_atomic_supported(self) -> bool:
        """bool: Whether the host link supports all native atomic operations."""
    @property
    def single_to_double_precision_perf_ratio(self) -> int:
        """int: Single-precision to double-precision throughput ratio."""
    @property
    def pageable_memory_access(self) -> bool:
        """bool: Whether the device accesses pageable host memory coherently, without registration."""
    @property
    def concurrent_managed_access(self) -> bool:
        """bool: Whether device and host can access managed memory concurrently and coherently."""
    @property
    def compute_preemption_supported(self) -> bool:
        """bool: Whether compute work can be preempted."""
    @property
    def can_use_host_pointer_for_registered_mem(self) -> bool:
        """bool: Whether registered host memory has the same address on the device as on the host."""
    @property
    def cooperative_launch(self) -> bool:
        """bool: Whether cooperative kernels can be launched."""
    @property
    def max_shared_memory_per_block_optin(self) -> int:
        """int: Shared memory a block can use when it opts in, in bytes."""
    @property
    def pageable_memory_access_uses_host_page_tables(self) -> bool:
        """bool: Whether pageable memory is accessed through the host's page tables."""
    @property
    def direct_managed_mem_access_from_host(self) -> bool:
        """bool: Whether the host accesses managed memory on the device directly, without migration."""
    @property
    def virtual_memory_management_supported(self) -> bool:
        """bool: Whether the virtual memory management API (cuMemCreate, cuMemMap, ...) is supported."""
    @property
    def handle_type_posix_file_descriptor_supported(self) -> bool:
        """bool: Whether memory can be exported as a POSIX file descriptor."""
    @property
    def handle_type_win32_handle_supported(self) -> bool:
        """bool: Whether memory can be exported as a Win32 NT handle."""
    @property
    def handle_type_win32_kmt_handle_supported(self) -> bool:
        """bool: Whether memory can be exported as a Win32 KMT handle."""
    @property
    def max_blocks_per_multiprocessor(self) -> int:
        """int: Most blocks resident on one SM."""
    @property
    def generic_compression_supported(self) -> bool:
        """bool: Whether compressible memory is supported."""
    @property
    def max_persisting_l2_cache_size(self) -> int:
        """int: Largest L2 set-aside for persisting accesses, in bytes."""
    @property
    def max_access_policy_window_size(self) -> int:
        """int: Largest access-policy window (CUaccessPolicyWindow.num_bytes), in bytes."""
    @property
    def gpu_direct_rdma_with_cuda_vmm_supported(self) -> bool:
        """bool: Whether cuMemCreate accepts the GPUDirect RDMA flag."""
    @property
    def reserved_shared_memory_per_block(self) -> int:
        """int: Shared memory the driver reserves in each block, in bytes."""
    @property
    def sparse_cuda_array_supported(self) -> bool:
        """bool: Whether sparse CUDA arrays (and mipmapped arrays) are supported."""
    @property
    def read_only_host_register_supported(self) -> bool:
        """bool: Whether host memory can be registered read-only for the device."""
    @property
    def memory_pools_supported(self) -> bool:
        """bool: Whether stream-ordered allocation (cuMemAllocAsync, memory pools) is supported."""
    @property
    def gpu_direct_rdma_supported(self) -> bool:
        """bool: Whether GPUDirect RDMA is supported."""
    @property
    def gpu_direct_rdma_flush_writes_options(self) -> int:
        """int: Bitmask of CUflushGPUDirectRDMAWritesOptions that the device supports."""
    @property
    def gpu_direct_rdma_writes_ordering(self) -> int:
        """int: Ordering scope of GPUDirect RDMA writes (a CUGPUDirectRDMAWritesOrdering value)."""
    @property
    def mempool_supported_handle_types(self) -> int:
        """int: Bitmask of the handle types that memory pools can export for IPC."""
    @property
    def deferred_mapping_cuda_array_supported(self) -> bool:
        """bool: Whether CUDA arrays (and mipmapped arrays) can be mapped deferred."""
    @property
    def numa_config(self) -> int:
        """int: NUMA configuration of the device (a CUdeviceNumaConfig value)."""
    @property
    def numa_id(self) -> int:
        """int: NUMA node of the device memory."""
    @property
    def multicast_supported(self) -> bool:
        """bool: Whether multicast objects (switch multicast and reductions) are supported."""
    @property
    def surface_alignment(self) -> int:
        """int: Alignment that surfaces need, in bytes."""
    @property
    def async_engine_count(self) -> int:
        """int: Number of asynchronous copy engines."""
    @property
    def can_tex2d_gather(self) -> bool:
        """bool: Whether 2D texture gather is supported."""
    @property
    def maximum_texture2d_gather_width(self) -> int:
        """int: Largest width of a 2D texture used for gather."""
    @property
    def maximum_texture2d_gather_height(self) -> int:
        """int: Largest height of a 2D texture used for gather."""
    @property
    def stream_priorities_supported(self) -> bool:
        """bool: Whether streams can have priorities."""
    @property
    def can_flush_remote_writes(self) -> bool:
        """bool: Whether remote writes can be flushed by stream memory operations."""
    @property
    def host_register_supported(self) -> bool:
        """bool: Whether host memory can be registered (page-locked) for the device."""
    @property
    def timeline_semaphore_interop_supported(self) -> bool:
        """bool: Whether external timeline semaphores can be imported."""
    @property
    def cluster_launch(self) -> bool:
        """bool: Whether kernels can be launched with thread block clusters."""
    @property
    def can_use_64_bit_stream_mem_ops(self) -> bool:
        """bool: Whether stream memory operations support 64-bit values."""
    @property
    def can_use_stream_wait_value_nor(self) -> bool:
        """bool: Whether stream wait operations support the NOR condition."""
    @property
    def dma_buf_supported(self) -> bool:
        """bool: Whether device memory can be shared as a dma_buf."""
    @property
    def ipc_event_supported(self) -> bool:
        """bool: Whether events can be shared between processes."""
    @property
    def mem_sync_domain_count(self) -> int:
        """int: Number of memory synchronization domains."""
    @property
    def tensor_map_access_supported(self) -> bool:
        """bool: Whether memory can be accessed through tensor maps."""
    @property
    def handle_type_fabric_supported(self) -> bool:
        """bool: Whether memory can be exported as a fabric handle."""
    @property
    def unified_function_pointers(self) -> bool:
        """bool: Whether function pointers are unified between host and device."""
    @property
    def mps_enabled(self) -> bool:
        """bool: Whether contexts on this device are shared through MPS."""
    @property
    def host_numa_id(self) -> int:
        """int: NUMA node of the host closest to the device (-1 without NUMA)."""
    @property
    def d3d12_cig_supported(self) -> bool:
        """bool: Whether CUDA in graphics (CIG) with Direct3D 12 is supported."""
    @property
    def mem_decompress_algorithm_mask(self) -> int:
        """int: Bitmask of the CUmemDecompressAlgorithm values the device supports."""
    @property
    def mem_decompress_maximum_length(self) -> int:
        """int: Longest single decompression operation, in bytes."""
    @property
    def vulkan_cig_supported(self) -> bool:
        """bool: Whether CUDA in graphics (CIG) with Vulkan is supported."""
    @property
    def gpu_pci_device_id(self) -> int:
        """int: PCI device id and vendor id, 16 bits each (0 if the driver cannot tell)."""
    @property
    def gpu_pci_subsystem_id(self) -> int:
        """int: PCI subsystem id and subsystem vendor id, 16 bits each (0 if the driver cannot tell)."""
    @property
    def host_numa_virtual_memory_management_supported(self) -> bool:
        """bool: Whether the virtual memory management API accepts HOST_NUMA locations."""
    @property
    def host_numa_memory_pools_supported(self) -> bool:
        """bool: Whether memory pools accept HOST_NUMA locations."""
    @property
    def host_numa_multinode_ipc_supported(self) -> bool:
        """bool: Whether HOST_NUMA memory can be shared between nodes of a multi-node system."""
    @property
    def host_memory_pools_supported(self) -> bool:
        """bool: Whether memory pools accept HOST locations (CUDA 13+)."""
    @property
    def host_virtual_memory_management_supported(self) -> bool:
        """bool: Whether the virtual memory management API accepts HOST locations (CUDA 13+)."""
    @property
    def host_alloc_dma_buf_supported(self) -> bool:
        """bool: Whether page-locked host memory can be shared as a dma_buf (CUDA 13+)."""
    @property
    def only_partial_host_native_atomic_supported(self) -> bool:
        """bool: Whether the host link supports only some native atomic operations (CUDA 13+)."""

class Device:
    """A CUDA device, and the entry point for what runs on it; one object per device per thread."""

    __slots__ = (
        "_device_id",
        "_memory_resource",
        "_has_inited",
        "_properties",
        "_resources",
        "_uuid",
        "_context",
        "__weakref__",
    )

    def __new__(cls, device_id: Device | int | None = None) -> Device: ...
    def _check_context_initialized(self) -> None: ...
    def _require_current(self) -> None: ...
    @classmethod
    def get_all_devices(cls) -> tuple[Device, ...]:
        """Every device the driver sees, in ordinal order."""
    @classmethod
    def _get_all_devices_from_cuda_driver(cls): ...
    def to_system_device(self) -> cuda.core.system.Device:
        """The cuda.core.system.Device (NVML's view) of this device; needs NVML support."""
    @property
    def device_id(self) -> int:
        """The device ordinal."""
    @property
    def pci_bus_id(self) -> str:
        """The PCI bus id, e.g. '0000:3B:00.0'."""
    def can_access_peer(self, peer: Device | int) -> bool:
        """Whether this device can access memory of device ``peer``."""
    @property
    def uuid(self) -> str:
        """The device UUID in 8-4-4-4-12 hex form."""
    @property
    def name(self) -> str:
        """The device's name."""
    @property
    def properties(self) -> DeviceProperties:
        """The device's attributes, read lazily."""
    # ---- Green contexts (device resources) ----
    @property
    def resources(self) -> DeviceResources:
        """The device's hardware resources (SMs, work queues), for green contexts."""
    # ---- end of green contexts ----
    @property
    def compute_capability(self) -> ComputeCapability:
        """The compute capability as a named tuple (major, minor)."""
    @property
    def arch(self) -> str:
        """The compute capability as one string, e.g. '90'."""
    @property
    def context(self) -> Context:
        """The Context that set_current() made current through this Device."""
    @property
    def memory_resource(self) -> MemoryResource:
        """Where allocate() takes memory from."""
    @memory_resource.setter
    def memory_resource(self, mr: MemoryResource) -> None: ...
    @property
    def default_stream(self) -> Stream:
        """The legacy or (CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM) per-thread default stream."""
    def __int__(self) -> int:
        """The device ordinal."""
    def __repr__(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[object, ...]: ...
    def set_current(self, ctx: Context | None = None) -> Context | None:
        """Make this device (its primary context, or ``ctx``) current; with ``ctx``, return the
        context it replaced."""
    def create_context(self, options: ContextOptions | None = None) -> Context:
        """A new green context made of ``options.resources`` (not made current)."""
    def create_stream(self, obj: IsStreamType | None = None, options: StreamOptions | None = None) -> Stream:
        """A new stream, or a Stream over the foreign stream ``obj``."""
    def create_event(self, options: EventOptions | None = None) -> Event:
        """A new, unrecorded Event."""
    def allocate(self, size: int, *, stream: Stream | IsStreamType) -> Buffer:
        """A Buffer of ``size`` bytes from memory_resource, ordered on ``stream``."""
    def sync(self) -> None:
        """Wait until all work of the current context has completed."""
    def create_graph_builder(self) -> GraphBuilder:
        """A new GraphBuilder on a new stream of this device (closed with the builder)."""
    # cuda.core.texture
    def create_opaque_array(self, options: OpaqueArrayOptions) -> OpaqueArray:
        """A new OpaqueArray (a CUDA array) on the current context."""
    def create_mipmapped_array(self, options: MipmappedArrayOptions) -> MipmappedArray:
        """A new MipmappedArray on the current context."""
    def create_texture_object(
        self, *, resource: ResourceDescriptor, options: TextureObjectOptions | None = None
    ) -> TextureObject:
        """A new TextureObject over ``resource``, sampling as ``options`` say."""
    def create_surface_object(self, *, resource: ResourceDescriptor) -> SurfaceObject:
        """A new SurfaceObject over ``resource`` (a surface-capable OpaqueArray)."""
