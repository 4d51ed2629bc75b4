# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Program's C-level layout, for modules that cimport it (e.g. a program cache that reads the
# backend's handle without Python calls).
cimport cuda.bindings.cynvrtc as cynvrtc


cdef class Program:
    cdef cynvrtc.nvrtcProgram _nvrtc    # the NVRTC backend's program (NULL otherwise, or once closed)
    cdef object _nvvm_handle            # the NVVM backend's program (int), or None
    cdef object _linker                 # the PTX backend's linker, or None
    cdef object _backend                # CompilerBackendType; None until made
    cdef object _options                # the ProgramOptions
    cdef object _code                   # the code as given (the cache key is made from it)
    cdef str _code_type                 # "c++", "ptx" or "nvvm"
    cdef str _name                      # the name given to the compiler (and to the ObjectCode)
    cdef str _debug_source              # the temporary .cu file named in debug info, or None
    cdef list _added_names              # name expressions NVRTC was given so far
    cdef bint _compiled
    cdef bint _closed
    cdef object _pch_status
    cdef object __weakref__

    cdef int _init_nvrtc(self, code, options) except -1
    cdef int _init_linker(self, code, options) except -1
    cdef int _init_nvvm(self, code, options) except -1
    cdef str _target(self, target_type)
    cdef object _compile_cached(self, str target, name_expressions, logs, cache)
    cdef object _compile_nvrtc(self, str target, name_expressions, logs)
    cdef int _add_names(self, list names) except -1
    cdef int _run_nvrtc(self, list flags, logs) except -1
    cdef cynvrtc.nvrtcResult _compile_once(self, list flags) except? cynvrtc.NVRTC_ERROR_INTERNAL_ERROR
    cdef object _compile_nvvm(self, str target, logs)
    cdef object _link(self, str target, logs)
