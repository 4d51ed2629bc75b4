# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Program and ProgramOptions without a GPU: every option's flags for NVRTC and libNVVM, the
checks and their error types, and real NVRTC (and, where libNVVM loads, NVVM) compiles with
each major's compiler wheels."""

from __future__ import annotations

import io
import os
import re
import warnings
from pathlib import Path

import pytest

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void scale(T* data, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}
"""

# An unused local: NVRTC warns (#177-D) by default, so the compile succeeds with a log.
WARNS = r"""
extern "C" __global__ void noisy(int* out) {
    int never_read = 42;
    out[0] = 1;
}
"""

FAULTY = r"""
extern "C" __global__ void broken(float* out) {
    out[0] = no_such_identifier * 2.0f;
}
"""

ARCH = "sm_90"


@pytest.fixture(scope="module")
def core(cuda_core):
    """cuda.core, once NVRTC is known to load; only a GPU machine (where a driver is
    present) may lack NVRTC, and there these tests skip instead of failing."""
    from cuda.bindings import nvrtc

    try:
        nvrtc.nvrtcVersion()
    except Exception as err:
        try:
            cuda_core.system.get_num_devices()
        except cuda_core.DriverNotFoundError:
            raise err from None  # the CPU machines must have NVRTC: fail
        pytest.skip(f"NVRTC cannot be loaded here ({err})")
    return cuda_core


@pytest.fixture(scope="module")
def program_module(cuda_core):
    from cuda.core import _program

    return _program


@pytest.fixture
def options(program_module):
    """ProgramOptions with a fixed arch (no driver needed), other fields as given."""

    def make(**fields):
        fields.setdefault("arch", ARCH)
        return program_module.ProgramOptions(**fields)

    return make


@pytest.fixture(scope="module")
def nvrtc_version(core) -> tuple[int, int]:
    from cuda.core._program import _nvrtc_version

    return _nvrtc_version()


@pytest.fixture(scope="module")
def nvvm(program_module):
    """cuda.bindings.nvvm with libnvvm loaded, or a skip naming why not."""
    try:
        return program_module._get_nvvm_module()
    except RuntimeError as err:
        pytest.skip(str(err))


def nvvm_ir(nvvm, body: str, kernel: str | None = None) -> str:
    """A module of NVVM IR text with this libNVVM's IR version (and ``kernel`` annotated as one)."""
    major, minor, debug_major, debug_minor = nvvm.ir_version()
    annotations = f'!nvvm.annotations = !{{!0}}\n!0 = !{{void (i32*)* @{kernel}, !"kernel", i32 1}}\n' if kernel else ""
    version_id = 1 if kernel else 0
    return (
        'target triple = "nvptx64-unknown-cuda"\n'
        'target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-'
        'f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"\n'
        f"{body}\n{annotations}"
        f"!nvvmir.version = !{{!{version_id}}}\n"
        f"!{version_id} = !{{i32 {major}, i32 {minor}, i32 {debug_major}, i32 {debug_minor}}}\n"
    )


KERNEL_BODY = """
define void @simple(i32* %data) {
entry:
  %v = load i32, i32* %data
  %w = call i32 @helper_add(i32 %v)
  store i32 %w, i32* %data
  ret void
}
"""
KERNEL_IR = "declare i32 @helper_add(i32)\n" + KERNEL_BODY
HELPER_IR = """
define i32 @helper_add(i32 %x) {
entry:
  %r = add i32 %x, 1
  ret i32 %r
}
"""


# ---------------------------------------------------------------------------------------------
# ProgramOptions: fields, defaults, flags.


def test_fields_defaults_and_order_are_nvidias(program_module) -> None:
    import dataclasses

    fields = dataclasses.fields(program_module.ProgramOptions)
    names = [field.name for field in fields]
    assert len(names) == 55 and names[:3] == ["name", "arch", "relocatable_device_code"]
    assert names[-3:] == ["extra_sources", "use_libdevice", "numba_debug"]
    assert {field.name: field.default for field in fields if field.default is not None} == {"name": "default_program"}


