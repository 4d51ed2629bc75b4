# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver
from cuda.core._stream cimport Stream


cdef class MemoryResource:
    # Set by cuda.core's own resources: their is_*_accessible and is_managed answers are
    # exact, so a Buffer never asks the driver what kind of memory it holds.
    cdef bint _exact_kind

    # Give ``size`` bytes at ``ptr`` back, ordered on ``stream`` (None: no stream was
    # recorded). The base calls the Python ``deallocate``; cuda.core's resources free in C.
    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1


# What the driver says about a pointer the Buffer's resource does not describe.
cdef struct _PointerKind:
    bint known          # asked already
    bint driver_memory  # the driver knows it (device, pinned, registered or managed)
    bint host_memory    # pinned or registered host memory
    bint managed
    int device_ordinal  # -1 when the driver does not know the pointer


cdef class Buffer:
    cdef:
        MemoryResource _memory_resource  # None: nothing to give back
        object _owner                    # kept alive while the Buffer is open
        Stream _dealloc_stream           # orders the deallocation; None: none recorded
        bint _closed
        _PointerKind _kind
        int _holds                       # _AllocationHolds alive: closing defers the deallocation
        tuple _pending_release           # (resource, pointer, size, stream) of a deferred close
        object _ipc_data                 # _ipc.IPCDataForBuffer once exported or imported (IPC)
        object __weakref__
    # Public (private names) for VirtualMemoryResource, which grows or moves an allocation.
    cdef public cydriver.CUdeviceptr _ptr
    cdef public size_t _size

    # The pointer, or RuntimeError when the buffer is closed. The launcher reads it.
    cdef cydriver.CUdeviceptr _live_ptr(self) except? 0


# A new Buffer (of class ``cls``: Buffer or a subclass) over ``size`` bytes at ``ptr``, given
# back to ``mr`` in the order of ``stream`` (None: no stream).
cdef Buffer new_buffer(type cls, cydriver.CUdeviceptr ptr, size_t size, MemoryResource mr, Stream stream)

# The Stream for a Stream or a __cuda_stream__ object; TypeError naming the fix for None.
cdef Stream required_stream(object stream)

# None for None, else as required_stream.
cdef Stream optional_stream(object stream)

# The stream cuda.core orders work on when none is given (cuda.core._stream.default_stream()).
cdef Stream default_stream_object()

# The address of an int or of an object that converts to one (driver.CUdeviceptr, numpy ints).
cdef cydriver.CUdeviceptr pointer_value(object ptr) except? 0

# Whether the memory at a Buffer is managed (its resource says so, or the driver does).
cdef bint buffer_is_managed(Buffer buffer) except -1


# Keeps a Buffer's memory allocated while it lives, even across Buffer.close(): a graph node
# that reads or writes the memory holds one, and the deferred deallocation runs when the
# last hold goes.
cdef class _AllocationHold:
    cdef Buffer _buffer
