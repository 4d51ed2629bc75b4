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