# field -> (value, the NVRTC arguments it becomes): the spellings of NVRTC's documentation.
NVRTC_FLAGS = {
    "relocatable_device_code": (False, ["--relocatable-device-code=false"]),
    "extensible_whole_program": (True, ["--extensible-whole-program"]),
    "debug": (True, ["--device-debug"]),
    "lineinfo": (True, ["--generate-line-info"]),
    "device_code_optimize": (True, ["--dopt=on"]),
    "ptxas_options": (["-v", "-O2"], ["--ptxas-options=-v", "--ptxas-options=-O2"]),
    "max_register_count": (32, ["--maxrregcount=32"]),
    "ftz": (True, ["--ftz=true"]),
    "prec_sqrt": (False, ["--prec-sqrt=false"]),
    "prec_div": (True, ["--prec-div=true"]),
    "fma": (False, ["--fmad=false"]),
    "use_fast_math": (True, ["--use_fast_math"]),
    "extra_device_vectorization": (True, ["--extra-device-vectorization"]),
    "link_time_optimization": (True, ["--dlink-time-opt"]),
    "gen_opt_lto": (True, ["--gen-opt-lto"]),
    "define_macro": ([("WIDTH", "64"), "ALONE"], ["--define-macro=WIDTH=64", "--define-macro=ALONE"]),
    "undefine_macro": ("GONE", ["--undefine-macro=GONE"]),
    "include_path": (("/a", Path("/b")), ["--include-path=/a", "--include-path=/b"]),
    "pre_include": ("x.h", ["--pre-include=x.h"]),
    "no_source_include": (True, ["--no-source-include"]),
    "std": ("c++17", ["--std=c++17"]),
    "builtin_move_forward": (False, ["--builtin-move-forward=false"]),
    "builtin_initializer_list": (True, ["--builtin-initializer-list=true"]),
    "disable_warnings": (True, ["--disable-warnings"]),
    "restrict": (True, ["--restrict"]),
    "device_as_default_execution_space": (True, ["--device-as-default-execution-space"]),
    "device_int128": (True, ["--device-int128"]),
    "optimization_info": ("inline", ["--optimization-info=inline"]),
    "no_display_error_number": (True, ["--no-display-error-number"]),
    "diag_error": (1234, ["--diag-error=1234"]),
    "diag_suppress": ((177, 550), ["--diag-suppress=177", "--diag-suppress=550"]),
    "diag_warn": ([1000], ["--diag-warn=1000"]),
    "brief_diagnostics": (True, ["--brief-diagnostics=true"]),
    "time": ("t.csv", ["--time=t.csv"]),
    "split_compile": (4, ["--split-compile=4"]),
    "fdevice_syntax_only": (True, ["--fdevice-syntax-only"]),
    "minimal": (True, ["--minimal"]),
    "no_cache": (True, ["--no-cache"]),
    "fdevice_time_trace": (Path("/tmp/trace"), ["--fdevice-time-trace=/tmp/trace"]),
    "device_float128": (True, ["--device-float128"]),
    "frandom_seed": ("12345", ["--frandom-seed=12345"]),
    "ofast_compile": ("min", ["--Ofast-compile=min"]),
    "pch": (True, ["--pch"]),
    "create_pch": ("a.pch", ["--create-pch=a.pch"]),
    "use_pch": ("a.pch", ["--use-pch=a.pch"]),
    "pch_dir": ("/pch", ["--pch-dir=/pch"]),
    "pch_verbose": (True, ["--pch-verbose=true"]),
    "pch_messages": (False, ["--pch-messages=false"]),
    "instantiate_templates_in_pch": (True, ["--instantiate-templates-in-pch=true"]),
    "numba_debug": (True, ["--numba-debug"]),
}
# Fields that are not NVRTC flags (use_bundled_headers needs NVRTC 13.3: its own test).
NOT_NVRTC_FLAGS = {"name", "arch", "use_bundled_headers", "extra_sources", "use_libdevice"}


def test_every_field_is_covered_here(program_module) -> None:
    import dataclasses

    names = {field.name for field in dataclasses.fields(program_module.ProgramOptions)}
    assert names == set(NVRTC_FLAGS) | NOT_NVRTC_FLAGS


@pytest.mark.parametrize("field", sorted(NVRTC_FLAGS))
def test_each_option_becomes_its_nvrtc_flags(options, field) -> None:
    value, flags = NVRTC_FLAGS[field]
    assert options(**{field: value}).as_bytes("nvrtc") == [f"-arch={ARCH}".encode()] + [f.encode() for f in flags]


@pytest.mark.parametrize("field", ["debug", "use_fast_math", "pch", "restrict", "no_cache", "numba_debug"])
def test_a_false_flag_is_left_out(options, field) -> None:
    assert options(**{field: False}).as_bytes("nvrtc") == [f"-arch={ARCH}".encode()]


def test_unset_options_pass_nothing_and_flags_keep_field_order(options) -> None:
    assert options().as_bytes("nvrtc") == [b"-arch=sm_90"]
    both = options(std="c++20", debug=True, ftz=False).as_bytes("NVRTC")
    assert both == [b"-arch=sm_90", b"--device-debug", b"--ftz=false", b"--std=c++20"]
    assert options()._prepare_nvrtc_options() == [b"-arch=sm_90"]


def test_ltoir_implies_lto_and_ptx_or_cubin_drop_it(options) -> None:
    assert options().as_bytes("nvrtc", "ltoir") == [b"-arch=sm_90", b"--dlink-time-opt"]
    lto = options(link_time_optimization=True)
    assert lto.as_bytes("nvrtc", "ltoir") == [b"-arch=sm_90", b"--dlink-time-opt"]
    assert lto.as_bytes("nvrtc", "ptx") == lto.as_bytes("nvrtc", "cubin") == [b"-arch=sm_90"]


