# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Linker and LinkerOptions: ObjectCodes linked into one cubin (or PTX) by nvJitLink or the driver."""

from dataclasses import dataclass

from cuda.bindings import driver
from cuda.core._module import ObjectCode
from cuda.core.typing import CompilerBackendType, ObjectCodeFormatType
from typing_extensions import disjoint_base

__all__ = ["Linker", "LinkerOptions"]

LinkerHandleT = int | driver.CUlinkState
_driver: object | None
_inited: bool
_use_nvjitlink_backend: bool | None
_nvjitlink_input_types: dict[str, int] | None
_driver_input_types: dict[str, int] | None

@disjoint_base
class Linker:
    """Links ObjectCodes (PTX, cubin, LTO IR, fatbin, objects, libraries) into one.

    The backend is nvJitLink (12.3+) where it loads, else the driver's cuLink* (which needs a
    current context). ``options``: a LinkerOptions, a dict of its fields, or None.
    """
    def __init__(self, *object_codes: ObjectCode, options: LinkerOptions | dict | None = None) -> None: ...
    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
    def link(self, target_type: ObjectCodeFormatType | str) -> ObjectCode:
        """The linked code, 'cubin' or 'ptx' (nvJitLink with ptx=True); named after options.name."""
    def get_error_log(self) -> str:
        """The linker's error log; kept after close()."""
    def get_info_log(self) -> str:
        """The linker's info log; kept after close()."""
    def close(self) -> None:
        """Free the backend's linker; a second close does nothing."""
    @property
    def handle(self) -> LinkerHandleT:
        """nvJitLink's handle (int) or the driver's CUlinkState; ``int(handle)`` is the address."""
    @classmethod
    def which_backend(cls) -> CompilerBackendType:
        """NVJITLINK when nvJitLink 12.3+ loads here, else DRIVER."""
    def __repr__(self) -> str: ...

@dataclass
class LinkerOptions:
    """How a Linker links; a field left at None is not passed to the linker.

    ``arch=None`` becomes the current device's ('sm_XY') when the options are made. The driver
    backend refuses time, ptx, ptxas_options, split_compile and split_compile_extended, and
    ignores ftz, prec_div, prec_sqrt, fma, kernels_used, variables_used and
    optimize_unused_variables (DeprecationWarning). numba_debug is deprecated and ignored.
    """

    name: str | None = "<default linker>"
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

    def __post_init__(self) -> None: ...
    def _prepare_nvjitlink_options(self, as_bytes: bool = False) -> list[bytes] | list[str]: ...
    def _prepare_driver_options(self) -> tuple[list[object], list[object]]: ...
    def as_bytes(self, backend: str = "nvjitlink") -> list[bytes]:
        """nvJitLink's flags as bytes (ValueError for another backend, RuntimeError without nvJitLink)."""

def _nvjitlink_has_version_symbol(nvjitlink: object) -> bool: ...
def _decide_nvjitlink_or_driver() -> bool:
    """True when Linker falls back to the driver's cuLink*."""

def _lazy_init() -> None: ...
