# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Linker on the real driver: relocatable PTX from NVRTC linked to a cubin that runs, LTO IR
linked with link-time optimization, nvJitLink's PTX output, the logs, the errors of a bad
link, a static library given by its path, and the backend reported."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

# apply() calls combine(), which only the second source defines: linking resolves it.
KERNEL = r"""
extern __device__ float combine(float a, float b);
extern "C" __global__ void apply(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = combine(x[i], 2.0f);
}
"""
DEVICE_FUNCTION = "__device__ float combine(float a, float b) { return a * b + 1.0f; }"
MANGLED_COMBINE = "_Z7combineff"


@pytest.fixture(scope="module")
def backend(cuda_core) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the driver fallback's warning
        return str(cuda_core.Linker.which_backend())


@pytest.fixture(scope="module")
def arch(module_device) -> str:
    return f"sm_{module_device.arch}"


def compile_to(cuda_core, source: str, name: str, arch: str, target: str):
    """``source`` compiled by NVRTC to ``target``: relocatable PTX, or LTO IR."""
    if target == "ltoir":
        options = cuda_core.ProgramOptions(name=name, arch=arch, link_time_optimization=True)
    else:
        options = cuda_core.ProgramOptions(name=name, arch=arch, relocatable_device_code=True)
    return cuda_core.Program(source, "c++", options).compile(target)


@pytest.fixture
def ptx_parts(cuda_core, device, nvrtc_loaded, arch, backend):
    """KERNEL and DEVICE_FUNCTION as relocatable PTX, named 'kernel' and 'combine'."""
    from cuda.core._program import _can_load_generated_ptx

    if backend == "driver" and not _can_load_generated_ptx():
        pytest.skip("this driver is older than NVRTC: it cannot JIT the PTX that NVRTC makes")
    return (
        compile_to(cuda_core, KERNEL, "kernel", arch, "ptx"),
        compile_to(cuda_core, DEVICE_FUNCTION, "combine", arch, "ptx"),
    )


