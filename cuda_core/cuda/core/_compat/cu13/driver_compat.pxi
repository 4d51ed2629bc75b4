# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The CUDA 13 spellings of the driver calls that differ between majors.
# cuda_core_build.environment links cuda-config/driver_compat.pxi to this file or to
# ../cu12/driver_compat.pxi, by the headers' major; each difference is one function here
# and one there, and nowhere else.

cdef inline cydriver.CUresult compat_device_get_uuid(
        cydriver.CUuuid* uuid, cydriver.CUdevice device) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13 dropped the _v2 suffix: cuDeviceGetUuid is the former cuDeviceGetUuid_v2.
    return cydriver.cuDeviceGetUuid(uuid, device)


cdef inline cydriver.CUresult compat_event_elapsed_time(
        float* milliseconds, cydriver.CUevent start, cydriver.CUevent end) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuEventElapsedTime is the former cuEventElapsedTime_v2.
    return cydriver.cuEventElapsedTime(milliseconds, start, end)


# ---- Memory (cuda.core._memory): pools, managed-memory locations and batches ----

# Which of the CUDA 13 memory APIs this major has: the current pool of a host or managed
# location (cuMemGetMemPool), managed memory pools, and the batched discard operations.
cdef enum:
    COMPAT_HAS_LOCATION_POOLS = 1
    COMPAT_HAS_MANAGED_POOLS = 1
    COMPAT_HAS_MEM_DISCARD = 1


cdef inline cydriver.CUmemAllocationType compat_managed_allocation_type() noexcept nogil:
    return cydriver.CU_MEM_ALLOCATION_TYPE_MANAGED


cdef inline cydriver.CUresult compat_mem_get_mem_pool(
        cydriver.CUmemoryPool* pool, cydriver.CUmemLocation* location,
        cydriver.CUmemAllocationType allocation_type) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13 names the current pool of any location and allocation type.
    return cydriver.cuMemGetMemPool(pool, location, allocation_type)


