# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture on the real driver: CUDA arrays filled and read back by copies, kernels
sampling textures (point, linear, normalized, 1D linear, pitched, mipmapped) and writing
surfaces, each checked against numpy; and the lifetimes that keep backing memory alive."""

from __future__ import annotations

import array
import gc

import numpy as np
import pytest
from host_copies import to_device, to_host

KERNELS = r"""
// Every texel of a w x h float texture, read at its center.
extern "C" __global__ void read_all(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

// The texture at n (x, y) coordinates.
extern "C" __global__ void sample_at(cudaTextureObject_t tex, const float* coords, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(tex, coords[2 * i], coords[2 * i + 1]);
}

// Level ``level`` of a mipmapped texture, at its texel centers in normalized coordinates.
extern "C" __global__ void read_level(cudaTextureObject_t tex, float* out, int w, int h, float level) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2DLod<float>(tex, (x + 0.5f) / w, (y + 0.5f) / h, level);
}

// Typed 1D fetches from a linear texture.
extern "C" __global__ void fetch_linear(cudaTextureObject_t tex, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

// surf[x, y] = a * tex[x, y] + x + 1000 * y: a texture read and a surface write in one kernel.
extern "C" __global__ void scale_into(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float a, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float v = a * tex2D<float>(tex, x + 0.5f, y + 0.5f) + x + 1000.0f * y;
        surf2Dwrite(v, surf, x * (int)sizeof(float), y);
    }
}

// surf[x, y, z] = x + 100 * y + 10000 * z, as an unsigned int.
extern "C" __global__ void fill_3d(cudaSurfaceObject_t surf, int w, int h, int d) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
    if (x < w && y < h && z < d)
        surf3Dwrite((unsigned int)(x + 100 * y + 10000 * z), surf, x * (int)sizeof(unsigned int), y, z);
}

// Each texel of a uint8 texture read as a normalized float.
extern "C" __global__ void read_normalized(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
"""


@pytest.fixture(scope="module")
def texture(cuda_core):
    import cuda.core.texture

    return cuda.core.texture


@pytest.fixture(scope="module")
def kinds(cuda_core):
    import cuda.core.typing

    return cuda.core.typing


@pytest.fixture(scope="module")
def code(cuda_core, module_device, nvrtc_loaded):
    options = cuda_core.ProgramOptions(std="c++17", arch=f"sm_{module_device.arch}")
    return cuda_core.Program(KERNELS, code_type="c++", options=options).compile("cubin")


@pytest.fixture
def stream(device):
    stream = device.create_stream()
    yield stream
    stream.close()


def grid_2d(cuda_core, w: int, h: int, depth: int = 1):
    return cuda_core.LaunchConfig(grid=((w + 15) // 16, (h + 15) // 16, depth), block=(16, 16, 1))


def float_image(w: int, h: int) -> np.ndarray:
    """An (h, w) float32 image: pattern[y, x] = x + 100 * y, rows of width w as an array holds them."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return (xs + 100 * ys).astype(np.float32)


def make_array(device, texture, shape, fmt, channels=1, surface=False):
    return device.create_opaque_array(
        texture.OpaqueArrayOptions(shape=shape, format=fmt, num_channels=channels, is_surface_load_store=surface)
    )


# ----------------------------------------------------------------------------------------
# Arrays and copies


def test_array_properties(cuda_core, device, texture, kinds) -> None:
    arr = make_array(device, texture, (32, 16), "float32", channels=2, surface=True)
    assert arr.shape == (32, 16) and arr.format is kinds.ArrayFormatType.FLOAT32 and arr.num_channels == 2
    assert arr.element_bytes == 8 and arr.size_bytes == 32 * 16 * 8 and arr.is_surface_load_store is True
    assert arr.handle != 0 and arr.device is device and not arr.is_closed
    assert "OpaqueArray" in repr(arr) and arr._extent_bytes() == (256, 16, 1)
    arr.close()
    assert arr.handle == 0 and arr.is_closed and "closed" in repr(arr)
    arr.close()
    with pytest.raises(RuntimeError, match="OpaqueArray has been closed"):
        arr.copy_to(bytearray(arr.size_bytes), stream=device.default_stream)


@pytest.mark.parametrize("shape", [(64,), (16, 8), (8, 4, 3)])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float16, np.uint32, np.float32])
def test_host_round_trip(device, texture, stream, shape, dtype) -> None:
    arr = make_array(device, texture, shape, np.dtype(dtype), channels=2)
    host = np.arange(int(np.prod(shape)) * 2).astype(dtype).reshape(tuple(reversed(shape)) + (2,))
    back = np.zeros_like(host)
    arr.copy_from(host, stream=stream)
    assert arr.copy_to(back, stream=stream) is back
    stream.sync()
    np.testing.assert_array_equal(back, host)
    arr.close()


