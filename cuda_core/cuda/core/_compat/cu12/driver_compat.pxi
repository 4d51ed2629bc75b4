# The CUDA 12 spellings of the driver calls that differ between majors. Meson puts
# this directory, or ../cu13, on Cython's include path; each difference is one
# function here and one in cu13/driver_compat.pxi, and nowhere else.

cdef inline cydriver.CUresult compat_device_get_uuid(
        cydriver.CUuuid* uuid, cydriver.CUdevice device) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12's cuDeviceGetUuid is the legacy form; _v2 is the one that matches 13's.
    return cydriver.cuDeviceGetUuid_v2(uuid, device)


cdef inline cydriver.CUresult compat_event_elapsed_time(
        float* milliseconds, cydriver.CUevent start, cydriver.CUevent end) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12.8+ added the _v2 form (defined for events recorded on different devices); 13 renamed it.
    return cydriver.cuEventElapsedTime_v2(milliseconds, start, end)


cdef inline cydriver.CUresult compat_mem_prefetch(
        cydriver.CUdeviceptr ptr, size_t size, int device_ordinal,
        cydriver.CUstream stream) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12 names the destination by device ordinal, CU_DEVICE_CPU (-1) for the host.
    # A negative device_ordinal means the host on both majors.
    cdef cydriver.CUdevice destination = device_ordinal if device_ordinal >= 0 else cydriver.CU_DEVICE_CPU
    return cydriver.cuMemPrefetchAsync(ptr, size, destination, stream)


cdef inline cydriver.CUresult compat_mem_advise(
        cydriver.CUdeviceptr ptr, size_t size, cydriver.CUmem_advise advice,
        int device_ordinal) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # CUDA 12 names the advised location by device ordinal, CU_DEVICE_CPU (-1) for the host.
    cdef cydriver.CUdevice location = device_ordinal if device_ordinal >= 0 else cydriver.CU_DEVICE_CPU
    return cydriver.cuMemAdvise(ptr, size, advice, location)


cdef inline dict compat_major_only_device_attributes():
    # DeviceProperties names whose CUdevice_attribute exists only from CUDA 13 on: none here.
    return {}
