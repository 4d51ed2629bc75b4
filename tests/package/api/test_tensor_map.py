# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""TMA tensor maps without a GPU: the names and signatures of NVIDIA's cuda.core 1.2.2
(cuda.core._tensor_map), the checks made before the driver is called, the options forms, and
a descriptor's 128 bytes as a kernel argument.

Views of device memory are made from CUDA Array Interface objects at address 0, which need no
driver: every check passes on them, and the driver is reached (DriverNotFoundError here)."""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest

EMPTY = inspect.Parameter.empty


@pytest.fixture(scope="session")
def tm(cuda_core):
    import cuda.core._tensor_map as module

    return module


@pytest.fixture(scope="session")
def smv(cuda_core):
    from cuda.core.utils import StridedMemoryView

    return StridedMemoryView


def device_view(smv, shape=(64, 64), typestr="<f4", strides=None, address=0):
    """A device-accessible view of ``shape`` at ``address`` (0: no driver needed)."""
    interface = {"version": 3, "shape": shape, "typestr": typestr, "data": (address, False), "strides": strides}
    return smv.from_cuda_array_interface(
        type("DeviceArray", (), {"__cuda_array_interface__": interface})(), stream_ptr=-1
    )


def signature(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


# ---------------------------------------------------------------------------------------------
# Names and signatures, as NVIDIA's 1.2.2 stubs list them


def test_public_names(cuda_core, tm) -> None:
    assert tm.__all__ == ["TensorMapDescriptor", "TensorMapDescriptorOptions"]
    assert {"TensorMapDescriptor", "TensorMapDescriptorOptions"} <= set(cuda_core.__all__)
    assert cuda_core.TensorMapDescriptor is tm.TensorMapDescriptor
    assert cuda_core.TensorMapDescriptorOptions is tm.TensorMapDescriptorOptions
    import cuda.core.utils

    assert "TensorMapDescriptor" not in cuda.core.utils.__all__
    for name in (
        "_normalize_tensor_map_data_type",
        "_normalize_tensor_map_sequence",
        "_require_tensor_map_enum",
        "_coerce_tensor_map_descriptor_options",
        "_resolve_data_type",
        "_get_validated_view",
        "_require_view_device",
        "_compute_byte_strides",
        "_validate_element_strides",
        "_NUMPY_DTYPE_TO_TMA",
        "_TMA_DATA_TYPE_SIZE",
        "_TMA_DT_BFLOAT16",
    ):
        assert hasattr(tm, name), name


def test_import_cuda_core_leaves_tensor_maps_and_numpy_unloaded(cuda_core) -> None:
    import subprocess
    import sys

    probe = (
        "import sys, cuda.core; print('cuda.core._tensor_map' in sys.modules, 'numpy' in sys.modules); "
        "cuda.core.TensorMapDescriptor; print('cuda.core._tensor_map' in sys.modules)"
    )
    lines = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert lines == ["False", "False", "True"]


ENUMS = {
    "TensorMapDataType": {
        "UINT8": 0,
        "UINT16": 1,
        "UINT32": 2,
        "INT32": 3,
        "UINT64": 4,
        "INT64": 5,
        "FLOAT16": 6,
        "FLOAT32": 7,
        "FLOAT64": 8,
        "BFLOAT16": 9,
        "FLOAT32_FTZ": 10,
        "TFLOAT32": 11,
        "TFLOAT32_FTZ": 12,
    },
    "TensorMapInterleave": {"NONE": 0, "INTERLEAVE_16B": 1, "INTERLEAVE_32B": 2},
    "TensorMapSwizzle": {"NONE": 0, "SWIZZLE_32B": 1, "SWIZZLE_64B": 2, "SWIZZLE_128B": 3},
    "TensorMapL2Promotion": {"NONE": 0, "L2_64B": 1, "L2_128B": 2, "L2_256B": 3},
    "TensorMapOOBFill": {"NONE": 0, "NAN_REQUEST_ZERO_FMA": 1},
    "TensorMapIm2ColWideMode": {"W": 0, "W128": 1},
}


@pytest.mark.parametrize("name", ENUMS)
def test_enum_members_are_the_drivers_values(tm, name) -> None:
    enum_type = getattr(tm, name)
    assert {member.name: int(member) for member in enum_type} == ENUMS[name]


def test_factory_signatures(tm, smv) -> None:
    T = tm.TensorMapDescriptor
    options = [
        ("element_strides", None, "KEYWORD_ONLY"),
        ("data_type", None, "KEYWORD_ONLY"),
        ("interleave", tm.TensorMapInterleave.NONE, "KEYWORD_ONLY"),
    ]
    tail = [
        ("swizzle", tm.TensorMapSwizzle.NONE, "KEYWORD_ONLY"),
        ("l2_promotion", tm.TensorMapL2Promotion.NONE, "KEYWORD_ONLY"),
        ("oob_fill", tm.TensorMapOOBFill.NONE, "KEYWORD_ONLY"),
    ]
    assert signature(T._from_tiled) == [
        ("view", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("box_dim", None, "POSITIONAL_OR_KEYWORD"),
        ("options", None, "KEYWORD_ONLY"),
        *options,
        *tail,
    ]
    corners = ["view", "pixel_box_lower_corner", "pixel_box_upper_corner", "channels_per_pixel", "pixels_per_column"]
    assert signature(T._from_im2col) == [(name, EMPTY, "POSITIONAL_OR_KEYWORD") for name in corners] + options + tail
    wide = [
        "view",
        "pixel_box_lower_corner_width",
        "pixel_box_upper_corner_width",
        "channels_per_pixel",
        "pixels_per_column",
    ]
    assert signature(T._from_im2col_wide) == [(name, EMPTY, "POSITIONAL_OR_KEYWORD") for name in wide] + options + [
        ("mode", tm.TensorMapIm2ColWideMode.W, "KEYWORD_ONLY"),
        ("swizzle", tm.TensorMapSwizzle.SWIZZLE_128B, "KEYWORD_ONLY"),
        *tail[1:],
    ]
    assert [name for name, _, _ in signature(T.replace_address)] == ["self", "tensor"]
    assert signature(smv.as_tensor_map) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("box_dim", None, "POSITIONAL_OR_KEYWORD"),
    ] + [
        (name, None, "KEYWORD_ONLY")
        for name in ("options", "element_strides", "data_type", "interleave", "swizzle", "l2_promotion", "oob_fill")
    ]
    assert [name for name, _, _ in signature(tm._require_view_device)] == ["view", "expected_device_id", "operation"]
    assert [name for name, _, _ in signature(tm._compute_byte_strides)] == ["shape", "strides", "elem_size"]


def test_options_dataclass_fields_and_defaults(tm) -> None:
    import dataclasses

    fields = {field.name: field.default for field in dataclasses.fields(tm.TensorMapDescriptorOptions)}
    assert fields == {
        "box_dim": dataclasses.MISSING,
        "element_strides": None,
        "data_type": None,
        "interleave": tm.TensorMapInterleave.NONE,
        "swizzle": tm.TensorMapSwizzle.NONE,
        "l2_promotion": tm.TensorMapL2Promotion.NONE,
        "oob_fill": tm.TensorMapOOBFill.NONE,
    }
    options = tm.TensorMapDescriptorOptions(box_dim=[8, 16], element_strides=[1, 2], swizzle=1)
    assert options.box_dim == (8, 16) and options.element_strides == (1, 2)
    assert options.swizzle is tm.TensorMapSwizzle.SWIZZLE_32B
    with pytest.raises(TypeError, match="box_dim must be a sequence of ints"):
        tm.TensorMapDescriptorOptions(box_dim=(1.5,))
    with pytest.raises(TypeError, match="swizzle must be one of"):
        tm.TensorMapDescriptorOptions(box_dim=(8,), swizzle=9)
    with pytest.raises(TypeError, match="data_type must be"):
        tm.TensorMapDescriptorOptions(box_dim=(8,), data_type="complex64")


def test_descriptors_come_from_views_only(cuda_core) -> None:
    with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
        cuda_core.TensorMapDescriptor()


# ---------------------------------------------------------------------------------------------
# Data types


def test_dtype_table(tm) -> None:
    T = tm.TensorMapDataType
    expected = {
        np.uint8: T.UINT8,
        np.uint16: T.UINT16,
        np.uint32: T.UINT32,
        np.int32: T.INT32,
        np.uint64: T.UINT64,
        np.int64: T.INT64,
        np.float16: T.FLOAT16,
        np.float32: T.FLOAT32,
        np.float64: T.FLOAT64,
    }
    for dtype, data_type in expected.items():
        assert tm._NUMPY_DTYPE_TO_TMA[np.dtype(dtype)] == data_type
        assert tm._normalize_tensor_map_data_type(dtype) is data_type
        assert tm._TMA_DATA_TYPE_SIZE[data_type] == np.dtype(dtype).itemsize
    assert tm._normalize_tensor_map_data_type("float32") is T.FLOAT32
    assert tm._normalize_tensor_map_data_type(T.TFLOAT32) is T.TFLOAT32


@pytest.mark.parametrize("bad", [42, 7, 1.0, "complex64", np.int8, object()])
def test_data_types_without_a_tma_counterpart(tm, bad) -> None:
    with pytest.raises(TypeError, match="data_type must be"):
        tm._normalize_tensor_map_data_type(bad)


def test_data_type_is_inferred_from_the_view(tm, smv) -> None:
    assert tm._resolve_data_type(device_view(smv, typestr="<f2"), None) is tm.TensorMapDataType.FLOAT16
    assert tm._resolve_data_type(device_view(smv, typestr="<f2"), np.uint16) is tm.TensorMapDataType.UINT16
    with pytest.raises(TypeError, match="pass data_type"):
        tm._resolve_data_type(device_view(smv, typestr="|i1"), None)


# ---------------------------------------------------------------------------------------------
# Helpers


def test_byte_strides_and_element_strides(tm) -> None:
    assert tm._compute_byte_strides((2, 3, 4), None, 4) == (48, 16, 4)
    assert tm._compute_byte_strides((2, 3), (8, 1), 2) == (16, 2)
    assert tm._validate_element_strides(None, 3) == (1, 1, 1)
    assert tm._validate_element_strides([2, 8], 2) == (2, 8)
    with pytest.raises(ValueError, match="element_strides must have 2 elements"):
        tm._validate_element_strides((1,), 2)
    with pytest.raises(ValueError, match=r"element_strides\[1\] must be in \[1, 8\]"):
        tm._validate_element_strides((1, 9), 2)


class DLPackDevice:
    def __init__(self, device_type: int, device_id: int) -> None:
        self.device = (device_type, device_id)

    def __dlpack_device__(self):
        return self.device


def test_require_view_device(tm) -> None:
    from cuda.core._dlpack import DLDeviceType

    tm._require_view_device(DLPackDevice(DLDeviceType.kDLCUDA, 2), 2, "op")
    with pytest.raises(ValueError, match=r"op expects tensor on device 0, got 2"):
        tm._require_view_device(DLPackDevice(DLDeviceType.kDLCUDA, 2), 0, "op")
    # Pinned and managed memory report device 0 whatever the device: never refused.
    tm._require_view_device(DLPackDevice(DLDeviceType.kDLCUDAHost, 0), 3, "op")
    tm._require_view_device(DLPackDevice(DLDeviceType.kDLCUDAManaged, 0), 3, "op")


def test_coerce_options(tm) -> None:
    coerce = tm._coerce_tensor_map_descriptor_options
    none = dict(element_strides=None, data_type=None, interleave=None, swizzle=None, l2_promotion=None, oob_fill=None)
    assert coerce((8,), None, **none) == tm.TensorMapDescriptorOptions(box_dim=(8,))
    given = tm.TensorMapDescriptorOptions(box_dim=(8,), swizzle=tm.TensorMapSwizzle.SWIZZLE_64B)
    assert coerce(None, given, **none) is given
    assert coerce(None, {"box_dim": (8,), "swizzle": 2}, **none) == given
    with pytest.raises(TypeError, match="Specify either options or the individual tensor map arguments"):
        coerce((8,), given, **none)
    with pytest.raises(TypeError, match="Specify either options or the individual tensor map arguments"):
        coerce(None, given, **{**none, "swizzle": tm.TensorMapSwizzle.SWIZZLE_32B})
    with pytest.raises(TypeError, match="box_dim is required"):
        coerce(None, None, **none)
    with pytest.raises(TypeError, match="options must be a TensorMapDescriptorOptions or a mapping"):
        coerce(None, 5, **none)


# ---------------------------------------------------------------------------------------------
# The checks before the driver, through StridedMemoryView.as_tensor_map and the factories


@pytest.mark.parametrize(
    "shape, kwargs, error, match",
    [
        ((), {"box_dim": ()}, ValueError, "rank must be between 1 and 5, got 0"),
        ((2,) * 6, {"box_dim": (2,) * 6}, ValueError, "rank must be between 1 and 5, got 6"),
        ((1024,), {"box_dim": (32, 32)}, ValueError, "box_dim must have 1 elements"),
        ((1024,), {"box_dim": (512,)}, ValueError, r"box_dim\[0\] must be in \[1, 256\]"),
        ((64, 64), {"box_dim": (32, 0)}, ValueError, r"box_dim\[1\] must be in \[1, 256\]"),
        ((1024,), {"box_dim": (64,), "element_strides": (1, 1)}, ValueError, "element_strides must have 1 elements"),
        ((1024,), {"box_dim": (64,), "data_type": 42}, TypeError, "data_type must be"),
        ((1024,), {"box_dim": (64,), "interleave": "16B"}, TypeError, "interleave must be one of"),
        ((1024,), {"box_dim": (64,), "l2_promotion": 7}, TypeError, "l2_promotion must be one of"),
        ((1024,), {"box_dim": ("a",)}, TypeError, "box_dim must be a sequence of ints"),
        ((1024,), {}, TypeError, "box_dim is required"),
        ((1024,), {"box_dim": (64,), "options": {"box_dim": (64,)}}, TypeError, "Specify either options"),
        ((1024,), {"options": {"box": (64,)}}, TypeError, "options:"),
        ((1023,), {"box_dim": (64,), "data_type": np.float64}, ValueError, "cannot reinterpret"),
    ],
)
def test_tiled_arguments_checked_before_the_driver(smv, shape, kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        device_view(smv, shape=shape).as_tensor_map(**kwargs)


def test_layouts_the_driver_cannot_address(smv) -> None:
    with pytest.raises(ValueError, match="innermost dimension must be contiguous"):
        device_view(smv, shape=(64, 64), strides=(4, 256)).as_tensor_map(box_dim=(8, 8))
    with pytest.raises(ValueError, match="multiples of 16 bytes"):
        device_view(smv, shape=(8, 3), strides=(20, 4)).as_tensor_map(box_dim=(8, 4))
    with pytest.raises(ValueError, match="empty tensor"):
        device_view(smv, shape=(0, 4)).as_tensor_map(box_dim=(1, 4))
    view = device_view(smv, shape=(64, 64))
    with pytest.raises(ValueError, match="16-byte aligned"):
        view.view(layout=view._layout[:, 1:]).as_tensor_map(box_dim=(8, 8))


def test_host_memory_is_refused(smv) -> None:
    host = smv.from_any_interface(np.zeros((64, 64), dtype=np.float32), stream_ptr=-1)
    with pytest.raises(ValueError, match="device-accessible"):
        host.as_tensor_map(box_dim=(32, 32), element_strides=(1, 1), swizzle=3)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"view_shape": (1024,)}, ValueError, "Im2col tensor rank must be between 3 and 5, got 1"),
        ({"pixel_box_lower_corner": (0, 0)}, ValueError, "pixel_box_lower_corner must have 1 elements"),
        ({"pixel_box_upper_corner": ()}, ValueError, "pixel_box_upper_corner must have 1 elements"),
        ({"channels_per_pixel": 0}, ValueError, "channels_per_pixel must be a positive"),
        ({"swizzle": 12}, TypeError, "swizzle must be one of"),
    ],
)
def test_im2col_arguments_checked_before_the_driver(tm, smv, kwargs, error, match) -> None:
    arguments = {
        "pixel_box_lower_corner": (0,),
        "pixel_box_upper_corner": (4,),
        "channels_per_pixel": 64,
        "pixels_per_column": 4,
    }
    shape = kwargs.pop("view_shape", (1, 32, 64))
    arguments.update(kwargs)
    with pytest.raises(error, match=match):
        tm.TensorMapDescriptor._from_im2col(device_view(smv, shape=shape), **arguments)


def test_im2col_wide_needs_a_cuda_13_build(tm, smv, cuda_major) -> None:
    arguments = {
        "pixel_box_lower_corner_width": 0,
        "pixel_box_upper_corner_width": 4,
        "channels_per_pixel": 64,
        "pixels_per_column": 4,
    }
    if cuda_major < 13:
        with pytest.raises(RuntimeError, match="requires a CUDA 13\\+ build"):
            tm.TensorMapDescriptor._from_im2col_wide(device_view(smv, shape=(1, 32, 64)), **arguments)
        return
    with pytest.raises(ValueError, match="Im2col-wide tensor rank must be between 3 and 5"):
        tm.TensorMapDescriptor._from_im2col_wide(device_view(smv, shape=(1024,)), **arguments)
    with pytest.raises(TypeError, match="mode must be one of"):
        tm.TensorMapDescriptor._from_im2col_wide(device_view(smv, shape=(1, 32, 64)), **arguments, mode=5)


@pytest.mark.parametrize(
    "make",
    [
        lambda tm, view: view.as_tensor_map(box_dim=(32, 32)),
        lambda tm, view: view.as_tensor_map(options={"box_dim": (32, 32), "data_type": np.float32}),
        # A byte view read as float32: 256 bytes a row are 64 floats.
        lambda tm, view: view.view(layout=view._layout.repacked(1), dtype=np.uint8).as_tensor_map(
            box_dim=(32, 32), data_type=tm.TensorMapDataType.FLOAT32
        ),
        lambda tm, view: tm.TensorMapDescriptor._from_im2col(
            view.view(layout=view._layout.reshaped((1, 64, 64))), (0,), (4,), 64, 4
        ),
    ],
    ids=["tiled", "options", "reinterpreted", "im2col"],
)
def test_valid_arguments_reach_the_driver(tm, smv, no_driver, make) -> None:
    import cuda.core

    with pytest.raises(cuda.core.DriverNotFoundError):
        make(tm, device_view(smv, shape=(64, 64)))


# ---------------------------------------------------------------------------------------------
# Kernel arguments: the 128 encoded bytes, by value


def test_a_descriptor_is_passed_as_its_128_bytes(tm) -> None:
    from cuda.core._kernel_arg_handler import ParamHolder, _packed_arguments

    descriptor = tm.TensorMapDescriptor.__new__(tm.TensorMapDescriptor)  # never encoded: 128 zero bytes
    assert repr(descriptor) == "TensorMapDescriptor()" and descriptor.device is None
    address = descriptor._tensor_map_address
    ctypes.memmove(address, bytes(range(128)), 128)
    packed = _packed_arguments(np.int32(7), descriptor, 3)
    assert packed[1] == bytes(range(128))
    assert packed[0] == np.int32(7).tobytes() and packed[2] == (3).to_bytes(8, "little")
    holder = ParamHolder((np.int32(7), descriptor))
    slots = (ctypes.c_void_p * 2).from_address(holder.ptr)
    assert slots[1] == address
    assert ctypes.string_at(slots[0], 4) == np.int32(7).tobytes()