def test_device_buffer_round_trip_and_graph_capture(cuda_core, device, texture, stream) -> None:
    arr = make_array(device, texture, (16, 16), "uint32")
    values = np.arange(256, dtype=np.uint32)
    source = to_device(device, stream, values)
    target = device.allocate(arr.size_bytes, stream=stream)
    arr.copy_from(source, stream=stream)
    arr.copy_to(target, stream=stream)
    np.testing.assert_array_equal(to_host(target, stream, np.uint32, 256), values)
    # The same copies captured into a graph, with new data in the source.
    source2 = to_device(device, stream, values[::-1].copy())
    builder = device.create_graph_builder().begin_building()
    arr.copy_from(source2, stream=builder)
    arr.copy_to(target, stream=builder)
    graph = builder.end_building().complete()
    graph.launch(stream)
    np.testing.assert_array_equal(to_host(target, stream, np.uint32, 256), values[::-1])
    for buffer in (source, source2, target):
        buffer.close(stream)
    arr.close()


def test_copies_check_sizes_and_streams(device, texture, stream) -> None:
    arr = make_array(device, texture, (16,), "uint32")
    small = array.array("I", [0] * 8)
    with pytest.raises(ValueError, match="smaller than the array extent"):
        arr.copy_from(small, stream=stream)
    with pytest.raises(ValueError, match="smaller than the array extent"):
        arr.copy_to(small, stream=stream)
    small_buffer = device.allocate(32, stream=stream)
    with pytest.raises(ValueError, match="smaller than the array extent"):
        arr.copy_from(small_buffer, stream=stream)
    with pytest.raises(TypeError, match="Stream or GraphBuilder expected"):
        arr.copy_from(array.array("I", [0] * 16), stream="not a stream")
    with pytest.raises(TypeError, match="writable"):
        arr.copy_to(bytes(64), stream=stream)
    small_buffer.close(stream)
    arr.close()


def test_from_handle_wraps_without_owning(device, texture, kinds) -> None:
    arr = make_array(device, texture, (8, 4, 2), "int8", channels=4, surface=True)
    view = texture.OpaqueArray._from_handle(arr.handle, False)
    assert (view.shape, view.format, view.num_channels, view.is_surface_load_store) == (
        (8, 4, 2),
        kinds.ArrayFormatType.INT8,
        4,
        True,
    )
    view.close()
    del view
    gc.collect()
    assert arr.copy_from(np.zeros(8 * 4 * 2 * 4, np.int8), stream=device.default_stream) is None
    device.default_stream.sync()
    arr.close()


# ----------------------------------------------------------------------------------------
# Textures sampled by kernels


def test_point_texture_reads_every_texel(cuda_core, device, texture, code, stream) -> None:
    w, h = 37, 19
    image = float_image(w, h)
    with make_array(device, texture, (w, h), "float32") as arr:
        arr.copy_from(image, stream=stream)
        tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_opaque_array(arr))
        assert tex.resource.source is arr and isinstance(tex.options, texture.TextureObjectOptions)
        out = device.allocate(image.nbytes, stream=stream)
        # The TextureObject itself as the argument, then its handle as a uint64.
        cuda_core.launch(
            stream, grid_2d(cuda_core, w, h), code.get_kernel("read_all"), tex, out, np.int32(w), np.int32(h)
        )
        np.testing.assert_array_equal(to_host(out, stream, np.float32, w * h).reshape(h, w), image)
        cuda_core.launch(
            stream,
            grid_2d(cuda_core, w, h),
            code.get_kernel("read_all"),
            np.uint64(tex.handle),
            out,
            np.int32(w),
            np.int32(h),
        )
        np.testing.assert_array_equal(to_host(out, stream, np.float32, w * h).reshape(h, w), image)
        tex.close()
        assert tex.handle == 0 and tex.is_closed
        with pytest.raises(RuntimeError, match="is closed"):
            cuda_core.launch(
                stream, grid_2d(cuda_core, w, h), code.get_kernel("read_all"), tex, out, np.int32(w), np.int32(h)
            )
        out.close(stream)


