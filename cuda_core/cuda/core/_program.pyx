"""cuda.core Program and ProgramOptions: CUDA C++ compiled by NVRTC to PTX, cubin or LTO IR.

libnvrtc is loaded by cuda-bindings on the first NVRTC call, so compiling needs no
driver and no GPU, only a target architecture (ProgramOptions.arch).
"""

import os
import re
from dataclasses import dataclass, replace

from libc.stdlib cimport free, malloc

cimport cuda.bindings.cynvrtc as cynvrtc
from cuda.core._utils.cuda_utils cimport ensure_driver
from cuda.core._module import ObjectCode
from cuda.core._utils.cuda_utils import BUILD_MAJOR, DriverNotFoundError, NVRTCError

__all__ = ['Program', 'ProgramOptions']

_ARCH = re.compile(r"(sm|compute)_\d+[af]?")
_STD = re.compile(r"c\+\+\d\d")
_TARGETS = ("ptx", "cubin", "ltoir")

# Options given as True/False and passed as --flag=true|false.
_VALUED_SWITCHES = {
    "relocatable_device_code": "--relocatable-device-code",
    "ftz": "--ftz",
    "prec_sqrt": "--prec-sqrt",
    "prec_div": "--prec-div",
    "fma": "--fmad",
}
# Options passed as a bare flag when True (False and None both leave them out).
_FLAGS = {
    "extensible_whole_program": "--extensible-whole-program",
    "debug": "--device-debug",
    "lineinfo": "--generate-line-info",
    "use_fast_math": "--use_fast_math",
    "extra_device_vectorization": "--extra-device-vectorization",
    "link_time_optimization": "--dlink-time-opt",
    "disable_warnings": "--disable-warnings",
}
# Options holding one string (a path for the path ones) or a list of them: --flag=value each.
_STRING_LISTS = {
    "undefine_macro": "--undefine-macro",
    "include_path": "--include-path",
    "pre_include": "--pre-include",
    "ptxas_options": "--ptxas-options",
}
_PATH_OPTIONS = ("include_path", "pre_include")
# Options holding one diagnostic number or a list of them: --flag=number each.
_INT_LISTS = {
    "diag_error": "--diag-error",
    "diag_suppress": "--diag-suppress",
    "diag_warn": "--diag-warn",
}


def _items(value, field: str, kinds: tuple, what: str) -> list:
    """None -> []; one value or a list/tuple of them -> a list, each checked against ``kinds``."""
    if value is None:
        return []
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    for item in items:
        if not isinstance(item, kinds) or isinstance(item, bool) or item == "":
            raise TypeError(f"ProgramOptions.{field} must be {what} or a list of them, got {value!r}")
    return items


def _is_macro_pair(item) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and all(isinstance(part, str) for part in item) and item[0] != ""


