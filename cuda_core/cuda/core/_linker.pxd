# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Linker's C-level layout, for modules that cimport it (Program's PTX backend holds one).
cimport cuda.bindings.cydriver as cydriver
cimport cuda.bindings.cynvjitlink as cynvjitlink
from libcpp.vector cimport vector


cdef class Linker:
    cdef cynvjitlink.nvJitLinkHandle _nvjitlink  # the nvJitLink backend's linker (NULL otherwise, or once closed)
    cdef cydriver.CUlinkState _culink            # the driver backend's link state (NULL otherwise, or once closed)
    # cuLinkCreate's option arrays: the driver reads (and writes the log sizes into) them
    # until cuLinkDestroy, so they live as long as the Linker.
    cdef vector[cydriver.CUjit_option] _jit_keys
    cdef vector[void*] _jit_values
    cdef list _jit_payload                       # the Python values behind _jit_values (the log buffers)
    cdef list _inputs                            # the bytes handed to the backend, kept alive
    cdef dict _symbol_mapping                    # the inputs' name expressions, for the output
    cdef bint _use_nvjitlink
    cdef bint _closed
    cdef str _info_log                           # nvJitLink's logs as read last (None: not yet)
    cdef str _error_log
    cdef bytes _linked                           # the code of the first successful link, or None
    cdef object _options                         # the LinkerOptions
    cdef object __weakref__

    cdef int _create_nvjitlink(self) except -1
    cdef int _create_culink(self) except -1
    cdef int _add(self, object object_code, int index) except -1
    cdef int _check_nvjitlink(self, cynvjitlink.nvJitLinkResult result) except -1
    cdef int _check_culink(self, cydriver.CUresult result) except -1
    cdef bytes _complete_nvjitlink(self, str target)
    cdef bytes _complete_culink(self)
    cdef int _read_logs(self) except -1
