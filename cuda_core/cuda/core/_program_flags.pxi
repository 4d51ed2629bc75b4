# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# ProgramOptions -> flags. Each writer turns a (flag, value) into the backend's arguments;
# it is called only for a value that is not None.
#
# Included into _program.pyx (its ProgramOptions and Program use them), written apart to keep
# that module short.

def _text(value) -> str:
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def _switch(flag: str, value) -> list:
    """--flag=true|false (NVRTC's spelling of an on/off option)."""
    return [f"{flag}={'true' if value else 'false'}"]


def _flag(flag: str, value) -> list:
    """The bare flag when the value is true; nothing otherwise."""
    return [flag] if value else []


def _valued(flag: str, value) -> list:
    """--flag=value."""
    return [f"{flag}={_text(value)}"]


def _strings(flag: str, value) -> list:
    """One --flag=value per item: a str (or path) is one item, a list or tuple several."""
    if isinstance(value, (str, os.PathLike)):
        return [f"{flag}={_text(value)}"]
    if isinstance(value, (list, tuple)):
        return [f"{flag}={_text(item)}" for item in value]
    return []


def _numbers(flag: str, value) -> list:
    """One --flag=N per diagnostic number: a list or tuple, or one number."""
    items = value if isinstance(value, (list, tuple)) else [value]
    return [f"{flag}={item}" for item in items]


def _macro(item) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, tuple) and len(item) == 2 and all(isinstance(part, str) for part in item):
        return f"{item[0]}={item[1]}"
    if isinstance(item, tuple):
        raise RuntimeError(f"Expected define_macro tuple[str, str] (name, value), got {item!r}")
    raise RuntimeError(f"Expected define_macro items to be str or tuple[str, str], got {item!r}")


def _macros(flag: str, value) -> list:
    """define_macro: 'NAME', ('NAME', 'VALUE'), or a list (or tuple) of those."""
    if isinstance(value, str) or (
            isinstance(value, tuple) and not any(isinstance(part, (tuple, list)) for part in value)):
        items = [value]  # one name, or one (name, value) pair
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        raise RuntimeError(f"Expected define_macro as str, tuple[str, str] or a list of those, got {value!r}")
    return [f"{flag}={_macro(item)}" for item in items]


def _bundled_headers(flag: str, value) -> list:
    return [f"{flag}={_bundled_headers_dir()}"] if value else []


def _bundled_headers_dir() -> Path:
    """Where NVRTC installs its bundled CUDA and CCCL headers (use_bundled_headers)."""
    return _default_cache_dir() / "nvrtc-bundled-headers"


def _nvvm_01(flag: str, value) -> list:
    return [f"{flag}={1 if value else 0}"]


def _nvvm_opt(flag: str, value) -> list:
    return [f"{flag}={3 if value else 0}"]


_UNSUPPORTED = "unsupported"  # libNVVM has no such option: setting it is an error there


