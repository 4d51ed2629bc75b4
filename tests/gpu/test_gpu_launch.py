"""Kernels compiled by NVRTC and by nvcc, launched through cuda.core, checked against numpy."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

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
def device(cuda_core):
    device = cuda_core.Device(0)
    device.set_current()
    return device


@pytest.fixture(scope="module")
def nvrtc_code(cuda_core, device):
    """The test kernels compiled to a cubin for this device, or a skip where NVRTC cannot be loaded."""
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{device.arch}")
    try:
        program = cuda_core.Program(KERNELS, code_type="c++", options=options)
        return program.compile("cubin", name_expressions=("vector_add<float>", "vector_add<double>"))
    except Exception as err:  # noqa: BLE001 - only a missing NVRTC library is a skip
        if "nvrtc" in str(err).lower() and ("not found" in str(err).lower() or "load" in str(err).lower()):
            pytest.skip(f"NVRTC cannot be loaded here: {err}")
        raise


def to_device(device, stream, array: np.ndarray):
    """A device Buffer holding ``array``, copied through pinned memory."""
    pinned = pinned_copy(array)
    buffer = device.allocate(array.nbytes, stream=stream)
    buffer.copy_from(pinned, stream=stream)
    stream.sync()
    pinned.close()
    return buffer


def pinned_copy(array: np.ndarray):
    import cuda.core
    pinned = cuda.core.LegacyPinnedMemoryResource().allocate(array.nbytes)
    np.from_dlpack(pinned)[:] = array.view(np.int8).ravel()
    return pinned


def to_host(buffer, stream, dtype, count: int) -> np.ndarray:
    import cuda.core
    pinned = cuda.core.LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(pinned, stream=stream)
    stream.sync()
    result = np.from_dlpack(pinned).view(dtype)[:count].copy()
    pinned.close()
    return result


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
    args = (np.int8(-5), np.uint16(65000), np.int32(-123456), np.int64(-2**40), np.float32(1.5), np.float64(-2.25),
            np.bool_(True), 2**40 + 3, 0.75, out)
    cuda_core.launch(stream, cuda_core.LaunchConfig(grid=1, block=1), nvrtc_code.get_kernel("echo"), *args)
    got = to_host(out, stream, np.int64, 9)
    assert got.tolist() == [-5, 65000, -123456, -2**40, 1500, -2250, 1, 2**40 + 3, 750]


def test_launch_on_a_foreign_stream_object(cuda_core, device, nvrtc_code) -> None:
    """Any object with __cuda_stream__ is accepted where a stream is."""
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
    cuda_core.launch(Foreign(ours), cuda_core.LaunchConfig(grid=4, block=256), nvrtc_code.get_kernel("saxpy"),
                     np.float32(-1), d_x, d_x, d_out, np.uint64(n))
    assert not to_host(d_out, ours, np.float32, n).any()


def test_launch_argument_type_errors_name_position_and_type(cuda_core, device, nvrtc_code) -> None:
    stream = device.create_stream()
    kernel = nvrtc_code.get_kernel("saxpy")
    config = cuda_core.LaunchConfig(grid=1, block=1)
    buffer = device.allocate(16, stream=stream)
    with pytest.raises(TypeError, match="kernel argument 1 has unsupported type builtins.list"):
        cuda_core.launch(stream, config, kernel, np.float32(1), [1.0], buffer, buffer, np.uint64(0))
    with pytest.raises(TypeError, match="kernel argument 3 has unsupported type numpy.ndarray"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, np.zeros(4), np.uint64(0))
    with pytest.raises(TypeError, match="not a stream"):
        cuda_core.launch(object(), config, kernel, np.float32(1), buffer, buffer, buffer, np.uint64(0))
    with pytest.raises(TypeError, match="kernel 'saxpy' takes 5 argument\\(s\\), got 4"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer)
    with pytest.raises(TypeError, match="kernel argument 4: a uint32 is 4 byte\\(s\\), but the kernel's parameter 4 "
                                        "takes 8"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, np.uint32(0))
    cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, 0)  # a Python int fits size_t
    stream.sync()
    buffer.close()
    with pytest.raises(RuntimeError, match="Buffer is closed"):
        cuda_core.launch(stream, config, kernel, np.float32(1), buffer, buffer, buffer, np.uint64(0))
    stream.close()
    with pytest.raises(RuntimeError, match="Stream is closed"):
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
def nvcc_cubin(device, tmp_path_factory) -> Path:
    """A cubin built by nvcc for this device (the GPU machine has /usr/local/cuda/bin/nvcc)."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    if nvcc is None:
        pytest.skip("nvcc is not installed here")
    work = tmp_path_factory.mktemp("nvcc")
    (work / "scale.cu").write_text(CUBIN_SOURCE)
    subprocess.run([nvcc, "-cubin", f"-arch=sm_{device.arch}", "-o", work / "scale.cubin", work / "scale.cu"],
                   check=True, capture_output=True)
    return work / "scale.cubin"


def test_cubin_from_nvcc_loads_and_runs(cuda_core, device, nvcc_cubin) -> None:
    """No NVRTC involved: this runs for both majors, also where libnvrtc of the build's major is absent."""
    n = 5000
    data = np.linspace(-1, 1, n, dtype=np.float32)
    stream = device.create_stream()
    for code in (cuda_core.ObjectCode.from_cubin(nvcc_cubin.read_bytes()), cuda_core.ObjectCode.from_cubin(str(nvcc_cubin))):
        d_data = to_device(device, stream, data)
        kernel = code.get_kernel("scale")
        assert kernel.num_arguments == 3
        cuda_core.launch(stream, cuda_core.LaunchConfig(grid=(n + 127) // 128, block=128), kernel, d_data,
                         np.float32(3.0), np.uint32(n))
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
    timing = cuda_core.EventOptions(enable_timing=True)
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
