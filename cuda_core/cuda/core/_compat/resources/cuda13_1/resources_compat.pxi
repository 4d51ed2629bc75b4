# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Device resources with CUDA 13.1+ headers and cuda-bindings 13.1+: structured SM splits
# (cuDevSmResourceSplit with per-group parameters), SM resource flags, workqueue resources.
# cuda_core_build.environment links cuda-config/resources_compat.pxi to this file or to
# ../before13_1, by the headers' and cuda-bindings' minor; each difference is one function
# here and one there, and nowhere else.

cdef inline str compat_needs_13_1(str what):
    return f"{what} needs CUDA 13.1+"  # never raised in this build: 13.1's headers have it all


cdef inline unsigned int compat_sm_flags(const cydriver.CUdevResource* resource) noexcept nogil:
    return resource.sm.flags


# The driver's CUDA version, read by the first split: cuDevSmResourceSplit came with the CUDA
# 13.1 driver, and an older one (13.0) splits by count alone, as builds before 13.1 do.
cdef int _driver_version = 0


cdef inline int compat_check_split(list counts, list coscheduled, list preferred, list backfill) except -1:
    # cuDevSmResourceSplit takes every SMResourceOptions field, group by group; the older
    # driver's cuDevSmResourceSplitByCount makes groups of one size with no co-scheduling counts.
    global _driver_version
    if _driver_version == 0:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&_driver_version))
    if _driver_version >= 13010:
        return 0
    driver = f"this driver is CUDA {_driver_version // 1000}.{_driver_version % 1000 // 10}"
    if len(set(counts)) > 1 or len(set(backfill)) > 1:
        raise NotImplementedError(f"SMResource.split() into groups of different sizes needs a CUDA 13.1+ driver "
                                  f"(cuDevSmResourceSplit); {driver}")
    if any(value is not None for value in coscheduled) or any(value is not None for value in preferred):
        raise NotImplementedError("SMResourceOptions.coscheduled_sm_count and preferred_coscheduled_sm_count need "
                                  f"a CUDA 13.1+ driver (cuDevSmResourceSplit); {driver}")
    return 0


cdef inline cydriver.CUresult compat_sm_split(
        cydriver.CUdevResource* result, unsigned int* groups, const cydriver.CUdevResource* input,
        cydriver.CUdevResource* remainder, const unsigned int* counts, const unsigned int* coscheduled,
        const unsigned int* preferred, const bint* backfill) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    if _driver_version < 13010:  # all groups alike (compat_check_split saw to it)
        return cydriver.cuDevSmResourceSplitByCount(
            result, groups, input, remainder,
            cydriver.CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING if backfill[0] else 0, counts[0])
    # One zero-initialized CU_DEV_SM_RESOURCE_GROUP_PARAMS per group; a count of 0 discovers.
    cdef vector[cydriver.CU_DEV_SM_RESOURCE_GROUP_PARAMS] params
    cdef cydriver.CU_DEV_SM_RESOURCE_GROUP_PARAMS entry
    cdef unsigned int i
    memset(&entry, 0, sizeof(entry))
    params.assign(groups[0], entry)
    for i in range(groups[0]):
        params[i].smCount = counts[i]
        params[i].coscheduledSmCount = coscheduled[i]
        params[i].preferredCoscheduledSmCount = preferred[i]
        params[i].flags = cydriver.CU_DEV_SM_RESOURCE_GROUP_BACKFILL if backfill[i] else 0
    return cydriver.cuDevSmResourceSplit(result, groups[0], input, remainder, 0, params.data())


cdef inline int compat_workqueue_types(cydriver.CUdevResourceType* config_type,
                                       cydriver.CUdevResourceType* queue_type) except -1:
    config_type[0] = cydriver.CU_DEV_RESOURCE_TYPE_WORKQUEUE_CONFIG
    queue_type[0] = cydriver.CU_DEV_RESOURCE_TYPE_WORKQUEUE
    return 0


cdef inline dict compat_workqueue_scopes():
    # WorkqueueSharingScopeType value -> CUdevWorkqueueConfigScope.
    return {"device_ctx": cydriver.CU_WORKQUEUE_SCOPE_DEVICE_CTX,
            "green_ctx_balanced": cydriver.CU_WORKQUEUE_SCOPE_GREEN_CTX_BALANCED}


cdef inline void compat_workqueue_read(const cydriver.CUdevResource* config, int* scope,
                                       unsigned int* limit) noexcept nogil:
    scope[0] = <int>config.wqConfig.sharingScope
    limit[0] = config.wqConfig.wqConcurrencyLimit


cdef inline void compat_workqueue_write(cydriver.CUdevResource* config, int scope, unsigned int limit) noexcept nogil:
    config.wqConfig.sharingScope = <cydriver.CUdevWorkqueueConfigScope>scope
    config.wqConfig.wqConcurrencyLimit = limit
