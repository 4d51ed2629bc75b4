# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""make_program_cache_key: one digest of everything that decides a compile's output.

The digest covers the schema version below, the code type and target, the code, the options
as the backend sees them, the name expressions (NVRTC), the options' name (which the
ObjectCode carries), the compiler's or linker's version, and the caller's extra_digest.
What the backend ignores is left out (so that it cannot cause needless misses), and options
that are the same to the backend (``debug=False`` and ``None`` for the linker) hash alike.

Inputs the key cannot see refuse a key instead: headers and precompiled headers read from
disk (unless the caller fingerprints them in ``extra_digest``), and options whose effect is a
file the compile writes, which a cache hit would not write.

cuda.core._program and the linker are imported at the first key, not with this module, so
that importing cuda.core.utils loads no compiler.
"""

from __future__ import annotations

import collections.abc
import hashlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

# Raised when the way keys are made changes: keys of another schema never match, so old
# entries are simply not found (and a FileStreamProgramCache evicts them in time).
_KEY_SCHEMA_VERSION = 1

# code type -> the targets Program.compile makes of it.
_TARGETS_BY_CODE_TYPE = {
    "c++": ("ptx", "cubin", "ltoir"),
    "ptx": ("cubin", "ptx"),
    "nvvm": ("ptx", "ltoir"),
}
_ALL_TARGETS = ("cubin", "ltoir", "ptx")


# ---------------------------------------------------------------------------------------------
# Version probes. Module-level functions, looked up at each call, so that tests can replace them.


def _nvrtc_version() -> tuple[int, int]:
    """(major, minor) of the NVRTC that compiles "c++" programs."""
    from cuda.core import _program

    major, minor = _program._nvrtc_version()
    return int(major), int(minor)


def _driver_version() -> int:
    """The CUDA driver's version number (e.g. 13000), for PTX linked by the driver."""
    from cuda.bindings import driver
    from cuda.core._utils.cuda_utils import handle_return

    return int(handle_return(driver.cuDriverGetVersion()))


def _linker_backend_and_version(use_driver: bool) -> tuple[str, str]:
    """(backend, version) of the linker that turns PTX into a cubin: the driver's cuLink* and
    the driver's version, or nvJitLink and its version (independent of the driver, which
    then plays no part in the output)."""
    if use_driver:
        return "driver", str(_driver_version())
    nvjitlink = sys.modules.get("cuda.bindings.nvjitlink")
    if nvjitlink is None:
        from cuda.bindings import nvjitlink
    return "nvJitLink", str(nvjitlink.version())


def _nvvm_fingerprint() -> str:
    """libNVVM's library version and NVVM IR version. Both: a patch release of libNVVM can
    change its output under the same IR version. Through Program's own loader, so that the
    probe fails exactly where an NVVM compile would."""
    from cuda.core import _program

    nvvm = _program._get_nvvm_module()
    library = ".".join(str(part) for part in nvvm.version())
    ir = ".".join(str(part) for part in nvvm.ir_version())
    return f"libnvvm={library};ir={ir}"


# ---------------------------------------------------------------------------------------------


