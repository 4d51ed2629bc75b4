# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture.SurfaceObject: a bindless surface (CUsurfObject) through which kernels
read and write an OpaqueArray by integer coordinates (surf2Dwrite and the like), with no
sampling state. The array must have been made with is_surface_load_store=True; the surface
keeps its storage alive. In a kernel it is the 64-bit cudaSurfaceObject_t.
"""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device
from cuda.core.texture._array cimport OpaqueArray
from cuda.core.texture._texture cimport _BindlessObject, _fill_resource_desc

from cuda.core.texture._texture import ResourceDescriptor

__all__ = ['SurfaceObject']


cdef class SurfaceObject(_BindlessObject):
    """A bindless surface (CUsurfObject) for typed loads and stores in kernels over an
    OpaqueArray made with is_surface_load_store=True; in a kernel it is the 64-bit
    cudaSurfaceObject_t. It keeps the array's storage alive until closed. Made by
    Device.create_surface_object()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("SurfaceObject cannot be instantiated directly: use Device.create_surface_object()")

    @property
    def resource(self):
        """The ResourceDescriptor the surface was made over."""
        return self._source_ref

    def __repr__(self):
        if self._handle == 0:
            return "<SurfaceObject (closed)>"
        return f"<SurfaceObject handle={self._handle:#x}>"


def _create_surface_object(resource):
    """A new SurfaceObject on the current context over ``resource``: a ResourceDescriptor of
    an OpaqueArray made with is_surface_load_store=True (linear, pitched and mipmapped
    resources cannot back a surface). Backs Device.create_surface_object()."""
    if not isinstance(resource, ResourceDescriptor):
        raise TypeError(f"resource must be a ResourceDescriptor (from ResourceDescriptor.from_opaque_array()), got "
                        f"{type(resource).__name__}")
    if resource.kind != "opaque_array":
        raise ValueError(f"a SurfaceObject needs an array-backed resource (ResourceDescriptor.from_opaque_array(); "
                         f"for a mipmap, one level from MipmappedArray.get_level()), got a {resource.kind} resource")
    if not (<OpaqueArray>resource.source)._surface_load_store:
        raise ValueError("the OpaqueArray cannot back a SurfaceObject: create it with "
                         "OpaqueArrayOptions(..., is_surface_load_store=True)")
    cdef cydriver.CUDA_RESOURCE_DESC desc
    keepalive = _fill_resource_desc(resource, &desc)
    cdef cydriver.CUsurfObject handle = 0
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        HANDLE_RETURN(cydriver.cuSurfObjectCreate(&handle, &desc))
    cdef SurfaceObject surface = SurfaceObject.__new__(SurfaceObject)
    surface._handle = handle
    surface._context = context
    surface._surface = True
    surface._source_ref = resource
    surface._keepalive = keepalive
    surface._device_id = max(current_device(), 0)
    return surface
