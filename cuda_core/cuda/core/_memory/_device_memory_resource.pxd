# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cuda.core._memory._ipc cimport _IPCMemPool


cdef class DeviceMemoryResource(_IPCMemPool):
    cdef int _dev_id