cdef inline cydriver.CUresult compat_mem_prefetch(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmemLocation location,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuMemPrefetchAsync is the former _v2: a CUmemLocation and flags.
    return cydriver.cuMemPrefetchAsync(ptr, size, location, 0, stream)


cdef inline cydriver.CUresult compat_mem_advise(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmem_advise advice,
        cydriver.CUmemLocation location) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuMemAdvise is the former _v2: a CUmemLocation.
    return cydriver.cuMemAdvise(ptr, size, advice, location)


cdef inline dict compat_major_only_device_attributes():
    # DeviceProperties names whose CUdevice_attribute exists only from CUDA 13 on.
    return {
        "host_memory_pools_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED,
        "host_virtual_memory_management_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
        "host_alloc_dma_buf_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED,
        "only_partial_host_native_atomic_supported": cydriver.CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED,
    }


cdef inline cydriver.CUresult compat_mem_preferred_location(
        cydriver.CUmemLocation* location, cydriver.CUdeviceptr ptr,
        size_t size) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # Every CUDA 13 driver has the typed range attributes (_TYPE, _ID).
    cdef cydriver.CUresult result = cydriver.cuMemRangeGetAttribute(
        &location.type, sizeof(cydriver.CUmemLocationType),
        cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ptr, size)
    if result != cydriver.CUDA_SUCCESS:
        return result
    location.id = 0
    return cydriver.cuMemRangeGetAttribute(
        &location.id, sizeof(int), cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, ptr, size)


cdef inline cydriver.CUresult compat_mem_prefetch_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count, cydriver.CUmemLocation* locations,
        size_t* location_starts, size_t location_count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuMemPrefetchBatchAsync(ptrs, sizes, count, locations, location_starts,
                                            location_count, 0, stream)


cdef inline cydriver.CUresult compat_mem_discard_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuMemDiscardBatchAsync(ptrs, sizes, count, 0, stream)


cdef inline cydriver.CUresult compat_mem_discard_prefetch_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count, cydriver.CUmemLocation* locations,
        size_t* location_starts, size_t location_count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuMemDiscardAndPrefetchBatchAsync(ptrs, sizes, count, locations, location_starts,
                                                      location_count, 0, stream)


# ---- Batched copies (cuda.core._memory._copy_ops) ----

cdef inline cydriver.CUresult compat_memcpy_batch(
        cydriver.CUdeviceptr* dsts, cydriver.CUdeviceptr* srcs, size_t* sizes, size_t count,
        cydriver.CUmemcpyAttributes* attrs, size_t* attr_starts, size_t attr_count, size_t* failed,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuMemcpyBatchAsync has no failIdx: ``failed`` stays as the caller set it.
    return cydriver.cuMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attr_starts, attr_count, stream)


# ---- graph edges (graph definitions) ----
# CUDA 13's edge functions take per-edge data; NULL means default edges, the only kind
# graph definitions make (a graph with other edges answers CUDA_ERROR_LOSSY_QUERY).

cdef inline cydriver.CUresult compat_graph_add_dependencies(
        cydriver.CUgraph graph, const cydriver.CUgraphNode* from_, const cydriver.CUgraphNode* to,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphAddDependencies(graph, from_, to, NULL, count)


cdef inline cydriver.CUresult compat_graph_remove_dependencies(
        cydriver.CUgraph graph, const cydriver.CUgraphNode* from_, const cydriver.CUgraphNode* to,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphRemoveDependencies(graph, from_, to, NULL, count)


cdef inline cydriver.CUresult compat_graph_get_edges(
        cydriver.CUgraph graph, cydriver.CUgraphNode* from_, cydriver.CUgraphNode* to,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphGetEdges(graph, from_, to, NULL, count)


cdef inline cydriver.CUresult compat_graph_node_get_dependencies(
        cydriver.CUgraphNode node, cydriver.CUgraphNode* nodes,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphNodeGetDependencies(node, nodes, NULL, count)


cdef inline cydriver.CUresult compat_graph_node_get_dependent_nodes(
        cydriver.CUgraphNode node, cydriver.CUgraphNode* nodes,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphNodeGetDependentNodes(node, nodes, NULL, count)


cdef inline cydriver.CUresult compat_graph_add_node(
        cydriver.CUgraphNode* node, cydriver.CUgraph graph, const cydriver.CUgraphNode* dependencies,
        size_t count, cydriver.CUgraphNodeParams* params) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphAddNode(node, graph, dependencies, NULL, count, params)


# ---- stream capture (graph builder) ----

cdef inline cydriver.CUresult compat_capture_info(
        cydriver.CUstream stream, cydriver.CUstreamCaptureStatus* status, cydriver.CUgraph* graph,
        const cydriver.CUgraphNode** dependencies, const cydriver.CUgraphEdgeData** edges,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuStreamGetCaptureInfo also names the edge data of the capture's dependencies.
    return cydriver.cuStreamGetCaptureInfo(stream, status, NULL, graph, dependencies, edges, count)


cdef inline cydriver.CUresult compat_capture_add_node(
        cydriver.CUgraphNode* node, cydriver.CUgraph graph, const cydriver.CUgraphNode* dependencies,
        const cydriver.CUgraphEdgeData* edges, size_t count,
        cydriver.CUgraphNodeParams* params) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuGraphAddNode takes the edge data cuStreamGetCaptureInfo returned.
    return cydriver.cuGraphAddNode(node, graph, dependencies, edges, count, params)


cdef inline cydriver.CUresult compat_capture_set_dependencies(
        cydriver.CUstream stream, cydriver.CUgraphNode* dependencies,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuStreamUpdateCaptureDependencies takes edge data: NULL, the default edges.
    return cydriver.cuStreamUpdateCaptureDependencies(stream, dependencies, NULL, count,
                                                      cydriver.CU_STREAM_SET_CAPTURE_DEPENDENCIES)


# ---- tensor maps (cuda.core._tensor_map) ----

cdef enum:
    COMPAT_HAS_IM2COL_WIDE = 1


cdef inline cydriver.CUresult compat_tensor_map_encode_im2col_wide(
        cydriver.CUtensorMap* tensor_map, cydriver.CUtensorMapDataType data_type, cydriver.cuuint32_t rank,
        void* address, const cydriver.cuuint64_t* dims, const cydriver.cuuint64_t* strides, int lower_width,
        int upper_width, cydriver.cuuint32_t channels, cydriver.cuuint32_t pixels,
        const cydriver.cuuint32_t* element_strides, cydriver.CUtensorMapInterleave interleave, int mode,
        cydriver.CUtensorMapSwizzle swizzle, cydriver.CUtensorMapL2promotion l2_promotion,
        cydriver.CUtensorMapFloatOOBfill oob_fill) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # Im2col-wide (CUtensorMapIm2ColWideMode) is a CUDA 13 API.
    return cydriver.cuTensorMapEncodeIm2colWide(tensor_map, data_type, rank, address, dims, strides, lower_width,
                                                upper_width, channels, pixels, element_strides, interleave,
                                                <cydriver.CUtensorMapIm2ColWideMode>mode, swizzle, l2_promotion,
                                                oob_fill)


# ---- device resources (cuda.core._device_resources) ----

cdef inline unsigned int compat_sm_min_partition(const cydriver.CUdevResource* resource) noexcept nogil:
    # CUDA 13's CUdevSmResource carries the split granularity (0 where the driver leaves it unset).
    return resource.sm.minSmPartitionSize


cdef inline unsigned int compat_sm_coscheduled_alignment(const cydriver.CUdevResource* resource) noexcept nogil:
    return resource.sm.smCoscheduledAlignment
