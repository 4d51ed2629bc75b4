cimport cuda.bindings.cydriver as cydriver


cdef class ObjectCode:
    cdef cydriver.CUlibrary _library  # NULL until first loaded (lazily: loading needs a context)
    cdef bytes _code
    cdef str _code_type               # "cubin", "ptx", "fatbin", ...
    cdef dict _name_map               # name expression -> lowered (mangled) name
    cdef object __weakref__

    # The loaded library, loading it on the current context on first use.
    cdef cydriver.CUlibrary _loaded(self) except NULL


cdef class Kernel:
    cdef cydriver.CUkernel _handle
    cdef ObjectCode _object_code      # keeps the library loaded while the kernel lives
    cdef str _name