@pytest.mark.parametrize(
    ("macro", "flags"),
    [
        ("N", ["--define-macro=N"]),
        (("N", "3"), ["--define-macro=N=3"]),
        ([("N", "3")], ["--define-macro=N=3"]),
        ((("A", "1"), ("B", "2")), ["--define-macro=A=1", "--define-macro=B=2"]),
        (["A", ("B", "")], ["--define-macro=A", "--define-macro=B="]),
    ],
)
def test_define_macro_forms(options, macro, flags) -> None:
    assert options(define_macro=macro).as_bytes("nvrtc")[1:] == [f.encode() for f in flags]


@pytest.mark.parametrize(
    ("macro", "message"),
    [
        (("ONLY_NAME",), "Expected define_macro tuple"),
        (("MY_MACRO", 99), "Expected define_macro tuple"),
        ([("ONLY_NAME",)], "Expected define_macro tuple"),
        ([42], "Expected define_macro"),
        (7, "Expected define_macro"),
    ],
)
def test_bad_define_macro_is_a_runtime_error_when_flags_are_made(options, macro, message) -> None:
    made = options(define_macro=macro)  # NVIDIA's check runs when the flags are made, not before
    with pytest.raises(RuntimeError, match=message):
        made.as_bytes("nvrtc")


def test_unknown_backend(options) -> None:
    with pytest.raises(ValueError, match="Unknown backend 'invalid'. Must be one of: 'nvrtc', 'nvvm'"):
        options().as_bytes("invalid")
    with pytest.raises(ValueError, match="Unknown backend 'nvjitlink'"):
        options().as_bytes("nvjitlink")


def test_enum_backends_and_targets_are_accepted(program_module, options) -> None:
    backend = program_module.CompilerBackendType
    assert options(debug=True).as_bytes(backend.NVRTC) == [b"-arch=sm_90", b"--device-debug"]
    assert options().as_bytes(backend.NVVM, program_module.ObjectCodeFormatType.LTOIR) == [
        b"-arch=compute_90",
        b"-gen-lto",
    ]


# field -> (value, the libNVVM arguments it becomes)
NVVM_FLAGS = {
    "debug": (True, ["-g"]),
    "device_code_optimize": (False, ["-opt=0"]),
    "ftz": (True, ["-ftz=1"]),
    "prec_sqrt": (False, ["-prec-sqrt=0"]),
    "prec_div": (True, ["-prec-div=1"]),
    "fma": (False, ["-fma=0"]),
    "numba_debug": (True, ["-numba-debug"]),
}


@pytest.mark.parametrize("field", sorted(NVVM_FLAGS))
def test_each_nvvm_option_becomes_its_libnvvm_flag(options, field) -> None:
    value, flags = NVVM_FLAGS[field]
    assert options(**{field: value}).as_bytes("nvvm") == [b"-arch=compute_90"] + [f.encode() for f in flags]


def test_nvvm_arch_and_targets(options) -> None:
    assert options(arch="sm_100a").as_bytes("nvvm") == [b"-arch=compute_100a"]
    assert options(arch="compute_80").as_bytes("nvvm", "ptx") == [b"-arch=compute_80"]
    made = options(arch="sm_80", debug=True, ftz=True, device_code_optimize=True)
    assert made.as_bytes("nvvm") == [b"-arch=compute_80", b"-g", b"-opt=3", b"-ftz=1"]
    assert made._prepare_nvvm_options(as_bytes=False) == ["-arch=compute_80", "-g", "-opt=3", "-ftz=1"]
    # NVRTC-only extras and the fields NVVM takes elsewhere are not flags for libNVVM.
    quiet = options(
        link_time_optimization=True,
        use_libdevice=True,
        no_cache=True,
        pch=True,
        frandom_seed="1",
        extra_sources=[("m", "x")],
        lineinfo=False,
        use_fast_math=False,
    )
    assert quiet.as_bytes("nvvm") == [b"-arch=compute_90"]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"lineinfo": True}, "lineinfo"),
        ({"relocatable_device_code": False}, "relocatable_device_code"),  # set, even to False
        ({"std": "c++17", "max_register_count": 8, "time": "t"}, "max_register_count, std, time"),
        ({"define_macro": "A", "include_path": "/x", "diag_warn": 1}, "define_macro, include_path, diag_warn"),
    ],
)
def test_options_libnvvm_lacks_are_a_cuda_error(core, options, fields, named) -> None:
    with pytest.raises(core.CUDAError, match=f"not supported by NVVM backend: {named}$"):
        options(**fields).as_bytes("nvvm")


def test_nvvm_options_are_single_dashed(program_module) -> None:
    program_module._assert_single_dashed_nvvm_options(["-arch=compute_90", "-g"])
    with pytest.raises(RuntimeError, match="'--numba-debug' has two dashes"):
        program_module._assert_single_dashed_nvvm_options(["-g", "--numba-debug"])


