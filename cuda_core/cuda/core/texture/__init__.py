# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.texture: CUDA's texture and surface object model.

Opaque arrays (OpaqueArray) and mipmapped arrays (MipmappedArray) hold driver-laid-out
storage; a ResourceDescriptor names the memory (an array or a Buffer) that a TextureObject
samples or a SurfaceObject reads and writes. Device.create_opaque_array(),
create_mipmapped_array(), create_texture_object() and create_surface_object() make them; the
enumerations they take (ArrayFormatType, AddressModeType, FilterModeType, ReadModeType) are in
cuda.core.typing. ``import cuda.core`` does not import this package.
"""

from cuda.core.texture._array import OpaqueArray, OpaqueArrayOptions
from cuda.core.texture._mipmapped_array import MipmappedArray, MipmappedArrayOptions
from cuda.core.texture._surface import SurfaceObject
from cuda.core.texture._texture import ResourceDescriptor, TextureObject, TextureObjectOptions

__all__ = [
    "MipmappedArray",
    "MipmappedArrayOptions",
    "OpaqueArray",
    "OpaqueArrayOptions",
    "ResourceDescriptor",
    "SurfaceObject",
    "TextureObject",
    "TextureObjectOptions",
]
