# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture without a GPU: the names and signatures of NVIDIA's cuda.core 1.2.2, the
objects that cannot be made directly, the options' checks and normalization, the resource
descriptors' argument checks, and a closed texture refused as a kernel argument."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys

import pytest

EMPTY = inspect.Parameter.empty
POS = "POSITIONAL_OR_KEYWORD"
KW = "KEYWORD_ONLY"

NAMES = [
    "MipmappedArray",
    "MipmappedArrayOptions",
    "OpaqueArray",
    "OpaqueArrayOptions",
    "ResourceDescriptor",
    "SurfaceObject",
    "TextureObject",
    "TextureObjectOptions",
]

# Each public method's parameters in NVIDIA's stubs, as (name, default, kind).
METHODS = {
    ("OpaqueArray", "copy_from"): [("self", EMPTY, POS), ("src", EMPTY, POS), ("stream", EMPTY, KW)],
    ("OpaqueArray", "copy_to"): [("self", EMPTY, POS), ("dst", EMPTY, POS), ("stream", EMPTY, KW)],
    ("OpaqueArray", "close"): [("self", EMPTY, POS)],
    ("MipmappedArray", "get_level"): [("self", EMPTY, POS), ("level", EMPTY, POS)],
    ("MipmappedArray", "close"): [("self", EMPTY, POS)],
    ("TextureObject", "close"): [("self", EMPTY, POS)],
    ("SurfaceObject", "close"): [("self", EMPTY, POS)],
    ("ResourceDescriptor", "from_opaque_array"): [("array", EMPTY, POS)],
    ("ResourceDescriptor", "from_mipmapped_array"): [("mipmapped_array", EMPTY, POS)],
    ("ResourceDescriptor", "from_linear"): [
        ("buffer", EMPTY, POS),
        ("format", EMPTY, KW),
        ("num_channels", EMPTY, KW),
        ("size_bytes", None, KW),
    ],
    ("ResourceDescriptor", "from_pitch2d"): [
        ("buffer", EMPTY, POS),
        ("format", EMPTY, KW),
        ("num_channels", EMPTY, KW),
        ("width", EMPTY, KW),
        ("height", EMPTY, KW),
        ("pitch_bytes", EMPTY, KW),
    ],
}

PROPERTIES = {
    "OpaqueArray": {
        "handle",
        "is_closed",
        "shape",
        "format",
        "num_channels",
        "element_bytes",
        "device",
        "is_surface_load_store",
        "size_bytes",
    },
    "MipmappedArray": {
        "handle",
        "is_closed",
        "shape",
        "format",
        "num_channels",
        "num_levels",
        "is_surface_load_store",
        "device",
    },
    "TextureObject": {"handle", "is_closed", "resource", "options", "device"},
    "SurfaceObject": {"handle", "is_closed", "resource", "device"},
    "ResourceDescriptor": {"kind", "source", "format", "num_channels", "size_bytes", "width", "height", "pitch_bytes"},
}