def test_name_none_is_the_default_name_and_repr_shows_what_is_set(options) -> None:
    made = options(name=None, debug=True, define_macro=("A", "1"))
    assert made.name == "default_program"
    assert repr(made) == "ProgramOptions(name='default_program', arch='sm_90', debug=True, define_macro=('A', '1'))"
    assert made == options(debug=True, define_macro=("A", "1"))


@pytest.mark.parametrize(
    ("extra", "error", "message"),
    [
        (42, TypeError, "extra_sources must be a sequence of 2-tuples"),
        ({"a": "b"}, TypeError, "extra_sources must be a sequence of 2-tuples"),
        (["not_a_tuple"], TypeError, "Each extra module must be a 2-tuple"),
        ([("m", "x", "y")], TypeError, "Each extra module must be a 2-tuple"),
        ([(42, b"source")], TypeError, "Module name at index 0 must be a string"),
        ([("ok", "x"), ("mod", 42)], TypeError, "Module source at index 1 must be str"),
        ([("mod", b"")], ValueError, "Module source for 'mod'.*cannot be empty"),
        ([("mod", bytearray())], ValueError, "cannot be empty"),
    ],
)
def test_extra_sources_are_checked_at_construction(options, extra, error, message) -> None:
    with pytest.raises(error, match=message):
        options(extra_sources=extra)


def test_extra_sources_as_bytes(options) -> None:
    made = options(extra_sources=[("s", "text"), ("ba", bytearray(b"\x00\x01")), ("b", b"\x02")])
    pairs = made._prepare_extra_sources_bytes()
    assert pairs == [(b"s", b"text"), (b"ba", b"\x00\x01"), (b"b", b"\x02")]
    assert all(type(name) is bytes and type(source) is bytes for name, source in pairs)
    assert options()._prepare_extra_sources_bytes() is None


def test_bundled_headers_need_nvrtc_13_3(core, options, nvrtc_version) -> None:
    if nvrtc_version >= (13, 3):
        made = options(use_bundled_headers=True)
        flag = made.as_bytes("nvrtc")[1].decode()
        assert flag.startswith("--use-bundled-headers=") and flag.endswith(
            os.path.join("cuda-python", "nvrtc-bundled-headers")
        )
    else:
        with pytest.raises(RuntimeError, match="use_bundled_headers needs NVRTC 13.3"):
            options(use_bundled_headers=True)
    assert options(use_bundled_headers=False).as_bytes("nvrtc") == [b"-arch=sm_90"]


def test_default_arch_needs_a_driver(core, program_module, no_driver) -> None:
    with pytest.raises(core.DriverNotFoundError, match=re.escape("ProgramOptions(arch='sm_90')")):
        program_module.ProgramOptions()
    with pytest.raises(core.DriverNotFoundError):
        program_module.Program(SAXPY, "c++")  # options=None means ProgramOptions()


# ---------------------------------------------------------------------------------------------
# Program: arguments.


def test_code_types_and_their_errors(core, program_module, options) -> None:
    Program = program_module.Program
    with pytest.raises(
        RuntimeError,
        match=r"^Unsupported code_type='fortran' \(supported_code_types=\('c\+\+', "
        r"'ptx', 'nvvm'\)\)$",
    ):
        Program("goto 100", "FORTRAN")
    with pytest.raises(TypeError, match="CUDA C\\+\\+ code must be a str"):
        Program(12345, "c++", options())
    with pytest.raises(TypeError, match="CUDA C\\+\\+ code must be a str, got bytes"):
        Program(SAXPY.encode(), "c++", options())
    with pytest.raises(TypeError, match="PTX code must be a str"):
        Program(b".version 8.0", "ptx", options())
    with pytest.raises(TypeError, match="code_type must be a str"):
        Program(SAXPY, 3, options())
    assert Program(SAXPY, "C++", options()).backend == "NVRTC"
    assert Program(SAXPY, program_module.SourceCodeType.CXX, options()).backend == "NVRTC"


def test_options_may_be_a_dict(core, program_module) -> None:
    program = program_module.Program(SAXPY, "c++", {"name": "42", "arch": ARCH})
    assert program.compile("ptx").name == "42"
    with pytest.raises(TypeError, match="ProgramOptions or a dict"):
        program_module.Program(SAXPY, "c++", [("arch", ARCH)])
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        program_module.Program(SAXPY, "c++", {"arch": ARCH, "bogus": 1})


def test_extra_sources_belong_to_nvvm(core, program_module, options) -> None:
    made = options(extra_sources=[("helper", "x")])
    with pytest.raises(ValueError, match="extra_sources is not supported by the NVRTC backend"):
        program_module.Program(SAXPY, "c++", made)
    with pytest.raises(ValueError, match="extra_sources is not supported by the PTX backend"):
        program_module.Program(".version 8.0", "ptx", made)


