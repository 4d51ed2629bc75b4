# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Program and ProgramOptions: device code compiled to PTX, cubin or LTO IR.

Three backends, chosen by the code type:
  * "c++"  -> NVRTC (cynvrtc; libnvrtc loads on the first call, no driver needed);
  * "nvvm" -> libNVVM through cuda.bindings.nvvm (found by cuda.pathfinder), when present;
  * "ptx"  -> cuda.core's Linker (nvJitLink where it loads, else the driver's cuLink*).

ProgramOptions turns its fields into each backend's flags from one table (_OPTIONS):
a row names the field, how NVRTC spells it, and what libNVVM makes of it.
"""

import collections.abc
import os
import re
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

from libc.stdlib cimport free, malloc

cimport cuda.bindings.cynvrtc as cynvrtc
from cuda.core._module import ObjectCode
from cuda.core._utils.cuda_utils import (BUILD_MAJOR, CUDAError, DriverNotFoundError, NVRTCError,
                                         _optional_cuda_import)

__all__ = ['Program', 'ProgramOptions']


from cuda.core._utils.version import binding_version, driver_version
from cuda.core.typing import CompilerBackendType, ObjectCodeFormatType, PCHStatusType, SourceCodeType  # no-cython-lint


def __getattr__(name: str):
    # ProgramHandleT names cuda.bindings types: built on first use so that importing
    # cuda.core does not import cuda.bindings.nvrtc.
    if name == "ProgramHandleT":
        from cuda.bindings import nvrtc
        from cuda.bindings import driver
        return nvrtc.nvrtcProgram | int | driver.CUlinkState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# Optional imports. Module-level names (binding_version and driver_version above too, and
# _optional_cuda_import from cuda_utils), looked up at call time, so that tests can replace them
# (NVIDIA's tests do).

def _default_cache_dir() -> Path:
    """The per-user cache directory of cuda-python: $XDG_CACHE_HOME/cuda-python, or ~/.cache/cuda-python."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cuda-python"


def _plain_cuda_error(message: str) -> Exception:
    """A CUDAError carrying only a message (not a driver result)."""
    error = CUDAError.__new__(CUDAError, message)
    error.code, error.name, error.description = None, None, message
    return error


# ---------------------------------------------------------------------------------------------
# NVRTC: loading, versions, errors.

cdef bint _nvrtc_ready = False
cdef int _nvrtc_major = 0
cdef int _nvrtc_minor = 0


cdef object _nvrtc_error(cynvrtc.nvrtcResult result, str description=None, str log=""):
    """The NVRTCError for a failed nvrtcResult (called only once NVRTC is loaded)."""
    from cuda.bindings import nvrtc
    cdef int code = <int>result
    try:
        name = nvrtc.nvrtcResult(code).name
    except ValueError:
        name = f"nvrtcResult({code})"
    cdef const char* text = NULL
    if description is None:
        text = cynvrtc.nvrtcGetErrorString(result)
        description = text.decode() if text != NULL else ""
    try:
        return NVRTCError(code, name, description, log)
    except TypeError:  # an NVRTCError that takes one message, as NVIDIA's does
        return NVRTCError(f"{code}: {name}: {description}\n{log}" if log else f"{code}: {name}: {description}")


cdef int HANDLE_RETURN_NVRTC(cynvrtc.nvrtcResult result) except -1 nogil:
    """Raise NVRTCError for a failed nvrtcResult; return 0 on success."""
    if result == cynvrtc.NVRTC_SUCCESS:
        return 0
    with gil:
        raise _nvrtc_error(result)


cdef int _ensure_nvrtc() except -1:
    """Load libnvrtc once, turning cuda-bindings' loader failure into one clear error."""
    global _nvrtc_ready, _nvrtc_major, _nvrtc_minor
    if _nvrtc_ready:
        return 0
    cdef int major = 0
    cdef int minor = 0
    cdef cynvrtc.nvrtcResult result
    try:
        result = cynvrtc.nvrtcVersion(&major, &minor)
    except Exception as err:
        wheel = "nvidia-cuda-nvrtc-cu12" if BUILD_MAJOR == 12 else "nvidia-cuda-nvrtc"
        raise RuntimeError(f"NVRTC (libnvrtc) could not be loaded ({err}): install the CUDA {BUILD_MAJOR} NVRTC, "
                           f"e.g. pip install {wheel}") from err
    HANDLE_RETURN_NVRTC(result)
    _nvrtc_major, _nvrtc_minor = major, minor
    _nvrtc_ready = True
    return 0


def _nvrtc_version() -> tuple:
    """(major, minor) of the libnvrtc loaded (loading it)."""
    _ensure_nvrtc()
    return (_nvrtc_major, _nvrtc_minor)


