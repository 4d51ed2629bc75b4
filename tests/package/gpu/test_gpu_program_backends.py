# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Program's three backends on the real driver: the default arch is the device's, PTX is
linked to a cubin (cuda.core's Linker or the driver's cuLink*), NVVM IR becomes loadable PTX,
and NVRTC's PTX loadability agrees with the driver."""

from __future__ import annotations

import warnings

import pytest

SOURCE = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


@pytest.fixture
def ptx(device, nvrtc_loaded) -> str:
    """SOURCE as PTX for this device's virtual architecture."""
    from cuda.core._program import Program, ProgramOptions

    return Program(SOURCE, "c++", ProgramOptions(arch=f"compute_{device.arch}")).compile("ptx").code.decode()


def test_default_arch_is_the_current_devices(device) -> None:
    from cuda.core._program import ProgramOptions

    assert ProgramOptions().arch == f"sm_{device.arch}"
    assert ProgramOptions(name=None).as_bytes("nvrtc") == [f"-arch=sm_{device.arch}".encode()]


def test_ptx_loadability_matches_the_driver_and_nvrtc(device, nvrtc_loaded) -> None:
    from cuda.bindings import driver, nvrtc
    from cuda.core._program import Program, _can_load_generated_ptx

    _, version = driver.cuDriverGetVersion()
    _, major, minor = nvrtc.nvrtcVersion()
    expected = (version // 1000, (version % 1000) // 10) >= (major, minor)
    assert _can_load_generated_ptx() is expected
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Program(SOURCE, "c++").compile("ptx")
    assert any("older than the backend version" in str(w.message) for w in caught) is not expected


def test_ptx_program_links_to_a_loadable_cubin(device, ptx) -> None:
    from cuda.core._program import Program, ProgramOptions

    program = Program(ptx, "ptx", ProgramOptions(name="linked", max_register_count=16, lineinfo=True))
    assert program.backend in ("driver", "nvJitLink")
    assert int(program.handle) != 0
    cubin = program.compile("cubin")
    assert cubin.code_type == "cubin" and cubin.code[:4] == b"\x7fELF" and cubin.name == "linked"
    kernel = cubin.get_kernel("saxpy")
    assert kernel.num_arguments == 4
    assert 1 <= kernel.attributes.num_regs <= 16
    assert kernel.attributes.binary_version == int(device.arch)
    program.close()
    assert program.is_closed


def test_driver_linker_rejects_what_cuLink_cannot_do(device, ptx) -> None:
    from cuda.core._program import Program, ProgramOptions

    if Program(ptx, "ptx").backend != "driver":
        pytest.skip("PTX is linked by nvJitLink here, which takes these options")
    for field, value in (("time", "t.csv"), ("split_compile", 2), ("ptxas_options", "-v")):
        with pytest.raises(ValueError, match=field):
            Program(ptx, "ptx", ProgramOptions(**{field: value}))
    with pytest.warns(DeprecationWarning, match="ftz"):
        cubin = Program(ptx, "ptx", ProgramOptions(ftz=True)).compile("cubin")
    assert cubin.get_kernel("saxpy").num_arguments == 4


def test_bad_ptx_is_a_cuda_error_with_the_linker_log(cuda_core, device) -> None:
    from cuda.core._program import Program

    errors = [cuda_core.CUDAError]  # the driver's cuLink*; nvJitLink raises its own error, as NVIDIA's
    try:
        from cuda.bindings.nvjitlink import nvJitLinkError

        errors.append(nvJitLinkError)
    except ImportError:
        pass
    with pytest.raises(tuple(errors), match="syntax error"):
        Program(".version 8.0\n.target sm_90\n.address_size 64\nthis is not ptx\n", "ptx").compile("cubin")


def test_nvvm_ir_becomes_a_loadable_kernel(device) -> None:
    from cuda.core._program import Program, ProgramOptions, _get_nvvm_module

    try:
        nvvm = _get_nvvm_module()
    except RuntimeError as err:
        pytest.skip(str(err))
    major, minor, debug_major, debug_minor = nvvm.ir_version()
    ir = f"""target triple = "nvptx64-unknown-cuda"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
define void @store_tid(i32* %data) {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, i32* %data
  ret void
}}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone
!nvvm.annotations = !{{!0}}
!0 = !{{void (i32*)* @store_tid, !"kernel", i32 1}}
!nvvmir.version = !{{!1}}
!1 = !{{i32 {major}, i32 {minor}, i32 {debug_major}, i32 {debug_minor}}}
"""
    program = Program(ir, "nvvm", ProgramOptions(name="nvvm_kernel"))
    ptx = program.compile("ptx")
    kernel = ptx.get_kernel("store_tid")
    assert kernel.num_arguments == 1
    assert kernel.attributes.binary_version == int(device.arch)
    program.close()
