# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Linker and LinkerOptions without a GPU: the names and signatures of NVIDIA's cuda.core 1.2,
each option's nvJitLink flag and cuLink* option, the checks and their error types, and the
backend this machine really picks (decided in a fresh interpreter, so its warning is seen)."""

from __future__ import annotations

import dataclasses
import inspect
import json
import subprocess
import sys
import warnings

import pytest

ARCH = "sm_90"
EMPTY = inspect.Parameter.empty
PTX = b".version 8.0\n.target sm_90\n.address_size 64\n"


def parameters(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


@pytest.fixture(scope="module")
def linker_module(cuda_core):
    from cuda.core import _linker

    return _linker


@pytest.fixture
def options(linker_module):
    """LinkerOptions with a fixed arch (no driver needed), other fields as given."""

    def make(**fields):
        fields.setdefault("arch", ARCH)
        return linker_module.LinkerOptions(**fields)

    return make


@pytest.fixture(scope="module")
def backend(linker_module) -> str:
    """The backend this process links with ('nvJitLink' or 'driver')."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the fallback's warning: seen in its own test
        return str(linker_module.Linker.which_backend())


@pytest.fixture(scope="module")
def driver(cuda_core):
    from cuda.bindings import driver

    return driver


# ---------------------------------------------------------------------------------------------
# Names and signatures, as NVIDIA's stubs give them.


def test_names_are_cuda_cores(cuda_core, linker_module) -> None:
    assert linker_module.__all__ == ["Linker", "LinkerOptions"]
    assert {"Linker", "LinkerOptions"} <= set(cuda_core.__all__)
    assert cuda_core.Linker is linker_module.Linker and cuda_core.LinkerOptions is linker_module.LinkerOptions
    from cuda.core import Linker, LinkerOptions  # noqa: F401 - NVIDIA's tests import them so


def test_linker_signatures(linker_module) -> None:
    # Linker(*object_codes, options=None): a cdef class's __init__ shows no signature, so its
    # shape is checked by calls in test_linker_takes_object_codes_and_options_only.
    Linker = linker_module.Linker
    assert parameters(Linker.link) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("target_type", EMPTY, "POSITIONAL_OR_KEYWORD"),
    ]
    for method in ("get_error_log", "get_info_log", "close"):
        assert parameters(getattr(Linker, method)) == [("self", EMPTY, "POSITIONAL_OR_KEYWORD")], method
    assert {name for name in dir(Linker) if not name.startswith("_")} == {
        "close",
        "get_error_log",
        "get_info_log",
        "handle",
        "is_closed",
        "link",
        "which_backend",
    }
    for name in ("handle", "is_closed"):
        assert (
            isinstance(inspect.getattr_static(Linker, name), property)
            or type(inspect.getattr_static(Linker, name)).__name__ == "getset_descriptor"
        ), name
    which = inspect.getattr_static(Linker, "which_backend")
    assert isinstance(which, classmethod) and not isinstance(which, property)


def test_options_fields_and_defaults(linker_module) -> None:
    fields = [(field.name, field.default) for field in dataclasses.fields(linker_module.LinkerOptions)]
    names = [
        "name",
        "arch",
        "max_register_count",
        "time",
        "verbose",
        "link_time_optimization",
        "ptx",
        "optimization_level",
        "debug",
        "lineinfo",
        "ftz",
        "prec_div",
        "prec_sqrt",
        "fma",
        "kernels_used",
        "variables_used",
        "optimize_unused_variables",
        "ptxas_options",
        "split_compile",
        "split_compile_extended",
        "no_cache",
        "numba_debug",
    ]
    assert fields == [("name", "<default linker>")] + [(name, None) for name in names[1:]]
    assert parameters(linker_module.LinkerOptions.as_bytes) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("backend", "nvjitlink", "POSITIONAL_OR_KEYWORD"),
    ]


# ---------------------------------------------------------------------------------------------
# LinkerOptions: the checks made when the options are made.


def test_name_none_is_the_default_and_arch_is_kept(options) -> None:
    made = options(name=None, arch="sm_80")
    assert (made.name, made.arch) == ("<default linker>", "sm_80")


def test_arch_none_needs_a_driver(cuda_core, linker_module, no_driver) -> None:
    with pytest.raises(cuda_core.DriverNotFoundError, match=r"LinkerOptions\(arch="):
        linker_module.LinkerOptions()


@pytest.mark.parametrize("field, value", [("kernels_used", 3), ("variables_used", ["v", 1]), ("ptxas_options", {"-v"})])
def test_name_lists_take_str_or_lists_of_str(options, field, value) -> None:
    with pytest.raises(TypeError, match=field):
        options(**{field: value})


