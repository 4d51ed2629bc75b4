# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Kernels compiled by NVRTC and by nvcc, launched through cuda.core, checked against numpy."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from host_copies import to_device, to_host

KERNELS = r"""
template <typename T>
__global__ void vector_add(const T* a, const T* b, T* out, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a * x[i] + y[i];
}

// Writes every argument it gets, so the packing of each type is checked on the device.
extern "C" __global__ void echo(signed char i8, unsigned short u16, int i32, long long i64, float f32,
                                double f64, bool flag, long long from_python_int, double from_python_float,
                                unsigned long long* out) {
    out[0] = (unsigned long long)(long long)i8;
    out[1] = u16;
    out[2] = (unsigned long long)(long long)i32;
    out[3] = (unsigned long long)i64;
    out[4] = (unsigned long long)(long long)(f32 * 1000.0f);
    out[5] = (unsigned long long)(long long)(f64 * 1000.0);
    out[6] = flag ? 1 : 0;
    out[7] = (unsigned long long)from_python_int;
    out[8] = (unsigned long long)(long long)(from_python_float * 1000.0);
}
"""


@pytest.fixture(scope="module")
def nvrtc_code(cuda_core, module_device, nvrtc_loaded):
    """The test kernels compiled to a cubin for this device (a skip where NVRTC cannot be loaded)."""
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{module_device.arch}")
    program = cuda_core.Program(KERNELS, code_type="c++", options=options)
    return program.compile("cubin", name_expressions=("vector_add<float>", "vector_add<double>"))


@pytest.mark.parametrize("dtype, name", [(np.float32, "vector_add<float>"), (np.float64, "vector_add<double>")])
def test_vector_add_by_name_expression(cuda_core, device, nvrtc_code, dtype, name) -> None:
    n = 100_003
    rng = np.random.default_rng(1)
    a, b = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
    stream = device.create_stream()
    d_a, d_b = to_device(device, stream, a), to_device(device, stream, b)
    d_out = device.allocate(a.nbytes, stream=stream)
    kernel = nvrtc_code.get_kernel(name)
    config = cuda_core.LaunchConfig(grid=(n + 255) // 256, block=256)
    cuda_core.launch(stream, config, kernel, d_a, d_b, d_out, np.uint64(n))
    np.testing.assert_array_equal(to_host(d_out, stream, dtype, n), a + b)
    for buffer in (d_a, d_b, d_out):
        buffer.close(stream)
    stream.close()


def test_saxpy_with_a_grid_stride_loop(cuda_core, device, nvrtc_code) -> None:
    n = 1 << 20
    rng = np.random.default_rng(2)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    stream = device.create_stream()
    d_x, d_y = to_device(device, stream, x), to_device(device, stream, y)
    d_out = device.allocate(x.nbytes, stream=stream)
    config = cuda_core.LaunchConfig(grid=device.properties.multiprocessor_count * 4, block=(128,))
    cuda_core.launch(stream, config, nvrtc_code.get_kernel("saxpy"), np.float32(2.5), d_x, d_y, d_out, np.uint64(n))
    np.testing.assert_allclose(to_host(d_out, stream, np.float32, n), np.float32(2.5) * x + y, rtol=1e-6)


def test_every_argument_kind_reaches_the_kernel(cuda_core, device, nvrtc_code) -> None:
    stream = device.create_stream()
    out = device.allocate(9 * 8, stream=stream)
    args = (
        np.int8(-5),
        np.uint16(65000),
        np.int32(-123456),
        np.int64(-(2**40)),
        np.float32(1.5),
        np.float64(-2.25),
        np.bool_(True),
        2**40 + 3,
        0.75,
        out,
    )
    cuda_core.launch(stream, cuda_core.LaunchConfig(grid=1, block=1), nvrtc_code.get_kernel("echo"), *args)
    got = to_host(out, stream, np.int64, 9)
    assert got.tolist() == [-5, 65000, -123456, -(2**40), 1500, -2250, 1, 2**40 + 3, 750]


def test_launch_on_a_foreign_stream_object(cuda_core, device, nvrtc_code) -> None:
    """An object with __cuda_stream__ is still accepted where a stream is, with a DeprecationWarning
    (as in NVIDIA's cuda.core: wrap it with Stream(obj))."""

    class Foreign:
        def __init__(self, stream) -> None:
            self.stream = stream

        def __cuda_stream__(self):
            return self.stream.__cuda_stream__()

    ours = device.create_stream()
    n = 1024
    x = np.arange(n, dtype=np.float32)
    d_x = to_device(device, ours, x)
    d_out = device.allocate(x.nbytes, stream=ours)
    with pytest.warns(DeprecationWarning, match=r"Stream\(obj\)"):
        cuda_core.launch(
            Foreign(ours),
            cuda_core.LaunchConfig(grid=4, block=256),
            nvrtc_code.get_kernel("saxpy"),
            np.float32(-1),
            d_x,
            d_x,
            d_out,
            np.uint64(n),
        )
    assert not to_host(d_out, ours, np.float32, n).any()
    d_out2 = device.allocate(x.nbytes, stream=ours)
    cuda_core.launch(
        cuda_core.Stream(Foreign(ours)),
        cuda_core.LaunchConfig(grid=4, block=256),
        nvrtc_code.get_kernel("saxpy"),
        np.float32(2),
        d_x,
        d_x,
        d_out2,
        np.uint64(n),
    )
    np.testing.assert_array_equal(to_host(d_out2, ours, np.float32, n), 3 * x)


def test_launch_argument_type_errors_name_position_and_type(cuda_core, device, nvrtc_code) -> None:
    stream = device.create_stream()
    kernel = nvrtc_code.get_kernel("saxpy")
    config = cuda_core.LaunchConfig(grid=1, block=1)
    buffer = device.allocate(16, stream=stream)
    with pytest.raises(TypeError, match="kernel argument 1 has unsupported type builtins.list"):
        cuda_core.launch(stream, config, kernel, np.float32(1), [1.0], buffer, buffer, np.uint64(0))
    with pytest.raises(TypeError, match="kernel argument 3 has unsupported type numpy.ndarray"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, np.zeros(4), np.uint64(0))
    with pytest.raises(TypeError, match="Stream or GraphBuilder expected, got object"):
        cuda_core.launch(object(), config, kernel, np.float32(1), buffer, buffer, buffer, np.uint64(0))
    with pytest.raises(TypeError, match="kernel 'saxpy' takes 5 argument\\(s\\), got 4"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer)
    with pytest.raises(
        TypeError, match="kernel argument 4: a uint32 is 4 byte\\(s\\), but the kernel's parameter 4 takes 8"
    ):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, np.uint32(0))
    cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, 0)  # a Python int fits size_t
    stream.sync()
    buffer.close()
    with pytest.raises(RuntimeError, match="Buffer has been closed"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, np.uint64(0))
    stream.close()
    with pytest.raises(RuntimeError, match="Stream has been closed"):
        cuda_core.launch(stream, config, kernel)


