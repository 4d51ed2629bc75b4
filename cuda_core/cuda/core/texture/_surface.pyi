# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core.texture._surface: surface objects."""

from cuda.core._device import Device
from cuda.core.texture._texture import ResourceDescriptor
from typing_extensions import Self, disjoint_base

__all__ = ["SurfaceObject"]

@disjoint_base
class SurfaceObject:
    """A bindless surface (CUsurfObject): a 64-bit kernel argument."""
    def __init__(self, *args, **kwargs) -> None: ...
    @property
    def handle(self) -> int:
        """The CUsurfObject as an int (0 once closed)."""
    @property
    def is_closed(self) -> bool: ...
    @property
    def resource(self) -> ResourceDescriptor: ...
    @property
    def device(self) -> Device: ...
    def close(self) -> None:
        """Destroy the CUsurfObject; idempotent."""
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> None: ...
    def __repr__(self) -> str: ...

def _create_surface_object(resource: ResourceDescriptor) -> SurfaceObject: ...