def test_numba_debug_is_deprecated(options) -> None:
    with pytest.warns(DeprecationWarning, match="numba_debug"):
        made = options(numba_debug=True)
    assert made._prepare_nvjitlink_options() == [f"-arch={ARCH}"]


# ---------------------------------------------------------------------------------------------
# nvJitLink's flags: -arch= first, then each field set.


@pytest.mark.parametrize(
    "fields, flags",
    [
        ({"max_register_count": 32}, ["-maxrregcount=32"]),
        ({"time": True}, ["-time"]),
        ({"time": False}, ["-time"]),  # nvJitLink's -time takes no value: any value asks for it
        ({"verbose": True}, ["-verbose"]),
        ({"verbose": False}, []),
        ({"link_time_optimization": True, "ptx": True}, ["-lto", "-ptx"]),
        ({"optimization_level": 0}, ["-O0"]),
        ({"optimization_level": 3}, ["-O3"]),
        ({"debug": True, "lineinfo": True}, ["-g", "-lineinfo"]),
        ({"debug": False, "lineinfo": False}, []),
        (
            {"ftz": True, "prec_div": False, "prec_sqrt": True, "fma": False},
            ["-ftz=true", "-prec-div=false", "-prec-sqrt=true", "-fma=false"],
        ),
        ({"kernels_used": "A"}, ["-kernels-used=A"]),
        ({"kernels_used": ["C", "B"]}, ["-kernels-used=C", "-kernels-used=B"]),
        ({"variables_used": ("v1", "v2")}, ["-variables-used=v1", "-variables-used=v2"]),
        ({"optimize_unused_variables": True}, ["-optimize-unused-variables"]),
        ({"ptxas_options": "-v"}, ["-Xptxas=-v"]),
        ({"ptxas_options": ("-v", "--verbose")}, ["-Xptxas=-v", "-Xptxas=--verbose"]),
        ({"ptxas_options": []}, []),
        ({"split_compile": 0, "split_compile_extended": 4}, ["-split-compile=0", "-split-compile-extended=4"]),
        ({"split_compile": True}, ["-split-compile=1"]),
        ({"no_cache": True}, ["-no-cache"]),
        ({"no_cache": False}, []),
    ],
)
def test_nvjitlink_flags(options, fields, flags) -> None:
    made = options(**fields)
    assert made._prepare_nvjitlink_options() == [f"-arch={ARCH}", *flags]
    assert made._prepare_nvjitlink_options(as_bytes=True) == [flag.encode() for flag in [f"-arch={ARCH}", *flags]]


@pytest.mark.parametrize("name", ["driver", "invalid", "nvrtc"])
def test_as_bytes_is_for_nvjitlink_only(options, name) -> None:
    with pytest.raises(ValueError, match="only supports 'nvjitlink' backend"):
        options().as_bytes(name)


def test_as_bytes_needs_the_nvjitlink_backend(options, backend) -> None:
    made = options(debug=True, ftz=True, max_register_count=32)
    if backend == "driver":
        with pytest.raises(RuntimeError, match="nvJitLink backend is not available"):
            made.as_bytes("nvjitlink")
    else:
        assert (
            made.as_bytes()
            == made.as_bytes("NVJITLINK")
            == [f"-arch={ARCH}".encode(), b"-maxrregcount=32", b"-g", b"-ftz=true"]
        )


# ---------------------------------------------------------------------------------------------
# The driver's cuLinkCreate options: four log entries, then the fields set.


def test_driver_options_for_every_field_it_takes(options, driver) -> None:
    option = driver.CUjit_option
    values, keys = options(
        arch="sm_80",
        max_register_count=32,
        verbose=True,
        link_time_optimization=True,
        optimization_level=2,
        debug=True,
        lineinfo=True,
        no_cache=True,
    )._prepare_driver_options()
    assert keys[:4] == [
        option.CU_JIT_INFO_LOG_BUFFER,
        option.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        option.CU_JIT_ERROR_LOG_BUFFER,
        option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ]
    assert isinstance(values[0], bytearray) and isinstance(values[2], bytearray)
    assert values[1] == len(values[0]) and values[3] == len(values[2]) and values[0] is not values[2]
    assert dict(zip(keys[4:], values[4:])) == {
        option.CU_JIT_TARGET: driver.CUjit_target.CU_TARGET_COMPUTE_80,
        option.CU_JIT_MAX_REGISTERS: 32,
        option.CU_JIT_LOG_VERBOSE: 1,
        option.CU_JIT_LTO: 1,
        option.CU_JIT_OPTIMIZATION_LEVEL: 2,
        option.CU_JIT_GENERATE_DEBUG_INFO: 1,
        option.CU_JIT_GENERATE_LINE_INFO: 1,
        option.CU_JIT_CACHE_MODE: driver.CUjit_cacheMode.CU_JIT_CACHE_OPTION_NONE,
    }
    assert len(keys) == len(values) == 12


