cimport cuda.bindings.cydriver as cydriver


cdef class ObjectCode:
    cdef cydriver.CUlibrary _library  # NULL until first loaded (lazily: loading needs the driver)
    cdef bytes _code
    cdef str _code_type               # "cubin", "ptx", "fatbin", ...
    cdef dict _name_map               # name expression -> lowered (mangled) name
    cdef str _name                    # a human-readable label, e.g. the program's name
    cdef object __weakref__

    # The loaded library, loading it (context-independently) on first use.
    cdef cydriver.CUlibrary _loaded(self) except NULL


cdef class Kernel:
    cdef cydriver.CUkernel _handle
    cdef ObjectCode _object_code      # keeps the library loaded while the kernel lives
    cdef str _name
    cdef object _attributes           # the KernelAttributes view, made on first use
    cdef tuple _param_sizes           # each parameter's size in bytes, asked of the driver once

    # The sizes of the kernel's parameters, in order (cached).
    cdef tuple _parameter_sizes(self)
