# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""TMA tensor maps on a Hopper+ GPU: descriptors encoded by the driver, passed to a kernel by
value, and a tile-by-tile copy through shared memory (cp.async.bulk.tensor) checked against
numpy; replace_address, the options forms and the errors that need a device."""

from __future__ import annotations

import numpy as np
import pytest
from host_copies import to_device, to_host

# One block per box: thread (0, 0) arms an mbarrier and issues the TMA load of the box at
# (blockIdx.y * BOX_H, blockIdx.x * BOX_W); every thread waits for it, then copies its element
# of the box to ``out`` where it lies inside the tensor. Raw PTX, so no CCCL headers are needed.
KERNELS = r"""
struct __align__(64) TensorMap { unsigned long long opaque[16]; };

__device__ unsigned shared_address(const void* pointer) {
    unsigned long long address;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(address) : "l"(pointer));
    return (unsigned)address;
}

__device__ void wait_phase0(unsigned barrier) {
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(barrier), "r"(0u) : "memory");
    }
}

template <int BOX_H, int BOX_W>
__device__ void tma_copy_2d(const TensorMap& map, float* out, int height, int width) {
    __shared__ __align__(128) float tile[BOX_H][BOX_W];
    __shared__ __align__(8) unsigned long long barrier;
    const unsigned bar = shared_address(&barrier);
    const int x0 = blockIdx.x * BOX_W, y0 = blockIdx.y * BOX_H;
    const bool leader = threadIdx.x == 0 && threadIdx.y == 0;
    if (leader) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (leader) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(bar), "r"((unsigned)sizeof(tile)) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(shared_address(tile)), "l"(&map), "r"(x0), "r"(y0), "r"(bar) : "memory");
    }
    wait_phase0(bar);
    const int y = y0 + threadIdx.y, x = x0 + threadIdx.x;
    if (y < height && x < width) out[(size_t)y * width + x] = tile[threadIdx.y][threadIdx.x];
}

extern "C" __global__ void copy_16x32(const __grid_constant__ TensorMap map, float* out, int height, int width) {
    tma_copy_2d<16, 32>(map, out, height, width);
}

