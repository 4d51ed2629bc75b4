# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""LaunchConfig, its driver form, kernel-argument packing into bytes, and launch()'s own checks,
without a GPU: packing is the same C code that launch() runs before cuLaunchKernel, and the
driver form is what cuLaunchKernelEx gets."""

from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest


@pytest.fixture(scope="module")
def packed(cuda_core):
    from cuda.core._kernel_arg_handler import _packed_arguments

    return _packed_arguments


@pytest.fixture(scope="module")
def native(cuda_core):
    from cuda.core._launch_config import _to_native_launch_config

    return _to_native_launch_config


@pytest.mark.parametrize(
    "grid, block, expected",
    [
        (4, 128, ((4, 1, 1), (128, 1, 1))),
        ((2, 3), (16, 16), ((2, 3, 1), (16, 16, 1))),
        ((1, 2, 3), (4, 5, 6), ((1, 2, 3), (4, 5, 6))),
        ((), (7,), ((1, 1, 1), (7, 1, 1))),
    ],
)
def test_launch_config_normalises_dims(cuda_core, grid, block, expected) -> None:
    config = cuda_core.LaunchConfig(grid=grid, block=block)
    assert (config.grid, config.block, config.shmem_size, config.cluster) == (*expected, 0, None)
    assert (config.is_cooperative, config.programmatic_stream_serialization) == (False, False)
    assert config == cuda_core.LaunchConfig(grid=expected[0], block=expected[1], shmem_size=0)
    assert hash(config) == hash(cuda_core.LaunchConfig(grid=expected[0], block=expected[1]))
    assert cuda_core.LaunchConfig(grid=grid, block=block, shmem_size=1024).shmem_size == 1024


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"grid": 0, "block": 1}, r"grid value must be >= 1; got 0"),
        ({"grid": 1, "block": (1, 0)}, r"block value must be >= 1"),
        ({"grid": 1, "block": (1, 2, 3, 4)}, r"block must be an int, or a tuple with up to 3 ints; got a tuple of 4"),
        ({"grid": 1.0, "block": 1}, r"grid must be an int, or a tuple .*got float"),
        ({"grid": (1, -2), "block": 1}, r"grid value must be >= 1; got -2"),
        ({"grid": (1, 2.5), "block": 1}, r"grid must be an int, .*got a float"),
        ({"grid": 1, "block": [32]}, r"block must be an int, .*got list"),
        ({"grid": 2**32, "block": 1}, r"does not fit the driver's 32-bit"),
        ({"grid": 1, "block": 1, "shmem_size": -1}, r"shmem_size must be from 0 to"),
        ({"grid": 1, "block": 1, "shmem_size": 2**32}, r"shmem_size must be from 0 to"),
        ({"grid": 1}, r"block must be an int, .*got NoneType"),
        ({"block": 1}, r"grid must be an int, .*got NoneType"),
    ],
)
def test_launch_config_rejects_bad_values(cuda_core, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        cuda_core.LaunchConfig(**kwargs)


def test_launch_config_shmem_size_must_be_an_int(cuda_core) -> None:
    with pytest.raises(TypeError, match="shmem_size must be an int"):
        cuda_core.LaunchConfig(grid=1, block=1, shmem_size=1.5)
    assert cuda_core.LaunchConfig(grid=1, block=1, shmem_size=None).shmem_size == 0


def test_launch_config_repr_eq_hash_weakref(cuda_core) -> None:
    import weakref

    config = cuda_core.LaunchConfig(grid=(2,), block=(64, 2))
    assert repr(config) == (
        "LaunchConfig(grid=(2, 1, 1), cluster=None, block=(64, 2, 1), shmem_size=0, is_cooperative=False)"
    )
    pdl = cuda_core.LaunchConfig(grid=2, block=(64, 2), programmatic_stream_serialization=True)
    assert repr(pdl).endswith("is_cooperative=False, programmatic_stream_serialization=True)")
    assert pdl != config and hash(pdl) != hash(config)
    assert config != (2, 64) and config != "LaunchConfig"
    assert config._identity() == ((2, 1, 1), None, (64, 2, 1), 0, False, False)
    assert weakref.ref(config)() is config
    from cuda.core import _launch_config

    assert _launch_config._LAUNCH_CONFIG_ATTRS == (
        "grid",
        "cluster",
        "block",
        "shmem_size",
        "is_cooperative",
        "programmatic_stream_serialization",
    )


def test_no_attributes_is_the_plain_driver_form(cuda_core, native) -> None:
    config = cuda_core.LaunchConfig(grid=(4, 5, 6), block=(7, 8, 9), shmem_size=128)
    result = native(config)
    assert (result.gridDimX, result.gridDimY, result.gridDimZ) == (4, 5, 6)
    assert (result.blockDimX, result.blockDimY, result.blockDimZ) == (7, 8, 9)
    assert (result.sharedMemBytes, result.numAttrs, list(result.attrs)) == (128, 0, [])


def test_fields_set_later_reach_the_driver_form(cuda_core, native) -> None:
    """grid counts clusters once a cluster is set: the driver gets grid * cluster blocks and a
    cluster-dimension attribute; cooperative and PDL flags become attributes too."""
    from cuda.bindings import driver

    ids = driver.CUlaunchAttributeID
    config = cuda_core.LaunchConfig(grid=(2, 3, 4), block=(5, 6, 7))
    config.cluster = (2, 2, 2)
    result = native(config)
    assert (result.gridDimX, result.gridDimY, result.gridDimZ) == (4, 6, 8)
    assert result.numAttrs == 1 and result.attrs[0].id == ids.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    cluster = result.attrs[0].value.clusterDim
    assert (cluster.x, cluster.y, cluster.z) == (2, 2, 2)
    config.is_cooperative = True
    config.programmatic_stream_serialization = True
    config.grid = (1,)
    config.shmem_size = 64
    result = native(config)
    assert (result.gridDimX, result.gridDimY, result.gridDimZ, result.sharedMemBytes) == (2, 2, 2, 64)
    assert [attribute.id for attribute in result.attrs] == [
        ids.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        ids.CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
        ids.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
    ]
    assert result.attrs[1].value.cooperative == 1
    assert result.attrs[2].value.programmaticStreamSerializationAllowed == 1
    config.cluster = None
    assert native(config).gridDimX == 1 and native(config).numAttrs == 2


def test_fields_are_checked_when_set(cuda_core) -> None:
    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="grid must be set to a tuple, got int"):
        config.grid = 5
    with pytest.raises(ValueError, match="block value must be >= 1"):
        config.block = (0,)
    with pytest.raises(ValueError, match="32-bit"):
        config.grid, config.cluster = (2**31,), (4,)
    assert config.grid == (2**31, 1, 1)  # the grid was set; the cluster that overflowed it was refused
    assert config.cluster is None


def test_cluster_and_cooperative_ask_the_device(cuda_core, no_driver) -> None:
    """Whether a cluster or a cooperative launch is possible is the current device's call."""
    with pytest.raises(cuda_core.DriverNotFoundError):
        cuda_core.LaunchConfig(grid=1, block=1, cluster=2)
    with pytest.raises(cuda_core.DriverNotFoundError):
        cuda_core.LaunchConfig(grid=1, block=1, is_cooperative=True)


