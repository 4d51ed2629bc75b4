# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The CUDA 12 spellings of the driver calls that differ between majors.
# cuda_core_build.environment links cuda-config/driver_compat.pxi to this file or to
# ../cu13/driver_compat.pxi, by the headers' major; each difference is one function here
# and one there, and nowhere else.

cdef inline cydriver.CUresult compat_device_get_uuid(
        cydriver.CUuuid* uuid, cydriver.CUdevice device) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuDeviceGetUuid is the legacy form; _v2 is the one that matches 13's.
    return cydriver.cuDeviceGetUuid_v2(uuid, device)


cdef inline cydriver.CUresult compat_event_elapsed_time(
        float* milliseconds, cydriver.CUevent start, cydriver.CUevent end) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12.8+ added the _v2 form (defined for events recorded on different devices); 13 renamed it.
    return cydriver.cuEventElapsedTime_v2(milliseconds, start, end)


# ---- Memory (cuda.core._memory): pools, managed-memory locations and batches ----

# Which of the CUDA 13 memory APIs this major has: the current pool of a host or managed
# location (cuMemGetMemPool), managed memory pools, and the batched discard operations.
cdef enum:
    COMPAT_HAS_LOCATION_POOLS = 0
    COMPAT_HAS_MANAGED_POOLS = 0
    COMPAT_HAS_MEM_DISCARD = 0


cdef inline cydriver.CUmemAllocationType compat_managed_allocation_type() noexcept nogil:
    # CUDA 12 has no managed pools: CU_MEM_ALLOCATION_TYPE_INVALID (callers check
    # COMPAT_HAS_MANAGED_POOLS first).
    return cydriver.CU_MEM_ALLOCATION_TYPE_INVALID


cdef inline cydriver.CUresult compat_mem_get_mem_pool(
        cydriver.CUmemoryPool* pool, cydriver.CUmemLocation* location,
        cydriver.CUmemAllocationType allocation_type) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12 names only a device's current pool (cuDeviceGetMemPool); callers check
    # COMPAT_HAS_LOCATION_POOLS before asking for a host or managed one.
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_DEVICE and allocation_type == cydriver.CU_MEM_ALLOCATION_TYPE_PINNED:
        return cydriver.cuDeviceGetMemPool(pool, location.id)
    return cydriver.CUDA_ERROR_NOT_SUPPORTED


