# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Programs: CUDA C++ (NVRTC), NVVM IR (libNVVM) or PTX (a linker) compiled to an ObjectCode."""

from dataclasses import dataclass

from cuda.bindings import driver, nvrtc
from cuda.core._module import ObjectCode
from cuda.core.typing import CompilerBackendType, ObjectCodeFormatType, PCHStatusType, SourceCodeType
from cuda.core.utils._program_cache import ProgramCacheResource
from typing_extensions import disjoint_base

__all__ = ["Program", "ProgramOptions"]

ProgramHandleT = nvrtc.nvrtcProgram | int | driver.CUlinkState
_nvvm_module: object | None
_nvvm_import_attempted: bool

@disjoint_base
class Program:
    """Device code and the compiler for it; ``compile(target)`` gives an ObjectCode.

    ``code_type``: "c++" (CUDA C++ as str, NVRTC), "ptx" (PTX as str, linked to a cubin) or
    "nvvm" (NVVM IR as str, bytes or bytearray, libNVVM). ``options``: a ProgramOptions, a dict
    of its fields, or None for the defaults.
    """
    def __init__(
        self, code: str | bytes | bytearray, code_type: SourceCodeType | str, options: ProgramOptions | None = None
    ): ...
    def close(self) -> None:
        """Free the backend's program; a second close does nothing."""
    def _cleanup_debug_source(self): ...
    def _unlink_debug_source(self, path: str) -> None: ...
    def _try_materialize_nvrtc_debug_source(self, code: str) -> str | None:
        """Write ``code`` to a temporary ``{caller}_{kernel}_XXXXXXXX.cu`` for debuggers; None if it cannot be written."""
    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
    def compile(
        self,
        target_type: ObjectCodeFormatType | str,
        name_expressions: tuple[str, ...] | list[str] = (),
        logs: object | None = None,
        *,
        cache: ProgramCacheResource | None = None,
    ) -> ObjectCode:
        """Compile to ``target_type`` ('ptx', 'cubin' or 'ltoir', as the backend allows).

        ``name_expressions``: C++ names (e.g. 'f<int>') whose lowered names go into the
        ObjectCode's symbol_mapping. ``logs``: an object with ``write(str)`` for the log.
        ``cache``: a cuda.core.utils.ProgramCacheResource asked first (key:
        make_program_cache_key); a hit compiles nothing and writes no log, a miss compiles and
        stores. With a cache, name_expressions must be empty and options that read or write
        files the key cannot see raise ValueError.
        """
    @property
    def pch_status(self) -> PCHStatusType | None:
        """The precompiled-header outcome of the last NVRTC compile, or None."""
    @property
    def backend(self) -> CompilerBackendType:
        """NVRTC, NVVM, or for PTX the linker's backend (nvJitLink or driver)."""
    @property
    def handle(self) -> ProgramHandleT:
        """The backend's program handle; ``int(handle)`` is its address."""
    def __repr__(self) -> str: ...

@dataclass
class ProgramOptions:
    """How a Program is compiled; a field left at None is not passed to the compiler.

    ``arch=None`` becomes the current device's ('sm_XY') when the options are made.
    """

    name: str | None = "default_program"
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
    extra_sources: (
        list[tuple[str, str | bytes | bytearray]] | tuple[tuple[str, str | bytes | bytearray], ...] | None
    ) = None
    use_libdevice: bool | None = None
    numba_debug: bool | None = None

    def __post_init__(self) -> None: ...
    def _prepare_nvrtc_options(self) -> list[bytes]: ...
    def _prepare_nvvm_options(self, as_bytes: bool = True) -> list[bytes] | list[str]: ...
    def as_bytes(
        self, backend: CompilerBackendType | str, target_type: ObjectCodeFormatType | str | None = None
    ) -> list[bytes]:
        """The options as ``backend``'s ('nvrtc' or 'nvvm') arguments, as bytes.

        ValueError for another backend; CUDAError for an option that libNVVM does not have.
        """
    def __repr__(self) -> str: ...
    def _prepare_extra_sources_bytes(self) -> list[tuple[bytes, bytes]] | None:
        """extra_sources as (name, source) pairs of bytes, or None."""

def _program_compile_uncached(program, target_type, name_expressions, logs):
    """Compile without the cache (a module-level seam that tests can replace)."""

def _get_nvvm_module() -> object:
    """cuda.bindings.nvvm with libnvvm loaded; RuntimeError naming what to install."""

def _find_libdevice_path() -> object:
    """libdevice.10.bc, found by cuda.pathfinder."""

def _can_load_generated_ptx() -> bool:
    """Whether the driver can load PTX made by the loaded NVRTC."""

def _assert_single_dashed_nvvm_options(options: list[str]) -> None:
    """RuntimeError for a double-dashed libNVVM option (a bug in cuda.core)."""
