"""Program, ProgramOptions and ObjectCode without a GPU: real NVRTC compiles, option checks,
and the errors a machine without a driver must give."""

from __future__ import annotations

import io
import re
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


@pytest.fixture
def programs(core):
    from cuda.core._program import Program, ProgramOptions
    return Program, ProgramOptions


def ptx_of(programs, code: str = SAXPY, **compile_args):
    Program, ProgramOptions = programs
    program = Program(code, "c++", ProgramOptions(arch="sm_90"))
    try:
        return program.compile("ptx", **compile_args)
    finally:
        program.close()


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"name": 3}, TypeError, "name must be a non-empty str"),
    ({"arch": "sm90"}, ValueError, "arch must be spelled like 'sm_90'"),
    ({"arch": "90"}, ValueError, "arch must be spelled like"),
    ({"arch": 90}, TypeError, "arch must be a str"),
    ({"std": "17"}, ValueError, "std must be spelled like 'c\\+\\+17'"),
    ({"debug": "yes"}, TypeError, "debug must be True, False or None"),
    ({"fma": 1}, TypeError, "fma must be True, False or None"),
    ({"max_register_count": 0}, ValueError, "max_register_count must be a positive int"),
    ({"max_register_count": True}, ValueError, "max_register_count must be a positive int"),
    ({"define_macro": 7}, TypeError, "define_macro must be a name, a \\(name, value\\) tuple"),
    ({"define_macro": [("A",)]}, TypeError, "define_macro must be"),
    ({"define_macro": ["A", ("B", 2)]}, TypeError, "define_macro must be"),
    ({"include_path": ["/usr/include", 5]}, TypeError, "include_path must be a path or a list of them"),
    ({"pre_include": ""}, TypeError, "pre_include must be a path"),
    ({"diag_suppress": "177"}, TypeError, "diag_suppress must be a diagnostic number"),
    ({"diag_error": [True]}, TypeError, "diag_error must be a diagnostic number"),
    ({"ptxas_options": 3}, TypeError, "ptxas_options must be a str"),
])
def test_bad_options_fail_at_construction(programs, options, error, message) -> None:
    _, ProgramOptions = programs
    with pytest.raises(error, match=message):
        ProgramOptions(**options)


def test_options_become_nvrtc_flags(programs, tmp_path: Path) -> None:
    _, ProgramOptions = programs
    options = ProgramOptions(arch="sm_90", std="c++17", relocatable_device_code=False, debug=True, lineinfo=False,
                             max_register_count=32, ftz=True, fma=False, use_fast_math=True,
                             define_macro=["ALONE", ("WIDTH", "64")], include_path=tmp_path, pre_include=["a.h"],
                             diag_suppress=[177, 550], device_code_optimize=False)
    assert options.as_bytes("nvrtc") == [
        b"--gpu-architecture=sm_90", b"--std=c++17", b"--relocatable-device-code=false", b"--ftz=true",
        b"--fmad=false", b"--device-debug", b"--use_fast_math", b"--dopt=off", b"--maxrregcount=32",
        b"--define-macro=ALONE", b"--define-macro=WIDTH=64", f"--include-path={tmp_path}".encode(),
        b"--pre-include=a.h", b"--diag-suppress=177", b"--diag-suppress=550"]
    # Left at None, an option is not passed at all: NVRTC's default holds.
    assert ProgramOptions().as_bytes() == []
    # One (name, value) tuple is one macro, not two names.
    assert ProgramOptions(define_macro=("N", "3")).as_bytes() == [b"--define-macro=N=3"]
    with pytest.raises(ValueError, match="only the 'nvrtc' backend"):
        options.as_bytes("nvjitlink")