@pytest.mark.parametrize("capability, accepted", [((9, 0), True), ((10, 0), True), ((8, 6), False)])
def test_cluster_needs_compute_capability_9(cuda_core, monkeypatch, capability, accepted) -> None:
    """The gate is Device().compute_capability, looked up through the module (as NVIDIA's tests patch it)."""
    from cuda.core import _launch_config

    class FakeDevice:
        compute_capability = capability

    monkeypatch.setattr(_launch_config, "Device", FakeDevice)
    if accepted:
        assert cuda_core.LaunchConfig(grid=(2, 3), cluster=(2, 2), block=32).cluster == (2, 2, 1)
    else:
        with pytest.raises(cuda_core.CUDAError, match="thread block clusters are not supported .* 8.6"):
            cuda_core.LaunchConfig(grid=2, cluster=2, block=32)


@pytest.mark.parametrize("supported", [True, False])
def test_cooperative_needs_device_support(cuda_core, monkeypatch, supported) -> None:
    from cuda.core import _launch_config

    class FakeDevice:
        class properties:  # noqa: N801 - mirrors Device.properties
            cooperative_launch = supported

    monkeypatch.setattr(_launch_config, "Device", FakeDevice)
    if supported:
        assert cuda_core.LaunchConfig(grid=1, block=1, is_cooperative=True).is_cooperative
    else:
        with pytest.raises(cuda_core.CUDAError, match="cooperative kernels are not supported"):
            cuda_core.LaunchConfig(grid=1, block=1, is_cooperative=True)


