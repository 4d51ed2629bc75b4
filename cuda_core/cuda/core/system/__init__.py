# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system: what the CUDA driver and NVML (the NVIDIA Management Library) report
about this machine.

Importable without a GPU or driver: the functions load the driver when called. The NVML
names (Device, NvlinkInfo, get_p2p_status, get_topology_common_ancestor, register_events,
the NVML exception classes and the ``exceptions`` submodule) exist, as in NVIDIA's cuda.core,
only where cuda-bindings has NVML bindings that cuda.core can use
(``CUDA_BINDINGS_NVML_IS_COMPATIBLE``); they are imported on first use, so ``import cuda.core``
does not load NVML. Elsewhere they are not attributes (``hasattr`` is False; reading one
raises an AttributeError that says which cuda-bindings would define it), and the NVML
functions, which always exist, raise an error saying the same when called.
"""

from typing import TYPE_CHECKING

from cuda.core.system import (
    _nvml_support,
    typing,  # noqa: F401  (cuda.core.system.typing, as NVIDIA has it)
)
from cuda.core.system._system import *  # noqa: F403
from cuda.core.system._system import __all__ as _system_all

if TYPE_CHECKING:
    from cuda.core.system._device import *  # noqa: F403
    from cuda.core.system._system_events import *  # noqa: F403
    from cuda.core.system.exceptions import *  # noqa: F403

_DEVICE_NAMES = ("Device", "get_p2p_status", "get_topology_common_ancestor", "NvlinkInfo")
_EVENT_NAMES = ("register_events",)
# Each NVML name -> the submodule that defines it, imported on first use; "exceptions" is that
# submodule itself, an attribute here as after NVIDIA's import of it.
_NVML_NAMES = {
    **dict.fromkeys(_DEVICE_NAMES, "_device"),
    **dict.fromkeys(_EVENT_NAMES, "_system_events"),
    **dict.fromkeys(_nvml_support.EXCEPTION_NAMES, "exceptions"),
    "exceptions": "exceptions",
}

__all__ = list(_system_all)
if _nvml_support.NVML_IS_COMPATIBLE:
    __all__ += [*_DEVICE_NAMES, *_EVENT_NAMES, *_nvml_support.EXCEPTION_NAMES]


def __getattr__(name: str) -> object:
    """An NVML name, imported from its submodule on first use and kept here; where the installed
    cuda-bindings has no usable NVML bindings, an AttributeError (NVIDIA's module has no such
    name there) saying which cuda-bindings would define it."""
    import importlib

    module = _NVML_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name)
    if not _nvml_support.NVML_IS_COMPATIBLE:
        raise _nvml_support.missing_nvml_name(__name__, name)
    submodule = importlib.import_module(f"{__name__}.{module}")
    value = submodule if name == module else getattr(submodule, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """This module's names, and the NVML names where they exist (not yet imported, they are not globals)."""
    names = set(globals())
    if _nvml_support.NVML_IS_COMPATIBLE:
        names.update(_NVML_NAMES)
    return sorted(names)
