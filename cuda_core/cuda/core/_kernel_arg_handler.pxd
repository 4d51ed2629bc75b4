# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cpython.object cimport PyObject
from libc.stdint cimport uint8_t

cdef enum:
    # Arguments up to this many, of up to INLINE_BYTES packed, need no heap allocation.
    INLINE_ARGS = 32
    INLINE_BYTES = 512


# The packed values of one launch and the pointer to each (cuLaunchKernel's kernelParams).
# It lives on the C stack of launch(); the heap is used only past the inline room.
cdef struct PackedArgs:
    void* inline_slots[INLINE_ARGS]
    uint8_t inline_values[INLINE_BYTES]
    void** slots
    uint8_t* values


# Fill ``packed`` with ``args``, each at least as wide as its parameter's size in ``sizes``
# (one per argument: Kernel._param_size_array; a TypeError names the argument otherwise);
# release_arguments() must follow, also on error.
cdef int pack_arguments(PackedArgs* packed, tuple args, const size_t* sizes) except -1

# pack_arguments() of the ``count`` arguments at ``args`` (borrowed references the caller holds:
# launch() packs its vectorcall arguments in place, with no tuple made); ``packed_sizes``, unless
# NULL, gets the bytes each argument was packed as.
cdef int pack_argument_array(PackedArgs* packed, PyObject** args, Py_ssize_t count, const size_t* sizes,
                             size_t* packed_sizes) except -1

# Free what pack_arguments took from the heap, if anything.
cdef void release_arguments(PackedArgs* packed) noexcept
