# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core ObjectCode and Kernel: compiled device code, loaded lazily as a CUDA library.

ObjectCode holds a cubin, PTX, fatbin, LTO IR, relocatable object or library, either as
bytes or as the path of a file. The first get_kernel() (or ``handle``) of a cubin, PTX or
fatbin loads it with cuLibraryLoadData / cuLibraryLoadFromFile, which is
context-independent: its kernels work in every context of the process. LTO IR, objects
and libraries are inputs to a linker and cannot be loaded.

Who unloads the library: the ObjectCode, when it goes away (never before its last Kernel:
each Kernel made from it holds it), unless a client could hold the CUlibrary. Once
``ObjectCode.handle`` has given it out, or ``Kernel.handle`` one of its kernels (the
driver's cuKernelGetLibrary leads from a kernel to its library), the library is the
client's to unload, as with NVIDIA's cuda.core 1.2, which never unloads one: numba-cuda
unloads ``ObjectCode.handle`` itself while it still holds the Kernel, and a second unload
by the ObjectCode would free the driver's memory twice. Code no client saw is unloaded, so
loading and dropping ObjectCodes does not leak device memory. cuda.core's own code reads
the C fields, never those properties, so that only a client marks a library as given.
"""

import os
import warnings
import weakref
from collections import namedtuple

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uintptr_t

cimport cuda.bindings.cydriver as cydriver
from cuda.core._launch_config cimport MAX_LAUNCH_ATTRIBUTES, LaunchConfig
from cuda.core._stream cimport Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device, ensure_driver
from cuda.core._utils.cuda_utils import CUDAError

__all__ = ['Kernel', 'ObjectCode']

# What ObjectCode.code may be: the code itself, or (str) the path of a file holding it.
CodeTypeT = bytes | bytearray | str

# One kernel parameter as the driver lays it out: its byte offset and size.
ParamInfo = namedtuple("ParamInfo", ("offset", "size"))

# KernelOccupancy.max_potential_block_size's answer.
MaxPotentialBlockSizeOccupancyResult = namedtuple("MaxPotentialBlockSizeOccupancyResult",
                                                  ("min_grid_size", "max_block_size"))

# Every code type an ObjectCode can hold, and the ones the driver loads.
_CODE_TYPES = ("cubin", "ptx", "ltoir", "fatbin", "object", "library")
_LOADABLE = ("cubin", "ptx", "fatbin")

# CUkernel address -> the ObjectCode whose get_kernel() gave it, while that ObjectCode lives:
# a Kernel made from a bare handle finds there the ObjectCode to keep alive (and with it the
# kernel's library loaded). A kernel a client took from the library itself (through
# ObjectCode.handle) is not looked for: that library is the client's, and may be unloaded.
_kernel_loaders = weakref.WeakValueDictionary()


cdef object _module_of(object module, str code_type):
    """``module`` as kept: bytes-like as given, a path (str or os.PathLike) as a str."""
    if isinstance(module, (bytes, bytearray, memoryview)):
        if len(module) == 0:
            raise ValueError(f"the {code_type} given is empty")
        return module
    if isinstance(module, os.PathLike):
        module = os.fspath(module)
        if isinstance(module, bytes):
            module = os.fsdecode(module)
    if isinstance(module, str):
        if not module:
            raise ValueError(f"the {code_type} path given is empty")
        return module
    raise TypeError(f"module must be the {code_type} as bytes, or a path (str or os.PathLike) to a {code_type} "
                    f"file; got {type(module).__name__}")


cdef dict _symbol_map(dict mapping):
    """A copy of ``symbol_mapping`` (name -> lowered name), checked: str names, and lowered names
    as str or bytes (NVRTC's, which Program records, are bytes)."""
    if mapping is None:
        return {}
    if not all(isinstance(key, str) and isinstance(value, (str, bytes)) for key, value in mapping.items()):
        raise TypeError("symbol_mapping must be a dict of str name -> lowered (mangled) name as str or bytes")
    return dict(mapping)


cdef ObjectCode _new_object_code(type cls, object module, str code_type, str name, dict symbol_mapping):
    if name is None:
        raise TypeError("Argument 'name' has incorrect type (expected str, got NoneType)")
    if code_type not in _CODE_TYPES:
        raise ValueError(f"code_type {code_type!r} is not supported: it must be one of {', '.join(_CODE_TYPES)}")
    cdef ObjectCode object_code = cls.__new__(cls)
    object_code._module = _module_of(module, code_type)
    object_code._code_type = code_type
    object_code._name = name
    object_code._name_map = _symbol_map(symbol_mapping)
    return object_code


cdef class ObjectCode:
    """Compiled device code. Make one with ``Program.compile()`` or ``from_cubin``,
    ``from_ptx``, ``from_fatbin``, ``from_ltoir``, ``from_object`` or ``from_library``;
    ``get_kernel()`` loads a cubin, PTX or fatbin on first use. It pickles (the code or
    path, its type, name and symbol mapping)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("ObjectCode objects cannot be instantiated directly. They are made by Program.compile() "
                           "or ObjectCode.from_cubin(), from_ptx(), from_fatbin(), from_ltoir(), from_object() "
                           "or from_library()")

    @classmethod
    def _init(cls, module, str code_type, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        return _new_object_code(cls, module, code_type, name, symbol_mapping)

    @staticmethod
    def _reduce_helper(module, code_type, name, symbol_mapping):
        return _new_object_code(ObjectCode, module, code_type, name, symbol_mapping)

    def __reduce__(self):
        module = bytes(self._module) if isinstance(self._module, memoryview) else self._module
        return ObjectCode._reduce_helper, (module, self._code_type, self._name, dict(self._name_map))

    @staticmethod
    def from_cubin(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of a cubin: ``module`` is its bytes or the path of a cubin file.
        ``symbol_mapping`` maps names (e.g. C++ name expressions) to the lowered names in it."""
        return _new_object_code(ObjectCode, module, "cubin", name, symbol_mapping)

    @staticmethod
    def from_ptx(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of PTX: ``module`` is its bytes or the path of a PTX file (the
        driver JIT-compiles it for the device when loading)."""
        return _new_object_code(ObjectCode, module, "ptx", name, symbol_mapping)

    @staticmethod
    def from_ltoir(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of LTO IR (bytes or a path): an input to Linker, not loadable itself."""
        return _new_object_code(ObjectCode, module, "ltoir", name, symbol_mapping)

    @staticmethod
    def from_fatbin(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of a fatbin (cubins and/or PTX for several architectures), as bytes or a path."""
        return _new_object_code(ObjectCode, module, "fatbin", name, symbol_mapping)

    @staticmethod
    def from_object(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of a relocatable object (e.g. nvcc -dc output), as bytes or a path: a
        Linker input, not loadable itself."""
        return _new_object_code(ObjectCode, module, "object", name, symbol_mapping)

    @staticmethod
    def from_library(module, *, str name="", dict symbol_mapping=None) -> ObjectCode:
        """An ObjectCode of a static library of relocatable objects (e.g. nvcc -lib output), as
        bytes or a path: a Linker input, not loadable itself."""
        return _new_object_code(ObjectCode, module, "library", name, symbol_mapping)

    @property
    def code(self):
        """The code as given (bytes-like), or the path (str) it was given as."""
        return self._module

    @property
    def code_type(self) -> str:
        """'cubin', 'ptx', 'ltoir', 'fatbin', 'object' or 'library'."""
        return self._code_type

    @property
    def name(self) -> str:
        """A human-readable label (the program's name for compiled code)."""
        return self._name

    @property
    def symbol_mapping(self) -> dict:
        """A copy of the name -> lowered name mapping (from the compile's name expressions, or as given)."""
        return dict(self._name_map)

    @property
    def handle(self):
        """The driver's CUlibrary (context-independent), loading the code first if needed.

        Once given out, the library is the caller's to unload (``cuLibraryUnload``), or to
        leave loaded until the process ends: this ObjectCode no longer unloads it, so a
        client that unloads it itself (as numba-cuda does) never meets a second unload. Do
        not use this ObjectCode or its Kernels after unloading it."""
        from cuda.bindings import driver
        cdef cydriver.CUlibrary library = self._loaded()
        self._handle_given = True
        return driver.CUlibrary(<size_t>library)

    cdef int _check_loadable(self) except -1:
        if self._code_type not in _LOADABLE:
            raise RuntimeError(f'Unsupported code type "{self._code_type}" for loading: the driver loads cubin, ptx '
                               f"and fatbin; link {self._code_type} code into a cubin first (cuda.core.Linker)")
        return 0

    cdef cydriver.CUlibrary _loaded(self) except NULL:
        if self._library != NULL:
            return self._library
        self._check_loadable()
        ensure_driver()
        cdef cydriver.CUlibrary library = NULL
        cdef bytes data
        cdef const char* text
        if isinstance(self._module, str):
            data = os.fsencode(self._module)
            text = data
            with nogil:
                HANDLE_RETURN(cydriver.cuLibraryLoadFromFile(&library, text, NULL, NULL, 0, NULL, NULL, 0))
        else:
            data = bytes(self._module)
            if self._code_type == "ptx" and not data.endswith(b"\0"):
                data += b"\0"  # the driver reads PTX as a NUL-terminated string
            text = data
            with nogil:
                HANDLE_RETURN(cydriver.cuLibraryLoadData(&library, text, NULL, NULL, 0, NULL, NULL, 0))
        if self._library != NULL:
            # Another thread loaded it while this one was in the driver: keep one library.
            with nogil:
                HANDLE_RETURN(cydriver.cuLibraryUnload(library))
        else:
            self._library = library
        return self._library

    def get_module(self):
        """The CUmodule of the loaded library in the current context, for driver APIs that
        take a CUmodule (it belongs to the library: do not unload it)."""
        cdef cydriver.CUlibrary library = self._loaded()
        cdef cydriver.CUmodule module = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuLibraryGetModule(&module, library))
        from cuda.bindings import driver
        return driver.CUmodule(<size_t>module)

    def get_kernel(self, name) -> Kernel:
        """The kernel ``name`` (str or bytes): a name expression given at compile time or a
        key of ``symbol_mapping`` (resolved to its lowered name), else the symbol itself."""
        if isinstance(name, (bytes, bytearray)):
            name = bytes(name).decode()
        if not isinstance(name, str):
            raise TypeError(f"the kernel name must be a str or bytes, got {type(name).__name__}")
        self._check_loadable()
        lowered = self._name_map.get(name, name)
        cdef cydriver.CUlibrary library = self._loaded()
        cdef bytes symbol = lowered if isinstance(lowered, bytes) else lowered.encode()
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
        _kernel_loaders[<size_t>handle] = self
        return _new_kernel(handle, self, name)

    def __eq__(self, other):
        # Each ObjectCode loads its own library: two are the same only if they are one.
        if not isinstance(other, ObjectCode):
            return NotImplemented
        return self is other

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __repr__(self) -> str:
        cdef size_t handle = 0
        if self._code_type in _LOADABLE:
            try:
                handle = <size_t>self._loaded()
            except Exception:
                handle = 0  # repr must not fail: e.g. no driver, or code the driver rejects
        return f"<ObjectCode handle={handle:#x} code_type={self._code_type!r}>"

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already. A library
        # whose handle a client could hold is the client's (see the module's docstring).
        cdef cydriver.CUlibrary library = self._library
        self._library = NULL
        if library != NULL and not self._handle_given:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuLibraryUnload(library)


cdef Kernel _new_kernel(cydriver.CUkernel handle, object keepalive, str name):
    cdef Kernel kernel = Kernel.__new__(Kernel)
    kernel._kernel = handle
    kernel._keepalive = keepalive
    kernel._name = name
    return kernel


cdef int _device_for(int device_id) except -2:
    """The device an attribute is read for: ``device_id``, or (-1) the current device, else 0."""
    return device_id if device_id >= 0 else max(current_device(), 0)


cdef class KernelAttributes:
    """The driver's attributes of a kernel, read for one device: the current one (for
    ``Kernel.attributes``), or the one given by ``kernel.attributes[device]`` (a Device or
    an ordinal). Values that cannot change are cached, and the cache is shared by the views."""

    cdef cydriver.CUkernel _kernel
    cdef object _keepalive    # the library's ObjectCode (no reference to the Kernel: no cycle)
    cdef int _device_id       # -1: the current device, resolved on each read
    cdef dict _cache          # (device, attribute) -> value, for the read-only attributes

    def __init__(self, *args, **kwargs):
        raise RuntimeError("KernelAttributes cannot be instantiated directly. Use Kernel.attributes")

    def __getitem__(self, device) -> KernelAttributes:
        """A view of these attributes for ``device`` (a Device or a device ordinal)."""
        from cuda.core._device import Device
        if isinstance(device, Device):
            device_id = device.device_id
        elif isinstance(device, int) and not isinstance(device, bool):
            device_id = Device(device).device_id  # validates the ordinal
        else:
            raise TypeError(f"kernel attributes are indexed by a Device or a device ordinal (int), "
                            f"got {type(device).__name__}")
        return _attributes_view(self._kernel, self._keepalive, device_id, self._cache)

    cdef int _get(self, cydriver.CUfunction_attribute attribute, bint cacheable) except? -1:
        cdef int value = 0
        cdef cydriver.CUkernel kernel = self._kernel
        cdef cydriver.CUdevice device = _device_for(self._device_id)
        key = (device, <int>attribute)
        if cacheable:
            cached = self._cache.get(key)
            if cached is not None:
                return cached
        with nogil:
            HANDLE_RETURN(cydriver.cuKernelGetAttribute(&value, attribute, kernel, device))
        if cacheable:
            self._cache[key] = value
        return value

    @property
    def max_threads_per_block(self) -> int:
        """The most threads per block a launch of this kernel can have."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, True)

    @property
    def shared_size_bytes(self) -> int:
        """Bytes of statically allocated shared memory per block."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, True)

    @property
    def const_size_bytes(self) -> int:
        """Bytes of user-allocated constant memory."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, True)

    @property
    def local_size_bytes(self) -> int:
        """Bytes of local memory per thread."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, True)

    @property
    def num_regs(self) -> int:
        """Registers per thread."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_NUM_REGS, True)

    @property
    def ptx_version(self) -> int:
        """The PTX virtual architecture compiled for, as major * 10 + minor."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_PTX_VERSION, True)

    @property
    def binary_version(self) -> int:
        """The binary architecture compiled for, as major * 10 + minor."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_BINARY_VERSION, True)

    @property
    def cache_mode_ca(self) -> bool:
        """Whether it was compiled with -Xptxas --dlcm=ca (global loads cached in L1)."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, True))

    @property
    def max_dynamic_shared_size_bytes(self) -> int:
        """The most dynamic shared memory per block a launch may ask for."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, False)

    @property
    def preferred_shared_memory_carveout(self) -> int:
        """The preferred shared memory share of the L1/shared split, in percent (-1: no preference)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, False)

    @property
    def cluster_size_must_be_set(self) -> bool:
        """Whether a launch must give a cluster size."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, True))

    @property
    def required_cluster_width(self) -> int:
        """The cluster width, in blocks, the kernel requires (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, False)

    @property
    def required_cluster_height(self) -> int:
        """The cluster height, in blocks, the kernel requires (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, False)

    @property
    def required_cluster_depth(self) -> int:
        """The cluster depth, in blocks, the kernel requires (0: none)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, False)

    @property
    def non_portable_cluster_size_allowed(self) -> bool:
        """Whether a launch may use a cluster size above the portable limit (8)."""
        return bool(self._get(cydriver.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, False))

    @property
    def cluster_scheduling_policy_preference(self) -> int:
        """The block scheduling policy preferred for clusters (a CUclusterSchedulingPolicy value)."""
        return self._get(cydriver.CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, False)


cdef KernelAttributes _attributes_view(cydriver.CUkernel kernel, object keepalive, int device_id, dict cache):
    cdef KernelAttributes view = KernelAttributes.__new__(KernelAttributes)
    view._kernel = kernel
    view._keepalive = keepalive
    view._device_id = device_id
    view._cache = cache
    return view


cdef class KernelOccupancy:
    """Occupancy queries for a kernel in the current context: how many blocks fit on a
    multiprocessor, which block size fills the device best, how much dynamic shared
    memory is left, and, for clusters, how large and how many."""

    cdef cydriver.CUkernel _kernel
    cdef object _keepalive

    def __init__(self, *args, **kwargs):
        raise RuntimeError("KernelOccupancy cannot be instantiated directly. Use Kernel.occupancy")

    def max_active_blocks_per_multiprocessor(self, int block_size, size_t dynamic_shared_memory_size) -> int:
        """How many blocks of ``block_size`` threads, each with ``dynamic_shared_memory_size``
        bytes of dynamic shared memory, can be resident on one multiprocessor at once."""
        cdef int blocks = 0
        cdef cydriver.CUfunction function = <cydriver.CUfunction>self._kernel
        with nogil:
            HANDLE_RETURN(cydriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocks, function, block_size, dynamic_shared_memory_size))
        return blocks

    def max_potential_block_size(self, dynamic_shared_memory_needed, int block_size_limit):
        """The block size that reaches the highest occupancy, and the smallest grid that
        fills the device with it, as (min_grid_size, max_block_size).
        ``dynamic_shared_memory_needed``: bytes per block (an int), or a
        ``driver.CUoccupancyB2DSize`` C callable giving the bytes for a block size (it is
        called without the GIL: it must not need Python). ``block_size_limit``: the
        largest block size to consider (0: the kernel's and device's own limit)."""
        cdef cydriver.CUoccupancyB2DSize callback = NULL
        cdef size_t fixed_size = 0
        if isinstance(dynamic_shared_memory_needed, int):
            fixed_size = dynamic_shared_memory_needed
        else:
            from cuda.bindings import driver
            if not isinstance(dynamic_shared_memory_needed, driver.CUoccupancyB2DSize):
                raise TypeError("dynamic_shared_memory_needed must be an int (bytes) or a driver.CUoccupancyB2DSize, "
                                f"got {type(dynamic_shared_memory_needed).__name__}")
            callback = <cydriver.CUoccupancyB2DSize><uintptr_t>dynamic_shared_memory_needed.getPtr()
        cdef int min_grid_size = 0
        cdef int max_block_size = 0
        cdef cydriver.CUfunction function = <cydriver.CUfunction>self._kernel
        with nogil:
            HANDLE_RETURN(cydriver.cuOccupancyMaxPotentialBlockSize(
                &min_grid_size, &max_block_size, function, callback, fixed_size, block_size_limit))
        return MaxPotentialBlockSizeOccupancyResult(min_grid_size=min_grid_size, max_block_size=max_block_size)

    def available_dynamic_shared_memory_per_block(self, int num_blocks_per_multiprocessor, int block_size) -> int:
        """The bytes of dynamic shared memory each block can have when
        ``num_blocks_per_multiprocessor`` blocks of ``block_size`` threads share a multiprocessor."""
        cdef size_t size = 0
        cdef cydriver.CUfunction function = <cydriver.CUfunction>self._kernel
        with nogil:
            HANDLE_RETURN(cydriver.cuOccupancyAvailableDynamicSMemPerBlock(
                &size, function, num_blocks_per_multiprocessor, block_size))
        return size

    def max_potential_cluster_size(self, LaunchConfig config not None, *, stream) -> int:
        """The largest cluster (in blocks) this kernel can launch with ``config`` (its own
        cluster is ignored) on ``stream`` (required: pass ``device.default_stream`` for the default)."""
        cdef cydriver.CUstream handle = Stream_accept(stream)._live_handle()
        cdef cydriver.CUlaunchConfig native
        cdef cydriver.CUlaunchAttribute attributes[MAX_LAUNCH_ATTRIBUTES]
        config.fill_native(&native, attributes, handle, False)
        cdef int size = 0
        cdef cydriver.CUfunction function = <cydriver.CUfunction>self._kernel
        with nogil:
            HANDLE_RETURN(cydriver.cuOccupancyMaxPotentialClusterSize(&size, function, &native))
        return size

    def max_active_clusters(self, LaunchConfig config not None, *, stream) -> int:
        """How many clusters of ``config`` can be resident on the device at once, for a launch
        on ``stream`` (required: pass ``device.default_stream`` for the default)."""
        cdef cydriver.CUstream handle = Stream_accept(stream)._live_handle()
        cdef cydriver.CUlaunchConfig native
        cdef cydriver.CUlaunchAttribute attributes[MAX_LAUNCH_ATTRIBUTES]
        config.fill_native(&native, attributes, handle, True)
        cdef int count = 0
        cdef cydriver.CUfunction function = <cydriver.CUfunction>self._kernel
        with nogil:
            HANDLE_RETURN(cydriver.cuOccupancyMaxActiveClusters(&count, function, &native))
        return count