def _can_load_generated_ptx() -> bool:
    """Whether the driver can load PTX made by this NVRTC: PTX of a newer CUDA than the
    driver's is refused (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)."""
    return tuple(driver_version()[:2]) >= _nvrtc_version()


cdef object _warn_if_ptx_unloadable():
    """After an NVRTC compile to PTX: warn when this driver cannot load the result. No driver
    at all is not warned about (there is nothing to load the PTX into here)."""
    try:
        loadable = _can_load_generated_ptx()
    except DriverNotFoundError:
        return None
    if not loadable:
        warnings.warn(f"The CUDA driver version is older than the backend version: NVRTC {_nvrtc_version()} makes "
                      f"PTX that the driver (CUDA {driver_version()[:2]}) cannot load. Compile to 'cubin', or "
                      "upgrade the driver.", RuntimeWarning)
    return None


# ---------------------------------------------------------------------------------------------
# ProgramOptions -> flags: the writers of each option, and which backend takes which.

include "source/_program_flags.pxi"


def _check_extra_sources(extra_sources) -> None:
    """extra_sources must be a sequence of (name, source) pairs, each source non-empty
    str, bytes or bytearray."""
    if not isinstance(extra_sources, collections.abc.Sequence):
        raise TypeError("extra_sources must be a sequence of 2-tuples ((name, source), ...), got "
                        f"{type(extra_sources).__name__}")
    for index, module in enumerate(extra_sources):
        if not isinstance(module, tuple) or len(module) != 2:
            raise TypeError(f"Each extra module must be a 2-tuple (name, source); index {index} is a "
                            f"{type(module).__name__}")
        name, source = module
        if not isinstance(name, str):
            raise TypeError(f"Module name at index {index} must be a string, got {type(name).__name__}")
        if not isinstance(source, (str, bytes, bytearray)):
            raise TypeError(f"Module source at index {index} must be str (LLVM IR text), bytes (LLVM IR text or "
                            f"bitcode) or bytearray, got {type(source).__name__}")
        if len(source) == 0:
            raise ValueError(f"Module source for {name!r} (index {index}) cannot be empty")