// The 1-D form: a box of 64 floats per block, 64 threads.
extern "C" __global__ void copy_64(const __grid_constant__ TensorMap map, float* out, int n) {
    __shared__ __align__(128) float tile[64];
    __shared__ __align__(8) unsigned long long barrier;
    const unsigned bar = shared_address(&barrier);
    const int x0 = blockIdx.x * 64;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(bar), "r"((unsigned)sizeof(tile)) : "memory");
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2}], [%3];"
                     :: "r"(shared_address(tile)), "l"(&map), "r"(x0), "r"(bar) : "memory");
    }
    wait_phase0(bar);
    if (x0 + threadIdx.x < n) out[x0 + threadIdx.x] = tile[threadIdx.x];
}
"""

BOX = (16, 32)


@pytest.fixture(scope="module")
def tma_device(module_device):
    if module_device.compute_capability.major < 9 or not module_device.properties.tensor_map_access_supported:
        pytest.skip("TMA needs compute capability 9.0 or later")
    return module_device


@pytest.fixture(scope="module")
def tma_code(cuda_core, tma_device, nvrtc_loaded):
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{tma_device.arch}")
    return cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")


def device_matrix(device, stream, array: np.ndarray):
    """A device Buffer holding ``array`` and a StridedMemoryView of it with its shape and dtype."""
    from cuda.core.utils import StridedMemoryView

    buffer = to_device(device, stream, array)
    return buffer, StridedMemoryView.from_buffer(buffer, array.shape, dtype=array.dtype)


def launch_copy_2d(cuda_core, stream, code, descriptor, out, shape) -> None:
    height, width = shape
    grid = (-(-width // BOX[1]), -(-height // BOX[0]))
    config = cuda_core.LaunchConfig(grid=grid, block=(BOX[1], BOX[0]))
    cuda_core.launch(stream, config, code.get_kernel("copy_16x32"), descriptor, out, np.int32(height), np.int32(width))


@pytest.mark.parametrize("shape", [(64, 64), (100, 72)], ids=["whole boxes", "partial boxes"])
def test_a_tiled_copy_through_shared_memory(cuda_core, tma_device, tma_code, shape) -> None:
    stream = tma_device.create_stream()
    source = np.random.default_rng(3).random(shape, dtype=np.float32)
    buffer, view = device_matrix(tma_device, stream, source)
    descriptor = view.as_tensor_map(box_dim=BOX)
    assert repr(descriptor) == "TensorMapDescriptor(tiled, rank=2, dtype=FLOAT32, swizzle=NONE)"
    assert descriptor.device.device_id == tma_device.device_id
    out = tma_device.allocate(source.nbytes, stream=stream)
    launch_copy_2d(cuda_core, stream, tma_code, descriptor, out, shape)
    np.testing.assert_array_equal(to_host(out, stream, np.float32, source.size).reshape(shape), source)


def test_replace_address_points_the_same_descriptor_at_new_data(cuda_core, tma_device, tma_code) -> None:
    stream = tma_device.create_stream()
    shape = (64, 96)
    first = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    second = -first
    _, first_view = device_matrix(tma_device, stream, first)
    second_buffer, second_view = device_matrix(tma_device, stream, second)
    descriptor = first_view.as_tensor_map(options={"box_dim": BOX, "data_type": np.float32})
    out = tma_device.allocate(first.nbytes, stream=stream)
    launch_copy_2d(cuda_core, stream, tma_code, descriptor, out, shape)
    np.testing.assert_array_equal(to_host(out, stream, np.float32, first.size).reshape(shape), first)
    descriptor.replace_address(second_view)
    launch_copy_2d(cuda_core, stream, tma_code, descriptor, out, shape)
    np.testing.assert_array_equal(to_host(out, stream, np.float32, second.size).reshape(shape), second)
    descriptor.replace_address(second_buffer)  # anything with DLPack will do
    with pytest.raises(ValueError, match="device-accessible"):
        descriptor.replace_address(np.zeros(shape, dtype=np.float32))


def test_a_buffer_read_as_float32_in_one_dimension(cuda_core, tma_device, tma_code) -> None:
    """A Buffer's DLPack view is of bytes: data_type reinterprets them as float32 elements."""
    from cuda.core._tensor_map import TensorMapDataType, TensorMapDescriptorOptions
    from cuda.core.utils import StridedMemoryView

    stream = tma_device.create_stream()
    n = 1000
    source = np.random.default_rng(4).random(n, dtype=np.float32)
    buffer = to_device(tma_device, stream, source)
    view = StridedMemoryView.from_any_interface(buffer, stream_ptr=-1)
    descriptor = view.as_tensor_map(
        options=TensorMapDescriptorOptions(box_dim=(64,), data_type=TensorMapDataType.FLOAT32)
    )
    out = tma_device.allocate(source.nbytes, stream=stream)
    cuda_core.launch(
        stream,
        cuda_core.LaunchConfig(grid=-(-n // 64), block=64),
        tma_code.get_kernel("copy_64"),
        descriptor,
        out,
        np.int32(n),
    )
    np.testing.assert_array_equal(to_host(out, stream, np.float32, n), source)


def test_other_encodings_are_accepted_by_the_driver(tma_device) -> None:
    from cuda.core._tensor_map import TensorMapDescriptor, TensorMapL2Promotion, TensorMapOOBFill, TensorMapSwizzle
    from cuda.core.utils import StridedMemoryView

    stream = tma_device.create_stream()
    _, view = device_matrix(tma_device, stream, np.zeros((64, 64), dtype=np.float32))
    swizzled = view.as_tensor_map(
        box_dim=(32, 32),
        swizzle=TensorMapSwizzle.SWIZZLE_128B,
        l2_promotion=TensorMapL2Promotion.L2_128B,
        oob_fill=TensorMapOOBFill.NAN_REQUEST_ZERO_FMA,
        element_strides=(1, 1),
    )
    assert "swizzle=SWIZZLE_128B" in repr(swizzled)
    buffer = to_device(tma_device, stream, np.zeros((1, 8, 8, 64), dtype=np.float32))
    nhwc = StridedMemoryView.from_buffer(buffer, (1, 8, 8, 64), dtype=np.float32)
    im2col = TensorMapDescriptor._from_im2col(nhwc, (0, 0), (4, 4), 64, 16)
    assert repr(im2col).startswith("TensorMapDescriptor(im2col, rank=4")


def test_the_driver_refuses_what_it_cannot_encode(cuda_core, tma_device) -> None:
    """A box whose inner extent is not a multiple of 16 bytes passes our checks; the driver's
    refusal is a CUDAError."""
    stream = tma_device.create_stream()
    _, view = device_matrix(tma_device, stream, np.zeros((64, 64), dtype=np.float32))
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        view.as_tensor_map(box_dim=(8, 3))
