# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport intptr_t


cdef class TensorMapDescriptor:
    cdef cydriver.CUtensorMap _tensor_map  # the encoded 128 bytes, passed to kernels by value
    cdef int _device_id                     # the device current when it was encoded
    cdef intptr_t _context                  # the CUcontext current when it was encoded
    cdef object _source_ref                 # what owns the memory it addresses
    cdef object _view_ref                   # the StridedMemoryView it was encoded from
    cdef object _repr_info                  # (encoding, rank, data type, swizzle) for __repr__

    # Keep the encoded bytes, the view they address, and the context they were made in.
    cdef int _finish(self, cydriver.CUtensorMap* encoded, tuple repr_info) except -1