def test_backend_handle_repr_and_close(core, program_module, options) -> None:
    from cuda.bindings import nvrtc

    program = program_module.Program(SAXPY, "c++", options(name="saxpy.cu"))
    assert program.backend == "NVRTC" and isinstance(program.backend, program_module.CompilerBackendType)
    assert isinstance(program.handle, nvrtc.nvrtcProgram) and int(program.handle) != 0
    assert repr(program) == "<Program backend='NVRTC'>" and not program.is_closed
    import weakref

    assert weakref.ref(program)() is program
    program.close()
    program.close()
    assert program.is_closed and int(program.handle) == 0
    with pytest.raises(RuntimeError, match="Program has been closed"):
        program.compile("ptx")


# ---------------------------------------------------------------------------------------------
# Program: real NVRTC compiles.


def test_saxpy_and_template_to_ptx_with_name_expressions(core, program_module, options) -> None:
    program = program_module.Program(SAXPY, "c++", options())
    object_code = program.compile("ptx", name_expressions=["scale<float>", b"scale<double>", "scale<float>"])
    text = object_code.code.decode()
    assert object_code.code_type == "ptx" and object_code.name == "default_program"
    assert ".entry saxpy(" in text and "\0" not in text
    lowered = object_code.symbol_mapping
    assert set(lowered) == {"scale<float>", "scale<double>"} and lowered["scale<float>"] != lowered["scale<double>"]
    for name in lowered.values():  # bytes, as NVRTC gives them (and NVIDIA's cuda.core keeps them)
        assert isinstance(name, bytes) and name.startswith(b"_Z") and f".entry {name.decode()}(" in text
    # Later compiles may repeat the names given first; new ones come too late for NVRTC.
    assert (
        program.compile("cubin", name_expressions=("scale<float>",)).symbol_mapping["scale<float>"]
        == lowered["scale<float>"]
    )
    with pytest.raises(core.NVRTCError, match="NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION.*scale<int>"):
        program.compile("ptx", name_expressions=["scale<int>"])
    with pytest.raises(TypeError, match="name_expressions must be a list or tuple"):
        program.compile("ptx", name_expressions="scale<int>")


def test_targets_and_their_errors(core, program_module, options) -> None:
    Program = program_module.Program
    cubin = Program(SAXPY, "c++", options()).compile("CUBIN")
    assert cubin.code_type == "cubin" and cubin.code[:4] == b"\x7fELF"
    ltoir = Program(SAXPY, "c++", options()).compile(program_module.ObjectCodeFormatType.LTOIR)
    assert ltoir.code_type == "ltoir" and len(ltoir.code) > 0 and ltoir.code[:4] != b"\x7fELF"
    # With LTO set, 'ptx' and 'cubin' still make PTX and a cubin.
    lto = Program(SAXPY, "c++", options(link_time_optimization=True))
    assert b".entry saxpy(" in lto.compile("ptx").code and lto.compile("cubin").code[:4] == b"\x7fELF"
    with pytest.raises(ValueError, match='Unsupported target_type="fatbin" for NVRTC'):
        Program(SAXPY, "c++", options()).compile("fatbin")
    with pytest.raises(ValueError, match="a cubin needs a real architecture.*sm_90"):
        Program(SAXPY, "c++", options(arch="compute_90")).compile("cubin")
    assert Program(SAXPY, "c++", options(arch="compute_90")).compile("ptx").code.startswith(b"//")


def test_every_nvrtc_option_is_one_nvrtc_accepts(core, program_module, options, nvrtc_version, tmp_path) -> None:
    """NVRTC rejects a misspelt flag (NVRTC_ERROR_INVALID_OPTION): compile with each one."""
    (tmp_path / "extra.h").write_text("#define FROM_PRE_INCLUDE 1\n")
    # Newer than some NVRTCs (the cells of the matrix have 12.8 to 13.5), or buggy before.
    skip = {"numba_debug": (13, 2), "fdevice_time_trace": (13, 0), "no_cache": (12, 9), "frandom_seed": (12, 9)}
    special = {
        "include_path": tmp_path,
        "pre_include": "extra.h",
        "create_pch": str(tmp_path / "a.pch"),
        "use_pch": None,
        "pch_dir": None,
        "time": str(tmp_path / "time.csv"),
        "device_float128": None,
        "fdevice_time_trace": str(tmp_path / "trace"),
        "undefine_macro": "NOT_DEFINED",
        "ofast_compile": "max",  # NVRTC 12.8 takes only 0 and max
    }
    rejected = []
    for field, (value, _) in NVRTC_FLAGS.items():
        if field in skip and nvrtc_version < skip[field]:
            continue
        value = special.get(field, value)
        if value is None:
            continue  # needs an existing PCH, or an sm_100 target: NVIDIA's GPU tests cover them
        extra = {"pre_include": {"include_path": tmp_path}, "numba_debug": {"debug": True}}.get(
            field, {}
        )  # NVRTC 13.5 wants --device-debug with it
        made = options(**{field: value}, **extra)
        program = program_module.Program(SAXPY, "c++", made)
        target = "ltoir" if field in ("link_time_optimization", "gen_opt_lto") else "ptx"
        try:
            assert program.compile(target).code, field
        except core.NVRTCError as err:  # every rejected flag named at once, with NVRTC's reason
            rejected.append(f"{field}: {str(err).splitlines()[-1]}")
        program.close()
    assert not rejected


