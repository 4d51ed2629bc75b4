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