def _macros(value) -> list:
    """define_macro as NAME or NAME=VALUE strings; a tuple of two strings is one (name, value) pair."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) or _is_macro_pair(value) else value
    if not isinstance(items, (list, tuple)) or not all((isinstance(item, str) and item) or _is_macro_pair(item)
                                                       for item in items):
        raise TypeError("ProgramOptions.define_macro must be a name, a (name, value) tuple of str, or a list of "
                        f"those, got {value!r}")
    return [item if isinstance(item, str) else f"{item[0]}={item[1]}" for item in items]


@dataclass
class ProgramOptions:
    """How NVRTC compiles a Program. ``arch`` is the target ('sm_90' for a cubin, or
    'compute_90' for PTX only); None means the current device's. Every other option left
    at None is not passed, so NVRTC's default holds. ``define_macro`` takes 'NAME',
    ('NAME', 'VALUE') or a list of those; the list options take one value or a list."""

    name: str = "default_program"
    arch: str | None = None
    relocatable_device_code: bool | None = None
    extensible_whole_program: bool | None = None
    debug: bool | None = None
    lineinfo: bool | None = None
    device_code_optimize: bool | None = None
    ptxas_options: str | list | tuple | None = None
    max_register_count: int | None = None
    ftz: bool | None = None
    prec_sqrt: bool | None = None
    prec_div: bool | None = None
    fma: bool | None = None
    use_fast_math: bool | None = None
    extra_device_vectorization: bool | None = None
    link_time_optimization: bool | None = None
    define_macro: str | tuple | list | None = None
    undefine_macro: str | list | tuple | None = None
    include_path: str | os.PathLike | list | tuple | None = None
    pre_include: str | os.PathLike | list | tuple | None = None
    std: str | None = None
    disable_warnings: bool | None = None
    diag_error: int | list | tuple | None = None
    diag_suppress: int | list | tuple | None = None
    diag_warn: int | list | tuple | None = None

    def __post_init__(self) -> None:
        """Check every option once, here, so that a bad one fails where it was written."""
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"ProgramOptions.name must be a non-empty str, got {self.name!r}")
        if self.arch is not None:
            if not isinstance(self.arch, str):
                raise TypeError(f"ProgramOptions.arch must be a str such as 'sm_90', got {self.arch!r}")
            if not _ARCH.fullmatch(self.arch):
                raise ValueError(f"ProgramOptions.arch must be spelled like 'sm_90' or 'compute_90', got {self.arch!r}")
        if self.std is not None and (not isinstance(self.std, str) or not _STD.fullmatch(self.std)):
            raise ValueError(f"ProgramOptions.std must be spelled like 'c++17', got {self.std!r}")
        for field in (*_VALUED_SWITCHES, *_FLAGS, "device_code_optimize"):
            value = getattr(self, field)
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"ProgramOptions.{field} must be True, False or None, got {value!r}")
        count = self.max_register_count
        if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count <= 0):
            raise ValueError(f"ProgramOptions.max_register_count must be a positive int, got {count!r}")
        _macros(self.define_macro)
        for field in _STRING_LISTS:
            self._strings(field)
        for field in _INT_LISTS:
            _items(getattr(self, field), field, (int,), "a diagnostic number (int)")

    def _strings(self, field: str) -> list:
        if field in _PATH_OPTIONS:
            return [os.fspath(item) for item in _items(getattr(self, field), field, (str, os.PathLike), "a path")]
        return _items(getattr(self, field), field, (str,), "a str")

    def _nvrtc_flags(self) -> list:
        flags = []
        if self.arch is not None:
            flags.append(f"--gpu-architecture={self.arch}")
        if self.std is not None:
            flags.append(f"--std={self.std}")
        for field, flag in _VALUED_SWITCHES.items():
            value = getattr(self, field)
            if value is not None:
                flags.append(f"{flag}={'true' if value else 'false'}")
        flags += [flag for field, flag in _FLAGS.items() if getattr(self, field)]
        if self.device_code_optimize is not None:
            flags.append(f"--dopt={'on' if self.device_code_optimize else 'off'}")
        if self.max_register_count is not None:
            flags.append(f"--maxrregcount={self.max_register_count}")
        flags += [f"--define-macro={macro}" for macro in _macros(self.define_macro)]
        for field, flag in _STRING_LISTS.items():
            flags += [f"{flag}={value}" for value in self._strings(field)]
        for field, flag in _INT_LISTS.items():
            flags += [f"{flag}={number}" for number in _items(getattr(self, field), field, (int,), "an int")]
        return flags

    def as_bytes(self, backend: str = "nvrtc") -> list:
        """The options as NVRTC command-line flags, e.g. [b'--gpu-architecture=sm_90', b'--std=c++17'].
        An ``arch`` of None is left out here; Program.compile() puts in the current device's."""
        if backend.lower() != "nvrtc":
            raise ValueError(f"ProgramOptions.as_bytes() knows only the 'nvrtc' backend, got {backend!r}")
        return [flag.encode() for flag in self._nvrtc_flags()]


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
    return NVRTCError(code, name, description, log)