cdef list _parameters(cydriver.CUkernel kernel):
    """ParamInfo(offset, size) of each parameter of ``kernel``, in order."""
    cdef size_t index = 0
    cdef size_t offset = 0
    cdef size_t size = 0
    cdef cydriver.CUresult result
    parameters = []
    # The driver answers per context: without one, say so rather than report no parameters.
    _require_context()
    while True:
        with nogil:
            result = cydriver.cuKernelGetParamInfo(kernel, index, &offset, &size)
        if result == cydriver.CUDA_ERROR_INVALID_VALUE:
            return parameters  # the driver's answer for an index past the last parameter
        HANDLE_RETURN(result)
        parameters.append(ParamInfo(offset, size))
        index += 1


cdef int _require_context() except -1:
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
    if context == NULL:
        HANDLE_RETURN(cydriver.CUDA_ERROR_INVALID_CONTEXT)
    return 0


cdef class Kernel:
    """One kernel, from ``ObjectCode.get_kernel()`` or ``Kernel.from_handle()``; pass it to
    ``launch()``. Kernels compare equal, and hash alike, when they wrap the same CUkernel."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Kernel objects cannot be instantiated directly. They are made by ObjectCode.get_kernel() "
                           "or Kernel.from_handle()")

    @staticmethod
    def from_handle(handle, ObjectCode mod=None) -> Kernel:
        """A Kernel over the CUkernel at address ``handle`` (an int). ``mod``, the ObjectCode
        whose library holds the kernel, keeps that library loaded while the Kernel lives;
        without it, the live ObjectCode whose get_kernel() gave this kernel is kept instead,
        else whoever loaded the library must keep it loaded (a client that took it through
        ``ObjectCode.handle`` holds it: see there). A ``mod`` whose library is not the
        kernel's draws a warning."""
        if not isinstance(handle, int) or isinstance(handle, bool):
            from cuda.bindings import driver
            if not isinstance(handle, driver.CUkernel):
                raise TypeError(f"handle must be an int (a CUkernel address), got {type(handle).__name__}")
            handle = int(handle)
        cdef cydriver.CUkernel kernel = <cydriver.CUkernel><size_t>handle
        if kernel == NULL:
            raise ValueError("handle must be the address of a CUkernel, not 0")
        if mod is not None:
            _warn_if_not_its_library(kernel, mod)
        else:
            mod = _loader_of(kernel)
        return _new_kernel(kernel, mod, None)

    @property
    def handle(self):
        """The driver's CUkernel; ``int(kernel.handle)`` is its address.

        The driver leads from a kernel to its library (cuKernelGetLibrary), so once given
        out, the library of the ObjectCode this Kernel came from is left to the caller, as
        after ``ObjectCode.handle``: that ObjectCode no longer unloads it."""
        from cuda.bindings import driver
        if self._keepalive is not None:
            (<ObjectCode>self._keepalive)._handle_given = True
        return driver.CUkernel(<size_t>self._kernel)

    @property
    def _handle(self):
        return self.handle

    @property
    def attributes(self) -> KernelAttributes:
        """The driver's attributes of this kernel on the current device; index with a Device
        or an ordinal (``kernel.attributes[1]``) for another device."""
        if self._attributes is None:
            self._attributes = _attributes_view(self._kernel, self._keepalive, -1, {})
        return self._attributes

    @property
    def occupancy(self) -> KernelOccupancy:
        """Occupancy queries for launching this kernel."""
        cdef KernelOccupancy occupancy
        if self._occupancy is None:
            occupancy = KernelOccupancy.__new__(KernelOccupancy)
            occupancy._kernel = self._kernel
            occupancy._keepalive = self._keepalive
            self._occupancy = occupancy
        return self._occupancy

    def __cinit__(self):
        self._num_params = -1

    def __dealloc__(self):
        PyMem_Free(self._param_size_array)

    cdef Py_ssize_t _check_argument_count(self, Py_ssize_t given) except -1:
        cdef Py_ssize_t index
        cdef list parameters
        cdef size_t* sizes
        if self._num_params < 0:
            parameters = _parameters(self._kernel)
            sizes = <size_t*>PyMem_Malloc(max(len(parameters), 1) * sizeof(size_t))
            if sizes == NULL:
                raise MemoryError()
            for index in range(len(parameters)):
                sizes[index] = parameters[index].size
            self._param_size_array = sizes
            self._num_params = len(parameters)
        if given >= 0 and given != self._num_params:
            label = "kernel" if self._name is None else f"kernel {self._name!r}"
            raise TypeError(f"{label} takes {self._num_params} argument(s), got {given}")
        return self._num_params

    @property
    def num_arguments(self) -> int:
        """How many parameters the kernel takes (needs a current context)."""
        return self._check_argument_count(-1)

    @property
    def arguments_info(self) -> list:
        """Each parameter's ParamInfo(offset, size), in bytes, in order (needs a current context)."""
        return _parameters(self._kernel)

    def __eq__(self, other):
        if not isinstance(other, Kernel):
            return NotImplemented
        return self._kernel == (<Kernel>other)._kernel

    def __hash__(self) -> int:
        return hash(<size_t>self._kernel)

    def __repr__(self) -> str:
        return f"<Kernel handle={<size_t>self._kernel:#x}>"


