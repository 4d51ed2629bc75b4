# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Error checking and small shared helpers of cuda.core.

Every CUresult of the package goes through ``HANDLE_RETURN`` (C level, usable without the
GIL) and becomes a ``CUDAError`` whose message is ``"<enum name>: <explanation>"``. The
Python-level checks (``handle_return``, ``_check_driver_error``, ``_check_runtime_error``,
``_check_nvrtc_error``) do the same for the result tuples of cuda.bindings' Python API.

``driver``, ``runtime`` and ``nvrtc`` (cuda.bindings' Python modules) and the explanation
tables are attributes of this module, loaded on first use: importing cuda.core does not pay
for them.
"""

import functools
import importlib
import sys
import warnings
from typing import Any, Callable, NamedTuple

cimport cuda.bindings.cydriver as cydriver

# The major this module was compiled for: that of the cuda.h it was compiled against, so the
# package can check it against its build info.
BUILD_MAJOR = cydriver.CUDA_VERSION // 1000

# Whether check_multiprocessing_start_method() has already spoken in this process.
_fork_warning_checked = False

# Module attribute -> (module to import, attribute of it or None for the module itself).
_LAZY_ATTRIBUTES = {
    "driver": ("cuda.bindings.driver", None),
    "runtime": ("cuda.bindings.runtime", None),
    "nvrtc": ("cuda.bindings.nvrtc", None),
    "DRIVER_CU_RESULT_EXPLANATIONS": ("cuda.core._utils.driver_cu_result_explanations",
                                      "DRIVER_CU_RESULT_EXPLANATIONS"),
    "RUNTIME_CUDA_ERROR_EXPLANATIONS": ("cuda.core._utils.runtime_cuda_error_explanations",
                                        "RUNTIME_CUDA_ERROR_EXPLANATIONS"),
}


def __getattr__(name: str) -> Any:
    # PEP 562: cuda.bindings' Python modules and the explanation tables, imported on first use.
    try:
        module_name, attribute = _LAZY_ATTRIBUTES[name]
    except KeyError:
        raise AttributeError(f"module 'cuda.core._utils.cuda_utils' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_ATTRIBUTES))


# ----------------------------------------------------------------------------------------
# Exceptions


def _parse_error_args(args: tuple, int n_optional) -> tuple | None:
    # (code, name, description[, extra...]) as cuda.core's checks raise them, else None.
    if 3 <= len(args) <= 3 + n_optional and isinstance(args[0], int) and isinstance(args[1], str) \
            and isinstance(args[2], str):
        return args
    return None


class CUDAError(Exception):
    """A CUDA call failed.

    ``str(error)`` is ``"<enum name>: <explanation>"``. Raised by cuda.core itself, it also
    carries ``code`` (the CUresult / cudaError_t value), ``name`` (its enum name) and
    ``description``; ``CUDAError("message")`` works as for any exception (those are then None).
    """

    def __init__(self, *args: Any) -> None:
        parsed = _parse_error_args(args, 0)
        if parsed is None:
            super().__init__(*args)
            self.code = self.name = self.description = None
            return
        code, name, description = parsed
        super().__init__(f"{name}: {description}")
        self.code = code
        self.name = name
        self.description = description


class NVRTCError(CUDAError):
    """An NVRTC call failed. Raised by cuda.core it carries ``code`` (the nvrtcResult),
    ``name``, ``description`` and ``log``: the program's compile log, part of the message
    when the failure was a compilation."""

    def __init__(self, *args: Any) -> None:
        parsed = _parse_error_args(args, 1)
        if parsed is None:
            super().__init__(*args)
            self.log = ""
            return
        code, name, description = parsed[:3]
        log = parsed[3] if len(parsed) == 4 else ""
        super().__init__(code, name, description)
        self.log = log
        # nvrtcGetErrorString mostly repeats the enum name: say it once.
        message = name if description in ("", name) else f"{name}: {description}"
        self.args = (f"{message}\n{log}" if log else message,)


class DriverNotFoundError(RuntimeError):
    """No CUDA driver (libcuda) could be loaded on this machine."""


# ----------------------------------------------------------------------------------------
# CUresult -> CUDAError, at C level


cdef object _driver_enum_name(int code):
    # The enum of cuda.bindings.driver names every CUresult without needing the driver.
    from cuda.bindings import driver
    try:
        return driver.CUresult(code).name
    except ValueError:
        return None


cdef str _driver_error_string(cydriver.CUresult result):
    cdef const char* text = NULL
    try:
        if cydriver.cuGetErrorString(result, &text) == cydriver.CUDA_SUCCESS and text != NULL:
            return text.decode()
    except Exception:
        # No driver loaded: the caller falls back to other text.
        pass
    return None


def error_for_result(int code) -> CUDAError:
    """The CUDAError for a CUresult code: its enum name and the best explanation at hand
    (the documented meaning of the code, else the driver's error string)."""
    name = _driver_enum_name(code)
    if name is None:
        return CUDAError(code, f"CUresult({code})",
                         "UNEXPECTED ERROR CODE: not a CUresult known to this cuda-bindings")
    explanation = None
    try:
        from cuda.core._utils.driver_cu_result_explanations import DRIVER_CU_RESULT_EXPLANATIONS
        explanation = DRIVER_CU_RESULT_EXPLANATIONS.get(code)
    except ImportError:
        pass
    if not explanation:
        explanation = _driver_error_string(<cydriver.CUresult>code) or "no description available"
    return CUDAError(code, name, explanation)


cdef int HANDLE_RETURN(cydriver.CUresult result) except -1 nogil:
    if result == cydriver.CUDA_SUCCESS:
        return 0
    with gil:
        raise error_for_result(<int>result)


def check(int code) -> None:
    """Raise the CUDAError for CUresult ``code`` unless it is CUDA_SUCCESS."""
    HANDLE_RETURN(<cydriver.CUresult>code)


# ----------------------------------------------------------------------------------------
# Result codes of cuda.bindings' Python API


def _check_driver_error(error) -> int:
    """0 for CUDA_SUCCESS, else raise the CUDAError of this CUresult."""
    HANDLE_RETURN(<cydriver.CUresult><int>error)
    return 0


def _check_runtime_error(error) -> int:
    """0 for cudaSuccess, else raise the CUDAError of this cudaError_t."""
    cdef int code = int(error)
    if code == 0:
        return 0
    from cuda.bindings import runtime
    try:
        name = runtime.cudaError_t(code).name
    except ValueError:
        raise CUDAError(code, f"cudaError_t({code})",
                        "UNEXPECTED ERROR CODE: not a cudaError_t known to this cuda-bindings") from None
    from cuda.core._utils.runtime_cuda_error_explanations import RUNTIME_CUDA_ERROR_EXPLANATIONS
    explanation = RUNTIME_CUDA_ERROR_EXPLANATIONS.get(code)
    if not explanation:
        status, text = runtime.cudaGetErrorString(runtime.cudaError_t(code))
        explanation = text.decode() if status == runtime.cudaError_t.cudaSuccess else "no description available"
    raise CUDAError(code, name, explanation)


def _nvrtc_program_log(handle) -> str:
    from cuda.bindings import nvrtc
    status, size = nvrtc.nvrtcGetProgramLogSize(handle)
    if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        return ""
    log = b" " * size
    (status,) = nvrtc.nvrtcGetProgramLog(handle, log)
    if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        return ""
    return log.rstrip(b"\0").decode(errors="replace")


def _check_nvrtc_error(error, handle=None) -> int:
    """0 for NVRTC_SUCCESS, else raise the NVRTCError of this nvrtcResult; with the
    program ``handle``, its compilation log is part of the message."""
    cdef int code = int(error)
    if code == 0:
        return 0
    from cuda.bindings import nvrtc
    try:
        member = nvrtc.nvrtcResult(code)
    except ValueError:
        raise NVRTCError(code, f"nvrtcResult({code})",
                         "UNEXPECTED ERROR CODE: not an nvrtcResult known to this cuda-bindings") from None
    description = ""
    try:
        status, text = nvrtc.nvrtcGetErrorString(member)
        if status == nvrtc.nvrtcResult.NVRTC_SUCCESS:
            description = text.decode()
    except Exception:
        # NVRTC itself could not be loaded: the enum name is all there is.
        pass
    log = _nvrtc_program_log(handle) if handle is not None else ""
    error = NVRTCError(code, member.name, description, log)
    if log:
        summary = member.name if description in ("", member.name) else f"{member.name}: {description}"
        error.args = (f"{summary}, compilation log:\n\n{log}",)
    raise error


cdef str _error_kind(object error):
    # The class of an error code tells its API; an instance of runtime's or nvrtc's enum
    # means that module is imported already, so only loaded modules are asked.
    for kind, module_name, enum_name in (("driver", "cuda.bindings.driver", "CUresult"),
                                         ("runtime", "cuda.bindings.runtime", "cudaError_t"),
                                         ("nvrtc", "cuda.bindings.nvrtc", "nvrtcResult")):
        module = sys.modules.get(module_name)
        if module is not None and isinstance(error, getattr(module, enum_name)):
            return kind
    return None


def handle_return(result: tuple[Any, ...], handle: object | None = None) -> Any:
    """Check the status of a cuda.bindings call's result tuple and return its value.

    ``result[0]`` is the CUresult, cudaError_t or nvrtcResult; a failure raises CUDAError
    (NVRTCError for NVRTC, with the compilation log of program ``handle`` when given).
    Returns None for a status alone, ``result[1]`` for one value, else the tuple of values.
    """
    error = result[0]
    kind = _error_kind(error)
    if kind == "driver":
        _check_driver_error(error)
    elif kind == "runtime":
        _check_runtime_error(error)
    elif kind == "nvrtc":
        _check_nvrtc_error(error, handle=handle)
    else:
        raise RuntimeError(f"Unknown error type: {error!r} is not a CUresult, cudaError_t or nvrtcResult")
    if len(result) == 1:
        return None
    if len(result) == 2:
        return result[1]
    return result[1:]


# ----------------------------------------------------------------------------------------
# The driver, once per process


cdef bint _driver_ready = False


cdef int ensure_driver() except -1:
    global _driver_ready
    if _driver_ready:
        return 0
    cdef cydriver.CUresult result
    try:
        result = cydriver.cuInit(0)
    except CUDAError:
        raise
    except Exception as err:
        # cuda-bindings loads libcuda on first use and raises when it cannot.
        raise DriverNotFoundError(f"no CUDA driver found ({err})") from err
    HANDLE_RETURN(result)
    _driver_ready = True
    return 0


def init_driver() -> None:
    """Load and initialise the CUDA driver, once per process."""
    ensure_driver()


cdef int device_count() except -1:
    cdef int count = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetCount(&count))
    return count


cdef int current_device() except -2:
    cdef cydriver.CUcontext context = NULL
    cdef cydriver.CUdevice device = -1
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        if context != NULL:
            HANDLE_RETURN(cydriver.cuCtxGetDevice(&device))
    return device


# ----------------------------------------------------------------------------------------
# Small shared helpers


ComputeCapability = NamedTuple("ComputeCapability", [("major", int), ("minor", int)])
ComputeCapability.__doc__ = "A device's compute capability as a named tuple (major, minor), e.g. (9, 0)."
ComputeCapability.__module__ = __name__


class Transaction:
    """Undo actions for a multi-step operation, run (newest first) unless it commits.

    ::

        with Transaction() as txn:
            handle = create()
            txn.append(destroy, handle)
            configure(handle)    # raises -> destroy(handle) runs
            txn.commit()         # success: nothing is undone
    """

    def __init__(self) -> None:
        self._undo = []

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        undo, self._undo = self._undo, []
        while undo:
            undo.pop()()
        return False

    def append(self, fn: Callable[..., Any], /, *args: Any, **kwargs) -> None:
        """Register ``fn(*args, **kwargs)`` as an undo action; the arguments are bound now."""
        self._undo.append(functools.partial(fn, *args, **kwargs))

    def commit(self) -> None:
        """Drop every undo action: leaving the block then undoes nothing."""
        self._undo.clear()


def cast_to_3_tuple(label: str, cfg: int | tuple[int, ...]) -> tuple[int, int, int]:
    """``cfg`` (an int, or a tuple of up to 3 ints, each >= 1) as a 3-tuple padded with 1s,
    e.g. for grid and block dimensions; ``label`` names it in the ValueError otherwise."""
    shape_error = f"{label} must be an int, or a tuple with up to 3 ints"
    values = (cfg,) if isinstance(cfg, int) else cfg
    if not isinstance(values, tuple):
        raise ValueError(f"{shape_error} (got {cfg!r})")
    if len(values) > 3:
        raise ValueError(f"{shape_error} (got tuple with length {len(values)})")
    if not all(isinstance(value, int) for value in values):
        raise ValueError(f"{shape_error} (got {cfg!r})")
    if any(value < 1 for value in values):
        raise ValueError(f"{label} value must be >= 1 (got {cfg!r})")
    return values + (1,) * (3 - len(values))


def _optional_cuda_import(fully_qualified_modname: str, probe_function=None):
    """The module, or None when it (not one of its own imports) is missing or its library cannot
    be loaded. ``probe_function(module)`` is called to load the library; a missing library
    (cuda.pathfinder's DynamicLibNotFoundError) or a loader that cannot work here
    (cuda-bindings' NotSupportedError: 12.8's nvJitLink loader needs a driver) means None, any
    other error propagates."""
    try:
        module = importlib.import_module(fully_qualified_modname)
    except ModuleNotFoundError as err:
        if err.name != fully_qualified_modname:
            raise  # a dependency of the module is missing: a real bug, not "unavailable"
        return None
    if probe_function is not None:
        from cuda.bindings._internal.utils import NotSupportedError
        from cuda.pathfinder import DynamicLibNotFoundError
        try:
            probe_function(module)
        except (DynamicLibNotFoundError, NotSupportedError):
            return None
    return module


def check_or_create_options(cls: type, options: object, options_description: str = "",
                            keep_none: bool = False) -> object:
    """``options`` as an instance of the options dataclass ``cls``: an instance as is, a dict
    as keyword arguments, None as ``cls()`` (or None with ``keep_none``); TypeError otherwise."""
    if options is None:
        return None if keep_none else cls()
    if isinstance(options, cls):
        return options
    if isinstance(options, dict):
        return cls(**options)
    what = options_description or cls.__name__
    raise TypeError(f"The {what} must be provided as an object of type {cls.__name__} or as a dict "
                    f"of its fields, got {type(options).__name__}")


def _handle_boolean_option(option: bool) -> str:
    """A boolean option as the "true"/"false" that compiler command lines take."""
    return "true" if option else "false"


def precondition(checker: Callable[..., None], what: str = "") -> Callable[..., Any]:
    """Decorator: call ``checker(*args, **kwargs, what=what)`` before each call of the
    decorated function, which runs only if the checker does not raise."""
    def decorator(function):
        @functools.wraps(function)
        def checked(*args, **kwargs):
            checker(*args, **kwargs, what=what)
            return function(*args, **kwargs)
        return checked
    return decorator


def is_sequence(obj: object) -> bool:
    """Whether ``obj`` is a list or a tuple."""
    return isinstance(obj, (list, tuple))


def is_nested_sequence(obj: object) -> bool:
    """Whether ``obj`` is a list or tuple holding at least one list or tuple."""
    return is_sequence(obj) and any(is_sequence(item) for item in obj)


def reset_fork_warning() -> None:
    """Let check_multiprocessing_start_method() warn again (for tests)."""
    global _fork_warning_checked
    _fork_warning_checked = False


def check_multiprocessing_start_method() -> None:
    """Warn once per process when multiprocessing would fork: a forked child inherits the
    parent's CUDA state, which CUDA does not support (undefined behavior)."""
    global _fork_warning_checked
    if _fork_warning_checked:
        return
    _fork_warning_checked = True
    import multiprocessing
    import platform
    try:
        method = multiprocessing.get_start_method(allow_none=True)
    except RuntimeError:
        method = None
    if method == "fork":
        warnings.warn("The multiprocessing start method is 'fork': CUDA objects shared with forked "
                      "processes lead to undefined behavior. Use the 'spawn' start method "
                      "(multiprocessing.set_start_method('spawn')).", UserWarning, stacklevel=3)
    elif method is None and platform.system() == "Linux":
        warnings.warn("The multiprocessing start method is not set, and on Linux it may default to 'fork': "
                      "CUDA objects shared with forked processes lead to undefined behavior. Set the "
                      "'spawn' start method (multiprocessing.set_start_method('spawn')).",
                      UserWarning, stacklevel=3)


def _parse_fill_value(value) -> tuple[Any, ...]:
    """A fill value as (raw_value, element_size): an int in [0, 256) is one byte; a bytes-like
    object of 1, 2 or 4 bytes is that element, read in host byte order."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < 256:
            raise OverflowError(f"an int fill value must be in [0, 256), got {value}")
        return value, 1
    try:
        data = memoryview(value).cast("B").tobytes()
    except TypeError:
        raise TypeError(f"a fill value must be an int or support the buffer protocol, "
                        f"got {type(value).__name__}") from None
    if len(data) not in (1, 2, 4):
        raise ValueError(f"a fill value must be 1, 2 or 4 bytes long, got {len(data)} bytes")
    return int.from_bytes(data, sys.byteorder), len(data)
