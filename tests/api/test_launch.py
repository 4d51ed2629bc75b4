"""LaunchConfig validation, kernel-argument packing into bytes, and launch()'s type errors,
without a GPU: packing is the same C code that launch() runs before cuLaunchKernel."""

from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest


@pytest.fixture(scope="module")
def packed(cuda_core):
    from cuda.core._kernel_arg_handler import _packed_arguments
    return _packed_arguments


@pytest.mark.parametrize("grid, block, expected", [
    (4, 128, ((4, 1, 1), (128, 1, 1))),
    ((2, 3), (16, 16), ((2, 3, 1), (16, 16, 1))),
    ((1, 2, 3), (4, 5, 6), ((1, 2, 3), (4, 5, 6))),
])
def test_launch_config_normalises_dims(cuda_core, grid, block, expected) -> None:
    config = cuda_core.LaunchConfig(grid=grid, block=block)
    assert (config.grid, config.block, config.shmem_size) == (*expected, 0)
    assert config == cuda_core.LaunchConfig(grid=expected[0], block=expected[1], shmem_size=0)
    assert cuda_core.LaunchConfig(grid=grid, block=block, shmem_size=1024).shmem_size == 1024


@pytest.mark.parametrize("kwargs, message", [
    ({"grid": 0, "block": 1}, "grid must be a positive int"),
    ({"grid": 1, "block": (1, 2, 3, 4)}, "block must be a positive int or a tuple of 1 to 3"),
    ({"grid": (), "block": 1}, "grid must be"),
    ({"grid": 1.0, "block": 1}, "grid must be"),
    ({"grid": (1, -2), "block": 1}, "grid must be"),
    ({"grid": True, "block": 1}, "grid must be"),
    ({"grid": 1, "block": [32]}, "block must be"),
    ({"grid": 2**32, "block": 1}, "does not fit 32-bit"),
    ({"grid": 1, "block": 1, "shmem_size": -1}, "shmem_size must be a non-negative int"),
    ({"grid": 1}, "needs both grid and block"),
])
def test_launch_config_rejects_bad_values(cuda_core, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        cuda_core.LaunchConfig(**kwargs)


def test_launch_config_features_not_built_are_named(cuda_core) -> None:
    with pytest.raises(NotImplementedError, match="clusters"):
        cuda_core.LaunchConfig(grid=1, block=1, cluster=2)
    with pytest.raises(NotImplementedError, match="cooperative"):
        cuda_core.LaunchConfig(grid=1, block=1, cooperative_launch=True)


@pytest.mark.parametrize("value, expected", [
    (np.int8(-3), struct.pack("<b", -3)),
    (np.uint8(250), struct.pack("<B", 250)),
    (np.int16(-300), struct.pack("<h", -300)),
    (np.uint16(60000), struct.pack("<H", 60000)),
    (np.int32(-7), struct.pack("<i", -7)),
    (np.uint32(4_000_000_000), struct.pack("<I", 4_000_000_000)),
    (np.int64(-2**40), struct.pack("<q", -2**40)),
    (np.uint64(2**63 + 5), struct.pack("<Q", 2**63 + 5)),
    (np.float16(1.5), np.float16(1.5).tobytes()),
    (np.float32(2.25), struct.pack("<f", 2.25)),
    (np.float64(-0.125), struct.pack("<d", -0.125)),
    (np.complex64(1 - 2j), struct.pack("<ff", 1, -2)),
    (np.complex128(3 + 4j), struct.pack("<dd", 3, 4)),
    (np.bool_(True), b"\x01"),
])
def test_numpy_scalars_pack_as_their_fixed_width_bytes(packed, value, expected) -> None:
    assert packed(value) == [expected]


@pytest.mark.parametrize("value, expected", [
    (ctypes.c_int8(-1), b"\xff"),
    (ctypes.c_uint16(513), struct.pack("<H", 513)),
    (ctypes.c_int32(-9), struct.pack("<i", -9)),
    (ctypes.c_int64(1 << 50), struct.pack("<q", 1 << 50)),
    (ctypes.c_float(0.5), struct.pack("<f", 0.5)),
    (ctypes.c_double(1e300), struct.pack("<d", 1e300)),
    (ctypes.c_bool(True), b"\x01"),
    (ctypes.c_void_p(0xDEADBEEF), struct.pack("<Q", 0xDEADBEEF)),
    (ctypes.c_size_t(12345), struct.pack("<Q", 12345)),
])
def test_ctypes_scalars_pack_as_their_bytes(packed, value, expected) -> None:
    assert packed(value) == [expected]


def test_ctypes_pointers_pack_as_the_address(packed) -> None:
    target = ctypes.c_int(5)
    pointer = ctypes.pointer(target)
    assert packed(pointer) == [struct.pack("<Q", ctypes.addressof(target))]


def test_python_scalars_pack_as_cuda_core_does(packed) -> None:
    """int as intptr_t, float as double, bool as one byte, complex as two doubles."""
    assert packed(7, -1, 2.5, True, False, 1 - 1j) == [
        struct.pack("<q", 7), struct.pack("<q", -1), struct.pack("<d", 2.5), b"\x01", b"\x00",
        struct.pack("<dd", 1, -1)]
    with pytest.raises(OverflowError, match="argument 0: the int .* does not fit"):
        packed(2**64)


def test_many_arguments_pack_in_order(packed) -> None:
    """More arguments than the inline room (32) go through the heap path unchanged."""
    values = [np.int32(i) for i in range(100)]
    assert packed(*values) == [struct.pack("<i", i) for i in range(100)]


@pytest.mark.parametrize("value", ["text", b"bytes", None, [1], np.zeros(2), object(), np.datetime64(1, "s"),
                                   ctypes.py_object(1)])
def test_unsupported_arguments_name_position_and_type(packed, value) -> None:
    with pytest.raises(TypeError, match=rf"kernel argument 2 has unsupported type .*{type(value).__qualname__}"):
        packed(np.int32(1), 2.0, value)


def test_launch_checks_its_own_arguments_first(cuda_core) -> None:
    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="config must be a LaunchConfig, got tuple"):
        cuda_core.launch(None, (1, 1), None)
    with pytest.raises(TypeError, match="kernel must be a Kernel .*got str"):
        cuda_core.launch(None, config, "saxpy")
