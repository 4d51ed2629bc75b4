# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""StridedMemoryView without a GPU: views of numpy arrays through DLPack and the NumPy array
interface, synthetic CUDA Array Interface objects, the decorator, DLPack export read back by
numpy, the C exchange API's table, and the errors for bad input."""

from __future__ import annotations

import ctypes
import gc
import weakref

import numpy as np
import pytest


@pytest.fixture(scope="session")
def smv(cuda_core):
    from cuda.core.utils import StridedMemoryView

    return StridedMemoryView


def item_strides(array: np.ndarray) -> tuple[int, ...]:
    return tuple(stride // array.itemsize for stride in array.strides)


ARRAYS = {
    "1-d int16": lambda: np.arange(7, dtype=np.int16),
    "2-d transposed": lambda: np.arange(12, dtype=np.float32).reshape(3, 4).T,
    "every other column": lambda: np.arange(30, dtype=np.float64).reshape(5, 6)[:, ::2],
    "reversed": lambda: np.arange(5, dtype=np.int64)[::-1],
    "0-d complex": lambda: np.array(1 + 2j, dtype=np.complex64),
    "empty": lambda: np.empty((0, 4), dtype=np.uint8),
    "read-only": lambda: np.frombuffer(b"abcdefgh", dtype=np.uint8),
}


@pytest.mark.parametrize("make", ARRAYS.values(), ids=ARRAYS.keys())
def test_a_numpy_array_through_dlpack(smv, make) -> None:
    array = make()
    view = smv.from_any_interface(array, stream_ptr=-1)
    assert (view.ptr, view.shape, view.size, view.dtype) == (array.ctypes.data, array.shape, array.size, array.dtype)
    assert view.strides is None or view.strides == item_strides(array)
    assert (view.device_id, view.is_device_accessible, view.exporting_obj) == (-1, False, array)
    assert view.readonly is not array.flags.writeable
    assert view.__dlpack_device__() == (1, 0)
    # Exported again, numpy reads the same elements.
    assert np.array_equal(np.from_dlpack(view), array)
    assert view._layout.shape == array.shape and view._layout.itemsize == array.itemsize


def test_a_numpy_array_through_the_array_interface(smv) -> None:
    array = np.arange(24, dtype=np.int32).reshape(4, 6)[1:, ::3]
    view = smv.from_array_interface(array)
    assert (view.ptr, view.shape, view.strides, view.dtype) == (
        array.ctypes.data,
        array.shape,
        item_strides(array),
        array.dtype,
    )
    assert view.is_device_accessible is False and view.exporting_obj is array
    contiguous = smv.from_array_interface(np.zeros((2, 3)))
    assert contiguous.strides is None  # the interface gives no strides for C order


def test_the_view_owns_the_tensor_and_keeps_the_array(smv) -> None:
    array = np.arange(6, dtype=np.int32)
    watch = weakref.ref(array)
    view = smv.from_dlpack(array, stream_ptr=-1)
    del array
    gc.collect()
    assert watch() is not None  # the consumed DLPack tensor holds the array
    del view
    gc.collect()
    assert watch() is None  # ...and the view released it


def test_producers_before_dlpack_1_are_asked_again_without_max_version(smv) -> None:
    calls = []

    class LegacyProducer:
        def __init__(self, array):
            self.array = array

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

        def __dlpack__(self, *, stream=None, max_version=None):
            calls.append(max_version)
            if max_version is not None:
                raise TypeError("unexpected keyword argument 'max_version'")
            return self.array.__dlpack__(stream=stream)

    array = np.arange(4, dtype=np.float32)
    view = smv.from_dlpack(LegacyProducer(array), stream_ptr=-1)
    assert calls == [(1, 0), None] and view.ptr == array.ctypes.data


def cai_object(**interface):
    fields = {"version": 3, "shape": (4,), "typestr": "<f4", "data": (0, False)}
    fields.update(interface)
    return type("FakeCAI", (), {"__cuda_array_interface__": fields})()


def test_cuda_array_interface_fields(smv) -> None:
    from cuda.core._memoryview import view_as_cai

    view = view_as_cai(cai_object(shape=(2, 3), strides=(24, 8), typestr="<f8", data=(0, True)), stream_ptr=-1)
    assert (view.shape, view.strides, view.dtype, view.readonly, view.is_device_accessible) == (
        (2, 3),
        (3, 1),
        np.dtype("float64"),
        True,
        True,
    )


@pytest.mark.parametrize(
    "interface, error, match",
    [
        ({"version": 2}, BufferError, "only v3 or above"),
        ({"mask": np.ones(4, dtype=bool)}, BufferError, "mask is not supported"),
        ({"strides": (6,)}, ValueError, "strides must be divisible by itemsize"),
    ],
)
def test_cuda_array_interface_refusals(smv, interface, error, match) -> None:
    with pytest.raises(error, match=match):
        smv.from_cuda_array_interface(cai_object(**interface), stream_ptr=-1)


def test_ambiguous_and_unknown_inputs(smv) -> None:
    array = np.zeros(4)
    with pytest.raises(BufferError, match="stream=None is ambiguous"):
        smv.from_dlpack(array, stream_ptr=None)
    with pytest.raises(BufferError, match="stream=None is ambiguous"):
        smv.from_cuda_array_interface(cai_object(), stream_ptr=None)
    with pytest.raises(BufferError, match="does not support any data exchange protocol"):
        smv.from_any_interface(object(), stream_ptr=-1)

    class Vulkan:
        def __dlpack_device__(self):
            return (7, 0)

    with pytest.raises(BufferError, match="device not supported"):
        smv.from_dlpack(Vulkan(), stream_ptr=-1)
    with pytest.raises(BufferError, match="only v3 or above"):
        smv.from_array_interface(type("Old", (), {"__array_interface__": {"version": 2}})())


def test_deprecated_constructor(smv) -> None:
    array = np.arange(3, dtype=np.int8)
    with pytest.deprecated_call(match="deprecated"):
        view = smv(array, stream_ptr=-1)
    assert view.ptr == array.ctypes.data
    with pytest.deprecated_call(match="deprecated"):
        empty = smv()
    with pytest.raises(ValueError, match="Cannot infer layout"):
        empty._layout


def test_export_refusals(smv) -> None:
    view = smv.from_dlpack(np.zeros(4, dtype=np.float64), stream_ptr=-1)
    with pytest.raises(BufferError, match="dl_device other than None"):
        view.__dlpack__(dl_device=(1, 0))
    with pytest.raises(BufferError, match="copy=True"):
        view.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="Expected max_version"):
        view.__dlpack__(max_version=(1,))
    for dtype, match in [
        (np.dtype([("a", np.int32), ("b", np.int32)]), "Structured dtypes"),
        (np.dtype(">f8"), "Non-native-endian"),
        (np.dtype("V8"), "Unsupported dtype"),
    ]:
        with pytest.raises(BufferError, match=match):
            view.view(dtype=dtype).__dlpack__()
    with pytest.raises(ValueError, match="does not match the layout's itemsize"):
        view.view(dtype=np.int32)