def test_logs_receive_warnings_and_quiet_compiles_write_nothing(core, program_module, options) -> None:
    logs = io.StringIO()
    program_module.Program(WARNS, "c++", options()).compile("ptx", logs=logs)
    assert "never_read" in logs.getvalue() and "warning" in logs.getvalue() and "\0" not in logs.getvalue()
    quiet = io.StringIO()
    program_module.Program(SAXPY, "c++", options()).compile("ptx", logs=quiet)
    assert quiet.getvalue() == ""


def test_failed_compile_raises_with_the_compilation_log(core, program_module, options) -> None:
    program = program_module.Program(FAULTY, "c++", options())
    logs = io.StringIO()
    with pytest.raises(core.NVRTCError, match="compilation log") as caught:
        program.compile("ptx", logs=logs)
    error = caught.value
    assert error.name == "NVRTC_ERROR_COMPILATION" and "no_such_identifier" in str(error)
    assert "out[0] = no_such_identifier * 2.0f;" in str(error)  # the offending line, as NVRTC quotes it
    assert error.log in str(error) and logs.getvalue() == error.log
    with pytest.raises(core.NVRTCError, match="(?s)NVRTC_ERROR_INVALID_OPTION.*gpu-architecture"):
        program_module.Program(SAXPY, "c++", options(arch="sm_1")).compile("ptx")


def test_defines_includes_and_pre_includes_reach_the_compiler(core, program_module, options, tmp_path) -> None:
    (tmp_path / "extra.h").write_text("#define FROM_PRE_INCLUDE 1\n")
    check = "\n#if !defined(FLAG) || VALUE != 2 || !FROM_PRE_INCLUDE || defined(GONE)\n#error not applied\n#endif\n"
    made = options(
        define_macro=["FLAG", ("VALUE", "2"), "GONE"],
        undefine_macro="GONE",
        include_path=[tmp_path],
        pre_include="extra.h",
    )
    assert program_module.Program(SAXPY + check, "c++", made).compile("cubin").code[:4] == b"\x7fELF"
    with pytest.raises(core.NVRTCError, match="not applied"):
        program_module.Program(SAXPY + check, "c++", options()).compile("ptx")


def test_pch_status(core, program_module, options, nvrtc_version, tmp_path) -> None:
    if nvrtc_version < (12, 8):
        pytest.skip("PCH needs NVRTC 12.8")
    PCHStatusType = program_module.PCHStatusType
    path = tmp_path / "k.pch"
    program = program_module.Program(SAXPY, "c++", options(create_pch=str(path)))
    assert program.pch_status is None  # not compiled yet
    program.compile("ptx")
    assert program.pch_status == PCHStatusType.CREATED and isinstance(program.pch_status, PCHStatusType)
    assert path.stat().st_size > 0
    used = program_module.Program(SAXPY, "c++", options(use_pch=str(path)))
    used.compile("ptx")
    assert used.pch_status is None  # using one is not creating one
    plain = program_module.Program(SAXPY, "c++", options())
    plain.compile("ptx")
    assert plain.pch_status is None


def test_debug_info_names_a_real_source_file_until_close(core, program_module, options) -> None:
    program = program_module.Program(SAXPY, "c++", options(lineinfo=True))
    object_code = program.compile("ptx")
    source = Path(object_code.name)
    assert re.fullmatch(r"test_program_saxpy_\w{8}\.cu", source.name), source
    assert source.read_text() == SAXPY and f'"{source}"'.encode() in object_code.code
    program.close()
    assert not source.exists()
    # A program with a name of its own keeps it.
    named = program_module.Program(SAXPY, "c++", options(debug=True, name="mine.cu"))
    assert named.compile("ptx").name == "mine.cu"


def test_ptx_loadability_follows_the_driver_version(core, program_module, options, nvrtc_version, monkeypatch) -> None:
    import warnings

    monkeypatch.setattr(program_module, "driver_version", lambda: (nvrtc_version[0], nvrtc_version[1], 0))
    assert program_module._can_load_generated_ptx() is True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        program_module.Program(SAXPY, "c++", options()).compile("ptx")
    monkeypatch.setattr(program_module, "driver_version", lambda: (nvrtc_version[0] - 1, 0, 0))
    assert program_module._can_load_generated_ptx() is False
    with pytest.warns(RuntimeWarning, match="The CUDA driver version is older than the backend version"):
        program_module.Program(SAXPY, "c++", options()).compile("ptx")