def test_every_option_is_one_nvrtc_accepts(programs, tmp_path: Path) -> None:
    """NVRTC rejects a misspelt flag (NVRTC_ERROR_INVALID_OPTION): give it all of them."""
    Program, ProgramOptions = programs
    (tmp_path / "extra.h").write_text("#define FROM_PRE_INCLUDE 1\n")
    options = ProgramOptions(
        arch="sm_90", std="c++17", relocatable_device_code=True, extensible_whole_program=False, debug=True,
        lineinfo=True, device_code_optimize=True, ptxas_options=["-v"], max_register_count=64, ftz=True,
        prec_sqrt=False, prec_div=False, fma=True, use_fast_math=True, extra_device_vectorization=True,
        define_macro=["FLAG", ("VALUE", "2")], undefine_macro="NOT_DEFINED", include_path=[tmp_path],
        pre_include="extra.h", disable_warnings=True, diag_error=[1234], diag_suppress=177, diag_warn=(550,))
    source = SAXPY + "\n#if !defined(FLAG) || VALUE != 2 || !FROM_PRE_INCLUDE\n#error options not applied\n#endif\n"
    program = Program(source, "c++", options)
    assert program.compile("cubin").code[:4] == b"\x7fELF"
    program.close()


def test_saxpy_and_template_to_ptx_with_name_expressions(programs) -> None:
    object_code = ptx_of(programs, name_expressions=["scale<float>", "scale<double>"])
    text = object_code.code.decode()
    assert object_code.code_type == "ptx" and object_code.name == "default_program"
    assert ".entry saxpy(" in text
    lowered = object_code.symbol_mapping
    assert set(lowered) == {"scale<float>", "scale<double>"}
    assert lowered["scale<float>"] != lowered["scale<double>"]
    for name in lowered.values():
        assert name.startswith("_Z") and f".entry {name}(" in text
    assert "\0" not in text


def test_named_program_names_its_object_code(programs) -> None:
    Program, ProgramOptions = programs
    program = Program(SAXPY, "c++", ProgramOptions(name="saxpy.cu", arch="sm_90"))
    assert program.compile("ptx").name == "saxpy.cu"
    assert "saxpy.cu" in repr(program)


def test_logs_receive_warnings(programs) -> None:
    logs = io.StringIO()
    object_code = ptx_of(programs, WARNS, logs=logs)
    assert ".entry noisy(" in object_code.code.decode()
    assert "never_read" in logs.getvalue() and "warning" in logs.getvalue()


def test_quiet_compile_writes_no_log(programs) -> None:
    logs = io.StringIO()
    ptx_of(programs, SAXPY, logs=logs)
    assert logs.getvalue() == ""


def test_failed_compile_raises_with_the_full_log(programs, core) -> None:
    Program, ProgramOptions = programs
    program = Program(FAULTY, "c++", ProgramOptions(arch="sm_90"))
    logs = io.StringIO()
    with pytest.raises(core.CUDAError) as caught:
        program.compile("ptx", logs=logs)
    error = caught.value
    assert type(error).__name__ == "NVRTCError" and error.name == "NVRTC_ERROR_COMPILATION"
    message = str(error)
    assert "no_such_identifier" in message and "is undefined" in message
    assert "out[0] = no_such_identifier * 2.0f;" in message  # the offending line, as NVRTC quotes it
    assert error.log in message and logs.getvalue() == error.log


def test_invalid_option_value_raises_nvrtc_error(programs) -> None:
    Program, ProgramOptions = programs
    program = Program(SAXPY, "c++", ProgramOptions(arch="sm_1"))
    from cuda.core._utils.cuda_utils import NVRTCError  # an Exception, not a RuntimeError, as NVIDIA's
    with pytest.raises(NVRTCError, match="(?s)NVRTC_ERROR_INVALID_OPTION.*gpu-architecture"):
        program.compile("ptx")


def test_cubin_and_ltoir_targets(programs) -> None:
    Program, ProgramOptions = programs
    program = Program(SAXPY, "c++", ProgramOptions(arch="sm_90"))
    cubin = program.compile("cubin", name_expressions=["scale<int>"])
    assert cubin.code_type == "cubin" and cubin.code[:4] == b"\x7fELF"
    assert cubin.symbol_mapping["scale<int>"].encode() in cubin.code
    # A later compile of the same program may reuse the names given first ...
    assert program.compile("ptx", name_expressions=["scale<int>"]).symbol_mapping == cubin.symbol_mapping
    # ... but NVRTC takes new ones only before the first compile.
    with pytest.raises(ValueError, match="come too late"):
        program.compile("ptx", name_expressions=["scale<float>"])
    ltoir = Program(SAXPY, "c++", ProgramOptions(arch="sm_90")).compile("ltoir")
    assert ltoir.code_type == "ltoir" and len(ltoir.code) > 0