def test_view_with_a_layout_slices_from_the_base(smv) -> None:
    array = np.arange(20, dtype=np.int32).reshape(4, 5)
    view = smv.from_dlpack(array, stream_ptr=-1)
    assert view.view() is view
    sliced = view.view(view._layout[1:, 2:])
    expected = array[1:, 2:]
    assert (sliced.ptr, sliced.shape) == (expected.ctypes.data, expected.shape)
    assert np.array_equal(np.from_dlpack(sliced), expected)
    again = sliced.view(dtype=np.float32)  # the same layout, reinterpreted
    assert again.ptr == sliced.ptr and again.dtype == np.float32


def test_versioned_and_legacy_capsules(smv) -> None:
    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.argtypes, is_valid.restype = (ctypes.py_object, ctypes.c_char_p), ctypes.c_int
    view = smv.from_dlpack(np.arange(3, dtype=np.uint16), stream_ptr=-1)
    assert is_valid(view.__dlpack__(), b"dltensor") == 1
    assert is_valid(view.__dlpack__(max_version=(1, 2)), b"dltensor_versioned") == 1
    assert is_valid(view.__dlpack__(max_version=(0, 8)), b"dltensor") == 1
    read_only = smv.from_dlpack(np.frombuffer(b"abcd", dtype=np.uint8), stream_ptr=-1)
    assert read_only.readonly
    assert not np.from_dlpack(read_only).flags.writeable  # the read-only flag travels


