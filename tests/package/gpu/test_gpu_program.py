# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Programs, object code and kernels on the real driver: NVRTC output loaded as a CUDA
library, kernels found by name expression, attributes and parameters as the driver sees
them. No launches here (the launch tests do those)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

SOURCE = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void block_sum(const T* in, T* out, int n) {
    __shared__ T partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    if (threadIdx.x == 0) {
        T total = 0;
        for (int k = 0; k < blockDim.x; ++k) total += partial[k];
        out[blockIdx.x] = total;
    }
}
"""


@pytest.fixture
def compiled(device, nvrtc_loaded):
    """The SOURCE compiled for the current device (default arch) to a cubin."""
    from cuda.core._program import Program

    program = Program(SOURCE, "c++")
    object_code = program.compile("cubin", name_expressions=["block_sum<float>", "block_sum<double>"])
    program.close()
    return object_code


def driver_attribute(kernel, name: str, device_id: int = 0) -> int:
    """The attribute as cuda.bindings' Python API reads it, to check ours against."""
    from cuda.bindings import driver

    err, value = driver.cuKernelGetAttribute(
        getattr(driver.CUfunction_attribute, name), kernel.handle, driver.CUdevice(device_id)
    )
    assert err == driver.CUresult.CUDA_SUCCESS, err
    return value


ATTRIBUTES = {
    "max_threads_per_block": "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
    "shared_size_bytes": "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES",
    "const_size_bytes": "CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES",
    "local_size_bytes": "CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES",
    "num_regs": "CU_FUNC_ATTRIBUTE_NUM_REGS",
    "ptx_version": "CU_FUNC_ATTRIBUTE_PTX_VERSION",
    "binary_version": "CU_FUNC_ATTRIBUTE_BINARY_VERSION",
    "max_dynamic_shared_size_bytes": "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
}


def test_cubin_for_the_current_device_gives_kernels_by_name_expression(device, compiled) -> None:
    assert compiled.code_type == "cubin" and compiled.code[:4] == b"\x7fELF"
    for name in ("saxpy", "block_sum<float>", "block_sum<double>"):
        kernel = compiled.get_kernel(name)
        assert int(kernel.handle) != 0
    # The lowered (mangled) name is found too.
    lowered = compiled.symbol_mapping["block_sum<float>"]
    assert lowered.startswith(b"_Z") and compiled.get_kernel(lowered).num_arguments == 3
    assert compiled.get_kernel(lowered.decode()).num_arguments == 3


@pytest.mark.parametrize("name", ["saxpy", "block_sum<float>"])
def test_attributes_match_the_driver(device, compiled, name: str) -> None:
    kernel = compiled.get_kernel(name)
    attributes = kernel.attributes
    for ours, theirs in ATTRIBUTES.items():
        value = getattr(attributes, ours)
        assert value == driver_attribute(kernel, theirs), ours
        assert getattr(attributes[0], ours) == value, ours
    assert 1 <= attributes.max_threads_per_block <= 1024
    assert attributes.num_regs >= 1
    assert attributes.binary_version == int(device.arch)
    assert attributes.cache_mode_ca is False


def test_static_shared_memory_is_what_the_source_declares(compiled) -> None:
    for name, dtype in (("block_sum<float>", np.float32), ("block_sum<double>", np.float64)):
        attributes = compiled.get_kernel(name).attributes
        assert attributes.shared_size_bytes == 256 * np.dtype(dtype).itemsize
    assert compiled.get_kernel("saxpy").attributes.shared_size_bytes == 0


def test_arguments_info_is_the_parameter_layout(compiled) -> None:
    saxpy = compiled.get_kernel("saxpy")
    assert saxpy.num_arguments == 4
    # float a, const float* x, float* y, int n: each aligned to its own size.
    sizes = [
        np.dtype(np.float32).itemsize,
        np.dtype(np.intp).itemsize,
        np.dtype(np.intp).itemsize,
        np.dtype(np.int32).itemsize,
    ]
    assert [info.size for info in saxpy.arguments_info] == sizes
    assert [info.offset for info in saxpy.arguments_info] == [0, 8, 16, 24]
    assert compiled.get_kernel("block_sum<double>").num_arguments == 3


def test_unknown_kernel_is_a_clear_cuda_error(cuda_core, compiled) -> None:
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_NOT_FOUND.*no kernel 'block_sum<int>'"):
        compiled.get_kernel("block_sum<int>")


def test_ptx_from_nvrtc_loads_through_from_ptx(device, nvrtc_loaded, tmp_path) -> None:
    from cuda.core._module import ObjectCode
    from cuda.core._program import Program, ProgramOptions

    program = Program(SOURCE, "c++", ProgramOptions(arch=f"compute_{device.arch}"))
    ptx = program.compile("ptx", name_expressions=["block_sum<float>"])
    assert b".entry saxpy(" in ptx.code
    path = tmp_path / "kernels.ptx"
    path.write_bytes(ptx.code)
    loaded = ObjectCode.from_ptx(path, symbol_mapping=ptx.symbol_mapping)
    kernel = loaded.get_kernel("block_sum<float>")
    assert kernel.attributes.ptx_version == int(device.arch)
    assert kernel.attributes.binary_version == int(device.arch)  # JIT-compiled for this device
    assert loaded.get_kernel("saxpy").num_arguments == 4
    # The library exists once loaded; its handle is stable.
    assert int(loaded.handle) != 0 and int(loaded.handle) == int(loaded.handle)


def test_cubin_from_a_file_loads(device, compiled, tmp_path) -> None:
    from cuda.core._module import ObjectCode

    path = tmp_path / "kernels.cubin"
    path.write_bytes(compiled.code)
    loaded = ObjectCode.from_cubin(str(path), name="from disk", symbol_mapping=compiled.symbol_mapping)
    assert loaded.get_kernel("block_sum<double>").attributes.num_regs >= 1


def test_kernel_keeps_its_object_code_loaded(device, compiled) -> None:
    from cuda.core._module import ObjectCode

    loaded = ObjectCode.from_cubin(compiled.code, symbol_mapping=compiled.symbol_mapping)
    kernel = loaded.get_kernel("saxpy")
    attributes = loaded.get_kernel("block_sum<float>").attributes
    regs = kernel.attributes.num_regs
    alive = weakref.ref(loaded)
    del loaded
    gc.collect()
    # The ObjectCode (and its library) lives on through the kernel and the attributes view ...
    assert alive() is not None
    assert kernel.attributes.num_regs == regs
    assert attributes.shared_size_bytes == 256 * 4
    # ... and goes (unloading the library) once both are gone.
    del kernel, attributes
    gc.collect()
    assert alive() is None


def test_ltoir_cannot_be_loaded_directly(device, nvrtc_loaded) -> None:
    from cuda.core._program import Program

    ltoir = Program(SOURCE, "c++").compile("ltoir")
    with pytest.raises(RuntimeError, match='Unsupported code type "ltoir" for loading.*cuda.core.Linker'):
        ltoir.get_kernel("saxpy")