@dataclass
class ProgramOptions:
    """How a Program is compiled. Every field left at None is not passed to the compiler, so
    the compiler's default holds; ``arch=None`` becomes the current device's ('sm_90' on an
    H200) when the options are made, which needs a driver.

    NVRTC ("c++") takes every field but ``extra_sources`` and ``use_libdevice``; libNVVM
    ("nvvm") takes ``arch``, ``debug``, ``device_code_optimize``, ``ftz``, ``prec_sqrt``,
    ``prec_div``, ``fma``, ``numba_debug``, ``extra_sources`` and ``use_libdevice``, ignores the
    NVRTC-only extras and rejects the rest (CUDAError); for "ptx" the linker takes ``arch``,
    ``max_register_count``, ``debug``, ``lineinfo``, ``time``, ``split_compile``,
    ``ptxas_options``, ``link_time_optimization``, ``no_cache`` and the float options.

    Values: on/off fields take a bool; ``define_macro`` takes 'NAME', ('NAME', 'VALUE') or a
    list of those; ``ptxas_options``, ``undefine_macro``, ``include_path`` and ``pre_include``
    one str or a list; ``diag_*`` one number or a list; ``extra_sources`` a sequence of
    (name, LLVM IR text or bitcode) pairs.
    """

    name: str | None = _DEFAULT_NAME
    arch: str | None = None
    relocatable_device_code: bool | None = None
    extensible_whole_program: bool | None = None
    debug: bool | None = None
    lineinfo: bool | None = None
    device_code_optimize: bool | None = None
    ptxas_options: str | list[str] | tuple[str] | None = None
    max_register_count: int | None = None
    ftz: bool | None = None
    prec_sqrt: bool | None = None
    prec_div: bool | None = None
    fma: bool | None = None
    use_fast_math: bool | None = None
    extra_device_vectorization: bool | None = None
    link_time_optimization: bool | None = None
    gen_opt_lto: bool | None = None
    define_macro: str | tuple[str, str] | list[str | tuple[str, str]] | tuple[str | tuple[str, str], ...] | None = None
    undefine_macro: str | list[str] | tuple[str] | None = None
    include_path: str | list[str] | tuple[str] | None = None
    use_bundled_headers: bool | None = None
    pre_include: str | list[str] | tuple[str] | None = None
    no_source_include: bool | None = None
    std: str | None = None
    builtin_move_forward: bool | None = None
    builtin_initializer_list: bool | None = None
    disable_warnings: bool | None = None
    restrict: bool | None = None
    device_as_default_execution_space: bool | None = None
    device_int128: bool | None = None
    optimization_info: str | None = None
    no_display_error_number: bool | None = None
    diag_error: int | list[int] | tuple[int] | None = None
    diag_suppress: int | list[int] | tuple[int] | None = None
    diag_warn: int | list[int] | tuple[int] | None = None
    brief_diagnostics: bool | None = None
    time: str | None = None
    split_compile: int | None = None
    fdevice_syntax_only: bool | None = None
    minimal: bool | None = None
    no_cache: bool | None = None
    fdevice_time_trace: str | None = None
    device_float128: bool | None = None
    frandom_seed: str | None = None
    ofast_compile: str | None = None
    pch: bool | None = None
    create_pch: str | None = None
    use_pch: str | None = None
    pch_dir: str | None = None
    pch_verbose: bool | None = None
    pch_messages: bool | None = None
    instantiate_templates_in_pch: bool | None = None
    extra_sources: list[tuple[str, str | bytes | bytearray]] | tuple[tuple[str, str | bytes | bytearray], ...] | None = None
    use_libdevice: bool | None = None
    numba_debug: bool | None = None

    def __post_init__(self) -> None:
        """Fill in the defaults that depend on the machine and check what cannot wait for a compile."""
        if self.name is None:
            self.name = _DEFAULT_NAME
        if self.arch is None:
            from cuda.core._device import _current_arch
            self.arch = _current_arch("ProgramOptions")
        if self.extra_sources is not None:
            _check_extra_sources(self.extra_sources)
        if self.use_bundled_headers and _nvrtc_version() < (13, 3):
            major, minor = _nvrtc_version()
            raise RuntimeError(f"use_bundled_headers needs NVRTC 13.3 or newer, but the NVRTC loaded is {major}.{minor}: "
                               "upgrade NVRTC (the CUDA Toolkit or the nvidia-cuda-nvrtc wheel), or set "
                               "use_bundled_headers=False and give include_path")

    def _nvrtc_flags(self, target_type=None) -> list:
        """The NVRTC arguments, in field order. For an 'ltoir' target LTO is implied; for 'ptx'
        and 'cubin' it is left out (with it NVRTC would make only LTO IR, and no PTX or cubin)."""
        flags = [] if self.arch is None else [f"-arch={self.arch}"]
        for field, writer, flag, _, _ in _OPTIONS:
            value = getattr(self, field)
            if value is not None:
                flags += writer(flag, value)
        if target_type == "ltoir" and _LTO_FLAG not in flags:
            flags.append(_LTO_FLAG)
        elif target_type in ("ptx", "cubin") and _LTO_FLAG in flags:
            flags.remove(_LTO_FLAG)
        return flags

    def _nvvm_flags(self, target_type=None) -> list:
        """The libNVVM arguments; CUDAError naming every set field that libNVVM has no option for."""
        unsupported = [field for field, writer, _, nvvm_writer, _ in _OPTIONS
                       if nvvm_writer is _UNSUPPORTED and _is_set(writer, getattr(self, field))]
        if unsupported:
            raise _plain_cuda_error("The following options are not supported by NVVM backend: "
                                    + ", ".join(unsupported))
        flags = []
        if self.arch is not None:
            arch = str(self.arch)
            flags.append("-arch=" + ("compute_" + arch[3:] if arch.startswith("sm_") else arch))
        for field, _, _, nvvm_writer, nvvm_flag in _OPTIONS:
            value = getattr(self, field)
            if value is not None and nvvm_writer is not None and nvvm_writer is not _UNSUPPORTED:
                flags += nvvm_writer(nvvm_flag, value)
        if target_type == "ltoir":
            flags.append("-gen-lto")
        _assert_single_dashed_nvvm_options(flags)
        return flags

    def _prepare_nvrtc_options(self) -> list:
        return [flag.encode() for flag in self._nvrtc_flags()]

    def _prepare_nvvm_options(self, as_bytes: bool = True) -> list:
        flags = self._nvvm_flags()
        return [flag.encode() for flag in flags] if as_bytes else flags

    def as_bytes(self, backend, target_type=None) -> list:
        """The options as ``backend``'s arguments ('nvrtc' or 'nvvm'), as bytes, e.g.
        ``[b'-arch=sm_90', b'--device-debug']``. With ``target_type`` they are the arguments
        Program.compile() passes for that target (for NVVM, 'ltoir' adds -gen-lto)."""
        key = str(backend).lower()
        target = None if target_type is None else str(target_type).lower()
        if key == "nvrtc":
            return [flag.encode() for flag in self._nvrtc_flags(target)]
        if key == "nvvm":
            return [flag.encode() for flag in self._nvvm_flags(target)]
        raise ValueError(f"Unknown backend '{backend}'. Must be one of: 'nvrtc', 'nvvm'")

    def _prepare_extra_sources_bytes(self) -> list | None:
        """extra_sources as (name, source) pairs of bytes, for libNVVM; None when there are none."""
        if self.extra_sources is None:
            return None
        return [(name.encode(), source.encode() if isinstance(source, str) else bytes(source))
                for name, source in self.extra_sources]

    def __repr__(self) -> str:
        fields = [("name", self.name), ("arch", self.arch)]
        fields += [(entry[0], getattr(self, entry[0])) for entry in _OPTIONS if getattr(self, entry[0]) is not None]
        for field in ("extra_sources", "use_libdevice"):
            if getattr(self, field) is not None:
                fields.append((field, getattr(self, field)))
        return "ProgramOptions(" + ", ".join(f"{field}={value!r}" for field, value in fields) + ")"