def run_apply(cuda_core, device, code) -> None:
    """Launch apply() of ``code`` on 1000 floats and check it against numpy."""
    n = 1000
    x = np.arange(n, dtype=np.float32)
    stream = device.create_stream()
    pinned = cuda_core.LegacyPinnedMemoryResource().allocate(x.nbytes)
    np.from_dlpack(pinned).view(np.float32)[:] = x
    d_x = device.allocate(x.nbytes, stream=stream)
    d_out = device.allocate(x.nbytes, stream=stream)
    d_x.copy_from(pinned, stream=stream)
    cuda_core.launch(
        stream,
        cuda_core.LaunchConfig(grid=(n + 127) // 128, block=128),
        code.get_kernel("apply"),
        d_x,
        d_out,
        np.int32(n),
    )
    d_out.copy_to(pinned, stream=stream)
    stream.sync()
    np.testing.assert_array_equal(np.from_dlpack(pinned).view(np.float32)[:n], x * 2.0 + 1.0)
    for buffer in (d_x, d_out, pinned):
        buffer.close()


def test_backend_is_one_of_the_two_and_programs_agree(cuda_core, device, nvrtc_loaded, backend, arch) -> None:
    assert backend in ("nvJitLink", "driver")
    ptx = cuda_core.Program(DEVICE_FUNCTION, "c++", cuda_core.ProgramOptions(arch=arch)).compile("ptx")
    assert cuda_core.Program(ptx.code.decode(), "ptx").backend == backend
    try:
        from cuda.bindings import nvjitlink

        loads = nvjitlink.version() >= (12, 3)
    except Exception:
        loads = False
    assert backend == ("nvJitLink" if loads else "driver")


def test_relocatable_ptx_links_to_a_cubin_that_runs(cuda_core, device, ptx_parts, arch) -> None:
    linker = cuda_core.Linker(*ptx_parts, options=cuda_core.LinkerOptions(name="combined", arch=arch))
    cubin = linker.link("cubin")
    assert cubin.code_type == "cubin" and cubin.name == "combined" and bytes(cubin.code[:4]) == b"\x7fELF"
    run_apply(cuda_core, device, cubin)
    from cuda.core.typing import ObjectCodeFormatType

    assert linker.link(ObjectCodeFormatType.CUBIN).code == cubin.code  # linked once, given again


def test_options_each_backend_takes(cuda_core, device, ptx_parts, arch, backend) -> None:
    common = dict(max_register_count=32, optimization_level=3, lineinfo=True, verbose=True, no_cache=True)
    extra = (
        dict(
            ftz=False,
            prec_div=True,
            prec_sqrt=True,
            fma=True,
            ptxas_options=["-v"],
            split_compile=0,
            kernels_used="apply",
            time=True,
        )
        if backend == "nvJitLink"
        else {}
    )
    linker = cuda_core.Linker(*ptx_parts, options=cuda_core.LinkerOptions(arch=arch, **common, **extra))
    run_apply(cuda_core, device, linker.link("cubin"))
    info = linker.get_info_log()
    assert isinstance(info, str) and info  # verbose: the linker says what it made


def test_ltoir_links_with_link_time_optimization(cuda_core, device, nvrtc_loaded, arch, backend) -> None:
    if backend != "nvJitLink":
        pytest.skip("LTO IR is linked by nvJitLink; the driver's cuLink* LTO is deprecated")
    parts = [
        compile_to(cuda_core, source, name, arch, "ltoir")
        for source, name in ((KERNEL, "kernel"), (DEVICE_FUNCTION, "combine"))
    ]
    assert [part.code_type for part in parts] == ["ltoir", "ltoir"]
    options = cuda_core.LinkerOptions(arch=arch, link_time_optimization=True)
    run_apply(cuda_core, device, cuda_core.Linker(*parts, options=options).link("cubin"))


def test_nvjitlink_emits_ptx_after_lto(cuda_core, device, nvrtc_loaded, arch, backend) -> None:
    if backend != "nvJitLink":
        pytest.skip("only nvJitLink emits PTX")
    parts = [
        compile_to(cuda_core, source, name, arch, "ltoir")
        for source, name in ((KERNEL, "kernel"), (DEVICE_FUNCTION, "combine"))
    ]
    options = cuda_core.LinkerOptions(name="as_ptx", arch=arch, link_time_optimization=True, ptx=True)
    linker = cuda_core.Linker(*parts, options=options)
    with pytest.raises(ValueError, match="ptx"):
        linker.link("cubin")  # ptx=True makes PTX instead
    ptx = linker.link("ptx")
    assert ptx.code_type == "ptx" and ptx.name == "as_ptx"
    assert b".entry apply" in bytes(ptx.code)
    with pytest.raises(ValueError, match="ptx"):
        without_ptx = cuda_core.LinkerOptions(arch=arch, link_time_optimization=True)
        cuda_core.Linker(*parts, options=without_ptx).link("ptx")


def test_driver_links_ptx_only_to_a_cubin(cuda_core, device, ptx_parts, arch, backend) -> None:
    if backend != "driver":
        pytest.skip("nvJitLink links here")
    linker = cuda_core.Linker(*ptx_parts, options=cuda_core.LinkerOptions(arch=arch))
    with pytest.warns(RuntimeWarning, match="only cubins"):
        code = linker.link("ptx")
    assert code.code_type == "cubin"
    run_apply(cuda_core, device, code)


def test_undefined_reference_fails_with_the_error_log(cuda_core, device, ptx_parts, arch) -> None:
    from cuda.core import _linker

    errors = (cuda_core.CUDAError,)
    if not _linker._decide_nvjitlink_or_driver():
        from cuda.bindings import nvjitlink

        errors = (nvjitlink.nvJitLinkError,)
    linker = cuda_core.Linker(ptx_parts[0], options=cuda_core.LinkerOptions(arch=arch))  # no combine()
    with pytest.raises(errors) as raised:
        linker.link("cubin")
    log = linker.get_error_log()
    assert MANGLED_COMBINE in log  # what is missing
    if isinstance(raised.value, cuda_core.CUDAError):
        assert "in 'kernel'" in log  # and, from the driver, which input wants it
    assert log in str(raised.value)
    linker.close()
    assert linker.get_error_log() == log and isinstance(linker.get_info_log(), str)


def test_bad_input_is_an_error(cuda_core, device, ptx_parts, arch) -> None:
    from cuda.core import _linker

    errors = (cuda_core.CUDAError,)
    if not _linker._decide_nvjitlink_or_driver():
        from cuda.bindings import nvjitlink

        errors = (nvjitlink.nvJitLinkError,)
    with pytest.raises(errors):
        cuda_core.Linker(
            cuda_core.ObjectCode.from_ptx(b"this is not PTX"), options=cuda_core.LinkerOptions(arch=arch)
        ).link("cubin")
    with pytest.raises(ValueError, match="target_type"):
        cuda_core.Linker(*ptx_parts, options=cuda_core.LinkerOptions(arch=arch)).link("ltoir")


def test_handle_and_close(cuda_core, device, ptx_parts, arch, backend) -> None:
    linker = cuda_core.Linker(*ptx_parts, options=cuda_core.LinkerOptions(arch=arch))
    assert int(linker.handle) != 0 and not linker.is_closed
    if backend == "driver":
        from cuda.bindings import driver

        assert isinstance(linker.handle, driver.CUlinkState)
    assert f"backend='{backend}'" in repr(linker)
    linker.link("cubin")
    linker.close()
    linker.close()
    assert linker.is_closed and int(linker.handle) == 0
    with pytest.raises(RuntimeError, match="closed"):
        linker.link("cubin")


def test_default_options_use_the_current_devices_arch(cuda_core, device, ptx_parts) -> None:
    assert cuda_core.LinkerOptions().arch == f"sm_{device.arch}"
    run_apply(cuda_core, device, cuda_core.Linker(*ptx_parts).link("cubin"))


def test_static_library_by_path(cuda_core, device, nvrtc_loaded, arch, backend) -> None:
    """A kernel calling the device runtime (cudaGetDevice), linked with libcudadevrt.a by path."""
    pathfinder = pytest.importorskip("cuda.pathfinder")
    try:
        cudadevrt = pathfinder.find_static_lib("cudadevrt")
    except Exception as err:  # noqa: BLE001 - no such library here: nothing to link
        pytest.skip(f"libcudadevrt.a not found: {err}")
    source = 'extern "C" __global__ void which_device(int* out) { int d = -1; cudaGetDevice(&d); *out = d; }'
    options = cuda_core.ProgramOptions(arch=arch, relocatable_device_code=True)
    if backend == "driver":
        from cuda.core._program import _can_load_generated_ptx

        if not _can_load_generated_ptx():
            pytest.skip("this driver cannot JIT NVRTC's PTX")
    kernel_code = cuda_core.Program(source, "c++", options).compile("ptx")
    library = cuda_core.ObjectCode.from_library(cudadevrt)
    code = cuda_core.Linker(kernel_code, library, options=cuda_core.LinkerOptions(arch=arch)).link("cubin")
    stream = device.create_stream()
    out = device.allocate(4, stream=stream)
    cuda_core.launch(stream, cuda_core.LaunchConfig(grid=1, block=1), code.get_kernel("which_device"), out)
    pinned = cuda_core.LegacyPinnedMemoryResource().allocate(4)
    out.copy_to(pinned, stream=stream)
    stream.sync()
    assert int(np.from_dlpack(pinned).view(np.int32)[0]) == device.device_id
