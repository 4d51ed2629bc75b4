# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Device resources with headers before CUDA 13.1 (all of CUDA 12, CUDA 13.0): SM splits by
# count alone (cuDevSmResourceSplitByCount), no SM resource flags, no workqueue resources.
# cuda_core_build.environment links cuda-config/resources_compat.pxi to this file or to
# ../cuda13_1, by the headers' and cuda-bindings' minor; each difference is one function
# here and one there, and nowhere else.

cdef inline str compat_needs_13_1(str what):
    return (f"{what} needs cuda.core built with CUDA 13.1+ headers and cuda-bindings 13.1+; this build has "
            f"CUDA {cydriver.CUDA_VERSION // 1000}.{cydriver.CUDA_VERSION % 1000 // 10} headers")


cdef inline unsigned int compat_sm_flags(const cydriver.CUdevResource* resource) noexcept nogil:
    # CUdevSmResource.flags came with CUDA 13.1.
    return 0


cdef inline int compat_check_split(list counts, list coscheduled, list preferred, list backfill) except -1:
    # cuDevSmResourceSplitByCount makes groups of one size and knows no co-scheduling counts.
    if len(set(counts)) > 1 or len(set(backfill)) > 1:
        raise NotImplementedError(compat_needs_13_1("SMResource.split() into groups of different sizes "
                                                    "(cuDevSmResourceSplit)"))
    if any(value is not None for value in coscheduled) or any(value is not None for value in preferred):
        raise NotImplementedError(compat_needs_13_1("SMResourceOptions.coscheduled_sm_count and "
                                                    "preferred_coscheduled_sm_count (cuDevSmResourceSplit)"))
    return 0


cdef inline cydriver.CUresult compat_sm_split(
        cydriver.CUdevResource* result, unsigned int* groups, const cydriver.CUdevResource* input,
        cydriver.CUdevResource* remainder, const unsigned int* counts, const unsigned int* coscheduled,
        const unsigned int* preferred, const bint* backfill) except ?cydriver.CUDA_ERROR_NOT_FOUND nogil:
    # All groups alike (compat_check_split saw to it); backfill lets the driver ignore the SM
    # hierarchy, the nearest this API has. ``groups`` comes back as the count made.
    cdef unsigned int flags = cydriver.CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING if backfill[0] else 0
    return cydriver.cuDevSmResourceSplitByCount(result, groups, input, remainder, flags, counts[0])


cdef inline int compat_workqueue_types(cydriver.CUdevResourceType* config_type,
                                       cydriver.CUdevResourceType* queue_type) except -1:
    raise RuntimeError(compat_needs_13_1("WorkqueueResource (CUdevWorkqueueConfigScope)"))


cdef inline dict compat_workqueue_scopes():
    # WorkqueueSharingScopeType value -> CUdevWorkqueueConfigScope: none before CUDA 13.1.
    return {}


cdef inline void compat_workqueue_read(const cydriver.CUdevResource* config, int* scope,
                                       unsigned int* limit) noexcept nogil:
    scope[0] = -1
    limit[0] = 0


cdef inline void compat_workqueue_write(cydriver.CUdevResource* config, int scope, unsigned int limit) noexcept nogil:
    pass