cdef int HANDLE_RETURN_NVRTC(cynvrtc.nvrtcResult result) except -1 nogil:
    """Raise NVRTCError for a failed nvrtcResult; return 0 on success."""
    if result == cynvrtc.NVRTC_SUCCESS:
        return 0
    with gil:
        raise _nvrtc_error(result)


cdef bint _nvrtc_ready = False


cdef int _ensure_nvrtc() except -1:
    """Load libnvrtc once, turning cuda-bindings' loader failure into one clear error."""
    global _nvrtc_ready
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
    _nvrtc_ready = True
    return 0


def _current_arch() -> str:
    """'sm_XY' of the current device, for a ProgramOptions.arch of None."""
    try:
        ensure_driver()
    except DriverNotFoundError as err:
        raise DriverNotFoundError("ProgramOptions.arch is None, which means the current device's architecture, "
                                  "but no CUDA driver was found: give the target, e.g. ProgramOptions(arch='sm_90')"
                                  ) from err
    from cuda.core._device import Device
    return "sm_" + Device().arch


cdef list _name_list(object name_expressions):
    """The name expressions as distinct, non-empty str, in order."""
    if not isinstance(name_expressions, (list, tuple)):
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


cdef bytes _output(cynvrtc.nvrtcProgram handle, str target_type):
    """The compiled PTX (without its terminating NUL), cubin or LTO IR."""
    cdef int target = _TARGETS.index(target_type)  # 0 ptx, 1 cubin, 2 ltoir: no Python inside nogil
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


cdef str _lowered_name(cynvrtc.nvrtcProgram handle, str name):
    cdef bytes expression = name.encode()
    cdef const char* c_expression = expression
    cdef const char* lowered = NULL
    with nogil:
        HANDLE_RETURN_NVRTC(cynvrtc.nvrtcGetLoweredName(handle, c_expression, &lowered))
    return lowered.decode()  # owned by the program: copied out now