def test_bad_compile_requests(programs) -> None:
    Program, ProgramOptions = programs
    program = Program(SAXPY, "c++", ProgramOptions(arch="compute_90"))
    with pytest.raises(ValueError, match="target_type must be 'ptx', 'cubin' or 'ltoir'"):
        program.compile("fatbin")
    with pytest.raises(ValueError, match="a cubin needs a real architecture.*sm_90"):
        program.compile("cubin")
    with pytest.raises(TypeError, match="name_expressions must be a list or tuple"):
        program.compile("ptx", name_expressions="scale<int>")
    assert program.compile("ptx").code.startswith(b"//")


def test_program_arguments_are_checked(programs) -> None:
    Program, ProgramOptions = programs
    with pytest.raises(NotImplementedError, match="code_type 'ptx' is not supported.*only 'c\\+\\+'"):
        Program(".version 8.0", "ptx")
    with pytest.raises(TypeError, match="'code' has incorrect type \\(expected str, got bytes\\)"):
        Program(SAXPY.encode(), "c++")
    with pytest.raises(TypeError, match="options must be a ProgramOptions"):
        Program(SAXPY, "c++", {"arch": "sm_90"})
    assert Program(SAXPY, "C++").backend == "NVRTC"


def test_close_is_idempotent_and_use_after_close_is_clear(programs) -> None:
    from cuda.bindings import nvrtc
    Program, ProgramOptions = programs
    program = Program(SAXPY, "c++", ProgramOptions(arch="sm_90"))
    assert isinstance(program.handle, nvrtc.nvrtcProgram) and int(program.handle) != 0
    program.close()
    program.close()
    for use in (lambda: program.compile("ptx"), lambda: program.handle):
        with pytest.raises(RuntimeError, match="this Program is closed"):
            use()
    assert "closed" in repr(program)


def test_default_arch_needs_a_driver(programs, core, no_driver) -> None:
    Program, _ = programs
    program = Program(SAXPY)
    with pytest.raises(core.DriverNotFoundError, match=re.escape("ProgramOptions(arch='sm_90')")):
        program.compile("ptx")


def test_object_code_from_bytes_and_paths(programs, tmp_path: Path) -> None:
    from cuda.core._module import ObjectCode
    ptx = ptx_of(programs).code
    assert ObjectCode.from_ptx(ptx).code == ptx
    path = tmp_path / "saxpy.ptx"
    path.write_bytes(ptx)
    for module in (path, str(path)):
        # As in NVIDIA's cuda.core, an ObjectCode made from a path keeps the path, read when loaded.
        object_code = ObjectCode.from_ptx(module, name="from disk", symbol_mapping={"alias": "saxpy"})
        assert (object_code.code, object_code.code_type, object_code.name) == (str(path), "ptx", "from disk")
        assert object_code.symbol_mapping == {"alias": "saxpy"}
    assert ObjectCode.from_cubin(b"\x7fELF...").code_type == "cubin"
    assert ObjectCode.from_fatbin(bytearray(b"fatbin")).code == b"fatbin"


def test_object_code_arguments_are_checked(programs) -> None:
    from cuda.core._module import Kernel, ObjectCode
    with pytest.raises(TypeError, match="module must be the cubin as bytes, or a path"):
        ObjectCode.from_cubin(42)
    with pytest.raises(ValueError, match="the ptx given is empty"):
        ObjectCode.from_ptx(b"")
    with pytest.raises(TypeError, match="symbol_mapping must be a dict of str"):
        ObjectCode.from_ptx(b"//", symbol_mapping={"a": 1})
    with pytest.raises(TypeError, match="'name' has incorrect type"):
        ObjectCode.from_ptx(b"//", name=None)
    with pytest.raises(RuntimeError, match="made by Program.compile"):
        ObjectCode()
    with pytest.raises(RuntimeError, match="made by ObjectCode.get_kernel"):
        Kernel()


def test_get_kernel_needs_a_driver(programs, core, no_driver) -> None:
    object_code = ptx_of(programs, name_expressions=["scale<float>"])
    for name in ("saxpy", "scale<float>"):
        with pytest.raises(core.DriverNotFoundError):
            object_code.get_kernel(name)