def _program_options(options) -> ProgramOptions:
    """ProgramOptions from None (the defaults), a dict of its fields, or itself."""
    if options is None:
        return ProgramOptions()
    if isinstance(options, ProgramOptions):
        return options
    if isinstance(options, dict):
        return ProgramOptions(**options)
    raise TypeError("Program options must be a ProgramOptions or a dict of ProgramOptions fields, got "
                    f"{options!r}")


# ---------------------------------------------------------------------------------------------
# NVVM.

_nvvm_module = None
_nvvm_import_attempted = False


def _nvvm_unavailable() -> RuntimeError:
    wheel = "nvidia-cuda-nvcc-cu12" if BUILD_MAJOR == 12 else "nvidia-nvvm"
    return RuntimeError("NVVM is not available: cuda.bindings.nvvm could not be imported or could not load "
                        f"libnvvm. Install libNVVM (pip install {wheel}, or a CUDA Toolkit found through CUDA_HOME) "
                        "with cuda-bindings 12.9 or newer")


def _get_nvvm_module():
    """cuda.bindings.nvvm with libnvvm loaded, imported once; RuntimeError saying what to install
    when it cannot be had."""
    global _nvvm_module, _nvvm_import_attempted
    if _nvvm_import_attempted:
        if _nvvm_module is None:
            raise _nvvm_unavailable()
        return _nvvm_module
    if binding_version() < (12, 9, 0):
        raise RuntimeError(f"NVVM needs cuda-bindings 12.9.0 or newer, found {binding_version()}: "
                           f'pip install -U "cuda-bindings=={BUILD_MAJOR}.*"')
    module = _optional_cuda_import("cuda.bindings.nvvm", probe_function=lambda nvvm: nvvm.version())
    _nvvm_import_attempted = True
    _nvvm_module = module
    if module is None:
        raise _nvvm_unavailable()
    return module


def _find_libdevice_path():
    """libdevice.10.bc (NVIDIA's math library as bitcode), found by cuda.pathfinder."""
    import cuda.pathfinder
    return cuda.pathfinder.find_bitcode_lib("device")


def _nvvm_log(nvvm, handle) -> str:
    size = nvvm.get_program_log_size(handle)
    if size <= 1:
        return ""
    buffer = bytearray(size)
    nvvm.get_program_log(handle, buffer)
    return buffer[:size - 1].decode(errors="replace")


# ---------------------------------------------------------------------------------------------
# NVRTC program helpers.

cdef list _name_list(object name_expressions):
    """The name expressions as distinct, non-empty str, in order."""
    if isinstance(name_expressions, (str, bytes)) or not isinstance(name_expressions, collections.abc.Iterable):
        raise TypeError("name_expressions must be a list or tuple of str, e.g. ['scale<float>'], "
                        f"got {type(name_expressions).__name__}")
    names = []
    for name in name_expressions:
        if isinstance(name, bytes):
            name = name.decode()
        if not isinstance(name, str) or not name:
            raise TypeError(f"each name expression must be a non-empty str, got {name!r}")
        if name not in names:
            names.append(name)
    return names


cdef str _program_log(cynvrtc.nvrtcProgram handle):
    """NVRTC's log of the last compile ('' when it said nothing)."""
    cdef size_t size = 0
    with nogil:
        HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetProgramLogSize(handle, &size))
    if size <= 1:  # the size counts the terminating NUL
        return ""
    cdef bytearray buffer = bytearray(size)
    cdef char* data = buffer
    with nogil:
        HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetProgramLog(handle, data))
    return buffer[:size - 1].decode(errors="replace")


cdef bytes _nvrtc_output(cynvrtc.nvrtcProgram handle, str target_type):
    """The compiled PTX (without its terminating NUL), cubin or LTO IR."""
    cdef int target = ("ptx", "cubin", "ltoir").index(target_type)  # no Python inside nogil
    cdef size_t size = 0
    with nogil:
        if target == 0:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetPTXSize(handle, &size))
        elif target == 1:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetCUBINSize(handle, &size))
        else:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetLTOIRSize(handle, &size))
    cdef bytearray buffer = bytearray(size)
    cdef char* data = buffer
    with nogil:
        if target == 0:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetPTX(handle, data))
        elif target == 1:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetCUBIN(handle, data))
        else:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetLTOIR(handle, data))
    return bytes(buffer).rstrip(b"\0") if target == 0 else bytes(buffer)


