# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Kernels and their ObjectCode on the real driver: attributes per device, occupancy queries,
parameters, Kernel.from_handle, and what an ObjectCode's library is."""

from __future__ import annotations

import gc
import pickle
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

SOURCE = r"""
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, unsigned long long n) {
    __shared__ float staged[128];
    unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[threadIdx.x % 128] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = a * staged[threadIdx.x % 128] + y[i];
}
extern "C" __global__ void no_arguments() {}
extern "C" __global__ void shorts(short a, int b, short c, double d) {}
"""


@pytest.fixture(scope="module")
def cubin(cuda_core, module_device, tmp_path_factory) -> bytes:
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is not None:
        work = tmp_path_factory.mktemp("kernel")
        (work / "k.cu").write_text(SOURCE)
        subprocess.run(
            [nvcc, "-cubin", f"-arch=sm_{module_device.arch}", "-o", work / "k.cubin", work / "k.cu"],
            check=True,
            capture_output=True,
        )
        return (work / "k.cubin").read_bytes()
    options = cuda_core.ProgramOptions(arch=f"sm_{module_device.arch}")
    return cuda_core.Program(SOURCE, code_type="c++", options=options).compile("cubin").code


@pytest.fixture
def code(cuda_core, device, cubin):
    device.set_current()
    return cuda_core.ObjectCode.from_cubin(cubin, name="k")


def test_attributes_are_properties_per_device(cuda_core, device, code) -> None:
    kernel = code.get_kernel("saxpy")
    attributes = kernel.attributes
    assert attributes is kernel.attributes
    assert 1 <= attributes.max_threads_per_block <= 1024
    assert attributes.shared_size_bytes == 128 * 4
    assert attributes.num_regs >= 1 and attributes.local_size_bytes >= 0 and attributes.const_size_bytes >= 0
    assert attributes.binary_version == int(device.arch)
    assert isinstance(attributes.cache_mode_ca, bool) and isinstance(attributes.cluster_size_must_be_set, bool)
    assert attributes.max_dynamic_shared_size_bytes >= 0
    assert isinstance(attributes.preferred_shared_memory_carveout, int)
    assert (
        attributes.required_cluster_width,
        attributes.required_cluster_height,
        attributes.required_cluster_depth,
    ) == (0, 0, 0)
    assert isinstance(attributes.non_portable_cluster_size_allowed, bool)
    assert isinstance(attributes.cluster_scheduling_policy_preference, int)
    for view in (attributes[0], attributes[device]):
        assert view is not attributes and view.num_regs == attributes.num_regs
    with pytest.raises((TypeError, ValueError)):
        attributes["not a device"]
    with pytest.raises((ValueError, cuda_core.CUDAError)):
        attributes[10_000]


def test_occupancy(cuda_core, device, code) -> None:
    kernel = code.get_kernel("saxpy")
    occupancy = kernel.occupancy
    assert occupancy is kernel.occupancy
    properties = device.properties
    blocks = occupancy.max_active_blocks_per_multiprocessor(128, 0)
    assert 1 <= blocks and blocks * 128 <= properties.max_threads_per_multiprocessor
    assert occupancy.max_active_blocks_per_multiprocessor(128, 40_000) < blocks
    suggestion = occupancy.max_potential_block_size(0, 0)
    assert suggestion.min_grid_size >= 1 and 1 <= suggestion.max_block_size <= 1024
    assert tuple(suggestion) == (suggestion.min_grid_size, suggestion.max_block_size)
    assert occupancy.max_potential_block_size(0, 64).max_block_size <= 64
    shared = occupancy.available_dynamic_shared_memory_per_block(2, 128)
    assert 0 < shared <= properties.max_shared_memory_per_multiprocessor
    if device.compute_capability >= (9, 0):
        config = cuda_core.LaunchConfig(grid=128, block=64)
        assert occupancy.max_potential_cluster_size(config, stream=device.default_stream) >= 2
        clustered = cuda_core.LaunchConfig(grid=64, block=64, cluster=2)
        assert occupancy.max_active_clusters(clustered, stream=device.create_stream()) >= 1
        with pytest.raises(TypeError, match="keyword-only argument"):
            occupancy.max_active_clusters(clustered)


def test_parameters(cuda_core, code) -> None:
    saxpy = code.get_kernel("saxpy")
    assert saxpy.num_arguments == 5
    assert [(p.offset, p.size) for p in saxpy.arguments_info] == [(0, 4), (8, 8), (16, 8), (24, 8), (32, 8)]
    assert code.get_kernel(b"no_arguments").num_arguments == 0
    assert [(p.offset, p.size) for p in code.get_kernel("shorts").arguments_info] == [(0, 2), (4, 4), (8, 2), (16, 8)]


def test_parameters_need_a_context(cuda_core, device, code) -> None:
    from cuda.bindings import driver

    kernel = code.get_kernel("shorts")
    popped = []
    while int(driver.cuCtxGetCurrent()[1]) != 0:
        popped.append(driver.cuCtxPopCurrent()[1])
    try:
        with pytest.raises(cuda_core.CUDAError):
            kernel.num_arguments
    finally:
        for context in reversed(popped):
            driver.cuCtxPushCurrent(context)
    assert kernel.num_arguments == 4


def test_from_handle(cuda_core, device, code, cubin) -> None:
    kernel = code.get_kernel("saxpy")
    same = cuda_core.Kernel.from_handle(int(kernel.handle), code)
    bare = cuda_core.Kernel.from_handle(int(kernel.handle))
    assert same == kernel == bare and hash(same) == hash(kernel) and {kernel: 1}[bare] == 1
    assert bare.attributes.max_threads_per_block == kernel.attributes.max_threads_per_block
    assert re.fullmatch(r"<Kernel handle=0x[0-9a-f]+>", repr(kernel))
    other = cuda_core.ObjectCode.from_cubin(cubin)
    other.get_kernel("saxpy")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cuda_core.Kernel.from_handle(int(kernel.handle), other)
    assert len(caught) == 1 and "does not match" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda_core.Kernel.from_handle(int(kernel.handle), code)


def test_kernels_keep_their_library_loaded(cuda_core, device, cubin) -> None:
    code = cuda_core.ObjectCode.from_cubin(cubin)
    kernel = code.get_kernel("saxpy")
    wrapped = cuda_core.Kernel.from_handle(int(kernel.handle), code)
    library = int(code.handle)
    del code, kernel
    gc.collect()
    assert wrapped.num_arguments == 5 and wrapped.attributes.num_regs >= 1
    assert library != 0


def test_object_code_library_module_repr_and_pickle(cuda_core, device, code, cubin, tmp_path) -> None:
    assert int(code.handle) != 0 and int(code.handle) == int(code.handle)
    assert int(code.get_module()) != 0
    assert repr(code) == f"<ObjectCode handle={int(code.handle):#x} code_type='cubin'>"
    copy = pickle.loads(pickle.dumps(code))
    assert copy != code and copy.code == cubin and copy.name == "k"
    assert copy.get_kernel("saxpy").num_arguments == 5
    path = tmp_path / "k.cubin"
    path.write_bytes(cubin)
    from_file = cuda_core.ObjectCode.from_cubin(path)
    assert from_file.code == str(path) and from_file.get_kernel("shorts").num_arguments == 4
    missing = cuda_core.ObjectCode.from_cubin(tmp_path / "missing.cubin")
    with pytest.raises(cuda_core.CUDAError):
        missing.get_kernel("saxpy")
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_NOT_FOUND"):
        code.get_kernel("not_there")