cdef inline cydriver.CUresult compat_mem_prefetch(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmemLocation location,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuMemPrefetchAsync names a device ordinal (CU_DEVICE_CPU: the host) and works
    # on every 12.x driver; a host NUMA node needs the location-based _v2 (12.2+ drivers).
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_DEVICE:
        return cydriver.cuMemPrefetchAsync(ptr, size, location.id, stream)
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_HOST:
        return cydriver.cuMemPrefetchAsync(ptr, size, cydriver.CU_DEVICE_CPU, stream)
    return cydriver.cuMemPrefetchAsync_v2(ptr, size, location, 0, stream)


cdef inline cydriver.CUresult compat_mem_advise(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmem_advise advice,
        cydriver.CUmemLocation location) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # As compat_mem_prefetch: device ordinals for devices and the host, _v2 for NUMA nodes.
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_DEVICE:
        return cydriver.cuMemAdvise(ptr, size, advice, location.id)
    if location.type == cydriver.CU_MEM_LOCATION_TYPE_HOST:
        return cydriver.cuMemAdvise(ptr, size, advice, cydriver.CU_DEVICE_CPU)
    return cydriver.cuMemAdvise_v2(ptr, size, advice, location)


cdef inline cydriver.CUresult compat_mem_preferred_location(
        cydriver.CUmemLocation* location, cydriver.CUdeviceptr ptr,
        size_t size) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # The typed range attributes (_TYPE, _ID) exist from 12.2 drivers on; an older driver
    # refuses them, and its device-ordinal attribute is read instead (-1 host, -2 none).
    cdef int ordinal = cydriver.CU_DEVICE_INVALID
    cdef cydriver.CUresult result = cydriver.cuMemRangeGetAttribute(
        &location.type, sizeof(cydriver.CUmemLocationType),
        cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ptr, size)
    if result == cydriver.CUDA_SUCCESS:
        location.id = 0
        return cydriver.cuMemRangeGetAttribute(
            &location.id, sizeof(int), cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, ptr, size)
    if result != cydriver.CUDA_ERROR_INVALID_VALUE:
        return result
    result = cydriver.cuMemRangeGetAttribute(
        &ordinal, sizeof(int), cydriver.CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, size)
    location.id = ordinal if ordinal >= 0 else 0
    if ordinal >= 0:
        location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE
    elif ordinal == cydriver.CU_DEVICE_CPU:
        location.type = cydriver.CU_MEM_LOCATION_TYPE_HOST
    else:
        location.type = cydriver.CU_MEM_LOCATION_TYPE_INVALID
    return result


cdef inline cydriver.CUresult compat_mem_prefetch_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count, cydriver.CUmemLocation* locations,
        size_t* location_starts, size_t location_count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12 has no batched prefetch: one cuMemPrefetchAsync per range, in order, each to
    # the location whose run (location_starts, as cuMemPrefetchBatchAsync reads them) covers it.
    cdef size_t i
    cdef size_t k = 0
    cdef cydriver.CUresult result
    for i in range(count):
        while k + 1 < location_count and location_starts[k + 1] <= i:
            k += 1
        result = compat_mem_prefetch(ptrs[i], sizes[i], locations[k], stream)
        if result != cydriver.CUDA_SUCCESS:
            return result
    return cydriver.CUDA_SUCCESS


cdef inline cydriver.CUresult compat_mem_discard_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12 cannot discard managed memory (callers check COMPAT_HAS_MEM_DISCARD first).
    return cydriver.CUDA_ERROR_NOT_SUPPORTED


cdef inline cydriver.CUresult compat_mem_discard_prefetch_batch(
        cydriver.CUdeviceptr* ptrs, size_t* sizes, size_t count, cydriver.CUmemLocation* locations,
        size_t* location_starts, size_t location_count,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # As compat_mem_discard_batch.
    return cydriver.CUDA_ERROR_NOT_SUPPORTED


cdef inline dict compat_major_only_device_attributes():
    # DeviceProperties names whose CUdevice_attribute exists only from CUDA 13 on: none here.
    return {}


# ---- Batched copies (cuda.core._memory._copy_ops) ----

cdef inline cydriver.CUresult compat_memcpy_batch(
        cydriver.CUdeviceptr* dsts, cydriver.CUdeviceptr* srcs, size_t* sizes, size_t count,
        cydriver.CUmemcpyAttributes* attrs, size_t* attr_starts, size_t attr_count, size_t* failed,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuMemcpyBatchAsync names the copy that failed in ``failed``.
    return cydriver.cuMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attr_starts, attr_count, failed, stream)


# ---- graph edges (graph definitions) ----
# CUDA 12's edge functions carry no edge data (its _v2 forms do; definitions make only
# default edges, so the plain forms, which every 12.x driver has, are the ones used).

cdef inline cydriver.CUresult compat_graph_add_dependencies(
        cydriver.CUgraph graph, const cydriver.CUgraphNode* from_, const cydriver.CUgraphNode* to,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphAddDependencies(graph, from_, to, count)


cdef inline cydriver.CUresult compat_graph_remove_dependencies(
        cydriver.CUgraph graph, const cydriver.CUgraphNode* from_, const cydriver.CUgraphNode* to,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphRemoveDependencies(graph, from_, to, count)


cdef inline cydriver.CUresult compat_graph_get_edges(
        cydriver.CUgraph graph, cydriver.CUgraphNode* from_, cydriver.CUgraphNode* to,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphGetEdges(graph, from_, to, count)


cdef inline cydriver.CUresult compat_graph_node_get_dependencies(
        cydriver.CUgraphNode node, cydriver.CUgraphNode* nodes,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphNodeGetDependencies(node, nodes, count)


cdef inline cydriver.CUresult compat_graph_node_get_dependent_nodes(
        cydriver.CUgraphNode node, cydriver.CUgraphNode* nodes,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.cuGraphNodeGetDependentNodes(node, nodes, count)


cdef inline cydriver.CUresult compat_graph_add_node(
        cydriver.CUgraphNode* node, cydriver.CUgraph graph, const cydriver.CUgraphNode* dependencies,
        size_t count, cydriver.CUgraphNodeParams* params) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # cuGraphAddNode (12.2+): the one way to add a conditional node.
    return cydriver.cuGraphAddNode(node, graph, dependencies, count, params)


# ---- stream capture (graph builder) ----

cdef inline cydriver.CUresult compat_capture_info(
        cydriver.CUstream stream, cydriver.CUstreamCaptureStatus* status, cydriver.CUgraph* graph,
        const cydriver.CUgraphNode** dependencies, const cydriver.CUgraphEdgeData** edges,
        size_t* count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuStreamGetCaptureInfo (_v2) has no edge data: every edge is a default one.
    edges[0] = NULL
    return cydriver.cuStreamGetCaptureInfo(stream, status, NULL, graph, dependencies, count)


cdef inline cydriver.CUresult compat_capture_add_node(
        cydriver.CUgraphNode* node, cydriver.CUgraph graph, const cydriver.CUgraphNode* dependencies,
        const cydriver.CUgraphEdgeData* edges, size_t count,
        cydriver.CUgraphNodeParams* params) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuGraphAddNode takes no edge data (compat_capture_info gives none).
    return cydriver.cuGraphAddNode(node, graph, dependencies, count, params)


cdef inline cydriver.CUresult compat_capture_set_dependencies(
        cydriver.CUstream stream, cydriver.CUgraphNode* dependencies,
        size_t count) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuStreamUpdateCaptureDependencies (v1) takes no edge data.
    return cydriver.cuStreamUpdateCaptureDependencies(stream, dependencies, count,
                                                      cydriver.CU_STREAM_SET_CAPTURE_DEPENDENCIES)


# ---- tensor maps (cuda.core._tensor_map) ----

# CUDA 12 builds have no im2col-wide encoding (callers check COMPAT_HAS_IM2COL_WIDE first).
cdef enum:
    COMPAT_HAS_IM2COL_WIDE = 0


cdef inline cydriver.CUresult compat_tensor_map_encode_im2col_wide(
        cydriver.CUtensorMap* tensor_map, cydriver.CUtensorMapDataType data_type, cydriver.cuuint32_t rank,
        void* address, const cydriver.cuuint64_t* dims, const cydriver.cuuint64_t* strides, int lower_width,
        int upper_width, cydriver.cuuint32_t channels, cydriver.cuuint32_t pixels,
        const cydriver.cuuint32_t* element_strides, cydriver.CUtensorMapInterleave interleave, int mode,
        cydriver.CUtensorMapSwizzle swizzle, cydriver.CUtensorMapL2promotion l2_promotion,
        cydriver.CUtensorMapFloatOOBfill oob_fill) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    return cydriver.CUDA_ERROR_NOT_SUPPORTED


# ---- device resources (cuda.core._device_resources) ----

cdef inline unsigned int compat_sm_min_partition(const cydriver.CUdevResource* resource) noexcept nogil:
    # CUDA 12's CUdevSmResource holds only smCount: 0, and the caller uses the architecture's granularity.
    return 0


cdef inline unsigned int compat_sm_coscheduled_alignment(const cydriver.CUdevResource* resource) noexcept nogil:
    return 0