def parameters(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


@pytest.fixture(scope="module")
def texture(cuda_core):
    import cuda.core.texture

    return cuda.core.texture


@pytest.fixture(scope="module")
def typing(cuda_core):
    import cuda.core.typing

    return cuda.core.typing


def test_names(texture) -> None:
    assert texture.__all__ == NAMES
    assert {getattr(texture, name).__module__ for name in NAMES} == {
        "cuda.core.texture._array",
        "cuda.core.texture._mipmapped_array",
        "cuda.core.texture._texture",
        "cuda.core.texture._surface",
    }


def test_import_cuda_core_leaves_texture_unloaded(cuda_core) -> None:
    probe = (
        "import sys, cuda.core; print(any(m.startswith('cuda.core.texture') for m in sys.modules)); "
        "cuda.core.Device.create_texture_object; print('cuda.core.texture' in sys.modules)"
    )
    lines = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert lines == ["False", "False"]


def test_method_signatures(texture) -> None:
    for (cls, method), expected in METHODS.items():
        assert parameters(getattr(getattr(texture, cls), method)) == expected, (cls, method)


def test_properties(texture) -> None:
    for cls, names in PROPERTIES.items():
        for name in names:
            assert inspect.isdatadescriptor(inspect.getattr_static(getattr(texture, cls), name)), (cls, name)


def test_option_fields_and_defaults(texture, typing) -> None:
    def fields(cls):
        return [(f.name, f.default) for f in dataclasses.fields(cls)]

    missing = dataclasses.MISSING
    assert fields(texture.OpaqueArrayOptions) == [
        ("shape", missing),
        ("format", missing),
        ("num_channels", missing),
        ("is_surface_load_store", False),
    ]
    assert fields(texture.MipmappedArrayOptions) == [
        ("shape", missing),
        ("format", missing),
        ("num_channels", missing),
        ("num_levels", missing),
        ("is_surface_load_store", False),
    ]
    assert fields(texture.TextureObjectOptions) == [
        ("address_mode", typing.AddressModeType.CLAMP),
        ("filter_mode", typing.FilterModeType.POINT),
        ("read_mode", typing.ReadModeType.ELEMENT_TYPE),
        ("normalized_coords", False),
        ("srgb", False),
        ("disable_trilinear_optimization", False),
        ("seamless_cubemap", False),
        ("max_anisotropy", 0),
        ("mipmap_filter_mode", typing.FilterModeType.POINT),
        ("mipmap_level_bias", 0.0),
        ("min_mipmap_level_clamp", 0.0),
        ("max_mipmap_level_clamp", 0.0),
        ("border_color", None),
    ]


def test_device_factories(cuda_core) -> None:
    device = cuda_core.Device
    assert parameters(device.create_opaque_array) == [("self", EMPTY, POS), ("options", EMPTY, POS)]
    assert parameters(device.create_mipmapped_array) == [("self", EMPTY, POS), ("options", EMPTY, POS)]
    assert parameters(device.create_texture_object) == [
        ("self", EMPTY, POS),
        ("resource", EMPTY, KW),
        ("options", None, KW),
    ]
    assert parameters(device.create_surface_object) == [("self", EMPTY, POS), ("resource", EMPTY, KW)]


@pytest.mark.parametrize("name", ["OpaqueArray", "MipmappedArray", "TextureObject", "SurfaceObject"])
def test_objects_are_made_by_the_device(texture, name) -> None:
    with pytest.raises(RuntimeError, match=rf"^{name} cannot be instantiated directly"):
        getattr(texture, name)()


def test_resource_descriptor_is_made_by_its_classmethods(texture) -> None:
    with pytest.raises(RuntimeError, match="^ResourceDescriptor cannot be instantiated"):
        texture.ResourceDescriptor()


@pytest.mark.parametrize("given", ["float32", "FLOAT32", "float32-enum", "numpy"])
def test_array_format_spellings(texture, typing, given) -> None:
    if given == "numpy":
        numpy = pytest.importorskip("numpy")
        fmt = numpy.float32
    elif given == "float32-enum":
        fmt = typing.ArrayFormatType.FLOAT32
    else:
        fmt = given
    if given == "FLOAT32":
        with pytest.raises(ValueError, match="format must be an ArrayFormatType"):
            texture.OpaqueArrayOptions(shape=(4,), format=fmt, num_channels=1)
        return
    options = texture.OpaqueArrayOptions(shape=[4, 2], format=fmt, num_channels=2)
    assert options.format is typing.ArrayFormatType.FLOAT32
    assert options.shape == (4, 2)


def test_numpy_dtype_without_a_format(texture) -> None:
    numpy = pytest.importorskip("numpy")
    for dtype in (numpy.float64, numpy.dtype("int64"), numpy.complex64):
        with pytest.raises(ValueError, match="no ArrayFormatType equivalent"):
            texture.OpaqueArrayOptions(shape=(4,), format=dtype, num_channels=1)
    assert texture.OpaqueArrayOptions(shape=(4,), format=numpy.dtype("i2"), num_channels=1).format == "int16"


@pytest.mark.parametrize("cls", ["OpaqueArrayOptions", "MipmappedArrayOptions"])
@pytest.mark.parametrize(
    "change, error, message",
    [
        ({"shape": 8}, TypeError, "shape must be a tuple"),
        ({"shape": ("a",)}, TypeError, "shape must be a tuple"),
        ({"shape": (2, 2, 2, 2)}, ValueError, "shape rank"),
        ({"shape": ()}, ValueError, "shape rank"),
        ({"shape": (8, 0)}, ValueError, r"shape\[1\] must be >= 1"),
        ({"format": 0}, ValueError, "format must be an ArrayFormatType"),
        ({"format": None}, ValueError, "format must be an ArrayFormatType"),
        ({"num_channels": 3}, ValueError, "num_channels"),
        ({"num_channels": True}, ValueError, "num_channels"),
    ],
)
def test_array_options_are_checked_when_made(texture, cls, change, error, message) -> None:
    fields = {"shape": (8, 8), "format": "uint8", "num_channels": 1}
    if cls == "MipmappedArrayOptions":
        fields["num_levels"] = 2
    fields.update(change)
    with pytest.raises(error, match=message):
        getattr(texture, cls)(**fields)


def test_mipmap_levels_are_checked(texture) -> None:
    with pytest.raises(ValueError, match="num_levels must be >= 1"):
        texture.MipmappedArrayOptions(shape=(8, 8), format="uint8", num_channels=1, num_levels=0)
    with pytest.raises(TypeError, match="num_levels"):
        texture.MipmappedArrayOptions(shape=(8, 8), format="uint8", num_channels=1, num_levels=1.5)


def test_texture_options_normalize_strings(texture, typing) -> None:
    options = texture.TextureObjectOptions(
        filter_mode="linear", read_mode="normalized_float", mipmap_filter_mode="linear"
    )
    assert options.filter_mode is typing.FilterModeType.LINEAR
    assert options.read_mode is typing.ReadModeType.NORMALIZED_FLOAT
    assert options.mipmap_filter_mode is typing.FilterModeType.LINEAR


@pytest.mark.parametrize(
    "field, enum",
    [("filter_mode", "FilterModeType"), ("read_mode", "ReadModeType"), ("mipmap_filter_mode", "FilterModeType")],
)
def test_texture_options_refuse_bad_modes(texture, field, enum) -> None:
    for bad in (0, "nearest"):
        with pytest.raises(ValueError, match=f"{field} must be a {enum}"):
            texture.TextureObjectOptions(**{field: bad})


def test_texture_options_check_the_rest_at_creation(texture) -> None:
    # What NVIDIA's tests make and only then pass to create_texture_object().
    texture.TextureObjectOptions(address_mode=42)
    texture.TextureObjectOptions(address_mode=())
    texture.TextureObjectOptions(max_anisotropy=-1, border_color=(0.0, 0.0))


def test_address_mode_normalization(cuda_core, typing) -> None:
    from cuda.core.texture._texture import _normalize_address_modes

    wrap, clamp, mirror = typing.AddressModeType.WRAP, typing.AddressModeType.CLAMP, typing.AddressModeType.MIRROR
    assert _normalize_address_modes(wrap) == (wrap, wrap, wrap)
    assert _normalize_address_modes("mirror") == (mirror, mirror, mirror)
    assert _normalize_address_modes((wrap, "clamp")) == (wrap, clamp, clamp)
    assert _normalize_address_modes([wrap, clamp, mirror]) == (wrap, clamp, mirror)
    with pytest.raises(TypeError, match="address_mode"):
        _normalize_address_modes(42)
    with pytest.raises(ValueError, match="address_mode tuple must have 1-3"):
        _normalize_address_modes(())
    with pytest.raises(ValueError, match="address_mode tuple must have 1-3"):
        _normalize_address_modes((wrap,) * 4)
    with pytest.raises(ValueError, match=r"address_mode\[1\]"):
        _normalize_address_modes((wrap, "bad", clamp))
    with pytest.raises(ValueError, match="address_mode must be an AddressModeType"):
        _normalize_address_modes("bad")


def test_driver_constants(cuda_core, typing) -> None:
    from cuda.core.texture import _array, _texture

    assert set(_array._ARRAYFORMAT_TO_CU) == set(typing.ArrayFormatType)
    assert {fmt: _array._FORMAT_ELEM_SIZE[cu] for fmt, cu in _array._ARRAYFORMAT_TO_CU.items()} == {
        "uint8": 1,
        "int8": 1,
        "uint16": 2,
        "int16": 2,
        "float16": 2,
        "uint32": 4,
        "int32": 4,
        "float32": 4,
    }
    assert set(_texture._ADDRESSMODE_TO_CU) == set(typing.AddressModeType)
    assert set(_texture._FILTERMODE_TO_CU) == set(typing.FilterModeType)
    assert (
        _texture._TRSF_READ_AS_INTEGER,
        _texture._TRSF_NORMALIZED_COORDINATES,
        _texture._TRSF_SRGB,
        _texture._TRSF_DISABLE_TRILINEAR_OPTIMIZATION,
        _texture._TRSF_SEAMLESS_CUBEMAP,
    ) == (1, 2, 16, 32, 64)


def test_resource_descriptors_need_their_sources(texture) -> None:
    with pytest.raises(TypeError, match="buffer must be a Buffer"):
        texture.ResourceDescriptor.from_linear(object(), format="uint8", num_channels=1)
    with pytest.raises(TypeError, match="buffer must be a Buffer"):
        texture.ResourceDescriptor.from_pitch2d(
            object(), format="uint8", num_channels=1, width=8, height=8, pitch_bytes=64
        )
    with pytest.raises(TypeError, match="OpaqueArray"):
        texture.ResourceDescriptor.from_opaque_array(object())
    with pytest.raises(TypeError, match="MipmappedArray"):
        texture.ResourceDescriptor.from_mipmapped_array(object())


def test_closed_texture_is_refused_as_kernel_argument(texture) -> None:
    from cuda.core._kernel_arg_handler import _packed_arguments

    for cls in (texture.TextureObject, texture.SurfaceObject):
        never_made = cls.__new__(cls)
        assert never_made.handle == 0 and never_made.is_closed
        never_made.close()  # idempotent, and needs no driver when there is nothing to destroy
        with pytest.raises(RuntimeError, match=f"kernel argument 0: the {cls.__name__} is closed"):
            _packed_arguments(never_made)


def test_resource_descriptor_fields_and_references(texture, typing) -> None:
    # A descriptor as the from_* classmethods make one (their sources need a GPU here).
    source = object()
    linear = texture.ResourceDescriptor._make("linear", source, typing.ArrayFormatType.UINT16, 2, size_bytes=64)
    assert (linear.kind, linear.source, linear.format, linear.num_channels, linear.size_bytes) == (
        "linear",
        source,
        "uint16",
        2,
        64,
    )
    assert (linear.width, linear.height, linear.pitch_bytes) == (None, None, None)
    assert "linear" in repr(linear)
    # Its source is among its references: what keeps an array alive behind a texture.
    import gc

    assert any(ref is source for ref in gc.get_referents(linear))
    pitched = texture.ResourceDescriptor._make(
        "pitch2d", source, typing.ArrayFormatType.UINT8, 4, width=8, height=2, pitch_bytes=64
    )
    assert (pitched.width, pitched.height, pitched.pitch_bytes, pitched.size_bytes) == (8, 2, 64, None)
    assert "pitch2d" in repr(pitched)


def test_factories_refuse_options_of_another_type(cuda_core) -> None:
    from cuda.core.texture._array import _create_opaque_array
    from cuda.core.texture._mipmapped_array import _create_mipmapped_array

    with pytest.raises(TypeError, match="takes an OpaqueArrayOptions"):
        _create_opaque_array(None)
    with pytest.raises(TypeError, match="takes a MipmappedArrayOptions"):
        _create_mipmapped_array("(8, 8)")
    with pytest.raises(ValueError, match="num_channels"):
        _create_opaque_array({"shape": (4,), "format": "uint8", "num_channels": 3})
