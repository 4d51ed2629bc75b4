# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# GraphicsResource: an OpenGL buffer or image registered for CUDA access.
cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer
from cuda.core._stream cimport Stream


cdef class GraphicsResource:
    cdef:
        cydriver.CUgraphicsResource _handle  # NULL once closed
        Buffer _mapped                       # the Buffer of the current mapping, else None
        bint _is_mapped
        Stream _enter_stream                 # from_gl_buffer(stream=...): what __enter__ maps on
        int _device_id
        object __weakref__

    cdef int _check_open(self) except -1
    # Close the mapping's Buffer (which unmaps), else unmap directly.
    cdef int _close_mapping(self, object stream) except -1
    # Unmap on ``stream`` (None: the legacy default stream); the mapping's Buffer is let go.
    cdef int _unmap_now(self, Stream stream) except -1
