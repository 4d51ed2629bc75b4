cimport cuda.bindings.cydriver as cydriver


cdef class ObjectCode:
    cdef cydriver.CUlibrary _library  # NULL until first loaded (lazily: loading needs the driver)
    cdef object _module               # the code as given (bytes-like), or the path of a file (str)
    cdef str _code_type               # "cubin", "ptx", "fatbin", "ltoir", "object" or "library"
    cdef dict _name_map               # name expression -> lowered (mangled) name
    cdef str _name                    # a human-readable label, e.g. the program's name
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
    cdef tuple _param_sizes           # each parameter's size in bytes, asked of the driver once
    cdef object __weakref__

    # The sizes of the kernel's parameters, in order (cached).
    cdef tuple _parameter_sizes(self)
