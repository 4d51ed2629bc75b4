# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# What other modules cimport from _ipc: the IPC records (Buffer and the pool resources hold them),
# and the base of the pools other processes can map.
from cuda.core._memory._memory_pool cimport _MemPool

cdef class IPCBufferDescriptor:
    cdef bytes _payload   # the driver's CUmemPoolPtrExportData, from the exporting process
    cdef size_t _size


cdef class IPCAllocationHandle:
    cdef int _fd          # the pool's shareable POSIX file descriptor; -1 once closed
    cdef object _uuid     # the exporting resource's UUID (None: unknown)


cdef class IPCDataForBuffer:
    cdef IPCBufferDescriptor _ipc_descriptor
    cdef bint _is_mapped  # imported from another process (else exported from this one)
    cdef object _mr       # the resource the descriptor belongs to, kept past Buffer.close()


cdef class IPCDataForMR:
    cdef IPCAllocationHandle _alloc_handle
    cdef bint _is_mapped  # imported from another process (else exported from this one)


# DeviceMemoryResource's and PinnedMemoryResource's base (not ManagedMemoryResource's): pickling
# as the pool's UUID, the registry of mapped pools, and the pool's shareable handle.
cdef class _IPCMemPool(_MemPool):
    pass
