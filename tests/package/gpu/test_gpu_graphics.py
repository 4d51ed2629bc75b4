# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""OpenGL interop on the real driver: GL buffers and textures registered as GraphicsResource,
mapped to Buffers that CUDA writes and GL reads back.

The GPU machine is headless: the GL context comes from EGL (libEGL and libOpenGL through
GLVND, the NVIDIA EGL vendor library), surfaceless, on the default display or else on the
EGL device of the GPU. Where no GL context can be made, each test skips, saying what failed.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest

EGL_NONE = 0x3038
EGL_SURFACE_TYPE = 0x3033
EGL_PBUFFER_BIT = 0x0001
EGL_RENDERABLE_TYPE = 0x3040
EGL_OPENGL_BIT = 0x0008
EGL_OPENGL_API = 0x30A2
EGL_PLATFORM_DEVICE_EXT = 0x313F
GL_ARRAY_BUFFER = 0x8892
GL_DYNAMIC_DRAW = 0x88E8
GL_TEXTURE_2D = 0x0DE1
GL_RGBA8 = 0x8058
GL_RGBA = 0x1908
GL_UNSIGNED_BYTE = 0x1401


class GL:
    """A surfaceless EGL OpenGL context, current on this thread, and the GL calls the tests use."""

    def __init__(self) -> None:
        egl_name = ctypes.util.find_library("EGL")
        if egl_name is None:
            pytest.skip("no GL context: libEGL is not installed (GLVND's libegl1 and the NVIDIA EGL vendor library)")
        egl = self.egl = ctypes.CDLL(egl_name)
        egl.eglGetProcAddress.restype = ctypes.c_void_p
        egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
        egl.eglGetDisplay.restype = ctypes.c_void_p
        egl.eglGetDisplay.argtypes = [ctypes.c_void_p]
        egl.eglInitialize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        egl.eglChooseConfig.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_int32),
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_int32,
            ctypes.POINTER(ctypes.c_int32),
        ]
        egl.eglCreateContext.restype = ctypes.c_void_p
        egl.eglCreateContext.argtypes = [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_int32),
        ]
        egl.eglMakeCurrent.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        egl.eglDestroyContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        egl.eglTerminate.argtypes = [ctypes.c_void_p]
        self.display = self._display()
        attributes = (ctypes.c_int32 * 5)(
            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE
        )
        config, found = ctypes.c_void_p(), ctypes.c_int32(0)
        if (
            not egl.eglChooseConfig(self.display, attributes, ctypes.byref(config), 1, ctypes.byref(found))
            or found.value < 1
        ):
            pytest.skip("no GL context: eglChooseConfig found no OpenGL config")
        if not egl.eglBindAPI(EGL_OPENGL_API):
            pytest.skip("no GL context: eglBindAPI(EGL_OPENGL_API) failed")
        self.context = egl.eglCreateContext(self.display, config, None, None)
        if not self.context:
            pytest.skip("no GL context: eglCreateContext failed")
        if not egl.eglMakeCurrent(self.display, None, None, self.context):
            pytest.skip("no GL context: eglMakeCurrent (surfaceless) failed")
        gl_name = ctypes.util.find_library("OpenGL") or ctypes.util.find_library("GL")
        self.gl = ctypes.CDLL(gl_name) if gl_name else None

    def _display(self):
        """The default EGL display, else the EGL device's (headless NVIDIA)."""
        egl = self.egl
        display = egl.eglGetDisplay(None)
        if display and egl.eglInitialize(display, None, None):
            return display
        query = egl.eglGetProcAddress(b"eglQueryDevicesEXT")
        platform = egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
        if not query or not platform:
            pytest.skip("no GL context: no default EGL display and no EGL_EXT_device_enumeration")
        query_devices = ctypes.CFUNCTYPE(
            ctypes.c_uint, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int32)
        )(query)
        get_display = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32))(
            platform
        )
        devices, count = (ctypes.c_void_p * 8)(), ctypes.c_int32(0)
        if not query_devices(8, devices, ctypes.byref(count)) or count.value < 1:
            pytest.skip("no GL context: EGL enumerates no device")
        display = get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], None)
        if not display or not egl.eglInitialize(display, None, None):
            pytest.skip("no GL context: eglInitialize failed on the EGL device")
        return display

    def function(self, name: str, restype, *argtypes):
        address = self.egl.eglGetProcAddress(name.encode())
        if not address and self.gl is not None:
            address = ctypes.cast(getattr(self.gl, name), ctypes.c_void_p).value
        if not address:
            pytest.skip(f"no GL context: {name} cannot be loaded")
        return ctypes.CFUNCTYPE(restype, *argtypes)(address)

    def buffer(self, nbytes: int) -> int:
        """A new GL array buffer of ``nbytes`` bytes."""
        name = ctypes.c_uint(0)
        self.function("glGenBuffers", None, ctypes.c_int, ctypes.POINTER(ctypes.c_uint))(1, ctypes.byref(name))
        self.function("glBindBuffer", None, ctypes.c_uint, ctypes.c_uint)(GL_ARRAY_BUFFER, name.value)
        self.function("glBufferData", None, ctypes.c_uint, ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_uint)(
            GL_ARRAY_BUFFER, nbytes, None, GL_DYNAMIC_DRAW
        )
        return name.value

    def read_buffer(self, name: int, nbytes: int) -> bytes:
        self.function("glBindBuffer", None, ctypes.c_uint, ctypes.c_uint)(GL_ARRAY_BUFFER, name)
        out = ctypes.create_string_buffer(nbytes)
        self.function("glGetBufferSubData", None, ctypes.c_uint, ctypes.c_ssize_t, ctypes.c_ssize_t, ctypes.c_void_p)(
            GL_ARRAY_BUFFER, 0, nbytes, out
        )
        self.function("glFinish", None)()
        return out.raw

    def texture(self, width: int, height: int) -> int:
        name = ctypes.c_uint(0)
        self.function("glGenTextures", None, ctypes.c_int, ctypes.POINTER(ctypes.c_uint))(1, ctypes.byref(name))
        self.function("glBindTexture", None, ctypes.c_uint, ctypes.c_uint)(GL_TEXTURE_2D, name.value)
        self.function(
            "glTexImage2D",
            None,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_void_p,
        )(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
        return name.value

    def close(self) -> None:
        self.egl.eglMakeCurrent(self.display, None, None, None)
        self.egl.eglDestroyContext(self.display, self.context)


@pytest.fixture
def gl(device):
    context = GL()
    yield context
    context.close()


def test_cuda_writes_what_gl_reads(cuda_core, device, gl) -> None:
    name = gl.buffer(1024)
    stream = device.create_stream()
    resource = cuda_core.GraphicsResource.from_gl_buffer(name, flags="write_discard")
    assert resource.handle != 0 and resource.resource_handle == resource.handle and not resource.is_mapped
    with resource.map(stream=stream) as buffer:
        assert isinstance(buffer, cuda_core.Buffer) and buffer.size == 1024 and resource.is_mapped
        assert resource._get_mapped_buffer() is buffer
        buffer.fill(0x5A, stream=stream)
    assert not resource.is_mapped and buffer.handle == 0
    stream.sync()
    assert gl.read_buffer(name, 1024) == b"\x5a" * 1024
    resource.close()
    assert resource.is_closed and resource.handle == 0 and repr(resource) == "<GraphicsResource closed>"


def test_mapped_buffer_as_a_memory_view(cuda_core, device, gl) -> None:
    from cuda.core.utils import StridedMemoryView

    stream = device.create_stream()
    with cuda_core.GraphicsResource.from_gl_buffer(gl.buffer(256 * 4), stream=stream) as buffer:
        view = StridedMemoryView.from_buffer(buffer, shape=(256,), dtype=np.float32)
        assert view.ptr == int(buffer.handle) and view.is_device_accessible
    assert buffer.handle == 0 and buffer.size == 0


def test_map_and_unmap_errors(cuda_core, device, gl) -> None:
    stream = device.create_stream()
    resource = cuda_core.GraphicsResource.from_gl_buffer(gl.buffer(1024))
    with pytest.raises(TypeError, match="keyword-only argument"):
        resource.map()
    with pytest.raises(RuntimeError, match="not mapped"):
        resource.unmap()
    resource.map(stream=stream)
    with pytest.raises(RuntimeError, match="already mapped"):
        resource.map(stream=stream)
    assert "mapped" in repr(resource) and "0x" in repr(resource)
    resource.unmap(stream=stream)
    buffer = resource.map(stream=stream)
    resource.close()  # unmaps first
    assert not resource.is_mapped and buffer.handle == 0
    with pytest.raises(RuntimeError, match="has been closed"):
        resource.map(stream=stream)
    with pytest.raises(RuntimeError, match="has been closed"):
        resource.unmap()
    resource.close()  # idempotent


def test_closing_the_buffer_unmaps(cuda_core, device, gl) -> None:
    stream = device.create_stream()
    with cuda_core.GraphicsResource.from_gl_buffer(gl.buffer(1024), flags=("read_only",)) as resource:
        assert isinstance(resource, cuda_core.GraphicsResource)
        buffer = resource.map(stream=stream)
        buffer.close()
        assert not resource.is_mapped
    assert resource.is_closed


def test_dropping_a_mapped_resource_cleans_up(cuda_core, device, gl) -> None:
    """A mapped resource dropped without close() (it and its mapping's Buffer keep each other
    alive): collection unmaps and unregisters it, so the GL buffer registers and maps again, and
    what CUDA writes there reaches GL."""
    import gc
    import weakref

    name = gl.buffer(1024)
    stream = device.create_stream()
    resource = cuda_core.GraphicsResource.from_gl_buffer(name)
    buffer = resource.map(stream=stream)
    assert resource.is_mapped
    dropped = [weakref.ref(resource), weakref.ref(buffer)]
    del resource, buffer
    gc.collect()
    assert [ref() for ref in dropped] == [None, None]
    stream.sync()
    again = cuda_core.GraphicsResource.from_gl_buffer(name, flags="write_discard")
    with again.map(stream=stream) as mapped:
        mapped.fill(0x3C, stream=stream)
    assert not again.is_mapped
    stream.sync()
    assert gl.read_buffer(name, 1024) == b"\x3c" * 1024
    again.close()


def test_register_image(cuda_core, device, gl) -> None:
    resource = cuda_core.GraphicsResource.from_gl_image(gl.texture(16, 16), GL_TEXTURE_2D, flags="surface_load_store")
    assert resource.handle != 0
    resource.close()