cdef object _loader_of(cydriver.CUkernel kernel):
    """The live ObjectCode whose get_kernel() gave ``kernel``, or None. The driver is not
    asked: the handle may be anything, and a library a client could hold may be unloaded
    already (a driver handle is a pointer the driver would follow)."""
    return _kernel_loaders.get(<size_t>kernel)


cdef int _warn_if_not_its_library(cydriver.CUkernel kernel, ObjectCode mod) except -1:
    """Warn when ``mod`` is not the ObjectCode whose library holds ``kernel``."""
    cdef cydriver.CUlibrary library = NULL
    cdef cydriver.CUresult result
    if mod._code_type not in _LOADABLE:
        warnings.warn(f"Kernel.from_handle: the {mod._code_type} ObjectCode given holds no loaded library, so it "
                      "does not match the kernel's library and cannot keep it loaded", UserWarning, stacklevel=3)
        return 0
    cdef cydriver.CUlibrary own = mod._loaded()
    with nogil:
        result = cydriver.cuKernelGetLibrary(&library, kernel)
    if result != cydriver.CUDA_SUCCESS:
        return 0  # the driver cannot say (e.g. an older driver): nothing to compare
    if library != own:
        warnings.warn(f"Kernel.from_handle: the kernel's library ({<size_t>library:#x}) does not match the library "
                      f"of the ObjectCode given ({<size_t>own:#x}); that ObjectCode will not keep the kernel loaded",
                      UserWarning, stacklevel=3)
    return 0