def test_driver_options_left_false_are_not_passed(options, driver) -> None:
    values, keys = options(
        verbose=False, link_time_optimization=False, debug=False, lineinfo=False, no_cache=False
    )._prepare_driver_options()
    assert keys[4:] == [driver.CUjit_option.CU_JIT_TARGET]


@pytest.mark.parametrize(
    "arch, member",
    [
        ("sm_90", "CU_TARGET_COMPUTE_90"),
        ("compute_80", "CU_TARGET_COMPUTE_80"),
        ("sm_90a", "CU_TARGET_COMPUTE_90A"),
        ("sm_100f", "CU_TARGET_COMPUTE_100F"),
    ],
)
def test_driver_target_of_each_arch_spelling(options, driver, arch, member) -> None:
    if not hasattr(driver.CUjit_target, member):  # cuda-bindings 12.8 has no family targets
        with pytest.raises(AttributeError, match=f"CUjit_target has no {member}"):
            options(arch=arch)._prepare_driver_options()
        return
    values, keys = options(arch=arch)._prepare_driver_options()
    assert values[keys.index(driver.CUjit_option.CU_JIT_TARGET)] == getattr(driver.CUjit_target, member)


@pytest.mark.parametrize("arch", ["99", "sm_1", "gfx90a"])
def test_driver_rejects_an_unknown_arch_first(options, arch) -> None:
    # An AttributeError, as NVIDIA's tests expect, and before any other check (ptx=True here).
    with pytest.raises(AttributeError, match="CUjit_target"):
        options(arch=arch, ptx=True)._prepare_driver_options()


@pytest.mark.parametrize(
    "field, value",
    [
        ("time", True),
        ("time", False),
        ("ptx", True),
        ("ptxas_options", []),
        ("split_compile", 0),
        ("split_compile_extended", 1),
    ],
)
def test_driver_refuses_nvjitlink_only_options(options, field, value) -> None:
    with pytest.raises(ValueError, match=f"{field} option is not supported by the driver API"):
        options(**{field: value})._prepare_driver_options()


@pytest.mark.parametrize(
    "field, value, wording",
    [
        ("ftz", True, "ftz option is deprecated"),
        ("prec_div", True, "prec_div option is deprecated"),
        ("prec_sqrt", False, "prec_sqrt option is deprecated"),
        ("fma", True, "fma options is deprecated"),
        ("kernels_used", "k", "kernels_used is deprecated"),
        ("variables_used", ["v"], "variables_used is deprecated"),
        ("optimize_unused_variables", True, "optimize_unused_variables is deprecated"),
    ],
)
def test_driver_ignores_deprecated_options_with_a_warning(options, field, value, wording) -> None:
    with pytest.warns(DeprecationWarning, match=wording):
        values, keys = options(**{field: value})._prepare_driver_options()
    assert len(keys) == 5  # the log entries and the target: nothing for the field


# ---------------------------------------------------------------------------------------------
# The backend, as this machine decides it, and the import that does not decide it.

DECIDE = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from cuda.core import _linker
    first, second = _linker._decide_nvjitlink_or_driver(), _linker._decide_nvjitlink_or_driver()
    backend = str(_linker.Linker.which_backend())
print(json.dumps([first, second, backend, [str(w.message) for w in caught if w.category is RuntimeWarning]]))
"""

NVJITLINK_LOADS = """
try:
    from cuda.bindings import nvjitlink
    print(nvjitlink.version() >= (12, 3))
except Exception:
    print(False)