def bilinear(image: np.ndarray, x: float, y: float) -> float:
    """What LINEAR filtering with CLAMP addressing gives at (x, y), in texel units."""
    h, w = image.shape
    fx, fy = x - 0.5, y - 0.5
    x0, y0 = int(np.floor(fx)), int(np.floor(fy))
    tx, ty = fx - x0, fy - y0

    def at(xi: int, yi: int) -> float:
        return float(image[min(max(yi, 0), h - 1), min(max(xi, 0), w - 1)])

    return (
        (1 - tx) * (1 - ty) * at(x0, y0)
        + tx * (1 - ty) * at(x0 + 1, y0)
        + (1 - tx) * ty * at(x0, y0 + 1)
        + tx * ty * at(x0 + 1, y0 + 1)
    )


def test_linear_filtering_matches_bilinear_interpolation(cuda_core, device, texture, kinds, code, stream) -> None:
    w, h = 16, 16
    image = float_image(w, h)
    coords = np.array(
        [
            (0.5, 0.5),
            (1.0, 0.5),
            (0.5, 1.0),
            (1.0, 1.0),
            (4.0, 5.0),
            (7.25, 3.75),
            (15.9, 15.9),
            (-3.0, 2.5),
            (20.0, 20.0),
        ],
        dtype=np.float32,
    )
    arr = make_array(device, texture, (w, h), kinds.ArrayFormatType.FLOAT32)
    arr.copy_from(image, stream=stream)
    options = texture.TextureObjectOptions(address_mode="clamp", filter_mode=kinds.FilterModeType.LINEAR)
    tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_opaque_array(arr), options=options)
    d_coords = to_device(device, stream, coords)
    out = device.allocate(len(coords) * 4, stream=stream)
    cuda_core.launch(
        stream,
        cuda_core.LaunchConfig(grid=1, block=32),
        code.get_kernel("sample_at"),
        tex,
        d_coords,
        out,
        np.int32(len(coords)),
    )
    got = to_host(out, stream, np.float32, len(coords))
    expected = [bilinear(image, float(x), float(y)) for x, y in coords]
    # Hardware filtering weighs with 8-bit fractions.
    np.testing.assert_allclose(got, expected, atol=1.0)
    np.testing.assert_array_equal(got[:1], [0.0])
    tex.close()
    arr.close()


def test_normalized_coordinates_wrap(cuda_core, device, texture, kinds, code, stream) -> None:
    w, h = 8, 4
    image = float_image(w, h)
    arr = make_array(device, texture, (w, h), "float32")
    arr.copy_from(image, stream=stream)
    options = texture.TextureObjectOptions(address_mode=(kinds.AddressModeType.WRAP, "wrap"), normalized_coords=True)
    tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_opaque_array(arr), options=options)
    # Texel (2, 1)'s center, then one period further on each axis.
    u, v = (2 + 0.5) / w, (1 + 0.5) / h
    coords = np.array([(u, v), (u + 1.0, v + 1.0), (u - 2.0, v + 3.0)], dtype=np.float32)
    d_coords = to_device(device, stream, coords)
    out = device.allocate(coords.shape[0] * 4, stream=stream)
    cuda_core.launch(
        stream, cuda_core.LaunchConfig(grid=1, block=32), code.get_kernel("sample_at"), tex, d_coords, out, np.int32(3)
    )
    np.testing.assert_array_equal(to_host(out, stream, np.float32, 3), [image[1, 2]] * 3)
    tex.close()
    arr.close()