cdef bytes _lowered_name(cynvrtc.nvrtcProgram handle, str name):
    cdef bytes expression = name.encode()
    cdef const char* c_expression = expression
    cdef const char* lowered = NULL
    with nogil:
        HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetLoweredName(handle, c_expression, &lowered))
    return <bytes>lowered  # owned by the program: copied out now (bytes, as NVIDIA's symbol_mapping has it)


cdef object _pch_status_of(cynvrtc.nvrtcResult status):
    if status == cynvrtc.NVRTC_SUCCESS:
        return PCHStatusType.CREATED
    if status == cynvrtc.NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED:
        return PCHStatusType.NOT_ATTEMPTED
    return PCHStatusType.FAILED


_KERNEL_NAME = re.compile(r"__global__\s[^(;{}]*?(\w+)\s*\(")


def _caller_stem() -> str:
    """The file name (without .py) of the Python code that made the Program."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(0)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame = frame.f_back
    stem = Path(frame.f_code.co_filename).stem if frame is not None else ""
    stem = re.sub(r"[^\w-]", "", stem)
    return stem or "program"


# ---------------------------------------------------------------------------------------------
# PTX: linked to a cubin by cuda.core's Linker (nvJitLink, or the driver's cuLink*).

# The ProgramOptions a PTX program hands to the linker.
_LINKER_FIELDS = ("name", "arch", "max_register_count", "time", "link_time_optimization", "debug", "lineinfo",
                  "ftz", "prec_div", "prec_sqrt", "fma", "split_compile", "ptxas_options", "no_cache")


def _ptx_linker(bytes ptx, options):
    """(linker, backend) for a "ptx" Program: a Linker of the PTX alone, with the options that
    a linker takes, and the backend it links with."""
    from cuda.core._linker import Linker, LinkerOptions
    linker_options = LinkerOptions(**{field: getattr(options, field) for field in _LINKER_FIELDS})
    linker = Linker(ObjectCode.from_ptx(ptx, name=options.name), options=linker_options)
    return linker, Linker.which_backend()


# ---------------------------------------------------------------------------------------------
# Program.

_SUPPORTED_CODE_TYPES = ("c++", "ptx", "nvvm")
_TARGETS = {"NVRTC": ("ptx", "cubin", "ltoir"), "NVVM": ("ptx", "ltoir")}
_LINKER_TARGETS = ("cubin", "ptx")
# code type -> the Python types its code may have, and the error's wording.
_CODE_CLASSES = {
    "c++": (str, "CUDA C++ code must be a str"),
    "ptx": (str, "PTX code must be a str"),
    "nvvm": ((str, bytes, bytearray), "NVVM IR code must be provided as str, bytes, or bytearray"),
}


cdef class Program:
    """Device code and the compiler for it: ``Program(code, code_type, options).compile(target)``
    gives an ObjectCode. ``code_type`` is "c++" (CUDA C++, compiled by NVRTC), "ptx" (linked to
    a cubin) or "nvvm" (NVVM IR as text or bitcode, compiled by libNVVM). ``options`` is a
    ProgramOptions, a dict of its fields, or None for the defaults. ``close()`` (or dropping
    the Program) frees the compiler's program."""

    # Attributes: see _program.pxd.

    def __init__(self, code, code_type, options=None):
        if self._backend is not None:
            raise RuntimeError("this Program is made already: create a new one")
        if not isinstance(code_type, str):
            raise TypeError(f"code_type must be a str ('c++', 'ptx' or 'nvvm'), got {type(code_type).__name__}")
        kind = str(code_type).lower()
        if kind not in _SUPPORTED_CODE_TYPES:
            raise RuntimeError(f"Unsupported code_type='{kind}' (supported_code_types={_SUPPORTED_CODE_TYPES})")
        classes, what = _CODE_CLASSES[kind]
        if not isinstance(code, classes):
            raise TypeError(f"{what}, got {type(code).__name__}")
        options = _program_options(options)
        self._options = options
        self._code = code
        self._code_type = kind
        self._name = options.name
        self._added_names = []
        if kind == "c++":
            self._init_nvrtc(code, options)
        elif kind == "ptx":
            self._init_linker(code, options)
        else:
            self._init_nvvm(code, options)

    cdef int _init_nvrtc(self, code, options) except -1:
        if options.extra_sources is not None:
            raise ValueError("extra_sources is not supported by the NVRTC backend (C++ code_type): it adds NVVM IR "
                             "modules, for code_type='nvvm'; #include the other sources instead")
        _ensure_nvrtc()
        if (options.debug or options.lineinfo) and options.name == _DEFAULT_NAME:
            self._debug_source = self._try_materialize_nvrtc_debug_source(code)
            if self._debug_source is not None:
                self._name = self._debug_source
        cdef bytes source = code.encode()
        cdef bytes name = self._name.encode()
        cdef const char* c_source = source
        cdef const char* c_name = name
        cdef cynvrtc.nvrtcProgram handle = NULL
        try:
            with nogil:
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcCreateProgram(&handle, c_source, c_name, 0, NULL, NULL))
        except BaseException:
            self._cleanup_debug_source()
            raise
        self._nvrtc = handle
        self._backend = CompilerBackendType.NVRTC
        return 0

    cdef int _init_linker(self, code, options) except -1:
        if options.extra_sources is not None:
            raise ValueError("extra_sources is not supported by the PTX backend (it adds NVVM IR modules, for "
                             "code_type='nvvm')")
        if options.numba_debug:
            warnings.warn("numba_debug is ignored for code_type='ptx': the PTX is handled by a linker, and the "
                          "option exists only for the NVVM and NVRTC compilers", UserWarning)
        self._linker, self._backend = _ptx_linker(code.encode(), options)
        return 0

    cdef int _init_nvvm(self, code, options) except -1:
        nvvm = _get_nvvm_module()
        handle = nvvm.create_program()
        try:
            source = code.encode() if isinstance(code, str) else bytes(code)
            nvvm.add_module_to_program(handle, source, len(source), options.name)
            for name, extra in options._prepare_extra_sources_bytes() or ():
                nvvm.add_module_to_program(handle, extra, len(extra), name.decode())
            if options.use_libdevice:
                libdevice = Path(_find_libdevice_path()).read_bytes()
                nvvm.lazy_add_module_to_program(handle, libdevice, len(libdevice), "libdevice")
        except BaseException:
            nvvm.destroy_program(handle)
            raise
        self._nvvm_handle = handle
        self._backend = CompilerBackendType.NVVM
        return 0

    # -- the debug source: cuda-gdb shows the source of a file it can open ------------------

    def _try_materialize_nvrtc_debug_source(self, code: str) -> str | None:
        """Write ``code`` to a temporary ``{caller}_{kernel}_XXXXXXXX.cu`` and return its path,
        which then names the program, so that debug and line info point at a real file
        (caller: the Python file that made the Program; kernel: the first __global__
        function). None when the file cannot be written: the program keeps its name."""
        match = _KERNEL_NAME.search(code)
        prefix = f"{_caller_stem()}_{match.group(1) if match else 'kernel'}_"
        try:
            with tempfile.NamedTemporaryFile("w", prefix=prefix, suffix=".cu", delete=False,
                                             encoding="utf-8") as source:
                source.write(code)
        except OSError:
            return None
        return source.name

    def _unlink_debug_source(self, path: str) -> None:
        try:
            os.unlink(path)
        except OSError:
            pass

    def _cleanup_debug_source(self):
        path, self._debug_source = self._debug_source, None
        if path is not None:
            self._unlink_debug_source(path)

    # -- properties ----------------------------------------------------------------------

    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
        return self._closed

    @property
    def backend(self):
        """The compiler behind this program: CompilerBackendType.NVRTC ('NVRTC'), NVVM ('NVVM'),
        or for PTX the linker's NVJITLINK ('nvJitLink') or DRIVER ('driver')."""
        return self._backend

    @property
    def handle(self):
        """The backend's program: a cuda.bindings.nvrtc.nvrtcProgram (NVRTC), the libNVVM program
        as an int (NVVM), or the linker's handle (PTX). ``int(handle)`` is the address; 0 once closed."""
        if self._linker is not None:
            return self._linker.handle
        if self._backend == CompilerBackendType.NVVM:
            return 0 if self._nvvm_handle is None else self._nvvm_handle
        from cuda.bindings import nvrtc
        return nvrtc.nvrtcProgram(<size_t>self._nvrtc)

    @property
    def pch_status(self):
        """What became of the precompiled header of the last compile (PCHStatusType: 'created',
        'not_attempted', 'failed'); None when none was asked for (create_pch or pch), before
        the first compile, for the NVVM and PTX backends, and for NVRTC older than 12.8."""
        return self._pch_status

    # -- compile -------------------------------------------------------------------------

    def compile(self, target_type, name_expressions=(), logs=None, *, cache=None) -> ObjectCode:
        """Compile to ``target_type``: 'ptx', 'cubin' or 'ltoir' (NVRTC); 'ptx' or 'ltoir' (NVVM);
        'cubin' (PTX). ``name_expressions`` (NVRTC, e.g. 'scale<float>') are instantiated and
        their lowered names recorded in the ObjectCode's symbol_mapping, so that get_kernel()
        finds them; NVRTC takes new ones only before a program's first compile. ``logs.write()``
        gets the compiler's log when it has one. A failed compile raises NVRTCError (NVRTC,
        with the log), nvvmError (NVVM, with the log), or for PTX the Linker's nvJitLinkError
        or CUDAError (driver), with the linker's log.

        ``cache``, a cuda.core.utils.ProgramCacheResource, is asked first, by the key that
        cuda.core.utils.make_program_cache_key makes of the code, code type, options, target and
        compiler version. A hit returns a new ObjectCode of the cached bytes (named as the
        options say) and compiles nothing, so ``logs`` gets nothing; a miss compiles and stores
        the result. With ``cache=``, name_expressions must be empty (ValueError: the cache does
        not keep symbol_mapping), and options that read files the key cannot see (include_path,
        pre_include, the PCH options, a name with a directory; use_libdevice for NVVM) or that
        write files (create_pch, time, fdevice_time_trace) raise ValueError: for the former, make
        the key yourself with an extra_digest. ``cache=`` and ProgramOptions.no_cache (the
        linker's own cache) are independent."""
        if self._closed:
            raise RuntimeError("Program has been closed")
        target = self._target(target_type)
        if cache is None:
            return _program_compile_uncached(self, target, name_expressions, logs)
        return self._compile_cached(target, name_expressions, logs, cache)

    cdef str _target(self, target_type):
        target = str(target_type).lower()
        supported = _LINKER_TARGETS if self._linker is not None else _TARGETS[str(self._backend)]
        if target not in supported:
            raise ValueError(f'Unsupported target_type="{target}" for {self._backend} (supported: '
                             f'{", ".join(supported)})')
        if target == "cubin" and self._linker is None and str(self._options.arch).startswith("compute_"):
            raise ValueError(f"a cubin needs a real architecture, not {self._options.arch!r}: use "
                             f"arch='sm_{str(self._options.arch)[8:]}', or compile to 'ptx'")
        return target

    cdef object _compile_cached(self, str target, name_expressions, logs, cache):
        """Look ``cache`` up by the key of this compile; on a miss compile and store the result.
        Everything is checked before the cache is touched."""
        # Imported here, not with this module: the cache (and cuda.core.utils) loads only for
        # programs compiled with one, and the cache's key module imports this module.
        from cuda.core.utils._program_cache import ProgramCacheResource, make_program_cache_key
        if not isinstance(cache, ProgramCacheResource):
            raise TypeError(f"cache must be a cuda.core.utils.ProgramCacheResource (InMemoryProgramCache, "
                            f"FileStreamProgramCache or a subclass of your own), got {type(cache).__name__}")
        if len(name_expressions) > 0:
            raise ValueError("name_expressions cannot be combined with cache=: the cache keeps only the compiled "
                             "bytes, not the symbol_mapping that get_kernel() needs for them. Compile without "
                             "cache=, or look the lowered names up yourself")
        key = make_program_cache_key(code=self._code, code_type=self._code_type, options=self._options,
                                     target_type=target)
        data = cache.get(key)
        if data is not None:
            # A hit compiles nothing, so logs gets nothing; the PTX warning is about this driver,
            # not about the compile, and is given as for a fresh compile.
            if self._backend == CompilerBackendType.NVRTC and target == "ptx":
                _warn_if_ptx_unloadable()
            return getattr(ObjectCode, f"from_{target}")(bytes(data), name=self._options.name)
        result = _program_compile_uncached(self, target, name_expressions, logs)
        cache[key] = result
        return result

    def _compile_uncached(self, target_type, name_expressions, logs):
        if self._closed:
            raise RuntimeError("Program has been closed")
        if self._linker is not None:
            return self._link(target_type, logs)
        if self._backend == CompilerBackendType.NVVM:
            return self._compile_nvvm(target_type, logs)
        return self._compile_nvrtc(target_type, name_expressions, logs)

    cdef object _compile_nvrtc(self, str target, name_expressions, logs):
        names = _name_list(name_expressions)
        self._add_names(names)
        self._run_nvrtc(self._options._nvrtc_flags(target), logs)
        code = _nvrtc_output(self._nvrtc, target)
        mapping = {name: _lowered_name(self._nvrtc, name) for name in names}
        if target == "ptx":
            _warn_if_ptx_unloadable()
        return getattr(ObjectCode, f"from_{target}")(code, name=self._name, symbol_mapping=mapping)

    cdef int _add_names(self, list names) except -1:
        new = [name for name in names if name not in self._added_names]
        if new and self._compiled:
            raise _nvrtc_error(cynvrtc.NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION,
                               f"name expressions {new} come too late: NVRTC takes them only before a program's "
                               "first compile (the ones given then may be given again); use a new Program")
        cdef bytes expression
        cdef const char* c_expression
        for name in new:
            expression = name.encode()
            c_expression = expression
            with nogil:
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcAddNameExpression(self._nvrtc, c_expression))
            self._added_names.append(name)
        return 0

    cdef int _run_nvrtc(self, list flags, logs) except -1:
        """nvrtcCompileProgram with ``flags``; the log goes to ``logs`` and, on failure, into the
        NVRTCError. A requested PCH that ran out of heap is retried once with the heap NVRTC asks for."""
        options = self._options
        pch_requested = bool(options.pch) or options.create_pch is not None
        pch_known = pch_requested and _nvrtc_version() >= (12, 8)
        cdef cynvrtc.nvrtcResult result
        cdef cynvrtc.nvrtcResult status = cynvrtc.NVRTC_SUCCESS
        cdef size_t required = 0
        for attempt in range(2):
            result = self._compile_once(flags)
            log = _program_log(self._nvrtc)
            if log and logs is not None:
                logs.write(log)
            if result != cynvrtc.NVRTC_SUCCESS:
                raise _nvrtc_error(result, f"compiling program {options.name!r} for {options.arch} failed; "
                                           "compilation log:", log)
            self._compiled = True
            if not pch_known:
                break
            status = cynvrtc.nvrtcGetPCHCreateStatus(self._nvrtc)
            if status != cynvrtc.NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED or attempt == 1:
                break
            with nogil:
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetPCHHeapSizeRequired(self._nvrtc, &required))
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcSetPCHHeapSize(required))
        self._pch_status = _pch_status_of(status) if pch_known else None
        return 0

    cdef cynvrtc.nvrtcResult _compile_once(self, list flags) except? cynvrtc.NVRTC_ERROR_INTERNAL_ERROR:
        cdef int count = len(flags)
        cdef list encoded = [flag.encode() for flag in flags]  # keeps each string alive
        cdef const char** argv = <const char**>malloc((count + 1) * sizeof(const char*))
        cdef cynvrtc.nvrtcResult result
        if argv == NULL:
            raise MemoryError()
        try:
            for index in range(count):
                argv[index] = <bytes>encoded[index]
            with nogil:
                result = cynvrtc.nvrtcCompileProgram(self._nvrtc, count, argv)
        finally:
            free(argv)
        return result

    cdef object _compile_nvvm(self, str target, logs):
        nvvm = _get_nvvm_module()
        flags = self._options._nvvm_flags(target)
        handle = self._nvvm_handle
        try:
            nvvm.verify_program(handle, len(flags), flags)
            nvvm.compile_program(handle, len(flags), flags)
        except nvvm.nvvmError as error:
            log = _nvvm_log(nvvm, handle)
            if log:
                if logs is not None:
                    logs.write(log)
                error.args = (f"{error.args[0]}\nNVVM program log: {log}",)
            raise
        log = _nvvm_log(nvvm, handle)
        if log and logs is not None:
            logs.write(log)
        size = nvvm.get_compiled_result_size(handle)
        buffer = bytearray(size)
        nvvm.get_compiled_result(handle, buffer)
        code = bytes(buffer).rstrip(b"\0") if target == "ptx" else bytes(buffer)
        return getattr(ObjectCode, f"from_{target}")(code, name=self._options.name)

    cdef object _link(self, str target, logs):
        result = self._linker.link(target)
        if logs is not None:
            log = self._linker.get_info_log()
            if log:
                logs.write(log)
        return result

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Free the backend's program (and remove the temporary debug source); a second close
        does nothing."""
        self._closed = True
        cdef cynvrtc.nvrtcProgram handle = self._nvrtc
        self._nvrtc = NULL
        try:
            if handle != NULL:
                with nogil:
                    HANDLE_RETURN_NVRTC(cynvrtc.nvrtcDestroyProgram(&handle))
            if self._nvvm_handle is not None:
                nvvm_handle, self._nvvm_handle = self._nvvm_handle, None
                _get_nvvm_module().destroy_program(nvvm_handle)
            if self._linker is not None:
                self._linker.close()
        finally:
            self._cleanup_debug_source()

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the libraries may be unloaded already.
        cdef cynvrtc.nvrtcProgram handle = self._nvrtc
        self._nvrtc = NULL
        if handle != NULL:
            cynvrtc.nvrtcDestroyProgram(&handle)
        try:
            if self._nvvm_handle is not None and _nvvm_module is not None:
                _nvvm_module.destroy_program(self._nvvm_handle)
            if self._debug_source is not None:
                os.unlink(self._debug_source)
        except Exception:
            pass

    def __repr__(self) -> str:
        # Exactly NVIDIA's form (tests match it whole); is_closed and the name are properties.
        return f"<Program backend='{self._backend}'>"


def _program_compile_uncached(program, target_type, name_expressions, logs):
    """Compile ``program`` without a cache. A module-level function, not a method, so that
    NVIDIA's tests can replace it to test Program.compile(cache=...) without a compiler."""
    return program._compile_uncached(target_type, name_expressions, logs)