"""


def python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_backend_is_nvjitlink_where_it_loads_else_the_driver_with_one_warning(cuda_core) -> None:
    first, second, backend, fallback_warnings = json.loads(python(DECIDE))
    nvjitlink_loads = python(NVJITLINK_LOADS).strip() == "True"
    assert first is second is (not nvjitlink_loads)
    assert backend == ("nvJitLink" if nvjitlink_loads else "driver")
    if nvjitlink_loads:
        assert fallback_warnings == []
    else:
        assert len(fallback_warnings) == 1 and "cuda.bindings.nvjitlink is not available" in fallback_warnings[0]
        assert "cuLink" in fallback_warnings[0] and "pip install nvidia-nvjitlink" in fallback_warnings[0]


def test_getting_linker_loads_no_nvjitlink_library(cuda_core) -> None:
    probe = (
        "import sys, cuda.core; print('cuda.core._linker' in sys.modules); cuda.core.Linker, cuda.core.LinkerOptions; "
        "print('cuda.core._linker' in sys.modules, 'libnvJitLink' in open('/proc/self/maps').read())"
    )
    assert python(probe).split() == ["False", "True", "False"]


# ---------------------------------------------------------------------------------------------
# Linker: what is checked before any backend is asked.


def test_linker_needs_object_codes(linker_module, options) -> None:
    with pytest.raises(ValueError, match="At least one ObjectCode object must be provided"):
        linker_module.Linker()
    with pytest.raises(ValueError, match="At least one ObjectCode object must be provided"):
        linker_module.Linker(options=options())


def test_linker_takes_object_codes_and_options_only(cuda_core, linker_module) -> None:
    with pytest.raises(TypeError, match="ObjectCode"):
        linker_module.Linker(PTX)
    with pytest.raises(TypeError, match="ObjectCode"):  # options are keyword-only: this is no ObjectCode
        linker_module.Linker(cuda_core.ObjectCode.from_ptx(PTX), linker_module.LinkerOptions(arch=ARCH))
    with pytest.raises(TypeError, match="Linker options"):
        linker_module.Linker(cuda_core.ObjectCode.from_ptx(PTX), options=42)


def test_driver_backend_checks_options_before_the_driver(cuda_core, linker_module, options, backend) -> None:
    if backend != "driver":
        pytest.skip("nvJitLink links here: the driver's checks do not apply")
    with pytest.raises(ValueError, match="split_compile option is not supported"):
        linker_module.Linker(cuda_core.ObjectCode.from_ptx(PTX), options=options(split_compile=2))


def test_driver_backend_needs_a_driver(cuda_core, linker_module, options, backend, no_driver) -> None:
    if backend != "driver":
        pytest.skip("nvJitLink links here, which needs no driver")
    with pytest.raises(cuda_core.DriverNotFoundError):
        linker_module.Linker(cuda_core.ObjectCode.from_ptx(PTX), options=options())


def test_ptx_program_gets_the_linkers_checks(cuda_core, backend) -> None:
    if backend != "driver":
        pytest.skip("nvJitLink links here: it takes ptxas_options")
    from cuda.core._program import Program, ProgramOptions

    with pytest.raises(ValueError, match="ptxas_options option is not supported by the driver API"):
        Program(PTX.decode(), "ptx", ProgramOptions(arch=ARCH, ptxas_options="-v"))


# ---------------------------------------------------------------------------------------------
# Real links through nvJitLink, which needs no GPU: LTO-IR from NVRTC, and a failing link.

ADD_ONE = 'extern "C" __device__ int add_one(int x) { return x + 1; }'
CALLER = (
    'extern "C" __device__ int add_one(int);\n'
    'extern "C" __global__ void bump(int* data) { data[threadIdx.x] = add_one(data[threadIdx.x]); }'
)


def ltoir(cuda_core, source: str):
    from cuda.core import Program, ProgramOptions

    options = ProgramOptions(arch=ARCH, relocatable_device_code=True, link_time_optimization=True)
    return Program(source, "c++", options).compile("ltoir")


def test_lto_programs_link_into_one_cubin(cuda_core, linker_module, options, backend) -> None:
    if backend != "nvJitLink":
        pytest.skip("the driver's cuLink* cannot link LTO-IR")
    parts = [ltoir(cuda_core, ADD_ONE), ltoir(cuda_core, CALLER)]
    assert [part.code_type for part in parts] == ["ltoir", "ltoir"]
    linker = linker_module.Linker(*parts, options=options(link_time_optimization=True))
    code = linker.link("cubin")
    assert code.code_type == "cubin" and bytes(code.code)[:4] == b"\x7fELF"
    assert b"bump" in bytes(code.code)
    linker.close()


def test_a_failing_link_carries_nvjitlinks_log(cuda_core, linker_module, options, backend) -> None:
    if backend != "nvJitLink":
        pytest.skip("nvJitLink's errors: the driver backend reports its own")
    from cuda.bindings.nvjitlink import nvJitLinkError

    linker = linker_module.Linker(ltoir(cuda_core, CALLER), options=options(link_time_optimization=True))
    with pytest.raises(nvJitLinkError, match="add_one"):  # undefined: the log names the symbol
        linker.link("cubin")