@pytest.mark.parametrize(
    "value, expected",
    [
        (np.int8(-3), struct.pack("<b", -3)),
        (np.uint8(250), struct.pack("<B", 250)),
        (np.int16(-300), struct.pack("<h", -300)),
        (np.uint16(60000), struct.pack("<H", 60000)),
        (np.int32(-7), struct.pack("<i", -7)),
        (np.uint32(4_000_000_000), struct.pack("<I", 4_000_000_000)),
        (np.int64(-(2**40)), struct.pack("<q", -(2**40))),
        (np.uint64(2**63 + 5), struct.pack("<Q", 2**63 + 5)),
        (np.float16(1.5), np.float16(1.5).tobytes()),
        (np.float32(2.25), struct.pack("<f", 2.25)),
        (np.float64(-0.125), struct.pack("<d", -0.125)),
        (np.complex64(1 - 2j), struct.pack("<ff", 1, -2)),
        (np.complex128(3 + 4j), struct.pack("<dd", 3, 4)),
        (np.bool_(True), b"\x01"),
    ],
)
def test_numpy_scalars_pack_as_their_fixed_width_bytes(packed, value, expected) -> None:
    assert packed(value) == [expected]


@pytest.mark.parametrize(
    "value, expected",
    [
        (ctypes.c_int8(-1), b"\xff"),
        (ctypes.c_uint16(513), struct.pack("<H", 513)),
        (ctypes.c_int32(-9), struct.pack("<i", -9)),
        (ctypes.c_int64(1 << 50), struct.pack("<q", 1 << 50)),
        (ctypes.c_float(0.5), struct.pack("<f", 0.5)),
        (ctypes.c_double(1e300), struct.pack("<d", 1e300)),
        (ctypes.c_bool(True), b"\x01"),
        (ctypes.c_void_p(0xDEADBEEF), struct.pack("<Q", 0xDEADBEEF)),
        (ctypes.c_size_t(12345), struct.pack("<Q", 12345)),
    ],
)
def test_ctypes_scalars_pack_as_their_bytes(packed, value, expected) -> None:
    assert packed(value) == [expected]


def test_subclasses_pack_as_their_base(packed) -> None:
    """Subclasses of the accepted types (ctypes, numpy, Python) pack as the type they extend."""

    class MyInt32(ctypes.c_int32):
        pass

    class MyFloat32(np.float32):
        pass

    class MyInt(int):
        pass

    class MyComplex(complex):
        pass

    assert packed(MyInt32(42), MyFloat32(2.5), MyInt(1), MyComplex(1 + 2j)) == [
        struct.pack("<i", 42),
        struct.pack("<f", 2.5),
        struct.pack("<q", 1),
        struct.pack("<dd", 1, 2),
    ]


def test_ctypes_pointers_pack_as_the_address(packed) -> None:
    target = ctypes.c_int(5)
    pointer = ctypes.pointer(target)
    assert packed(pointer) == [struct.pack("<Q", ctypes.addressof(target))]


def test_python_scalars_pack_as_cuda_core_does(packed) -> None:
    """int as intptr_t, float as double, bool as one byte, complex as two doubles."""
    assert packed(7, -1, 2.5, True, False, 1 - 1j) == [
        struct.pack("<q", 7),
        struct.pack("<q", -1),
        struct.pack("<d", 2.5),
        b"\x01",
        b"\x00",
        struct.pack("<dd", 1, -1),
    ]
    with pytest.raises(OverflowError, match="argument 0: the int .* does not fit"):
        packed(2**64)


def test_many_arguments_pack_in_order(packed) -> None:
    """More arguments than the inline room (32) go through the heap path unchanged."""
    values = [np.int32(i) for i in range(100)]
    assert packed(*values) == [struct.pack("<i", i) for i in range(100)]


@pytest.mark.parametrize(
    "value",
    [
        "text",
        b"bytes",
        None,
        [1],
        np.zeros(2),
        object(),
        np.datetime64(1, "s"),
        ctypes.py_object(1),
        np.longdouble(1),
        ctypes.c_longdouble(1),
        np.str_("x"),
    ],
)
def test_unsupported_arguments_name_position_and_type(packed, value) -> None:
    with pytest.raises(TypeError, match=rf"kernel argument 2 has unsupported type .*{type(value).__qualname__}"):
        packed(np.int32(1), 2.0, value)


