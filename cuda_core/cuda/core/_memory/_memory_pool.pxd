# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer, MemoryResource
from cuda.core._stream cimport Stream


# A driver memory pool, shared by its resource, the resource's attributes object and nothing
# else: an owned pool is destroyed when the last of them lets go (the driver itself waits
# for allocations still out).
cdef class _PoolHandle:
    cdef cydriver.CUmemoryPool pool
    cdef bint owned


cdef class _MemPool(MemoryResource):
    cdef:
        _PoolHandle _handle    # None once an owned pool's resource is closed
        bint _owned
        bint _ipc_enabled
        bint _python_deallocate  # a Python subclass overrides deallocate: call it
        type _buffer_class       # what allocate returns: Buffer, or ManagedBuffer
        object _attributes
        object _uuid
        object _ipc_data         # IPCDataForMR: the pool's exported or imported shareable handle
        # A mapped pool (IPC import; else both None): imported pointer -> [Buffers over it,
        # export payload], and export payload (bytes) -> imported pointer.
        dict _imports
        dict _import_ptrs
        object __weakref__

    # The pool, or RuntimeError when the resource was closed.
    cdef cydriver.CUmemoryPool _live_pool(self) except? NULL


# Make ``self`` own a new pool at (loc_type, loc_id) of ``allocation_type``.
cdef int pool_create(_MemPool self, cydriver.CUmemLocationType loc_type, int loc_id,
                     cydriver.CUmemAllocationType allocation_type, bint ipc_enabled, size_t max_size) except -1

# Make ``self`` own its mapping of the pool another process exported as ``fd`` (a POSIX file
# descriptor, left open: the caller owns it).
cdef int pool_import(_MemPool self, int fd) except -1

# Make ``self`` use (not own) a pool the driver already has, e.g. a device's current pool.
cdef int pool_use(_MemPool self, cydriver.CUmemoryPool pool) except -1

# ``(options class)(**options)`` for a dict, ``options`` for an instance, None for None.
cdef object options_of(type options_class, object options)

# The ordinal of a Device or an int, checked against the driver's device count.
cdef int device_ordinal(object device) except -1

# A pool's max_size option: a non-negative int (0: the driver's default), else ValueError.
cdef size_t checked_max_size(object max_size) except? 0