def test_normalized_float_read_mode(cuda_core, device, texture, kinds, code, stream) -> None:
    w, h = 16, 8
    image = (np.arange(w * h) * 2 % 256).astype(np.uint8).reshape(h, w)
    arr = make_array(device, texture, (w, h), np.uint8)
    arr.copy_from(image, stream=stream)
    options = texture.TextureObjectOptions(read_mode=kinds.ReadModeType.NORMALIZED_FLOAT)
    tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_opaque_array(arr), options=options)
    out = device.allocate(w * h * 4, stream=stream)
    cuda_core.launch(
        stream, grid_2d(cuda_core, w, h), code.get_kernel("read_normalized"), tex, out, np.int32(w), np.int32(h)
    )
    np.testing.assert_allclose(to_host(out, stream, np.float32, w * h).reshape(h, w), image / 255.0, atol=1e-6)
    tex.close()
    arr.close()


def test_linear_buffer_texture(cuda_core, device, texture, code, stream) -> None:
    n = 1000
    values = np.linspace(-5, 5, n, dtype=np.float32)
    buffer = to_device(device, stream, values)
    resource = texture.ResourceDescriptor.from_linear(buffer, format="float32", num_channels=1)
    assert (resource.kind, resource.size_bytes, resource.source) == ("linear", n * 4, buffer)
    tex = device.create_texture_object(resource=resource)
    out = device.allocate(n * 4, stream=stream)
    cuda_core.launch(
        stream,
        cuda_core.LaunchConfig(grid=(n + 255) // 256, block=256),
        code.get_kernel("fetch_linear"),
        tex,
        out,
        np.int32(n),
    )
    np.testing.assert_array_equal(to_host(out, stream, np.float32, n), values)
    tex.close()
    out.close(stream)
    buffer.close(stream)


def test_pitch2d_buffer_texture(cuda_core, device, texture, code, stream) -> None:
    from cuda.bindings import driver

    err, alignment = driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, device.device_id
    )
    assert err == driver.CUresult.CUDA_SUCCESS
    w, h = 24, 10
    pitch = max(int(alignment), 256)
    image = float_image(w, h)
    padded = np.full((h, pitch // 4), -1, dtype=np.float32)
    padded[:, :w] = image
    buffer = to_device(device, stream, padded)
    resource = texture.ResourceDescriptor.from_pitch2d(
        buffer, format="float32", num_channels=1, width=w, height=h, pitch_bytes=pitch
    )
    assert (resource.kind, resource.width, resource.height, resource.pitch_bytes) == ("pitch2d", w, h, pitch)
    tex = device.create_texture_object(resource=resource)
    out = device.allocate(image.nbytes, stream=stream)
    cuda_core.launch(stream, grid_2d(cuda_core, w, h), code.get_kernel("read_all"), tex, out, np.int32(w), np.int32(h))
    np.testing.assert_array_equal(to_host(out, stream, np.float32, w * h).reshape(h, w), image)
    tex.close()
    out.close(stream)
    buffer.close(stream)


def test_texture_options_checked_at_creation(device, texture) -> None:
    arr = make_array(device, texture, (8, 8), "float32")
    resource = texture.ResourceDescriptor.from_opaque_array(arr)
    for options, error, message in (
        (texture.TextureObjectOptions(address_mode=42), TypeError, "address_mode"),
        (texture.TextureObjectOptions(address_mode=()), ValueError, "1-3"),
        (texture.TextureObjectOptions(max_anisotropy=-1), ValueError, "max_anisotropy"),
        (texture.TextureObjectOptions(border_color=(0.0,)), ValueError, "border_color"),
        ("nope", TypeError, "must be provided as an object of type TextureObjectOptions"),
    ):
        with pytest.raises(error, match=message):
            device.create_texture_object(resource=resource, options=options)
    with pytest.raises(TypeError, match="resource must be a ResourceDescriptor"):
        device.create_texture_object(resource=arr)
    tex = device.create_texture_object(
        resource=resource, options={"border_color": (1, 2, 3, 4), "address_mode": "border"}
    )
    assert tex.options.border_color == (1, 2, 3, 4)
    tex.close()
    arr.close()
    with pytest.raises(RuntimeError, match="OpaqueArray has been closed"):
        device.create_texture_object(resource=resource)


# ----------------------------------------------------------------------------------------
# Surfaces written by kernels


def test_texture_read_and_surface_write(cuda_core, device, texture, code, stream) -> None:
    w, h = 40, 24
    image = float_image(w, h)
    source = make_array(device, texture, (w, h), "float32")
    target = make_array(device, texture, (w, h), "float32", surface=True)
    source.copy_from(image, stream=stream)
    tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_opaque_array(source))
    surf = device.create_surface_object(resource=texture.ResourceDescriptor.from_opaque_array(target))
    assert surf.handle != 0 and surf.resource.source is target and surf.device is device
    cuda_core.launch(
        stream,
        grid_2d(cuda_core, w, h),
        code.get_kernel("scale_into"),
        tex,
        surf,
        np.float32(-2.0),
        np.int32(w),
        np.int32(h),
    )
    result = np.empty_like(image)
    target.copy_to(result, stream=stream)
    stream.sync()
    ys, xs = np.mgrid[0:h, 0:w]
    np.testing.assert_array_equal(result, -2.0 * image + xs + 1000 * ys)
    surf.close()
    surf.close()
    tex.close()
    source.close()
    target.close()


def test_surface_3d_write(cuda_core, device, texture, code, stream) -> None:
    w, h, d = 20, 12, 5
    arr = make_array(device, texture, (w, h, d), "uint32", surface=True)
    surf = device.create_surface_object(resource=texture.ResourceDescriptor.from_opaque_array(arr))
    cuda_core.launch(
        stream, grid_2d(cuda_core, w, h, d), code.get_kernel("fill_3d"), surf, np.int32(w), np.int32(h), np.int32(d)
    )
    result = np.zeros((d, h, w), dtype=np.uint32)
    arr.copy_to(result, stream=stream)
    stream.sync()
    zs, ys, xs = np.mgrid[0:d, 0:h, 0:w]
    np.testing.assert_array_equal(result, xs + 100 * ys + 10000 * zs)
    surf.close()
    arr.close()


def test_surfaces_need_load_store_arrays(device, texture) -> None:
    plain = make_array(device, texture, (8, 8), "uint8", channels=4)
    with pytest.raises(ValueError, match="is_surface_load_store=True"):
        device.create_surface_object(resource=texture.ResourceDescriptor.from_opaque_array(plain))
    buffer = device.allocate(4096, stream=device.default_stream)
    for resource in (
        texture.ResourceDescriptor.from_linear(buffer, format="uint32", num_channels=1),
        texture.ResourceDescriptor.from_pitch2d(
            buffer, format="uint8", num_channels=4, width=8, height=8, pitch_bytes=64
        ),
    ):
        with pytest.raises(ValueError, match="array-backed"):
            device.create_surface_object(resource=resource)
    buffer.close()
    plain.close()


# ----------------------------------------------------------------------------------------
# Mipmapped arrays


def test_mipmap_levels_and_level_of_detail_sampling(cuda_core, device, texture, kinds, code, stream) -> None:
    w, h, levels = 32, 16, 4
    mip = device.create_mipmapped_array(
        texture.MipmappedArrayOptions(shape=(w, h), format="float32", num_channels=1, num_levels=levels)
    )
    assert (mip.shape, mip.num_levels, mip.format, mip.num_channels) == ((w, h), levels, "float32", 1)
    assert mip.handle != 0 and mip.device is device and "MipmappedArray" in repr(mip)
    images = []
    for level in range(levels):
        lvl = mip.get_level(level)
        lw, lh = max(1, w >> level), max(1, h >> level)
        assert lvl.shape == (lw, lh)
        image = float_image(lw, lh) + 10000 * level
        lvl.copy_from(image, stream=stream)
        images.append(image)
        lvl.close()
    with pytest.raises(ValueError, match="num_levels"):
        mip.get_level(levels)
    with pytest.raises(ValueError, match=">= 0"):
        mip.get_level(-1)
    options = texture.TextureObjectOptions(normalized_coords=True, max_mipmap_level_clamp=float(levels - 1))
    tex = device.create_texture_object(resource=texture.ResourceDescriptor.from_mipmapped_array(mip), options=options)
    for level in (0, 2):
        lh, lw = images[level].shape
        out = device.allocate(images[level].nbytes, stream=stream)
        cuda_core.launch(
            stream,
            grid_2d(cuda_core, lw, lh),
            code.get_kernel("read_level"),
            tex,
            out,
            np.int32(lw),
            np.int32(lh),
            np.float32(level),
        )
        np.testing.assert_array_equal(to_host(out, stream, np.float32, lw * lh).reshape(lh, lw), images[level])
        out.close(stream)
    # The texture keeps the mipmap's storage after the mipmap is closed.
    mip.close()
    assert mip.handle == 0
    out = device.allocate(images[2].nbytes, stream=stream)
    lh, lw = images[2].shape
    cuda_core.launch(
        stream,
        grid_2d(cuda_core, lw, lh),
        code.get_kernel("read_level"),
        tex,
        out,
        np.int32(lw),
        np.int32(lh),
        np.float32(2),
    )
    np.testing.assert_array_equal(to_host(out, stream, np.float32, lw * lh).reshape(lh, lw), images[2])
    out.close(stream)
    tex.close()


def test_mipmap_level_surface_and_outliving_parent(device, texture, stream) -> None:
    mip = device.create_mipmapped_array(
        texture.MipmappedArrayOptions(
            shape=(16, 16), format="uint32", num_channels=1, num_levels=3, is_surface_load_store=True
        )
    )
    with pytest.raises(ValueError, match="array-backed"):
        device.create_surface_object(resource=texture.ResourceDescriptor.from_mipmapped_array(mip))
    level = mip.get_level(1)
    assert level.is_surface_load_store and level.shape == (8, 8)
    surf = device.create_surface_object(resource=texture.ResourceDescriptor.from_opaque_array(level))
    surf.close()
    del mip
    gc.collect()
    values = np.arange(64, dtype=np.uint32)
    back = np.zeros_like(values)
    level.copy_from(values, stream=stream)
    level.copy_to(back, stream=stream)
    stream.sync()
    np.testing.assert_array_equal(back, values)
    level.close()


# ----------------------------------------------------------------------------------------
# Lifetimes


def test_texture_keeps_its_array_after_the_array_is_closed(cuda_core, device, texture, code, stream) -> None:
    w, h = 16, 8
    image = float_image(w, h)
    arr = make_array(device, texture, (w, h), "float32")
    arr.copy_from(image, stream=stream)
    resource = texture.ResourceDescriptor.from_opaque_array(arr)
    tex = device.create_texture_object(resource=resource)
    arr.close()
    del arr, resource
    gc.collect()
    assert isinstance(tex.resource, texture.ResourceDescriptor)
    assert any(isinstance(r, texture.ResourceDescriptor) for r in gc.get_referents(tex))
    out = device.allocate(image.nbytes, stream=stream)
    cuda_core.launch(stream, grid_2d(cuda_core, w, h), code.get_kernel("read_all"), tex, out, np.int32(w), np.int32(h))
    np.testing.assert_array_equal(to_host(out, stream, np.float32, w * h).reshape(h, w), image)
    out.close(stream)
    with tex:
        pass
    assert tex.is_closed


def test_factories_need_an_initialized_device(cuda_core, texture) -> None:
    import cuda.core._device as _device

    saved = _device._tls.devices
    try:
        _device._tls.devices = [None] * len(saved)
        fresh = cuda_core.Device(0)
        with pytest.raises(cuda_core.CUDAError, match="set_current"):
            fresh.create_opaque_array(texture.OpaqueArrayOptions(shape=(4,), format="uint8", num_channels=1))
        with pytest.raises(cuda_core.CUDAError, match="set_current"):
            fresh.create_surface_object(resource=None)
    finally:
        _device._tls.devices = saved
