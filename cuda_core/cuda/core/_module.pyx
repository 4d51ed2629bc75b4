"""cuda.core ObjectCode and Kernel: compiled device code, loaded lazily as a CUDA library.

ObjectCode holds the bytes of a cubin, PTX, fatbin or LTO IR. The first get_kernel()
loads them with cuLibraryLoadData, which is context-independent: the kernels it
gives work in every context of the process. The library is unloaded once, when the
ObjectCode goes away, which is never before its last Kernel (each Kernel holds it).
"""

import os
from collections import namedtuple
from pathlib import Path

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver
from cuda.core._utils.cuda_utils import CUDAError

__all__ = ['Kernel', 'ObjectCode']

# One kernel parameter as the driver lays it out: its byte offset and size.
ParamInfo = namedtuple("ParamInfo", ("offset", "size"))

# The code types cuLibraryLoadData accepts.
_LOADABLE = ("cubin", "ptx", "fatbin")


def _read_module(module, str code_type) -> bytes:
    """``module`` as bytes: the bytes given, or the contents of the file at a path."""
    if isinstance(module, (bytes, bytearray, memoryview)):
        data = bytes(module)
    elif isinstance(module, (str, os.PathLike)):
        data = Path(module).read_bytes()
    else:
        raise TypeError(f"module must be the {code_type} as bytes, or a path (str or os.PathLike) to a "
                        f"{code_type} file; got {type(module).__name__}")
    if not data:
        raise ValueError(f"the {code_type} given is empty")
    return data


cdef dict _symbol_map(object mapping):
    """A copy of ``symbol_mapping`` (name -> lowered name), checked to hold strings only."""
    if mapping is None:
        return {}
    if not isinstance(mapping, dict) or not all(isinstance(key, str) and isinstance(value, str)
                                                for key, value in mapping.items()):
        raise TypeError("symbol_mapping must be a dict of str name -> str lowered (mangled) name")
    return dict(mapping)


cdef ObjectCode _new_object_code(bytes code, str code_type, str name, object symbol_mapping):
    cdef ObjectCode object_code = ObjectCode.__new__(ObjectCode)
    object_code._code = code
    object_code._code_type = code_type
    object_code._name = name
    object_code._name_map = _symbol_map(symbol_mapping)
    return object_code


