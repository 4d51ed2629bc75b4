# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core Context and ContextOptions (see _context.pyx)."""

from collections.abc import Sequence
from dataclasses import dataclass

import cuda.bindings.driver
from cuda.core._device_resources import DeviceResources, SMResource, WorkqueueResource
from cuda.core._stream import Stream, StreamOptions
from typing_extensions import disjoint_base

__all__ = ["Context", "ContextOptions"]
DeviceResourcesType = Sequence[SMResource | WorkqueueResource]

# ---- Green contexts (device resources) ----
@disjoint_base
class GreenContext:
    """The owner of one CUgreenCtx, made by Device.create_context()."""
    def __init__(self, *args, **kwargs) -> None: ...

# ---- end of green contexts ----

@disjoint_base
class Context:
    """A CUDA context; Device.context, Stream.context and Device.create_context() give one."""
    def __init__(self, *args, **kwargs) -> None: ...
    @classmethod
    def _from_handle(cls, handle: int | cuda.bindings.driver.CUcontext, device_id: int) -> Context: ...
    @property
    def handle(self) -> cuda.bindings.driver.CUcontext | None:
        """The driver's CUcontext; None once closed."""
    @property
    def _handle(self) -> cuda.bindings.driver.CUcontext | None: ...
    @property
    def is_closed(self) -> bool:
        """Whether close() was called."""
    @property
    def is_green(self) -> bool:
        """Whether this is a green context, made from device resources."""
    @property
    def resources(self) -> DeviceResources:
        """The hardware resources provisioned for this context."""
    def create_stream(self, options: StreamOptions | None = None) -> Stream:
        """A new stream bound to this green context."""
    def close(self):
        """Release this context wrapper (a green context goes once nothing holds it)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...

@dataclass
class ContextOptions:
    """How Device.create_context() makes a context: ``resources``, the device resources
    the green context is made of."""

    resources: DeviceResourcesType
