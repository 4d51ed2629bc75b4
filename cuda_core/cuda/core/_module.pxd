# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


cdef class ObjectCode:
    cdef cydriver.CUlibrary _library  # NULL until first loaded (lazily: loading needs the driver)
    cdef object _module               # the code as given (bytes-like), or the path of a file (str)
    cdef str _code_type               # "cubin", "ptx", "fatbin", "ltoir", "object" or "library"
    cdef dict _name_map               # name expression -> lowered (mangled) name
    cdef str _name                    # a human-readable label, e.g. the program's name
    # Set once a client could hold the library: ``handle`` gave it out, or ``Kernel.handle``
    # gave out one of its kernels (cuKernelGetLibrary leads back to it). The library is then
    # the client's to unload (numba-cuda does): __dealloc__ leaves it loaded. cuda.core's own
    # code reads ``_library``/``Kernel._kernel``, never the public properties, so that only a
    # client sets it.
    cdef bint _handle_given
    cdef object __weakref__

    # A RuntimeError for code the driver cannot load (LTO IR, objects, libraries).
    cdef int _check_loadable(self) except -1

    # The loaded library, loading it (context-independently) on first use.
    cdef cydriver.CUlibrary _loaded(self) except NULL


cdef class Kernel:
    cdef cydriver.CUkernel _kernel
    cdef object _keepalive            # the ObjectCode whose library holds the kernel, or None
    cdef str _name                    # for messages; None when made from a bare handle
    cdef object _attributes           # the KernelAttributes view, made on first use
    cdef object _occupancy            # the KernelOccupancy view, made on first use
    cdef Py_ssize_t _num_params       # how many parameters it takes; -1 until asked of the driver
    cdef size_t* _param_size_array    # each one's size in bytes, in order (read by launch())
    cdef object __weakref__

    # The number of parameters (asking the driver once, to fill the two fields above); a
    # TypeError naming the kernel if ``given`` (a launch's argument count; -1: none) differs.
    cdef Py_ssize_t _check_argument_count(self, Py_ssize_t given) except -1