cdef class ObjectCode:
    """Compiled device code. Make one with ``Program.compile()`` or ``from_cubin``,
    ``from_ptx``, ``from_fatbin`` or ``from_ltoir``; ``get_kernel()`` loads it on first use."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("ObjectCode objects are made by Program.compile() or ObjectCode.from_cubin(), "
                           "from_ptx(), from_fatbin() or from_ltoir()")

    @staticmethod
    def from_cubin(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """An ObjectCode of a cubin: ``module`` is its bytes or a path to read. ``symbol_mapping``
        maps names (e.g. C++ name expressions) to the lowered names in the cubin."""
        return _new_object_code(_read_module(module, "cubin"), "cubin", name, symbol_mapping)

    @staticmethod
    def from_ptx(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """An ObjectCode of PTX text: ``module`` is its bytes or a path to read (the driver
        JIT-compiles it for the device when loading)."""
        return _new_object_code(_read_module(module, "ptx"), "ptx", name, symbol_mapping)

    @staticmethod
    def from_fatbin(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """An ObjectCode of a fatbin (cubins and/or PTX for several architectures)."""
        return _new_object_code(_read_module(module, "fatbin"), "fatbin", name, symbol_mapping)

    @staticmethod
    def from_ltoir(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """An ObjectCode of LTO IR. It cannot be loaded as it is: a linker must turn it into a cubin."""
        return _new_object_code(_read_module(module, "ltoir"), "ltoir", name, symbol_mapping)

    @property
    def code(self) -> bytes:
        """The code, as given or as compiled."""
        return self._code

    @property
    def code_type(self) -> str:
        """'cubin', 'ptx', 'fatbin' or 'ltoir'."""
        return self._code_type

    @property
    def name(self) -> str:
        """A human-readable label (the program name for compiled code)."""
        return self._name

    @property
    def symbol_mapping(self) -> dict:
        """Name -> lowered name, from the compile's name expressions or the symbol_mapping given."""
        return dict(self._name_map)

    @property
    def handle(self):
        """The driver's CUlibrary, loading the code first if no kernel was taken yet."""
        from cuda.bindings import driver
        return driver.CUlibrary(<size_t>self._loaded())

    cdef cydriver.CUlibrary _loaded(self) except NULL:
        if self._library != NULL:
            return self._library
        ensure_driver()
        if self._code_type not in _LOADABLE:
            raise ValueError(f"{self._code_type} object code cannot be loaded by the driver, only cubin, ptx and "
                             "fatbin can: link it into a cubin first")
        cdef bytes image = self._code
        if self._code_type == "ptx" and not image.endswith(b"\0"):
            image += b"\0"  # the driver reads PTX as a NUL-terminated string
        cdef const char* data = image
        cdef cydriver.CUlibrary library = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuLibraryLoadData(&library, data, NULL, NULL, 0, NULL, NULL, 0))
        if self._library != NULL:
            # Another thread loaded it while this one was in the driver: keep one library.
            with nogil:
                HANDLE_RETURN(cydriver.cuLibraryUnload(library))
        else:
            self._library = library
        return self._library

    def get_kernel(self, name: str | bytes) -> Kernel:
        """The kernel ``name``: a name expression given at compile time or a key of
        ``symbol_mapping`` (resolved to its lowered name), else the symbol itself."""
        if isinstance(name, bytes):
            name = name.decode()
        if not isinstance(name, str):
            raise TypeError(f"the kernel name must be a str, got {type(name).__name__}")
        lowered = self._name_map.get(name, name)
        cdef cydriver.CUlibrary library = self._loaded()
        cdef bytes symbol = lowered.encode()
        cdef const char* c_symbol = symbol
        cdef cydriver.CUkernel handle = NULL
        cdef cydriver.CUresult result
        with nogil:
            result = cydriver.cuLibraryGetKernel(&handle, library, c_symbol)
        if result == cydriver.CUDA_ERROR_NOT_FOUND:
            raise CUDAError(<int>result, "CUDA_ERROR_NOT_FOUND",
                            f"no kernel {lowered!r} in this {self._code_type}: pass C++ kernels as "
                            "name_expressions to Program.compile(), or declare them extern \"C\"")
        HANDLE_RETURN(result)
        cdef Kernel kernel = Kernel.__new__(Kernel)
        kernel._handle = handle
        kernel._object_code = self
        kernel._name = name
        return kernel

    def __repr__(self) -> str:
        label = f" {self._name!r}" if self._name else ""
        return f"<ObjectCode{label} ({self._code_type}, {len(self._code)} bytes)>"

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already.
        if self._library != NULL:
            cydriver.cuLibraryUnload(self._library)
            self._library = NULL


cdef cydriver.CUdevice _device_for(object device_id) except -1:
    """The device an attribute is read for: ``device_id``, or the current device (else 0)."""
    if device_id is None:
        return max(current_device(), 0)
    if not isinstance(device_id, int) or isinstance(device_id, bool) or device_id < 0:
        raise ValueError(f"device_id must be a non-negative int or None, got {device_id!r}")
    return device_id


