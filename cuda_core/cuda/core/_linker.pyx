# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Linker and LinkerOptions: ObjectCodes (PTX, cubins, LTO IR, fatbins, objects,
libraries) linked into one cubin, or into PTX.

Two backends, chosen once per process (``Linker.which_backend()``):
  * nvJitLink, through cuda.bindings' cynvjitlink, when cuda.bindings.nvjitlink imports and
    libnvJitLink (found by cuda.pathfinder at first use) loads and is 12.3 or newer;
  * otherwise the CUDA driver's cuLink* API, after a RuntimeWarning that says why. It needs a
    current context, makes only cubins, and rejects the options that only nvJitLink has.

LinkerOptions turns its fields into nvJitLink's flags from one table (_NVJITLINK_OPTIONS), or
into cuLinkCreate's (option, value) pairs (_prepare_driver_options).
"""

import os
import re
import warnings
from dataclasses import dataclass

from libcpp.vector cimport vector

cimport cuda.bindings.cydriver as cydriver
cimport cuda.bindings.cynvjitlink as cynvjitlink
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, ensure_driver
from cuda.core._module import ObjectCode
from cuda.core._utils.cuda_utils import (BUILD_MAJOR, CUDAError, _optional_cuda_import,
                                         check_or_create_options)
from cuda.core.typing import CompilerBackendType, ObjectCodeFormatType  # no-cython-lint: names of this module, as in NVIDIA's

__all__ = ["Linker", "LinkerOptions"]


def __getattr__(name: str):
    # LinkerHandleT names cuda.bindings' driver types: built on first use, so that importing
    # this module does not import cuda.bindings.driver.
    if name == "LinkerHandleT":
        from cuda.bindings import driver
        return int | driver.CUlinkState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# The backend, decided once per process. Module-level names, looked up at call time, so that
# tests can replace them (NVIDIA's tests do): _use_nvjitlink_backend is None until decided.

_driver = None                   # cuda.bindings.driver, once the driver's options are made
_inited = False                  # whether _lazy_init() ran
_use_nvjitlink_backend = None    # True: nvJitLink; False: the driver; None: not decided yet
_nvjitlink_input_types = None    # ObjectCode.code_type -> nvJitLinkInputType, set by _lazy_init()
_driver_input_types = None       # ObjectCode.code_type -> CUjitInputType, set by _lazy_init()


def _nvjitlink_has_version_symbol(nvjitlink) -> bool:
    """Whether the libnvJitLink that ``nvjitlink`` (cuda.bindings.nvjitlink) loads exports
    nvJitLinkVersion, which it does from 12.3 on. Loads the library: cuda.pathfinder's
    DynamicLibNotFoundError when there is none."""
    from cuda.bindings._internal.utils import FunctionNotFoundError
    try:
        nvjitlink.version()
    except FunctionNotFoundError:
        return False
    return True


def _nvjitlink_wheel() -> str:
    return "nvidia-nvjitlink-cu12" if BUILD_MAJOR == 12 else "nvidia-nvjitlink"


def _decide_nvjitlink_or_driver() -> bool:
    """True when Linker falls back to the driver's cuLink* (nvJitLink is missing, cannot be
    loaded, or is older than 12.3), False when nvJitLink links. Decided at the first call,
    which warns about a fallback; later calls repeat the answer."""
    global _use_nvjitlink_backend
    if _use_nvjitlink_backend is not None:
        return not _use_nvjitlink_backend
    module = _optional_cuda_import("cuda.bindings.nvjitlink", probe_function=_nvjitlink_has_version_symbol)
    if module is None:
        reason = "cuda.bindings.nvjitlink is not available, or it found no libnvJitLink to load"
    elif not _nvjitlink_has_version_symbol(module):
        reason = "the libnvJitLink found is older than 12.3 (it has no nvJitLinkVersion)"
    else:
        _use_nvjitlink_backend = True
        return False
    _use_nvjitlink_backend = False
    warnings.warn(f"{reason}: Linker falls back to the CUDA driver's cuLink* APIs, which make only cubins and do not "
                  f"take nvJitLink's extra options. For nvJitLink: pip install {_nvjitlink_wheel()}",
                  RuntimeWarning)
    return True


def _driver_module():
    """cuda.bindings.driver (its enums name the driver's linker options), imported once."""
    global _driver
    if _driver is None:
        from cuda.bindings import driver
        _driver = driver
    return _driver


def _lazy_init() -> None:
    """Decide the backend and fill the input-type tables, once per process."""
    global _inited, _nvjitlink_input_types, _driver_input_types
    if _inited:
        return
    _decide_nvjitlink_or_driver()
    _nvjitlink_input_types = {
        "cubin": cynvjitlink.NVJITLINK_INPUT_CUBIN, "ptx": cynvjitlink.NVJITLINK_INPUT_PTX,
        "ltoir": cynvjitlink.NVJITLINK_INPUT_LTOIR, "fatbin": cynvjitlink.NVJITLINK_INPUT_FATBIN,
        "object": cynvjitlink.NVJITLINK_INPUT_OBJECT, "library": cynvjitlink.NVJITLINK_INPUT_LIBRARY,
    }
    _driver_input_types = {
        "cubin": cydriver.CU_JIT_INPUT_CUBIN, "ptx": cydriver.CU_JIT_INPUT_PTX,
        "ltoir": cydriver.CU_JIT_INPUT_NVVM, "fatbin": cydriver.CU_JIT_INPUT_FATBINARY,
        "object": cydriver.CU_JIT_INPUT_OBJECT, "library": cydriver.CU_JIT_INPUT_LIBRARY,
    }
    _inited = True


# ---------------------------------------------------------------------------------------------
# LinkerOptions -> nvJitLink's flags. Each writer turns (flag, value) into flags; it is called
# only for a value that is not None.

def _flag(flag: str, value) -> list:
    """The bare flag when the value is true."""
    return [flag] if value else []


def _present(flag: str, value) -> list:
    """The bare flag for any value (time=True or a file name: nvJitLink's -time takes no value)."""
    return [flag]


def _only_true(flag: str, value) -> list:
    """The bare flag for True only."""
    return [flag] if value is True else []


def _switch(flag: str, value) -> list:
    """-flag=true|false."""
    return [f"{flag}={'true' if value else 'false'}"]


def _number(flag: str, value) -> list:
    """-flag=N."""
    return [f"{flag}={int(value)}"]


def _level(flag: str, value) -> list:
    """-ON (no '=')."""
    return [f"{flag}{int(value)}"]


def _each(flag: str, value) -> list:
    """-flag=item for one str or for each item of a list or tuple."""
    items = [value] if isinstance(value, str) else value
    return [f"{flag}={item}" for item in items]


# field, writer, nvJitLink's flag; arch comes first, as -arch=.
_NVJITLINK_OPTIONS = (
    ("max_register_count", _number, "-maxrregcount"),
    ("time", _present, "-time"),
    ("verbose", _flag, "-verbose"),
    ("link_time_optimization", _flag, "-lto"),
    ("ptx", _flag, "-ptx"),
    ("optimization_level", _level, "-O"),
    ("debug", _flag, "-g"),
    ("lineinfo", _flag, "-lineinfo"),
    ("ftz", _switch, "-ftz"),
    ("prec_div", _switch, "-prec-div"),
    ("prec_sqrt", _switch, "-prec-sqrt"),
    ("fma", _switch, "-fma"),
    ("kernels_used", _each, "-kernels-used"),
    ("variables_used", _each, "-variables-used"),
    ("optimize_unused_variables", _flag, "-optimize-unused-variables"),
    ("ptxas_options", _each, "-Xptxas"),
    ("split_compile", _number, "-split-compile"),
    ("split_compile_extended", _number, "-split-compile-extended"),
    ("no_cache", _only_true, "-no-cache"),
)

# What the driver's cuLink* cannot do at all (an error when set, even to False), and what it
# ignores since CUDA 12 deprecated it (a DeprecationWarning), each with how the warning names it.
_DRIVER_UNSUPPORTED = ("time", "ptx", "ptxas_options", "split_compile", "split_compile_extended")
_DRIVER_DEPRECATED = (
    ("ftz", "setting the ftz option"),
    ("prec_div", "setting the prec_div option"),
    ("prec_sqrt", "setting the prec_sqrt option"),
    ("fma", "setting fma options"),
    ("kernels_used", "setting kernels_used"),
    ("variables_used", "setting variables_used"),
    ("optimize_unused_variables", "setting optimize_unused_variables"),
)
# Where _prepare_driver_options puts the log buffers among its values, and their size.
_INFO_LOG_SLOT = 0
_ERROR_LOG_SLOT = 2
_LOG_SIZE = 16384
_ARCH = re.compile(r"(?:sm|compute|lto)_(\d+)([af]?)")
_DEFAULT_NAME = "<default linker>"
_NAME_LISTS = ("kernels_used", "variables_used", "ptxas_options")


def _check_name_list(field: str, value) -> None:
    """A str, or a list or tuple of str: TypeError otherwise."""
    if isinstance(value, str):
        return
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return
    raise TypeError(f"LinkerOptions.{field} must be a str or a list or tuple of str, got {value!r}")


def _driver_target(driver, arch: str):
    """The CUjit_target of an 'sm_XY', 'compute_XY' (or '...a', '...f') arch. AttributeError (as
    for a CUjit_target member that does not exist) when the driver's enum has no such target."""
    match = _ARCH.fullmatch(str(arch))
    member = f"CU_TARGET_COMPUTE_{match.group(1)}{match.group(2).upper()}" if match else None
    if member is None or not hasattr(driver.CUjit_target, member):
        raise AttributeError(f"arch={arch!r} is no target of the CUDA driver's linker (cuda.bindings.driver."
                             f"CUjit_target has no {member or 'member for it'}): give e.g. 'sm_90'")
    return getattr(driver.CUjit_target, member)


@dataclass
class LinkerOptions:
    """How a Linker links. A field left at None is not passed to the linker, so its default
    holds; ``arch=None`` becomes the current device's ('sm_90' on an H200) when the options are
    made, which needs a driver.

    nvJitLink takes every field. The driver's cuLink* takes ``name``, ``arch``,
    ``max_register_count``, ``verbose``, ``link_time_optimization``, ``optimization_level``,
    ``debug``, ``lineinfo`` and ``no_cache``; it ignores ``ftz``, ``prec_div``, ``prec_sqrt``,
    ``fma``, ``kernels_used``, ``variables_used`` and ``optimize_unused_variables`` with a
    DeprecationWarning, and refuses ``time``, ``ptx``, ``ptxas_options``, ``split_compile``
    and ``split_compile_extended`` (ValueError).

    ``ptx=True`` (with ``link_time_optimization=True``) makes nvJitLink emit PTX instead of a
    cubin: ``link('ptx')``. ``kernels_used``, ``variables_used`` and ``ptxas_options`` take
    one str or a list or tuple of them. ``numba_debug`` is deprecated and ignored: it is a
    compiler option (ProgramOptions.numba_debug), which no linker has.
    """

    name: str | None = _DEFAULT_NAME
    arch: str | None = None
    max_register_count: int | None = None
    time: bool | None = None
    verbose: bool | None = None
    link_time_optimization: bool | None = None
    ptx: bool | None = None
    optimization_level: int | None = None
    debug: bool | None = None
    lineinfo: bool | None = None
    ftz: bool | None = None
    prec_div: bool | None = None
    prec_sqrt: bool | None = None
    fma: bool | None = None
    kernels_used: str | tuple[str] | list[str] | None = None
    variables_used: str | tuple[str] | list[str] | None = None
    optimize_unused_variables: bool | None = None
    ptxas_options: str | tuple[str] | list[str] | None = None
    split_compile: int | None = None
    split_compile_extended: int | None = None
    no_cache: bool | None = None
    numba_debug: bool | None = None

    def __post_init__(self) -> None:
        """Fill in the defaults that depend on the machine and check what cannot wait for a link."""
        if self.name is None:
            self.name = _DEFAULT_NAME
        if self.arch is None:
            from cuda.core._device import _current_arch
            self.arch = _current_arch("LinkerOptions")
        for field in _NAME_LISTS:
            if getattr(self, field) is not None:
                _check_name_list(field, getattr(self, field))
        if self.numba_debug is not None:
            warnings.warn("LinkerOptions.numba_debug is deprecated and ignored (to be removed in cuda.core 2.0): it is "
                          "a compiler option, which neither nvJitLink nor the driver's linker has; use "
                          "ProgramOptions.numba_debug", DeprecationWarning, stacklevel=2)

    def _prepare_nvjitlink_options(self, as_bytes: bool = False) -> list:
        """nvJitLink's flags, as str (or bytes with ``as_bytes``): -arch= first, then the table's order."""
        flags = [f"-arch={self.arch}"] if self.arch is not None else []
        for field, writer, flag in _NVJITLINK_OPTIONS:
            value = getattr(self, field)
            if value is not None:
                flags += writer(flag, value)
        return [flag.encode() for flag in flags] if as_bytes else flags

    def _prepare_driver_options(self) -> tuple:
        """cuLinkCreate's options as (values, keys), both lists, the keys CUjit_option members:
        first the info and error log buffers (bytearrays) with their sizes, then the fields set.
        AttributeError for an arch the driver does not know, ValueError for a field it cannot
        do, DeprecationWarning for one it ignores."""
        driver = _driver_module()
        option = driver.CUjit_option
        target = _driver_target(driver, self.arch) if self.arch is not None else None
        for field in _DRIVER_UNSUPPORTED:
            if getattr(self, field) is not None:
                raise ValueError(f"the {field} option is not supported by the driver API (cuLink*, the linker used "
                                 f"here): leave it at None, or install nvJitLink (pip install {_nvjitlink_wheel()})")
        for field, label in _DRIVER_DEPRECATED:
            if getattr(self, field) is not None:
                warnings.warn(f"LinkerOptions.{field} is ignored by the driver API (cuLink*, the linker used here): "
                              f"{label} is deprecated there since CUDA 12", DeprecationWarning)
        pairs = [(option.CU_JIT_INFO_LOG_BUFFER, bytearray(_LOG_SIZE)),
                 (option.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, _LOG_SIZE),
                 (option.CU_JIT_ERROR_LOG_BUFFER, bytearray(_LOG_SIZE)),
                 (option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, _LOG_SIZE)]
        if target is not None:
            pairs.append((option.CU_JIT_TARGET, target))
        if self.max_register_count is not None:
            pairs.append((option.CU_JIT_MAX_REGISTERS, int(self.max_register_count)))
        if self.verbose:
            pairs.append((option.CU_JIT_LOG_VERBOSE, 1))
        if self.link_time_optimization:
            pairs.append((option.CU_JIT_LTO, 1))
        if self.optimization_level is not None:
            pairs.append((option.CU_JIT_OPTIMIZATION_LEVEL, int(self.optimization_level)))
        if self.debug:
            pairs.append((option.CU_JIT_GENERATE_DEBUG_INFO, 1))
        if self.lineinfo:
            pairs.append((option.CU_JIT_GENERATE_LINE_INFO, 1))
        if self.no_cache is True:
            pairs.append((option.CU_JIT_CACHE_MODE, driver.CUjit_cacheMode.CU_JIT_CACHE_OPTION_NONE))
        return [value for _, value in pairs], [key for key, _ in pairs]

    def as_bytes(self, backend: str = "nvjitlink") -> list:
        """nvJitLink's flags as bytes, e.g. ``[b'-arch=sm_90', b'-g']``. Only 'nvjitlink' has
        flags (ValueError for another backend: the driver takes typed options), and only when
        nvJitLink is the backend here (RuntimeError otherwise)."""
        if str(backend).lower() != "nvjitlink":
            raise ValueError(f"as_bytes() only supports 'nvjitlink' backend, not {backend!r}: the driver's cuLink* "
                             "takes typed options rather than strings")
        if _decide_nvjitlink_or_driver():
            raise RuntimeError("nvJitLink backend is not available here (Linker links with the driver's cuLink*): "
                               f"install nvJitLink 12.3 or newer (pip install {_nvjitlink_wheel()})")
        return self._prepare_nvjitlink_options(as_bytes=True)


# ---------------------------------------------------------------------------------------------
# Linker.

cdef str _nvjitlink_log(cynvjitlink.nvJitLinkHandle handle, bint error_log):
    """nvJitLink's error or info log ('' when empty, or when it cannot be read: logs are for
    diagnosis, and reading one must not hide the error being diagnosed)."""
    cdef size_t size = 0
    cdef cynvjitlink.nvJitLinkResult result
    with nogil:
        if error_log:
            result = cynvjitlink.nvJitLinkGetErrorLogSize(handle, &size)
        else:
            result = cynvjitlink.nvJitLinkGetInfoLogSize(handle, &size)
    if result != cynvjitlink.NVJITLINK_SUCCESS or size <= 1:  # the size counts the NUL
        return ""
    cdef bytearray buffer = bytearray(size)
    cdef char* data = buffer
    with nogil:
        if error_log:
            result = cynvjitlink.nvJitLinkGetErrorLog(handle, data)
        else:
            result = cynvjitlink.nvJitLinkGetInfoLog(handle, data)
    if result != cynvjitlink.NVJITLINK_SUCCESS:
        return ""
    return bytes(buffer).split(b"\0", 1)[0].decode(errors="replace")


cdef str _buffer_text(bytearray buffer):
    """A driver log buffer's text, up to its NUL."""
    return bytes(buffer).split(b"\0", 1)[0].decode(errors="replace")


cdef size_t _jit_value(object value) except? 0:
    """A cuLinkCreate option value as the void* the driver reads: a buffer's address, or the number itself."""
    cdef char* data
    if isinstance(value, bytearray):
        data = <bytearray>value
        return <size_t>data
    return <size_t>int(value)


cdef str _target_of(object target_type):
    """'cubin' or 'ptx' (a str or an ObjectCodeFormatType); ValueError for anything else."""
    target = str(target_type).lower()
    if target not in ("cubin", "ptx"):
        raise ValueError(f"Unsupported target_type={target_type!r} for a Linker: it links to 'cubin' or 'ptx'")
    return target


cdef class Linker:
    """Links ObjectCodes (PTX, cubin, LTO IR, fatbin, relocatable objects, static libraries)
    into one: ``Linker(*object_codes, options=LinkerOptions(...)).link('cubin')``.

    The backend is nvJitLink where it loads (12.3 or newer), else the CUDA driver's cuLink*
    (see ``which_backend()``); the driver needs a current context. ``options`` is a
    LinkerOptions, a dict of its fields, or None for the defaults. Input code that refers to
    another's device functions must be compiled as relocatable device code (or LTO IR).
    """

    # Attributes: see _linker.pxd.

    def __init__(self, *object_codes, options=None):
        if self._options is not None:
            raise RuntimeError("this Linker is made already: create a new one")
        if len(object_codes) == 0:
            raise ValueError("At least one ObjectCode object must be provided to a Linker")
        for code in object_codes:
            if not isinstance(code, ObjectCode):
                raise TypeError(f"Linker takes ObjectCode objects, got {type(code).__name__}")
        self._options = check_or_create_options(LinkerOptions, options, "Linker options")
        _lazy_init()
        self._use_nvjitlink = not _decide_nvjitlink_or_driver()
        self._inputs = []
        self._symbol_mapping = {}
        if self._use_nvjitlink:
            self._create_nvjitlink()
        else:
            self._create_culink()
        for index, code in enumerate(object_codes):
            self._add(code, index)

    cdef int _create_nvjitlink(self) except -1:
        cdef list flags = self._options._prepare_nvjitlink_options(as_bytes=True)  # keeps each string alive
        cdef vector[const char*] argv
        cdef bytes flag
        for flag in flags:
            argv.push_back(flag)
        cdef cynvjitlink.nvJitLinkHandle handle = NULL
        cdef cynvjitlink.nvJitLinkResult result
        with nogil:
            result = cynvjitlink.nvJitLinkCreate(&handle, <unsigned int>argv.size(), argv.data())
        self._nvjitlink = handle
        return self._check_nvjitlink(result)

    cdef int _create_culink(self) except -1:
        values, keys = self._options._prepare_driver_options()
        ensure_driver()
        self._jit_payload = values
        for key, value in zip(keys, values):
            self._jit_keys.push_back(<cydriver.CUjit_option><int>int(key))
            self._jit_values.push_back(<void*>_jit_value(value))
        cdef cydriver.CUlinkState state = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuLinkCreate(<unsigned int>self._jit_keys.size(), self._jit_keys.data(),
                                                self._jit_values.data(), &state))
        self._culink = state
        return 0

    cdef int _add(self, object object_code, int index) except -1:
        """Hand one input to the backend: its bytes (PTX NUL-terminated), or the file it names."""
        code_type = object_code.code_type
        module = object_code.code
        self._symbol_mapping.update(object_code.symbol_mapping)
        cdef bytes name = (object_code.name or f"{code_type}_{index}").encode()
        cdef bytes data
        cdef const char* c_name = name
        cdef const char* c_data
        cdef size_t size
        cdef bint is_file = isinstance(module, str)
        cdef int nvjitlink_type = _nvjitlink_input_types[code_type]
        cdef int driver_type = _driver_input_types[code_type]
        cdef cynvjitlink.nvJitLinkResult result
        cdef cydriver.CUresult status
        if is_file:
            data = os.fsencode(module)  # a path
        else:
            data = bytes(module)
            if code_type == "ptx" and not data.endswith(b"\0"):
                data += b"\0"  # PTX is read as a NUL-terminated string
        self._inputs.append(data)
        c_data = data
        size = len(data)
        if self._use_nvjitlink:
            with nogil:
                if is_file:
                    result = cynvjitlink.nvJitLinkAddFile(self._nvjitlink, <cynvjitlink.nvJitLinkInputType>nvjitlink_type,
                                                          c_data)
                else:
                    result = cynvjitlink.nvJitLinkAddData(self._nvjitlink, <cynvjitlink.nvJitLinkInputType>nvjitlink_type,
                                                          c_data, size, c_name)
            return self._check_nvjitlink(result)
        if is_file:
            with nogil:
                status = cydriver.cuLinkAddFile(self._culink, <cydriver.CUjitInputType>driver_type, c_data, 0, NULL, NULL)
        else:
            with nogil:
                status = cydriver.cuLinkAddData(self._culink, <cydriver.CUjitInputType>driver_type, <void*>c_data, size,
                                                c_name, 0, NULL, NULL)
        return self._check_culink(status)

    cdef int _check_nvjitlink(self, cynvjitlink.nvJitLinkResult result) except -1:
        """cuda.bindings' nvJitLinkError for a failed nvJitLinkResult, with the error log in its message."""
        if result == cynvjitlink.NVJITLINK_SUCCESS:
            return 0
        from cuda.bindings import nvjitlink
        self._read_logs()
        error = nvjitlink.nvJitLinkError(<int>result)
        if self._error_log:
            error.args = (f"{error.args[0]}\nnvJitLink error log:\n{self._error_log}",)
        raise error

    cdef int _check_culink(self, cydriver.CUresult result) except -1:
        """HANDLE_RETURN's CUDAError, with the driver's error log in its message."""
        try:
            HANDLE_RETURN(result)
        except CUDAError as error:
            self._read_logs()
            if self._error_log:
                error.args = (f"{error.args[0]}\nlinker error log:\n{self._error_log}",)
            raise
        return 0

    cdef int _read_logs(self) except -1:
        """Refresh the logs: nvJitLink's from its handle while open, the driver's from its buffers."""
        if self._use_nvjitlink:
            if self._nvjitlink != NULL:
                self._info_log = _nvjitlink_log(self._nvjitlink, False)
                self._error_log = _nvjitlink_log(self._nvjitlink, True)
        elif self._jit_payload is not None:
            self._info_log = _buffer_text(self._jit_payload[_INFO_LOG_SLOT])
            self._error_log = _buffer_text(self._jit_payload[_ERROR_LOG_SLOT])
        return 0

    # -- link ----------------------------------------------------------------------------

    def link(self, target_type) -> ObjectCode:
        """The linked code as an ObjectCode named after ``options.name``: 'cubin', or 'ptx'
        (nvJitLink, with LinkerOptions(ptx=True, link_time_optimization=True)). The driver's
        linker makes only cubins: asked for 'ptx', it warns and gives the cubin. A failed link
        raises nvJitLinkError (nvJitLink) or CUDAError (driver), with the error log. Linking
        again gives the same code."""
        if self._closed:
            raise RuntimeError("this Linker is closed: make a new one")
        target = _target_of(target_type)
        if self._use_nvjitlink and (target == "ptx") != bool(self._options.ptx):
            raise ValueError(f"link({target!r}) with nvJitLink needs LinkerOptions(ptx={target == 'ptx'}): "
                             "ptx=True (with link_time_optimization=True) makes PTX instead of a cubin")
        if not self._use_nvjitlink and target == "ptx":
            warnings.warn("the CUDA driver's linker (cuLink*) makes only cubins: link('ptx') gives the linked cubin",
                          RuntimeWarning, stacklevel=2)
            target = "cubin"
        if self._linked is None:
            self._linked = self._complete_nvjitlink(target) if self._use_nvjitlink else self._complete_culink()
        make = ObjectCode.from_ptx if target == "ptx" else ObjectCode.from_cubin
        return make(self._linked, name=str(self._options.name), symbol_mapping=dict(self._symbol_mapping))

    cdef bytes _complete_nvjitlink(self, str target):
        cdef cynvjitlink.nvJitLinkHandle handle = self._nvjitlink
        cdef cynvjitlink.nvJitLinkResult result
        cdef size_t size = 0
        cdef bint ptx = target == "ptx"
        with nogil:
            result = cynvjitlink.nvJitLinkComplete(handle)
        self._read_logs()
        self._check_nvjitlink(result)
        with nogil:
            if ptx:
                result = cynvjitlink.nvJitLinkGetLinkedPtxSize(handle, &size)
            else:
                result = cynvjitlink.nvJitLinkGetLinkedCubinSize(handle, &size)
        self._check_nvjitlink(result)
        cdef bytearray buffer = bytearray(size)
        cdef char* data = buffer
        with nogil:
            if ptx:
                result = cynvjitlink.nvJitLinkGetLinkedPtx(handle, data)
            else:
                result = cynvjitlink.nvJitLinkGetLinkedCubin(handle, data)
        self._check_nvjitlink(result)
        return bytes(buffer).rstrip(b"\0") if ptx else bytes(buffer)

    cdef bytes _complete_culink(self):
        cdef void* cubin = NULL
        cdef size_t size = 0
        cdef cydriver.CUresult result
        with nogil:
            result = cydriver.cuLinkComplete(self._culink, &cubin, &size)
        self._read_logs()
        self._check_culink(result)
        return (<char*>cubin)[:size]  # owned by the link state: copied out now

    # -- logs, handle, backend, lifetime ---------------------------------------------------

    def get_error_log(self) -> str:
        """The linker's error log ('' when it has none); kept after close()."""
        if self._error_log is None or not self._closed:
            self._read_logs()
        return self._error_log or ""

    def get_info_log(self) -> str:
        """The linker's info log (verbose output, timings; '' when it has none); kept after close()."""
        if self._info_log is None or not self._closed:
            self._read_logs()
        return self._info_log or ""

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._closed

    @property
    def handle(self):
        """The backend's linker: nvJitLink's handle as an int, or the driver's
        cuda.bindings.driver.CUlinkState. ``int(handle)`` is its address; 0 once closed."""
        if self._use_nvjitlink:
            return <size_t>self._nvjitlink
        from cuda.bindings import driver
        return driver.CUlinkState(<size_t>self._culink)

    @classmethod
    def which_backend(cls) -> CompilerBackendType:
        """CompilerBackendType.NVJITLINK ('nvJitLink') when nvJitLink 12.3+ loads here, else
        DRIVER ('driver'): the backend every Linker of this process uses."""
        return CompilerBackendType.DRIVER if _decide_nvjitlink_or_driver() else CompilerBackendType.NVJITLINK

    def close(self) -> None:
        """Free the backend's linker; the logs stay readable. A second close does nothing."""
        if self._closed:
            return
        self._read_logs()  # nvJitLink's logs go with its handle
        self._closed = True
        cdef cynvjitlink.nvJitLinkHandle handle = self._nvjitlink
        cdef cydriver.CUlinkState state = self._culink
        cdef cynvjitlink.nvJitLinkResult result = cynvjitlink.NVJITLINK_SUCCESS
        self._nvjitlink = NULL
        self._culink = NULL
        self._inputs = None
        if handle != NULL:
            with nogil:
                result = cynvjitlink.nvJitLinkDestroy(&handle)
            self._check_nvjitlink(result)
        if state != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuLinkDestroy(state))

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the libraries may be unloaded already.
        # The option arrays (C++ members) are freed after this, so after cuLinkDestroy.
        if self._nvjitlink != NULL:
            try:
                cynvjitlink.nvJitLinkDestroy(&self._nvjitlink)
            except Exception:
                pass
            self._nvjitlink = NULL
        cdef cydriver.CUlinkState state = self._culink
        self._culink = NULL
        if state != NULL:
            with nogil:
                cydriver.cuLinkDestroy(state)

    def __repr__(self) -> str:
        backend = CompilerBackendType.NVJITLINK if self._use_nvjitlink else CompilerBackendType.DRIVER
        return f"<Linker backend='{backend}' name={self._options.name!r}{' closed' if self._closed else ''}>"