def test_the_exchange_api_table(smv) -> None:
    capsule = smv.__dlpack_c_exchange_api__
    assert smv.__c_dlpack_exchange_api__ is capsule
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.argtypes, get_pointer.restype = (ctypes.py_object, ctypes.c_char_p), ctypes.c_void_p
    header = (ctypes.c_uint32 * 2).from_address(get_pointer(capsule, b"dlpack_exchange_api"))
    assert tuple(header) >= (1, 0)


def test_a_producer_with_the_exchange_api_is_read_through_it(smv) -> None:
    """A type that publishes __dlpack_c_exchange_api__ is imported through its C table, not
    __dlpack__ (PyTorch's costs ~20 us of Python); flags such as read-only still travel."""

    class ExchangeOnly(smv):
        def __dlpack__(self, *args, **kwargs):
            raise AssertionError("__dlpack__ was called although the type publishes the exchange API")

    array = np.frombuffer(b"abcdefgh", dtype=np.uint8).reshape(2, 4)[:, ::2]
    source = ExchangeOnly.from_dlpack(array, stream_ptr=-1)
    view = smv.from_dlpack(source, stream_ptr=-1)
    assert view.exporting_obj is source
    assert (view.ptr, view.shape, view.strides, view.dtype, view.readonly) == (
        array.ctypes.data,
        (2, 2),
        (4, 2),
        np.uint8,
        True,
    )
    assert smv.from_any_interface(source, stream_ptr=-1).shape == (2, 2)
    with pytest.raises(BufferError, match="stream=None is ambiguous"):
        smv.from_dlpack(source)


def test_args_viewable_as_strided_memory(cuda_core) -> None:
    from cuda.core._memoryview import _StridedMemoryViewProxy
    from cuda.core.utils import args_viewable_as_strided_memory

    @args_viewable_as_strided_memory((1,))
    def total(scale, values):
        """Sums the viewed values."""
        view = values.view(-1)
        return scale * int(np.from_dlpack(view).sum())

    assert total(2, np.arange(5)) == 20 and total.__doc__ == "Sums the viewed values."
    assert _StridedMemoryViewProxy(cai_object()).has_dlpack is False
    with pytest.raises(BufferError, match="does not support any data exchange protocol"):
        total(1, [1, 2, 3])


def test_a_view_is_passed_to_kernels_as_its_pointer(smv) -> None:
    from cuda.core._kernel_arg_handler import _packed_arguments

    array = np.arange(8, dtype=np.float32)
    view = smv.from_dlpack(array, stream_ptr=-1)
    assert _packed_arguments(view) == [array.ctypes.data.to_bytes(8, "little")]
    sliced = view.view(view._layout[2:])
    assert _packed_arguments(sliced) == [(array.ctypes.data + 8).to_bytes(8, "little")]


def test_views_of_reversed_arrays_reach_before_their_pointer(smv) -> None:
    array = np.arange(6, dtype=np.int32)[::-1]
    view = smv.from_dlpack(array, stream_ptr=-1)
    assert view.strides == (-1,) and not view._layout.is_dense
    tail = view.view(view._layout[3:])
    assert tail.ptr == array[3:].ctypes.data == view.ptr - 3 * 4
    assert np.array_equal(np.from_dlpack(tail), array[3:])