class _Digest:
    """SHA-256 over labelled fields, each with its length before it, so that two different
    field sequences never feed the hash the same bytes. SHA-256 because FIPS-enforcing
    systems may refuse other algorithms."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(usedforsecurity=False)

    def add(self, label: str, payload: bytes | str) -> None:
        data = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
        for part in (label.encode("ascii"), data):
            self._hash.update(len(part).to_bytes(8, "big"))
            self._hash.update(part)

    def add_probe(self, label: str, probe: Callable[[], str]) -> None:
        """Add what ``probe()`` returns; when it raises, the error's class under another label.
        So a broken environment never shares keys with a working one, yet keeps one stable key
        per failure (the class, unlike the message, does not vary between calls)."""
        try:
            value = probe()
        except Exception as exc:
            self.add(f"{label}:probe-failed", type(exc).__name__)
            return
        self.add(label, value)

    def finish(self) -> bytes:
        return self._hash.digest()


def _lowered(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value.lower()


def _checked_kinds(code_type: object, target_type: object) -> tuple[str, str]:
    """(code type, target), lowered as Program does; ValueError for an unknown one or a pair
    that Program.compile refuses."""
    from cuda.core.typing import SourceCodeType

    code_type = SourceCodeType(_lowered(code_type, "code_type")).value  # "'x' is not a valid SourceCodeType"
    target_type = _lowered(target_type, "target_type")
    if target_type not in _ALL_TARGETS:
        raise ValueError(
            f"target_type={target_type!r} is not supported by the program cache: use one of "
            f"{', '.join(map(repr, _ALL_TARGETS))}"
        )
    supported = _TARGETS_BY_CODE_TYPE[code_type]
    if target_type not in supported:
        raise ValueError(
            f"target_type={target_type!r} is not valid for code_type={code_type!r}: Program.compile() "
            f"makes only {', '.join(map(repr, supported))} of it, so no such entry can exist"
        )
    return code_type, target_type


def _checked_options(options: object) -> Any:
    """A ProgramOptions from a ProgramOptions or a dict of its fields (as Program takes)."""
    from cuda.core import _program

    if isinstance(options, (_program.ProgramOptions, dict)):
        return _program._program_options(options)
    raise TypeError(f"options must be a ProgramOptions (or a dict of its fields), got {type(options).__name__}")


def _code_bytes(code: object, code_type: str) -> bytes:
    """The code as bytes: str as UTF-8; bytes only for NVVM (bitcode), as Program accepts."""
    if isinstance(code, str):
        return code.encode("utf-8")
    if isinstance(code, (bytes, bytearray)):
        if code_type == "nvvm":
            return bytes(code)
        raise TypeError(
            f"code must be str for code_type={code_type!r}; bytes and bytearray are only accepted for code_type='nvvm'"
        )
    raise TypeError(f"code must be str or bytes, got {type(code).__name__}")


def _refuse_extra_sources(options: Any, code_type: str) -> None:
    if options.extra_sources is not None:
        raise ValueError(
            f"extra_sources is only valid for code_type='nvvm'; Program() rejects it for code_type={code_type!r}"
        )


# ---------------------------------------------------------------------------------------------
# NVRTC ("c++").

# Options under which NVRTC writes a file: a hit would skip the compile, and so the file.
_SIDE_EFFECT_OPTIONS = ("create_pch", "time", "fdevice_time_trace")
# Options that make NVRTC read files whose content the key cannot see.
_EXTERNAL_CONTENT_OPTIONS = ("include_path", "pre_include", "pch", "use_pch", "pch_dir")


def _nvrtc_uses(options: Any, field: str) -> bool:
    """Whether NVRTC gets a flag for ``field``: pch when true; include_path and pre_include
    for a str (even empty) or a non-empty sequence; the others for any value but None (an
    empty name or False is still a flag)."""
    value = getattr(options, field)
    if value is None:
        return False
    if field == "pch":
        return bool(value)
    if field in ("include_path", "pre_include"):
        if isinstance(value, (str, os.PathLike)):
            return True
        return isinstance(value, collections.abc.Sequence) and len(value) > 0
    return True


def _refuse_unkeyable_nvrtc_options(options: Any, extra_digest: bytes | None) -> None:
    side_effects = [field for field in _SIDE_EFFECT_OPTIONS if _nvrtc_uses(options, field)]
    if side_effects:
        raise ValueError(
            f"make_program_cache_key() refuses options whose compile writes a file as a side effect "
            f"({', '.join(side_effects)}): a cache hit skips the compile, and the file would not be "
            "written. Unset them, or compile without the cache"
        )
    _refuse_extra_sources(options, "c++")
    if extra_digest is not None:
        return
    external = [field for field in _EXTERNAL_CONTENT_OPTIONS if _nvrtc_uses(options, field)]
    if external:
        raise ValueError(
            f"make_program_cache_key() needs an extra_digest for options that read files "
            f"({', '.join(external)}): the key cannot see their content, so pass a digest of the "
            "headers / precompiled headers the compile reads as extra_digest=..."
        )
    name = options.name
    if isinstance(name, str) and ("/" in name or "\\" in name):
        raise ValueError(
            f"make_program_cache_key() needs an extra_digest for options.name={name!r}, which has a "
            "directory component: NVRTC finds quoted #includes relative to that directory, whose "
            "files the key cannot see. Pass a digest of those headers as extra_digest=..., or use a "
            "name without a directory"
        )


def _name_expression_tag(name: object) -> bytes:
    """A name expression with its type: Program.compile keys symbol_mapping by the object
    given, so "f" and b"f" make different ObjectCodes."""
    if isinstance(name, str):
        return b"s:" + name.encode("utf-8")
    if isinstance(name, bytes):
        return b"b:" + name
    if isinstance(name, bytearray):
        raise TypeError(
            "name_expressions elements must be str or bytes, not bytearray: Program.compile uses each "
            "one as a dict key, and a bytearray cannot be one"
        )
    raise TypeError(f"name_expressions elements must be str or bytes, got {type(name).__name__}")


def _nvrtc_fields(
    digest: _Digest,
    code: object,
    options: Any,
    target_type: str,
    name_expressions: Sequence[Any],
    extra_digest: bytes | None,
) -> None:
    _refuse_unkeyable_nvrtc_options(options, extra_digest)
    source = _code_bytes(code, "c++")
    flags = options.as_bytes("nvrtc", target_type)
    if isinstance(name_expressions, (str, bytes, bytearray)):
        raise TypeError(
            "name_expressions must be a sequence of str or bytes (e.g. ('f<int>',)), not a single "
            f"{type(name_expressions).__name__}"
        )
    names = sorted(_name_expression_tag(name) for name in name_expressions)  # their order changes nothing
    digest.add_probe("nvrtc", lambda: "{}.{}".format(*_nvrtc_version()))
    digest.add("code", source)
    digest.add("flags", str(len(flags)))
    for flag in flags:
        digest.add("flag", flag)
    digest.add("name_expressions", str(len(names)))
    for name in names:
        digest.add("name_expression", name)


# ---------------------------------------------------------------------------------------------
# The linker ("ptx"): nvJitLink, or the driver's cuLink*.


def _tristate(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _ptxas_items(value: Any) -> tuple | None:
    """The -Xptxas items: one str is one item; an empty list is none at all. Their order is
    kept, since ptxas lets later flags override earlier ones."""
    if value is None:
        return None
    items = (value,) if isinstance(value, str) else tuple(value)
    return items or None


# The ProgramOptions fields the linker reads, each reduced to what reaches the linker (as
# cuda.core._linker writes its flags): debug=False and None both give no -g, time=True and
# time="file" both give -time.
_LINKER_FIELDS: dict[str, Callable[[Any], Any]] = {
    "name": lambda value: value,
    "arch": lambda value: value,
    "max_register_count": lambda value: None if value is None else int(value),
    "time": lambda value: value is not None,
    "link_time_optimization": bool,
    "debug": bool,
    "lineinfo": bool,
    "ftz": _tristate,
    "prec_div": _tristate,
    "prec_sqrt": _tristate,
    "fma": _tristate,
    "split_compile": lambda value: None if value is None else int(value),
    "ptxas_options": _ptxas_items,
    "no_cache": lambda value: value is True,
}
# What the driver's cuLink* ignores (with a DeprecationWarning): one value for all there.
_DRIVER_IGNORED_FIELDS = ("ftz", "prec_div", "prec_sqrt", "fma")
# What the driver's cuLink* refuses when set at all (even to False or []).
_DRIVER_REFUSED_FIELDS = ("time", "ptxas_options", "split_compile")


def _linker_decision() -> tuple[bool | None, BaseException | None]:
    """(whether the driver links PTX, None when that cannot be found out; the error then)."""
    try:
        from cuda.core import _linker

        return bool(_linker._decide_nvjitlink_or_driver()), None
    except Exception as exc:
        return None, exc


def _linker_fields(
    digest: _Digest,
    code: object,
    options: Any,
    target_type: str,
    name_expressions: Sequence[Any],
    extra_digest: bytes | None,
) -> None:
    # One decision for the whole key: a second probe could answer differently.
    use_driver, failure = _linker_decision()
    _refuse_extra_sources(options, "ptx")
    if use_driver:
        refused = [field for field in _DRIVER_REFUSED_FIELDS if getattr(options, field) is not None]
        if refused:
            raise ValueError(
                f"the driver linker (cuLink*, used here for PTX since nvJitLink is not available) "
                f"does not support {', '.join(refused)}: Program.compile() would refuse these options, "
                "so leave them at None or install nvJitLink"
            )
    source = _code_bytes(code, "ptx")
    if failure is not None:
        digest.add("linker:probe-failed", type(failure).__name__)
    else:
        digest.add_probe("linker", lambda: "{} {}".format(*_linker_backend_and_version(use_driver)))
    digest.add("code", source)
    for field, reduce in _LINKER_FIELDS.items():
        if use_driver and field in _DRIVER_IGNORED_FIELDS:
            digest.add(field, "ignored by the driver")
        else:
            digest.add(field, repr(reduce(getattr(options, field))))


# ---------------------------------------------------------------------------------------------
# libNVVM ("nvvm").


def _nvvm_fields(
    digest: _Digest,
    code: object,
    options: Any,
    target_type: str,
    name_expressions: Sequence[Any],
    extra_digest: bytes | None,
) -> None:
    if options.use_libdevice and extra_digest is None:
        raise ValueError(
            "make_program_cache_key() needs an extra_digest with use_libdevice=True: the libdevice "
            "bitcode linked in comes from the installed toolkit, which the key cannot see. Pass a "
            "digest of the libdevice file as extra_digest=..., or set use_libdevice=False"
        )
    source = _code_bytes(code, "nvvm")
    flags = options.as_bytes("nvvm", target_type)
    digest.add_probe("nvvm", _nvvm_fingerprint)
    digest.add("code", source)
    digest.add("flags", str(len(flags)))
    for flag in flags:
        digest.add("flag", flag)
    # In the given order: which module's definition wins can depend on it.
    extra = options._prepare_extra_sources_bytes() or []
    digest.add("extra_sources", str(len(extra)))
    for name, module in extra:
        digest.add("extra_source_name", name)
        digest.add("extra_source", module)
    digest.add("use_libdevice", "1" if options.use_libdevice else "0")


_FIELDS_BY_CODE_TYPE = {"c++": _nvrtc_fields, "ptx": _linker_fields, "nvvm": _nvvm_fields}


def make_program_cache_key(
    *,
    code: str | bytes,
    code_type: str,
    options: Any,
    target_type: str,
    name_expressions: Sequence[str | bytes | bytearray] = (),
    extra_digest: bytes | None = None,
) -> bytes:
    """The cache key (32 bytes) of compiling ``code`` as Program(code, code_type, options)
    .compile(target_type, name_expressions) would.

    Equal inputs give equal keys, in any process; a change of anything that changes the
    output gives another key: the code, code type, target, the options the backend reads,
    the options' name, the name expressions (NVRTC; their order does not count), the
    version of NVRTC, libNVVM or the linker that would compile it, and ``extra_digest``.

    ``code_type`` is 'c++', 'ptx' or 'nvvm' and ``target_type`` 'ptx', 'cubin' or 'ltoir',
    in any case, as far as Program.compile takes the pair. ``options`` is a ProgramOptions.
    ``extra_digest`` (bytes) is the caller's fingerprint of inputs the key cannot see, and is
    required for them: with include_path, pre_include, pch, use_pch or pch_dir, with an
    options.name that has a directory (NVRTC searches it for #include "..."), and with NVVM's
    use_libdevice=True. Options whose compile writes a file (create_pch, time,
    fdevice_time_trace) are refused even then, since a hit would not write it.

    Usually ``Program.compile(target, cache=cache)`` calls this itself; call it for inputs
    that need an ``extra_digest``::

        key = make_program_cache_key(code=source, code_type="c++", options=options,
                                     target_type="cubin", extra_digest=digest_of_my_headers())
        data = cache.get(key)
        if data is None:
            cache[key] = Program(source, "c++", options).compile("cubin")
            data = cache[key]
        kernel_code = ObjectCode.from_cubin(data)

    Raises TypeError for a value of the wrong type and ValueError for a value that cannot be
    keyed, each naming it.
    """
    code_type, target_type = _checked_kinds(code_type, target_type)
    options = _checked_options(options)
    if extra_digest is not None:
        if not isinstance(extra_digest, (bytes, bytearray, memoryview)):
            raise TypeError(f"extra_digest must be bytes (e.g. a hashlib digest()), got {type(extra_digest).__name__}")
        extra_digest = bytes(extra_digest)
    digest = _Digest()
    digest.add("schema", str(_KEY_SCHEMA_VERSION))
    digest.add("code_type", code_type)
    digest.add("target_type", target_type)
    _FIELDS_BY_CODE_TYPE[code_type](digest, code, options, target_type, name_expressions, extra_digest)
    # Program.compile gives the ObjectCode the options' name, for every backend.
    digest.add("options.name", str(options.name))
    if extra_digest is not None:
        digest.add("extra_digest", extra_digest)
    return digest.finish()