def test_ptx_compiles_without_a_driver_and_without_a_warning(core, program_module, options, no_driver) -> None:
    import warnings

    with pytest.raises(core.DriverNotFoundError):
        program_module.driver_version()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert program_module.Program(SAXPY, "c++", options()).compile("ptx").code


def test_cache_must_be_a_program_cache_resource(core, program_module, options) -> None:
    class DuckCache:
        def get(self, key, default=None):
            return None

        def __setitem__(self, key, value):
            raise AssertionError("nothing may be stored")

    with pytest.raises(TypeError, match="ProgramCacheResource"):
        program_module.Program(SAXPY, "c++", options()).compile("cubin", cache=DuckCache())


def test_compile_goes_through_the_module_level_seam(core, program_module, options, monkeypatch) -> None:
    calls = []

    def seam(program, target_type, name_expressions, logs):
        calls.append((target_type, tuple(name_expressions), logs))
        return "compiled"

    monkeypatch.setattr(program_module, "_program_compile_uncached", seam)
    assert program_module.Program(SAXPY, "c++", options()).compile("PTX", ["scale<int>"]) == "compiled"
    assert calls == [("ptx", ("scale<int>",), None)]


# ---------------------------------------------------------------------------------------------
# PTX programs (a linker) without a driver.

NOOP_PTX = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry noop()\n{\n  ret;\n}\n"


@pytest.fixture(scope="module")
def ptx_backend(core) -> str:
    """The Linker's backend here: nvJitLink (the pinned environments install it), else the driver."""
    from cuda.core._linker import Linker

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the driver fallback's warning
        return str(Linker.which_backend())


def test_ptx_program_links_through_nvjitlink_without_a_gpu(
    core, program_module, options, ptx_backend, no_driver
) -> None:
    """nvJitLink assembles and links PTX on the CPU: a real cubin comes out with no driver.
    Through the driver's cuLink* a PTX program needs the driver."""
    if ptx_backend != "nvJitLink":
        with pytest.raises(core.DriverNotFoundError):
            program_module.Program(NOOP_PTX, "ptx", options())
        return
    code = program_module.Program(NOOP_PTX, "ptx", options()).compile("cubin")
    assert code.code_type == "cubin" and bytes(code.code)[:4] == b"\x7fELF"


def test_numba_debug_is_ignored_for_ptx_with_a_warning(core, program_module, options, ptx_backend, no_driver) -> None:
    with pytest.warns(UserWarning, match="numba_debug is ignored for code_type='ptx'"):
        if ptx_backend == "nvJitLink":
            program_module.Program(NOOP_PTX, "ptx", options(numba_debug=True)).close()
        else:
            with pytest.raises(core.DriverNotFoundError):
                program_module.Program(NOOP_PTX, "ptx", options(numba_debug=True))


# ---------------------------------------------------------------------------------------------
# NVVM: the module loader, and real compiles where libNVVM loads.


@pytest.fixture
def fresh_nvvm_state(program_module, monkeypatch):
    monkeypatch.setattr(program_module, "_nvvm_module", None)
    monkeypatch.setattr(program_module, "_nvvm_import_attempted", False)
    monkeypatch.setattr(program_module, "binding_version", lambda: (12, 9, 0))


def test_missing_nvvm_names_what_to_install(program_module, fresh_nvvm_state, monkeypatch) -> None:
    asked = []

    def unavailable(modname, probe_function=None):
        asked.append((modname, probe_function is not None))
        return None

    monkeypatch.setattr(program_module, "_optional_cuda_import", unavailable)
    for _ in range(2):  # the second call answers from the first attempt
        with pytest.raises(RuntimeError, match="(?s)cuda.bindings.nvvm.*libnvvm.*pip install"):
            program_module._get_nvvm_module()
    assert asked == [("cuda.bindings.nvvm", True)]


def test_nvvm_import_errors_of_dependencies_propagate(program_module, fresh_nvvm_state, monkeypatch) -> None:
    def broken(modname, probe_function=None):
        error = ModuleNotFoundError("No module named 'not_a_real_dependency'")
        error.name = "not_a_real_dependency"
        raise error

    monkeypatch.setattr(program_module, "_optional_cuda_import", broken)
    with pytest.raises(ModuleNotFoundError, match="not_a_real_dependency"):
        program_module._get_nvvm_module()


def test_old_bindings_have_no_nvvm(program_module, fresh_nvvm_state, monkeypatch) -> None:
    monkeypatch.setattr(program_module, "binding_version", lambda: (12, 8, 0))
    with pytest.raises(RuntimeError, match="cuda-bindings 12.9.0 or newer"):
        program_module._get_nvvm_module()


