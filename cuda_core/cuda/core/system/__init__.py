# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system: what the CUDA driver and NVML (the NVIDIA Management Library) report
about this machine.

Importable without a GPU or driver: the functions load the driver when called. The NVML
names (Device, NvlinkInfo, get_p2p_status, get_topology_common_ancestor, register_events
and the NVML exception classes) need cuda-bindings' NVML bindings; they are imported on
first use, so ``import cuda.core`` does not load NVML. Where the installed cuda-bindings
lacks them, reading one raises an ImportError that says which cuda-bindings to install.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cuda.core.system import typing  # noqa: F401  (cuda.core.system.typing, as NVIDIA has it)
from cuda.core.system._nvml_support import EXCEPTION_NAMES as _EXCEPTION_NAMES
from cuda.core.system._nvml_support import NVML_IS_COMPATIBLE as _NVML_IS_COMPATIBLE
from cuda.core.system._nvml_support import require_nvml as _require_nvml
from cuda.core.system._system import *  # noqa: F403
from cuda.core.system._system import __all__ as _system_all

if TYPE_CHECKING:
    from cuda.core.system._device import *  # noqa: F403
    from cuda.core.system._system_events import *  # noqa: F403
    from cuda.core.system.exceptions import *  # noqa: F403

_DEVICE_NAMES = ("Device", "get_p2p_status", "get_topology_common_ancestor", "NvlinkInfo")
_EVENT_NAMES = ("register_events",)
# Each NVML name -> the submodule that defines it, imported on first use.
_NVML_NAMES = {
    **dict.fromkeys(_DEVICE_NAMES, "_device"),
    **dict.fromkeys(_EVENT_NAMES, "_system_events"),
    **dict.fromkeys(_EXCEPTION_NAMES, "exceptions"),
}

__all__ = list(_system_all)
if _NVML_IS_COMPATIBLE:
    __all__ += [*_DEVICE_NAMES, *_EVENT_NAMES, *_EXCEPTION_NAMES]


def __getattr__(name: str) -> Any:
    """The NVML names, imported from their submodule on first use (ImportError without NVML bindings);
    ``exceptions`` too, the public submodule of the NVML errors."""
    if name == "exceptions":
        _require_nvml(f"cuda.core.system.{name}")
        return importlib.import_module(f"{__name__}.exceptions")
    module = _NVML_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _require_nvml(f"cuda.core.system.{name}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NVML_NAMES) | {"exceptions"})