cdef class KernelAttributes:
    """The driver's attributes of a kernel on one device. Each method takes ``device_id``
    (None: the current context's device, or device 0)."""

    cdef cydriver.CUkernel _handle
    cdef ObjectCode _object_code  # keeps the library loaded (no reference to the Kernel: no cycle)

    def __init__(self, *args, **kwargs):
        raise RuntimeError("KernelAttributes objects are made by Kernel.attributes")

    cdef int _get(self, cydriver.CUfunction_attribute attribute, object device_id) except? -1:
        cdef int value = 0
        cdef cydriver.CUkernel kernel = self._handle
        cdef cydriver.CUdevice device = _device_for(device_id)
        with nogil:
            HANDLE_RETURN(cydriver.cuKernelGetAttribute(&value, attribute, kernel, device))
        return value

    def max_threads_per_block(self, device_id: int | None = None) -> int:
        """The most threads per block a launch of this kernel can have."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device_id)

    def shared_size_bytes(self, device_id: int | None = None) -> int:
        """Bytes of statically allocated shared memory per block."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, device_id)

    def const_size_bytes(self, device_id: int | None = None) -> int:
        """Bytes of user-allocated constant memory."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, device_id)

    def local_size_bytes(self, device_id: int | None = None) -> int:
        """Bytes of local memory per thread."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, device_id)

    def num_regs(self, device_id: int | None = None) -> int:
        """Registers per thread."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_NUM_REGS, device_id)

    def ptx_version(self, device_id: int | None = None) -> int:
        """The PTX virtual architecture compiled for, as major * 10 + minor."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_PTX_VERSION, device_id)

    def binary_version(self, device_id: int | None = None) -> int:
        """The binary architecture compiled for, as major * 10 + minor."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_BINARY_VERSION, device_id)

    def cache_mode_ca(self, device_id: int | None = None) -> bool:
        """Whether it was compiled with -Xptxas --dlcm=ca (global loads cached in L1)."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, device_id))

    def max_dynamic_shared_size_bytes(self, device_id: int | None = None) -> int:
        """The most dynamic shared memory per block a launch may ask for."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, device_id)

    def preferred_shared_memory_carveout(self, device_id: int | None = None) -> int:
        """The preferred shared memory share of the L1/shared split, in percent (-1: no preference)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, device_id)

    def cluster_size_must_be_set(self, device_id: int | None = None) -> bool:
        """Whether a launch must give a cluster size."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, device_id))

    def required_cluster_width(self, device_id: int | None = None) -> int:
        """The cluster width compiled in (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, device_id)

    def required_cluster_height(self, device_id: int | None = None) -> int:
        """The cluster height compiled in (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, device_id)

    def required_cluster_depth(self, device_id: int | None = None) -> int:
        """The cluster depth compiled in (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, device_id)

    def non_portable_cluster_size_allowed(self, device_id: int | None = None) -> bool:
        """Whether a launch may use a cluster size above the portable limit."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, device_id))

    def cluster_scheduling_policy_preference(self, device_id: int | None = None) -> int:
        """The block scheduling policy preferred for clusters (a CUclusterSchedulingPolicy)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, device_id)


cdef list _parameters(cydriver.CUkernel kernel):
    """ParamInfo(offset, size) of each parameter of ``kernel``, in order."""
    cdef size_t index = 0
    cdef size_t offset = 0
    cdef size_t size = 0
    cdef cydriver.CUresult result
    parameters = []
    while True:
        with nogil:
            result = cydriver.cuKernelGetParamInfo(kernel, index, &offset, &size)
        if result == cydriver.CUDA_ERROR_INVALID_VALUE:
            return parameters  # the driver's answer for an index past the last parameter
        HANDLE_RETURN(result)
        parameters.append(ParamInfo(offset, size))
        index += 1


cdef class Kernel:
    """One kernel of an ObjectCode, from ``ObjectCode.get_kernel()``; pass it to ``launch()``."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Kernel objects are made by ObjectCode.get_kernel()")

    @property
    def handle(self):
        """The driver's CUkernel."""
        from cuda.bindings import driver
        return driver.CUkernel(<size_t>self._handle)

    @property
    def attributes(self) -> KernelAttributes:
        """The driver's attributes of this kernel (registers, shared memory, limits)."""
        cdef KernelAttributes attributes
        if self._attributes is None:
            attributes = KernelAttributes.__new__(KernelAttributes)
            attributes._handle = self._handle
            attributes._object_code = self._object_code
            self._attributes = attributes
        return self._attributes

    cdef tuple _parameter_sizes(self):
        if self._param_sizes is None:
            self._param_sizes = tuple(info.size for info in _parameters(self._handle))
        return self._param_sizes

    @property
    def num_arguments(self) -> int:
        """How many parameters the kernel takes."""
        return len(self._parameter_sizes())

    @property
    def arguments_info(self) -> list:
        """Each parameter's ParamInfo(offset, size), in bytes, in order."""
        return _parameters(self._handle)

    def __repr__(self) -> str:
        return f"<Kernel {self._name!r}>"
