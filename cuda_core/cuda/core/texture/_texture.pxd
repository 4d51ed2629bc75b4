# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


# What TextureObject and SurfaceObject share: a bindless object's handle, made in a context and
# destroyed in it (close, ``with``, or collection), and the memory it reads kept alive until
# then. What an object is over (its resource, a texture's options) stays with its kind.
cdef class _BindlessObject:
    cdef:
        unsigned long long _handle  # the CUtexObject or CUsurfObject; 0 once closed
        cydriver.CUcontext _context  # current at creation; made current again to destroy
        object _keepalive            # what holds the backing memory: array storage or Buffer
        int _device_id
        bint _surface                # a CUsurfObject (else a CUtexObject)

    cpdef close(self)


cdef class TextureObject(_BindlessObject):
    cdef:
        object _source_ref            # the ResourceDescriptor, for introspection
        object _options               # the TextureObjectOptions, for introspection


# Fill ``desc`` for ``resource`` (a ResourceDescriptor, checked to be one) and return what
# keeps its memory alive while a texture or surface object uses it.
cdef object _fill_resource_desc(object resource, cydriver.CUDA_RESOURCE_DESC* desc)