# field, NVRTC writer and flag, libNVVM writer and flag. A libNVVM writer of None means that
# NVVM ignores the field (NVRTC-only extras, or a field handled elsewhere); _UNSUPPORTED that
# setting it is an error for NVVM. name, arch, extra_sources and use_libdevice are not flags.
def _option_table() -> tuple:
    """The rows of _OPTIONS, appended one at a time. As one tuple literal, every row was a live
    temporary of the module's init code at once, which the C compiler turned into code
    quadratic in the rows (157 KiB)."""
    cdef list table = []
    table.append(("relocatable_device_code", _switch, "--relocatable-device-code", _UNSUPPORTED, None))
    table.append(("extensible_whole_program", _flag, "--extensible-whole-program", _UNSUPPORTED, None))
    table.append(("debug", _flag, "--device-debug", _flag, "-g"))
    table.append(("lineinfo", _flag, "--generate-line-info", _UNSUPPORTED, None))
    table.append(("device_code_optimize", _flag, "--dopt=on", _nvvm_opt, "-opt"))
    table.append(("ptxas_options", _strings, "--ptxas-options", _UNSUPPORTED, None))
    table.append(("max_register_count", _valued, "--maxrregcount", _UNSUPPORTED, None))
    table.append(("ftz", _switch, "--ftz", _nvvm_01, "-ftz"))
    table.append(("prec_sqrt", _switch, "--prec-sqrt", _nvvm_01, "-prec-sqrt"))
    table.append(("prec_div", _switch, "--prec-div", _nvvm_01, "-prec-div"))
    table.append(("fma", _switch, "--fmad", _nvvm_01, "-fma"))
    table.append(("use_fast_math", _flag, "--use_fast_math", _UNSUPPORTED, None))
    table.append(("extra_device_vectorization", _flag, "--extra-device-vectorization", _UNSUPPORTED, None))
    table.append(("link_time_optimization", _flag, "--dlink-time-opt", None, None))
    table.append(("gen_opt_lto", _flag, "--gen-opt-lto", _UNSUPPORTED, None))
    table.append(("define_macro", _macros, "--define-macro", _UNSUPPORTED, None))
    table.append(("undefine_macro", _strings, "--undefine-macro", _UNSUPPORTED, None))
    table.append(("include_path", _strings, "--include-path", _UNSUPPORTED, None))
    table.append(("use_bundled_headers", _bundled_headers, "--use-bundled-headers", None, None))
    table.append(("pre_include", _strings, "--pre-include", _UNSUPPORTED, None))
    table.append(("no_source_include", _flag, "--no-source-include", _UNSUPPORTED, None))
    table.append(("std", _valued, "--std", _UNSUPPORTED, None))
    table.append(("builtin_move_forward", _switch, "--builtin-move-forward", _UNSUPPORTED, None))
    table.append(("builtin_initializer_list", _switch, "--builtin-initializer-list", _UNSUPPORTED, None))
    table.append(("disable_warnings", _flag, "--disable-warnings", _UNSUPPORTED, None))
    table.append(("restrict", _flag, "--restrict", _UNSUPPORTED, None))
    table.append(("device_as_default_execution_space", _flag, "--device-as-default-execution-space", _UNSUPPORTED, None))
    table.append(("device_int128", _flag, "--device-int128", _UNSUPPORTED, None))
    table.append(("optimization_info", _valued, "--optimization-info", _UNSUPPORTED, None))
    table.append(("no_display_error_number", _flag, "--no-display-error-number", _UNSUPPORTED, None))
    table.append(("diag_error", _numbers, "--diag-error", _UNSUPPORTED, None))
    table.append(("diag_suppress", _numbers, "--diag-suppress", _UNSUPPORTED, None))
    table.append(("diag_warn", _numbers, "--diag-warn", _UNSUPPORTED, None))
    table.append(("brief_diagnostics", _switch, "--brief-diagnostics", _UNSUPPORTED, None))
    table.append(("time", _valued, "--time", _UNSUPPORTED, None))
    table.append(("split_compile", _valued, "--split-compile", _UNSUPPORTED, None))
    table.append(("fdevice_syntax_only", _flag, "--fdevice-syntax-only", _UNSUPPORTED, None))
    table.append(("minimal", _flag, "--minimal", _UNSUPPORTED, None))
    table.append(("no_cache", _flag, "--no-cache", None, None))
    table.append(("fdevice_time_trace", _valued, "--fdevice-time-trace", None, None))
    table.append(("device_float128", _flag, "--device-float128", None, None))
    table.append(("frandom_seed", _valued, "--frandom-seed", None, None))
    table.append(("ofast_compile", _valued, "--Ofast-compile", None, None))
    table.append(("pch", _flag, "--pch", None, None))
    table.append(("create_pch", _valued, "--create-pch", None, None))
    table.append(("use_pch", _valued, "--use-pch", None, None))
    table.append(("pch_dir", _valued, "--pch-dir", None, None))
    table.append(("pch_verbose", _switch, "--pch-verbose", None, None))
    table.append(("pch_messages", _switch, "--pch-messages", None, None))
    table.append(("instantiate_templates_in_pch", _switch, "--instantiate-templates-in-pch", None, None))
    table.append(("numba_debug", _flag, "--numba-debug", _flag, "-numba-debug"))
    return tuple(table)


_OPTIONS = _option_table()

_LTO_FLAG = "--dlink-time-opt"
_DEFAULT_NAME = "default_program"


def _is_set(writer, value) -> bool:
    """Whether a field asks for something: a flag when true, any other option when not None."""
    return bool(value) if writer is _flag else value is not None


def _assert_single_dashed_nvvm_options(options: list) -> None:
    """libNVVM takes only single-dashed options ('-g', never '--g'): a double dash here is a bug
    in this module's table, reported by name instead of as libNVVM's bare INVALID_OPTION."""
    for option in options:
        if option.startswith("--"):
            raise RuntimeError(f"Internal error in cuda.core: the NVVM option {option!r} has two dashes, but "
                               f"libNVVM accepts only one ({option[1:]!r})")
