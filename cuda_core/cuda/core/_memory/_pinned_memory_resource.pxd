# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cuda.core._memory._ipc cimport _IPCMemPool


cdef class PinnedMemoryResource(_IPCMemPool):
    cdef int _numa_id  # the host NUMA node of the pool's memory; -1: placed by the OS, or unknown