def test_optional_import_tells_missing_from_broken(program_module) -> None:
    assert program_module._optional_cuda_import("cuda.bindings.no_such_module") is None
    import json

    assert program_module._optional_cuda_import("json", probe_function=lambda module: None) is json
    from cuda.pathfinder import DynamicLibNotFoundError

    def no_library(module):
        raise DynamicLibNotFoundError("libnothing.so")

    assert program_module._optional_cuda_import("json", probe_function=no_library) is None


def test_libdevice_is_found_by_pathfinder(program_module, monkeypatch) -> None:
    import cuda.pathfinder

    asked = []
    monkeypatch.setattr(cuda.pathfinder, "find_bitcode_lib", lambda name: asked.append(name) or "/x/libdevice.10.bc")
    assert program_module._find_libdevice_path() == "/x/libdevice.10.bc" and asked == ["device"]


def test_nvvm_compiles_ptx_and_ltoir(core, program_module, options, nvvm) -> None:
    ir = nvvm_ir(nvvm, KERNEL_BODY + HELPER_IR, kernel="simple")
    for code in (ir, ir.encode(), bytearray(ir, "utf-8")):
        program = program_module.Program(code, "nvvm", options(name="nv", ftz=True, device_code_optimize=True))
        assert program.backend == "NVVM" and isinstance(program.handle, int) and program.handle != 0
        ptx = program.compile("ptx")
        assert ptx.name == "nv" and b".visible .entry simple(" in ptx.code and not ptx.code.endswith(b"\0")
        assert program.compile("ltoir").code_type == "ltoir"
        with pytest.raises(ValueError, match='Unsupported target_type="cubin" for NVVM'):
            program.compile("cubin")
        program.close()
        assert program.is_closed and program.handle == 0


def test_nvvm_extra_sources_are_linked_in(core, program_module, options, nvvm) -> None:
    main = nvvm_ir(nvvm, KERNEL_IR, kernel="simple")
    made = options(name="multi", extra_sources=[("helper", nvvm_ir(nvvm, HELPER_IR))])
    ptx = program_module.Program(main, "nvvm", made).compile("ptx")
    assert b"helper_add" in ptx.code or b"add.s32" in ptx.code
    assert ptx.name == "multi"


def test_nvvm_errors_carry_the_log(core, program_module, options, nvvm) -> None:
    logs = io.StringIO()
    program = program_module.Program("this is not valid NVVM IR", "nvvm", options())
    with pytest.raises(nvvm.nvvmError, match="(?s)NVVM program log: default_program"):
        program.compile("ptx", logs=logs)
    assert "default_program" in logs.getvalue()
    with pytest.raises(TypeError, match="NVVM IR code must be provided as str, bytes, or bytearray"):
        program_module.Program(42, "nvvm", options())
    with pytest.raises(core.CUDAError, match="not supported by NVVM backend: lineinfo"):
        program_module.Program(nvvm_ir(nvvm, HELPER_IR), "nvvm", options(lineinfo=True)).compile("ptx")


def test_nvvm_with_libdevice(core, program_module, options, nvvm) -> None:
    try:
        program_module._find_libdevice_path()
    except Exception as err:
        pytest.skip(f"libdevice not found here: {err}")
    body = """
declare float @__nv_sinf(float)
define void @simple(i32* %data) {
entry:
  %p = bitcast i32* %data to float*
  %v = load float, float* %p
  %s = call float @__nv_sinf(float %v)
  store float %s, float* %p
  ret void
}
"""
    ptx = program_module.Program(nvvm_ir(nvvm, body, "simple"), "nvvm", options(use_libdevice=True)).compile("ptx")
    assert b"__nv_sinf" not in ptx.code  # linked in from libdevice, not left as an extern call


# ---------------------------------------------------------------------------------------------
# ObjectCode from a compile, read back from bytes and files.


def test_object_code_from_bytes_and_paths(core, program_module, options, tmp_path) -> None:
    from cuda.core._module import ObjectCode

    ptx = program_module.Program(SAXPY, "c++", options()).compile("ptx").code
    assert ObjectCode.from_ptx(ptx).code == ptx
    path = tmp_path / "saxpy.ptx"
    path.write_bytes(ptx)
    for module in (path, str(path)):
        # As in NVIDIA's cuda.core, an ObjectCode made from a path keeps the path, read when loaded.
        object_code = ObjectCode.from_ptx(module, name="from disk", symbol_mapping={"alias": "saxpy"})
        assert (object_code.code, object_code.code_type, object_code.name) == (str(path), "ptx", "from disk")
        assert object_code.symbol_mapping == {"alias": "saxpy"}


def test_get_kernel_needs_a_driver(core, program_module, options, no_driver) -> None:
    object_code = program_module.Program(SAXPY, "c++", options()).compile("ptx", name_expressions=["scale<float>"])
    for name in ("saxpy", "scale<float>"):
        with pytest.raises(core.DriverNotFoundError):
            object_code.get_kernel(name)