def test_param_holder_points_at_the_packed_values(cuda_core) -> None:
    """ParamHolder.ptr is a void** array, one pointer per argument, each at its packed value."""
    from cuda.core._kernel_arg_handler import ParamHolder

    holder = ParamHolder([np.int32(-7), 2.5, True, ctypes.c_uint16(513), 1 + 2j])
    slots = ctypes.cast(holder.ptr, ctypes.POINTER(ctypes.c_void_p))
    assert ctypes.c_int32.from_address(slots[0]).value == -7
    assert ctypes.c_double.from_address(slots[1]).value == 2.5
    assert ctypes.c_bool.from_address(slots[2]).value is True
    assert ctypes.c_uint16.from_address(slots[3]).value == 513
    assert (ctypes.c_double * 2).from_address(slots[4])[:] == [1.0, 2.0]
    assert ParamHolder([]).ptr == 0
    with pytest.raises(TypeError, match="unsupported type"):
        ParamHolder(["not_a_valid_kernel_arg"])
    with pytest.raises(TypeError):
        ParamHolder(5)


def test_launch_checks_its_own_arguments_first(cuda_core) -> None:
    from cuda.core._stream import LEGACY_DEFAULT_STREAM

    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="stream is required and must not be None"):
        cuda_core.launch(None, config, None)
    with pytest.raises(TypeError, match="Stream or GraphBuilder expected, got object"):
        cuda_core.launch(object(), config, None)
    with pytest.raises(TypeError, match="config must be a LaunchConfig, got tuple"):
        cuda_core.launch(LEGACY_DEFAULT_STREAM, (1, 1), None)
    with pytest.raises(TypeError, match="kernel must be a Kernel .*got str"):
        cuda_core.launch(LEGACY_DEFAULT_STREAM, config, "saxpy")


def test_launch_on_a_protocol_object_is_deprecated(cuda_core) -> None:
    class Foreign:
        def __cuda_stream__(self):
            return (0, 0)

    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.warns(DeprecationWarning, match=r"Convert the object explicitly using Stream\(obj\) instead"):
        with pytest.raises(TypeError, match="kernel must be a Kernel"):
            cuda_core.launch(Foreign(), config, None)


def test_buffers_pack_as_their_pointer_and_a_closed_one_is_refused(cuda_core, packed) -> None:
    """The in-place path of launch()'s packing: a Buffer's device pointer, read without a
    reference taken; a closed Buffer raises the Buffer's own error."""
    buffer = cuda_core.Buffer.from_handle(0x7F001000, 64)
    assert packed(buffer, np.int32(3), buffer) == [struct.pack("<Q", 0x7F001000), struct.pack("<i", 3)] + [
        struct.pack("<Q", 0x7F001000)
    ]
    closed = cuda_core.Buffer.from_handle(0x7F002000, 64)
    closed.close()
    with pytest.raises(RuntimeError):
        packed(np.int32(1), closed)


def test_an_argument_narrower_than_its_parameter_is_refused(packed) -> None:
    """Each kind of argument is checked against its parameter's size: the driver would read past it."""
    assert packed(np.int64(5), np.int32(1), parameter_sizes=(4, 4)) == [struct.pack("<q", 5), struct.pack("<i", 1)]
    with pytest.raises(
        TypeError, match=r"kernel argument 1: a int32 is 4 byte\(s\), but the kernel's parameter 1 takes 8"
    ):
        packed(np.int64(5), np.int32(1), parameter_sizes=(8, 8))
    with pytest.raises(TypeError, match=r"kernel argument 0: a bool is 1 byte\(s\).* takes 4"):
        packed(True, parameter_sizes=(4,))
    # A Python float for a 4-byte parameter goes as a float, not as a double's low bytes.
    assert packed(2.5, parameter_sizes=(4,))[0][:4] == struct.pack("<f", 2.5)


def test_launch_takes_keywords_and_counts_arguments_as_a_python_function(cuda_core) -> None:
    """launch() reads positional arguments in place; keywords and too few arguments go through
    the same parameters as NVIDIA's def: its errors, by name."""
    from cuda.core._stream import LEGACY_DEFAULT_STREAM

    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match=r"launch\(\) takes at least 3 positional arguments \(2 given\)"):
        cuda_core.launch(LEGACY_DEFAULT_STREAM, config)
    with pytest.raises(TypeError, match="kernel must be a Kernel .*got str"):
        cuda_core.launch(stream=LEGACY_DEFAULT_STREAM, config=config, kernel="saxpy")
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'grid'"):
        cuda_core.launch(LEGACY_DEFAULT_STREAM, config, None, grid=1)
    assert cuda_core.launch.__name__ == "launch" and cuda_core.launch.__module__ == "cuda.core._launcher"
