# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cuda.core._memory._buffer cimport MemoryResource


cdef class cyGraphMemoryResource(MemoryResource):
    cdef int _device_id
