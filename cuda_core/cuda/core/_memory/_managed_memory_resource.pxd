# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cuda.core._memory._memory_pool cimport _MemPool


cdef class ManagedMemoryResource(_MemPool):
    cdef str _location_kind  # the preferred location: "device", "host", "host_numa" or "none"
    cdef int _location_id    # its device ordinal or host NUMA node