cdef class Program:
    """CUDA C++ source compiled by NVRTC: ``Program(code, "c++", options).compile("cubin")``
    gives an ObjectCode. ``close()`` (or dropping the Program) destroys the NVRTC program."""

    cdef cynvrtc.nvrtcProgram _handle
    cdef object _options
    cdef list _added_names  # name expressions NVRTC was given so far
    cdef bint _compiled

    def __init__(self, code: str, code_type: str = "c++", options: ProgramOptions | None = None):
        if self._handle != NULL:
            raise RuntimeError("this Program is made already: create a new one")
        # Cython checks the annotated types (code and code_type must be str).
        if code_type.lower() != "c++":
            raise NotImplementedError(f"code_type {code_type!r} is not supported: this cuda.core compiles "
                                      "only 'c++' (with NVRTC)")
        options = ProgramOptions() if options is None else options
        if not isinstance(options, ProgramOptions):
            raise TypeError(f"options must be a ProgramOptions or None, got {type(options).__name__}")
        _ensure_nvrtc()
        cdef bytes source = code.encode()
        cdef bytes name = options.name.encode()
        cdef const char* c_source = source
        cdef const char* c_name = name
        cdef cynvrtc.nvrtcProgram handle = NULL
        with nogil:
            HANDLE_RETURN_NVRTC(cynvrtc.nvrtcCreateProgram(&handle, c_source, c_name, 0, NULL, NULL))
        self._handle = handle
        self._options = options
        self._added_names = []

    cdef cynvrtc.nvrtcProgram _live_handle(self) except NULL:
        if self._handle == NULL:
            raise RuntimeError("this Program is closed")
        return self._handle

    @property
    def backend(self) -> str:
        """The compiler behind this program: 'NVRTC'."""
        return "NVRTC"

    @property
    def handle(self):
        """The nvrtcProgram of cuda.bindings.nvrtc."""
        from cuda.bindings import nvrtc
        return nvrtc.nvrtcProgram(<size_t>self._live_handle())

    def compile(self, target_type: str, name_expressions: tuple | list = (), logs=None) -> ObjectCode:
        """Compile to ``target_type`` ('ptx', 'cubin' or 'ltoir'). ``name_expressions``
        (e.g. 'scale<float>') are instantiated and their lowered names recorded, so that
        ``get_kernel()`` finds them. ``logs.write()`` gets NVRTC's log when it has one; a
        failed compile raises NVRTCError carrying the log."""
        cdef cynvrtc.nvrtcProgram handle = self._live_handle()
        if target_type not in _TARGETS:
            raise ValueError(f"target_type must be 'ptx', 'cubin' or 'ltoir', got {target_type!r}")
        options = self._options
        if options.arch is None:
            options = replace(options, arch=_current_arch())
        if target_type == "cubin" and options.arch.startswith("compute_"):
            raise ValueError(f"a cubin needs a real architecture, not {options.arch!r}: use "
                             f"arch='sm_{options.arch[8:]}', or compile to 'ptx'")
        if target_type == "ltoir" and not options.link_time_optimization:
            options = replace(options, link_time_optimization=True)
        names = _name_list(name_expressions)
        self._add_names(handle, names)
        self._run_compiler(handle, options, logs)
        code = _output(handle, target_type)
        mapping = {name: _lowered_name(handle, name) for name in names}
        return getattr(ObjectCode, f"from_{target_type}")(code, name=options.name, symbol_mapping=mapping)

    cdef int _add_names(self, cynvrtc.nvrtcProgram handle, list names) except -1:
        new = [name for name in names if name not in self._added_names]
        if new and self._compiled:
            raise ValueError(f"name expressions {new} come too late: NVRTC takes them only before a program's "
                             "first compile; give them to a new Program")
        cdef bytes expression
        cdef const char* c_expression
        for name in new:
            expression = name.encode()
            c_expression = expression
            with nogil:
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcAddNameExpression(handle, c_expression))
            self._added_names.append(name)
        return 0

    cdef int _run_compiler(self, cynvrtc.nvrtcProgram handle, object options, object logs) except -1:
        """nvrtcCompileProgram with the options' flags; its log goes to ``logs`` and, on failure,
        into the NVRTCError raised."""
        cdef list flags = options.as_bytes()
        cdef int count = len(flags)
        cdef const char** argv = <const char**>malloc((count + 1) * sizeof(const char*))
        cdef cynvrtc.nvrtcResult result
        if argv == NULL:
            raise MemoryError()
        try:
            for index in range(count):
                argv[index] = <bytes>flags[index]  # ``flags`` keeps each string alive
            with nogil:
                result = cynvrtc.nvrtcCompileProgram(handle, count, argv)
        finally:
            free(argv)
        log = _program_log(handle)
        if log and logs is not None:
            logs.write(log)
        if result != cynvrtc.NVRTC_SUCCESS:
            raise _nvrtc_error(result, f"compiling program {options.name!r} for {options.arch} failed; "
                                       "NVRTC's log:", log)
        self._compiled = True
        return 0

    def close(self) -> None:
        """Destroy the NVRTC program; a second close does nothing."""
        cdef cynvrtc.nvrtcProgram handle = self._handle
        self._handle = NULL
        if handle != NULL:
            with nogil:
                HANDLE_RETURN_NVRTC(cynvrtc.nvrtcDestroyProgram(&handle))

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit NVRTC may be unloaded already.
        cdef cynvrtc.nvrtcProgram handle = self._handle
        self._handle = NULL
        if handle != NULL:
            cynvrtc.nvrtcDestroyProgram(&handle)

    def __repr__(self) -> str:
        name = self._options.name if self._options is not None else "?"
        return f"<Program {name!r} ({'closed' if self._handle == NULL else 'NVRTC'})>"