def test_launch_errors_from_the_driver_are_cuda_errors(cuda_core, device, nvrtc_code) -> None:
    stream = device.create_stream()
    too_big = cuda_core.LaunchConfig(grid=1, block=device.properties.max_threads_per_block * 2)
    out = device.allocate(8, stream=stream)
    with pytest.raises(cuda_core.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        cuda_core.launch(stream, too_big, nvrtc_code.get_kernel("saxpy"), np.float32(1), out, out, out, np.uint64(0))


CUBIN_SOURCE = r"""
extern "C" __global__ void scale(float* data, float factor, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}
"""


@pytest.fixture(scope="module")
def nvcc_cubin(module_device, tmp_path_factory) -> Path:
    """A cubin built by nvcc for this device (the GPU machine has /usr/local/cuda/bin/nvcc)."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is None:
        pytest.skip("nvcc is not installed here")
    work = tmp_path_factory.mktemp("nvcc")
    (work / "scale.cu").write_text(CUBIN_SOURCE)
    subprocess.run(
        [nvcc, "-cubin", f"-arch=sm_{module_device.arch}", "-o", work / "scale.cubin", work / "scale.cu"],
        check=True,
        capture_output=True,
    )
    return work / "scale.cubin"


def test_cubin_from_nvcc_loads_and_runs(cuda_core, device, nvcc_cubin) -> None:
    """No NVRTC involved: this runs for both majors, also where libnvrtc of the build's major is absent."""
    n = 5000
    data = np.linspace(-1, 1, n, dtype=np.float32)
    stream = device.create_stream()
    for code in (
        cuda_core.ObjectCode.from_cubin(nvcc_cubin.read_bytes()),
        cuda_core.ObjectCode.from_cubin(str(nvcc_cubin)),
    ):
        d_data = to_device(device, stream, data)
        kernel = code.get_kernel("scale")
        assert kernel.num_arguments == 3
        cuda_core.launch(
            stream,
            cuda_core.LaunchConfig(grid=(n + 127) // 128, block=128),
            kernel,
            d_data,
            np.float32(3.0),
            np.uint32(n),
        )
        np.testing.assert_array_equal(to_host(d_data, stream, np.float32, n), data * np.float32(3.0))


def test_python_float_for_a_float_parameter_is_its_value(cuda_core, device, nvcc_cubin) -> None:
    """Python floats pack as doubles, as in NVIDIA's cuda.core; for a 4-byte parameter the
    value goes as a float, not as the double's low bytes."""
    kernel = cuda_core.ObjectCode.from_cubin(nvcc_cubin.read_bytes()).get_kernel("scale")
    data = np.arange(256, dtype=np.float32)
    stream = device.create_stream()
    d_data = to_device(device, stream, data)
    cuda_core.launch(stream, cuda_core.LaunchConfig(grid=1, block=256), kernel, d_data, 0.5, 256)
    np.testing.assert_array_equal(to_host(d_data, stream, np.float32, 256), data * np.float32(0.5))


def test_launch_order_and_timing_on_one_stream(cuda_core, device, nvcc_cubin) -> None:
    """Ten launches between two timed events: ordered on the stream, and timed."""
    code = cuda_core.ObjectCode.from_cubin(nvcc_cubin.read_bytes())
    kernel = code.get_kernel("scale")
    n = 1 << 16
    data = np.ones(n, dtype=np.float32)
    stream = device.create_stream()
    d_data = to_device(device, stream, data)
    timing = cuda_core.EventOptions(timing_enabled=True)
    start = stream.record(options=timing)
    for _ in range(10):
        # n as a Python int (8 bytes) for `unsigned int n`: wider is accepted, the low bytes count,
        # as in NVIDIA's cuda.core.
        cuda_core.launch(stream, cuda_core.LaunchConfig(grid=n // 256, block=256), kernel, d_data, np.float32(2.0), n)
    end = stream.record(options=timing)
    end.sync()
    assert (end - start) > 0.0
    np.testing.assert_array_equal(to_host(d_data, stream, np.float32, n), np.full(n, 1024.0, dtype=np.float32))


def test_faulty_kernel_source_is_an_nvrtc_error_with_the_log(cuda_core, device, nvrtc_code) -> None:
    """Compiled for this device's default arch; nvrtc_code makes this skip where NVRTC is absent."""
    faulty = 'extern "C" __global__ void broken(float* out) {\n    out[0] = undeclared_value;\n}\n'
    program = cuda_core.Program(faulty, code_type="c++")
    with pytest.raises(cuda_core.NVRTCError) as raised:
        program.compile("cubin")
    assert raised.value.name == "NVRTC_ERROR_COMPILATION"
    assert 'default_program(2): error: identifier "undeclared_value" is undefined' in str(raised.value)
    assert "undeclared_value" in raised.value.log


FEATURES = r"""
// Each block writes its cluster rank and the cluster's size (1, 1 without a cluster).
extern "C" __global__ void cluster_ids(unsigned int* out) {
    unsigned int rank, size;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
    unsigned int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0) { out[2 * block] = rank; out[2 * block + 1] = size; }
}

// A grid-wide barrier by counting: it only completes when every block is resident at once,
// which a cooperative launch guarantees. Each block then records how many arrived.
extern "C" __global__ void grid_barrier(unsigned int* counter, unsigned int* seen) {
    if (threadIdx.x == 0) {
        atomicAdd(counter, 1u);
        while (atomicAdd(counter, 0u) < gridDim.x) { }
        seen[blockIdx.x] = atomicAdd(counter, 0u);
    }
}

extern "C" __global__ void fill(unsigned int* out, unsigned int value, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
"""


@pytest.fixture(scope="module")
def features(cuda_core, module_device, tmp_path_factory):
    """FEATURES for this device: nvcc's cubin where nvcc is installed, else NVRTC's."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is not None:
        work = tmp_path_factory.mktemp("features")
        (work / "features.cu").write_text(FEATURES)
        subprocess.run(
            [nvcc, "-cubin", f"-arch=sm_{module_device.arch}", "-o", work / "features.cubin", work / "features.cu"],
            check=True,
            capture_output=True,
        )
        return cuda_core.ObjectCode.from_cubin((work / "features.cubin").read_bytes())
    options = cuda_core.ProgramOptions(arch=f"sm_{module_device.arch}")
    return cuda_core.Program(FEATURES, code_type="c++", options=options).compile("cubin")


def zeroed(device, stream, nbytes: int):
    import cuda.core

    buffer = device.allocate(nbytes, stream=stream)
    pinned = cuda.core.LegacyPinnedMemoryResource().allocate(nbytes)
    np.from_dlpack(pinned)[:] = 0
    buffer.copy_from(pinned, stream=stream)
    stream.sync()
    return buffer


def test_cluster_launch_groups_blocks(cuda_core, device, features) -> None:
    """grid counts clusters: grid=(4, 2) clusters of (2, 1) blocks is 16 blocks, ranked 0, 1 in each cluster."""
    if device.compute_capability < (9, 0):
        pytest.skip("thread block clusters need compute capability 9.0")
    stream = device.create_stream()
    out = zeroed(device, stream, 16 * 2 * 4)
    config = cuda_core.LaunchConfig(grid=(4, 2), cluster=(2, 1), block=32)
    cuda_core.launch(stream, config, features.get_kernel("cluster_ids"), out)
    ids = to_host(out, stream, np.uint32, 32).reshape(16, 2)
    assert ids[:, 1].tolist() == [2] * 16
    assert ids[:, 0].tolist() == [0, 1] * 8
    plain = zeroed(device, stream, 8 * 2 * 4)
    cuda_core.launch(stream, cuda_core.LaunchConfig(grid=8, block=32), features.get_kernel("cluster_ids"), plain)
    assert to_host(plain, stream, np.uint32, 16).reshape(8, 2).tolist() == [[0, 1]] * 8


def test_cooperative_launch(cuda_core, device, features) -> None:
    if not device.properties.cooperative_launch:
        pytest.skip("this device has no cooperative launches")
    kernel = features.get_kernel("grid_barrier")
    stream = device.create_stream()
    blocks = device.properties.multiprocessor_count
    counter, seen = zeroed(device, stream, 4), zeroed(device, stream, blocks * 4)
    config = cuda_core.LaunchConfig(grid=blocks, block=64, is_cooperative=True)
    assert config.is_cooperative
    cuda_core.launch(stream, config, kernel, counter, seen)
    assert to_host(seen, stream, np.uint32, blocks).tolist() == [blocks] * blocks
    too_many = cuda_core.LaunchConfig(grid=device.properties.max_grid_dim_x // 128 + 1, block=128, is_cooperative=True)
    with pytest.raises(ValueError, match="cooperative launch needs all its blocks resident at once"):
        cuda_core.launch(stream, too_many, kernel, counter, seen)


@pytest.mark.parametrize("how", ["legacy", "per_thread", "subclass", "pdl"])
def test_launch_paths(cuda_core, device, features, how) -> None:
    """The default streams, a Stream subclass, and programmatic dependent launch (cuLaunchKernelEx)."""
    from cuda.core._stream import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM

    class MyStream(cuda_core.Stream):
        pass

    stream = {
        "legacy": LEGACY_DEFAULT_STREAM,
        "per_thread": PER_THREAD_DEFAULT_STREAM,
        "subclass": MyStream._init(options={"nonblocking": True}, device_id=0),
        "pdl": device.create_stream(),
    }[how]
    n = 1000
    out = zeroed(device, stream, n * 4)
    config = cuda_core.LaunchConfig(grid=(n + 127) // 128, block=128, programmatic_stream_serialization=how == "pdl")
    for value in (7, 9):
        cuda_core.launch(stream, config, features.get_kernel("fill"), out, np.uint32(value), np.uint32(n))
    assert to_host(out, stream, np.uint32, n).tolist() == [9] * n


def test_strided_memory_views_as_kernel_arguments(cuda_core, device, nvrtc_code) -> None:
    """saxpy over views: of a CuPy or PyTorch array where one is installed (DLPack on the
    device, ordered on our stream), and of a Buffer with a layout (from_buffer)."""
    from cuda.core.utils import StridedMemoryView

    n = 1000
    stream = device.create_stream()
    config = cuda_core.LaunchConfig(grid=4, block=256)
    saxpy = nvrtc_code.get_kernel("saxpy")
    buffers = [device.allocate(n * 4, stream=stream) for _ in range(3)]
    views = [StridedMemoryView.from_buffer(buffer, (n,), dtype=np.float32) for buffer in buffers]
    staging = cuda_core.LegacyPinnedMemoryResource().allocate(n * 4)
    host = np.frombuffer(memoryview(staging), dtype=np.float32)
    for value, buffer in ((1.0, buffers[0]), (2.0, buffers[1])):
        host[:] = value
        buffer.copy_from(staging, stream=stream)
        stream.sync()
    cuda_core.launch(stream, config, saxpy, np.float32(3.0), views[0], views[1], views[2], np.uint64(n))
    buffers[2].copy_to(staging, stream=stream)
    stream.sync()
    assert set(host.tolist()) == {5.0}
    import importlib

    for library in ("cupy", "torch"):
        try:
            module = importlib.import_module(library)
        except ImportError:
            continue
        if library == "torch":
            array = module.zeros(n, dtype=module.float32, device="cuda")
        else:
            array = module.zeros(n, dtype=module.float32)
        view = StridedMemoryView.from_any_interface(array, stream_ptr=int(stream.handle))
        assert view.ptr != 0 and view.device_id == device.device_id and view.shape == (n,)
        cuda_core.launch(stream, config, saxpy, np.float32(2.0), views[0], views[1], view, np.uint64(n))
        stream.sync()
        assert float(array.sum()) == 4.0 * n
    for buffer in buffers:
        buffer.close(stream)
    stream.close()


SPIN = r"""
extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {}
}
"""


def _queue_late_fill(library: str, n: int):
    """An array of zeros, and on a producer stream of its library (made current) a ~50 ms spin
    then a fill with 3: a consumer not ordered after that stream reads zeros."""
    if library == "torch":
        torch = pytest.importorskip("torch")
        if not torch.cuda.is_available():
            pytest.skip("PyTorch sees no GPU")
        array = torch.zeros(n, dtype=torch.float32, device="cuda")
        torch.cuda.synchronize()
        producer = torch.cuda.Stream()
        with torch.cuda.stream(producer):
            torch.cuda._sleep(100_000_000)
            array.fill_(3.0)
        return array, torch.cuda.stream(producer)
    cupy = pytest.importorskip("cupy", exc_type=ImportError)  # with cuda-bindings 12.8, CuPy fails to import
    array = cupy.zeros(n, dtype=cupy.float32)
    cupy.cuda.Device().synchronize()
    producer = cupy.cuda.Stream(non_blocking=True)
    with producer:
        cupy.RawKernel(SPIN, "spin")((1,), (1,), (cupy.int64(100_000_000),))
        array.fill(3.0)
    return array, producer


@pytest.mark.parametrize(
    "library, protocol", [("torch", "dlpack"), ("torch", "cai"), ("cupy", "dlpack"), ("cupy", "cai")]
)
def test_a_view_is_ordered_after_the_producer_s_current_stream(
    cuda_core, device, nvrtc_code, library, protocol
) -> None:
    """The fast imports (PyTorch's C exchange table, CuPy's unsynchronised export) must still
    order the consumer stream after the producer's current stream, as __dlpack__(stream=)
    does: a fill queued behind a ~50 ms spin must be what our kernel reads."""
    from cuda.core.utils import StridedMemoryView

    n = 1 << 20
    stream = device.create_stream()
    out = zeroed(device, stream, n * 4)
    zeros = zeroed(device, stream, n * 4)
    array, current = _queue_late_fill(library, n)
    make = StridedMemoryView.from_dlpack if protocol == "dlpack" else StridedMemoryView.from_cuda_array_interface
    with current:
        view = make(array, stream_ptr=int(stream.handle))
    pointer = array.data_ptr() if library == "torch" else array.data.ptr
    assert (view.ptr, view.shape, view.dtype, view.device_id) == (pointer, (n,), np.float32, device.device_id)
    cuda_core.launch(
        stream,
        cuda_core.LaunchConfig(grid=256, block=256),
        nvrtc_code.get_kernel("saxpy"),
        np.float32(1.0),
        view,
        zeros,
        out,
        np.uint64(n),
    )
    assert set(to_host(out, stream, np.float32, n).tolist()) == {3.0}
