# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Error checking and small shared helpers of cuda.core (see cuda_utils.pyx)."""

from typing import Any, Callable, NamedTuple

from cuda.bindings import driver as driver
from cuda.bindings import nvrtc as nvrtc
from cuda.bindings import runtime as runtime

BUILD_MAJOR: int
_fork_warning_checked: bool
DRIVER_CU_RESULT_EXPLANATIONS: Any
RUNTIME_CUDA_ERROR_EXPLANATIONS: Any

def __dir__() -> list[str]: ...

class CUDAError(Exception):
    """A CUDA call failed: ``"<enum name>: <explanation>"``, with ``code``, ``name`` and
    ``description`` when cuda.core raised it."""

    code: int | None
    name: str | None
    description: str | None

class NVRTCError(CUDAError):
    """An NVRTC call failed; ``log`` is the program's compile log."""

    log: str

class DriverNotFoundError(RuntimeError):
    """No CUDA driver (libcuda) could be loaded on this machine."""

class ComputeCapability(NamedTuple):
    """A device's compute capability as a named tuple (major, minor)."""

    major: int
    minor: int

class Transaction:
    """Undo actions for a multi-step operation, run (newest first) unless it commits."""
    def __init__(self) -> None: ...
    def __enter__(self): ...
    def __exit__(self, exc_type, exc, tb): ...
    def append(self, fn: Callable[..., Any], /, *args: Any, **kwargs) -> None:
        """Register ``fn(*args, **kwargs)`` as an undo action; the arguments are bound now."""
    def commit(self) -> None:
        """Drop every undo action."""

def error_for_result(code: int) -> CUDAError:
    """The CUDAError for a CUresult code."""

def check(code: int) -> None:
    """Raise the CUDAError for CUresult ``code`` unless it is CUDA_SUCCESS."""

def init_driver() -> None:
    """Load and initialise the CUDA driver, once per process."""

def cast_to_3_tuple(label: str, cfg: int | tuple[int, ...]) -> tuple[int, int, int]:
    """``cfg`` as a 3-tuple padded with 1s."""

def _check_driver_error(error: driver.CUresult) -> int: ...
def _check_runtime_error(error) -> int: ...
def _check_nvrtc_error(error, handle=None) -> int: ...
def handle_return(result: tuple[Any, ...], handle: object | None = None) -> Any:
    """Check a cuda.bindings result tuple's status and return its value(s)."""

def _optional_cuda_import(fully_qualified_modname: str, probe_function: Callable[[Any], object] | None = None) -> Any:
    """The module, or None when it is missing or ``probe_function(module)`` cannot find its library."""

def check_or_create_options(
    cls: type, options: object, options_description: str = "", keep_none: bool = False
) -> object:
    """``options`` as an instance of the options dataclass ``cls`` (instance, dict or None)."""

def _handle_boolean_option(option: bool) -> str: ...
def precondition(checker: Callable[..., None], what: str = "") -> Callable[..., Any]:
    """Decorator: run ``checker(*args, **kwargs, what=what)`` before the decorated function."""

def is_sequence(obj: object) -> bool:
    """Whether ``obj`` is a list or a tuple."""

def is_nested_sequence(obj: object) -> bool:
    """Whether ``obj`` is a list or tuple holding at least one list or tuple."""

def reset_fork_warning() -> None:
    """Let check_multiprocessing_start_method() warn again."""

def _parse_fill_value(value) -> tuple[Any, ...]: ...
def check_multiprocessing_start_method() -> None:
    """Warn once per process when multiprocessing would fork."""
