# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core GraphicsResource: OpenGL buffers and images registered for CUDA access.

``GraphicsResource.from_gl_buffer`` / ``from_gl_image`` register a GL object (a GL context
and a CUDA context must be current); ``map(stream=...)`` maps it and returns a Buffer over
the GL memory whose close() unmaps it again, ordered on a stream. A mapped resource and its
Buffer keep each other alive until the Buffer is closed: unmapping never races a kernel
that still holds the pointer through the Buffer.
"""

from collections.abc import Sequence

cimport cython
cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer, MemoryResource, new_buffer, optional_stream, required_stream
from cuda.core._stream cimport Stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device

__all__ = ['GraphicsResource']

# Register flag name -> CUgraphicsRegisterFlags value; a sequence of names combines them.
_REGISTER_FLAGS = {
    'none': cydriver.CU_GRAPHICS_REGISTER_FLAGS_NONE,
    'read_only': cydriver.CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY,
    'write_discard': cydriver.CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD,
    'surface_load_store': cydriver.CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST,
    'texture_gather': cydriver.CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER,
}


def _parse_register_flags(flags) -> int:
    """The CUgraphicsRegisterFlags of a flag name, a sequence of names, or None (no flags)."""
    if flags is None:
        return 0
    names = (flags,) if isinstance(flags, str) else flags
    if not isinstance(names, Sequence):
        raise TypeError(f"flags must be a flag name, a sequence of flag names or None, got {type(flags).__name__}")
    cdef unsigned int value = 0
    for name in names:
        try:
            value |= _REGISTER_FLAGS[name]
        except (KeyError, TypeError):
            raise ValueError(f"Unknown register flag {name!r}: expected one of "
                             f"{', '.join(map(repr, _REGISTER_FLAGS))}") from None
    return value


@cython.final
@cython.auto_pickle(False)
cdef class _MappedGraphicsMemory(MemoryResource):
    """The memory resource of a mapped GraphicsResource's Buffer: giving the Buffer back
    unmaps the resource, on the stream the Buffer is closed with."""

    cdef GraphicsResource _resource
    cdef int _device

    def __cinit__(self, GraphicsResource resource, int device_id):
        self._resource = resource
        self._device = device_id
        self._exact_kind = True

    cdef int _deallocate(self, cydriver.CUdeviceptr ptr, size_t size, Stream stream) except -1:
        cdef GraphicsResource resource = self._resource
        self._resource = None  # one unmap per mapping
        if resource is not None:
            resource._unmap_now(stream)
        return 0

    def deallocate(self, ptr, size, *, stream) -> None:
        """Unmap the graphics resource (what closing its Buffer does)."""
        self._deallocate(0, 0, optional_stream(stream))

    @property
    def is_device_accessible(self) -> bool:
        return True

    @property
    def is_host_accessible(self) -> bool:
        return False

    @property
    def device_id(self) -> int:
        return self._device


@cython.auto_pickle(False)
cdef class GraphicsResource:
    """An OpenGL buffer or image registered for CUDA access (a ``CUgraphicsResource``).

    Made by :meth:`from_gl_buffer` or :meth:`from_gl_image`; :meth:`map` gives a
    :class:`~cuda.core.Buffer` over the GL memory, whose close() unmaps it. :meth:`close`
    (or collection) unmaps and unregisters. As a context manager it closes on exit: given
    ``stream`` at registration, entering maps it and yields the Buffer; otherwise entering
    yields the resource itself.
    """

    def __init__(self) -> None:
        raise RuntimeError("GraphicsResource cannot be instantiated directly: use "
                           "GraphicsResource.from_gl_buffer() or GraphicsResource.from_gl_image()")

    @classmethod
    def from_gl_buffer(cls, gl_buffer: int, *, flags=None, stream=None) -> GraphicsResource:
        """Register the OpenGL buffer object ``gl_buffer`` (a GLuint) for CUDA access.

        Parameters
        ----------
        gl_buffer : int
            The OpenGL buffer name.
        flags : str or sequence of str, optional
            Intended use: ``"none"``, ``"read_only"``, ``"write_discard"``,
            ``"surface_load_store"``, ``"texture_gather"``, or a sequence combining them.
        stream : :class:`~cuda.core.Stream`, optional
            If given, entering the resource as a context manager maps it on this stream
            and yields the Buffer.
        """
        cdef unsigned int value = _parse_register_flags(flags)
        cdef Stream enter_stream = optional_stream(stream)
        cdef unsigned int name = gl_buffer
        cdef cydriver.CUgraphicsResource handle = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphicsGLRegisterBuffer(&handle, name, value))
        cdef GraphicsResource resource = _wrap(handle)
        resource._enter_stream = enter_stream
        return resource

    @classmethod
    def from_gl_image(cls, image: int, target: int, *, flags=None) -> GraphicsResource:
        """Register the OpenGL texture or renderbuffer ``image`` of GL target ``target``
        (e.g. GL_TEXTURE_2D) for CUDA access; ``flags`` as for :meth:`from_gl_buffer`."""
        cdef unsigned int value = _parse_register_flags(flags)
        cdef unsigned int name = image
        cdef unsigned int gl_target = target
        cdef cydriver.CUgraphicsResource handle = NULL
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphicsGLRegisterImage(&handle, name, gl_target, value))
        return _wrap(handle)

    cdef int _check_open(self) except -1:
        if self._handle == NULL:
            raise RuntimeError("GraphicsResource has been closed")
        return 0

    def _get_mapped_buffer(self):
        """The Buffer of the current mapping, or None."""
        return self._mapped

    def map(self, *, stream) -> Buffer:
        """Map the resource for CUDA on ``stream`` (pass ``device.default_stream`` for the
        default stream) and return a Buffer over its memory; closing the Buffer (or leaving
        its ``with`` block) unmaps it."""
        self._check_open()
        if self._is_mapped:
            raise RuntimeError("GraphicsResource is already mapped: unmap it (or close its Buffer) first")
        cdef Stream ordered = required_stream(stream)
        cdef cydriver.CUstream stream_handle = ordered._live_handle()
        cdef cydriver.CUdeviceptr pointer = 0
        cdef size_t size = 0
        cdef cydriver.CUresult result
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphicsMapResources(1, &self._handle, stream_handle))
            result = cydriver.cuGraphicsResourceGetMappedPointer(&pointer, &size, self._handle)
            if result != cydriver.CUDA_SUCCESS:
                cydriver.cuGraphicsUnmapResources(1, &self._handle, stream_handle)
        HANDLE_RETURN(result)
        self._is_mapped = True
        self._mapped = new_buffer(Buffer, pointer, size, _MappedGraphicsMemory(self, self._device_id), ordered)
        return self._mapped

    def unmap(self, *, stream=None) -> None:
        """Unmap the resource: the Buffer from map() is closed, ordered on ``stream`` (None:
        the stream it was mapped on), and must not be used any more."""
        self._check_open()
        if not self._is_mapped:
            raise RuntimeError("GraphicsResource is not mapped")
        self._close_mapping(stream)

    cdef int _close_mapping(self, object stream) except -1:
        """Close the mapping's Buffer (which unmaps), else unmap directly."""
        mapped = self._mapped
        if mapped is not None:
            mapped.close(stream)
        if self._is_mapped:  # e.g. the Buffer's release is deferred: unmap now regardless
            self._unmap_now(optional_stream(stream))
        return 0

    cdef int _unmap_now(self, Stream stream) except -1:
        """Unmap on ``stream`` (None: the legacy default stream); the mapping's Buffer is let go."""
        cdef cydriver.CUstream handle = NULL
        if stream is not None:
            handle = stream._handle
        self._mapped = None
        if not self._is_mapped or self._handle == NULL:
            return 0
        self._is_mapped = False
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphicsUnmapResources(1, &self._handle, handle))
        return 0

    def __enter__(self):
        if self._enter_stream is not None:
            return self.map(stream=self._enter_stream)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        self.close()
        return False

    def close(self, stream=None):
        """Unmap (if mapped, closing the Buffer on ``stream``, or the mapping's stream) and
        unregister the resource. Closing again does nothing."""
        cdef cydriver.CUgraphicsResource handle = self._handle
        if handle == NULL:
            return
        try:
            if self._is_mapped or self._mapped is not None:
                self._close_mapping(stream)
        finally:
            self._handle = NULL
            self._enter_stream = None
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphicsUnregisterResource(handle))

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver (or the GL context) may be gone.
        if self._handle == NULL:
            return
        cdef cydriver.CUgraphicsResource handle = self._handle
        cdef bint mapped = self._is_mapped
        self._handle = NULL
        with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
            if mapped:
                cydriver.cuGraphicsUnmapResources(1, &handle, NULL)
            cydriver.cuGraphicsUnregisterResource(handle)

    @property
    def is_mapped(self) -> bool:
        """Whether the resource is mapped for CUDA access."""
        return self._is_mapped

    @property
    def handle(self) -> int:
        """The ``CUgraphicsResource`` as an int (0 once closed)."""
        return <size_t>self._handle

    @property
    def is_closed(self) -> bool:
        """Whether close() ran."""
        return self._handle == NULL

    @property
    def resource_handle(self) -> int:
        """The same as :attr:`handle`."""
        return <size_t>self._handle

    def __repr__(self) -> str:
        if self._handle == NULL:
            return "<GraphicsResource closed>"
        mapped = " mapped" if self._is_mapped else ""
        return f"<GraphicsResource handle=0x{<size_t>self._handle:x} device={self._device_id}{mapped}>"


cdef GraphicsResource _wrap(cydriver.CUgraphicsResource handle):
    """A GraphicsResource owning ``handle``, of the current device."""
    cdef GraphicsResource resource = GraphicsResource.__new__(GraphicsResource)
    resource._handle = handle
    resource._device_id = max(current_device(), 0)
    return resource
