# The CUDA 13 spellings of the driver calls that differ between majors. Meson puts
# this directory, or ../cu12, on Cython's include path; each difference is one
# function here and one in cu12/driver_compat.pxi, and nowhere else.

cdef inline cydriver.CUresult compat_device_get_uuid(
        cydriver.CUuuid* uuid, cydriver.CUdevice device) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13 dropped the _v2 suffix: cuDeviceGetUuid is the former cuDeviceGetUuid_v2.
    return cydriver.cuDeviceGetUuid(uuid, device)


cdef inline cydriver.CUresult compat_event_elapsed_time(
        float* milliseconds, cydriver.CUevent start, cydriver.CUevent end) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13's cuEventElapsedTime is the former cuEventElapsedTime_v2.
    return cydriver.cuEventElapsedTime(milliseconds, start, end)


cdef inline cydriver.CUresult compat_mem_prefetch(
        cydriver.CUdeviceptr ptr, size_t size, int device_ordinal,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13 takes a CUmemLocation and flags (the former _v2). A negative
    # device_ordinal means the host as a whole, as CU_DEVICE_CPU did on 12.
    cdef cydriver.CUmemLocation location
    location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE if device_ordinal >= 0 else cydriver.CU_MEM_LOCATION_TYPE_HOST
    location.id = device_ordinal if device_ordinal >= 0 else 0
    return cydriver.cuMemPrefetchAsync(ptr, size, location, 0, stream)


cdef inline cydriver.CUresult compat_mem_advise(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmem_advise advice,
        int device_ordinal) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 13 takes a CUmemLocation (the former _v2); a negative device_ordinal means the host.
    cdef cydriver.CUmemLocation location
    location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE if device_ordinal >= 0 else cydriver.CU_MEM_LOCATION_TYPE_HOST
    location.id = device_ordinal if device_ordinal >= 0 else 0
    return cydriver.cuMemAdvise(ptr, size, advice, location)


cdef inline dict compat_major_only_device_attributes():
    # DeviceProperties names whose CUdevice_attribute exists only from CUDA 13 on.
    return {
        "host_memory_pools_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED,
        "host_virtual_memory_management_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
        "host_alloc_dma_buf_supported": cydriver.CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED,
        "only_partial_host_native_atomic_supported": cydriver.CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED,
    }
