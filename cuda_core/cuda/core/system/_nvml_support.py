# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Whether the installed cuda-bindings has the NVML bindings cuda.core.system needs, decided
without importing them (``import cuda.core`` stays free of NVML), the errors raised when it
has not (an ImportError for the NVML modules and functions, an AttributeError for the NVML
names, which NVIDIA's cuda.core does not define then), and the names of NVML's exception
classes that cuda.core.system re-exports, known without importing them too."""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType
from typing import Any

import cuda.bindings

__all__ = ["EXCEPTION_NAMES", "NVML_IS_COMPATIBLE", "NvmlUnavailableError", "missing_nvml_name", "require_nvml"]

# cuda.bindings.nvml's exception classes, which cuda.core.system.exceptions (and cuda.core.system)
# re-export under these names: written here once, where cuda.core.system can name them without NVML.
EXCEPTION_NAMES = (
    "AlreadyInitializedError",
    "ArgumentVersionMismatchError",
    "CorruptedInforomError",
    "DeprecatedError",
    "DriverNotLoadedError",
    "FreqNotSupportedError",
    "FunctionNotFoundError",
    "GpuIsLostError",
    "GpuNotFoundError",
    "InUseError",
    "InsufficientPowerError",
    "InsufficientResourcesError",
    "InsufficientSizeError",
    "InvalidArgumentError",
    "InvalidStateError",
    "IrqIssueError",
    "LibRmVersionMismatchError",
    "LibraryNotFoundError",
    "MemoryError",
    "NoDataError",
    "NoPermissionError",
    "NotFoundError",
    "NotReadyError",
    "NotSupportedError",
    "NvmlError",
    "OperatingSystemError",
    "ResetRequiredError",
    "ResetTypeNotSupportedError",
    "TimeoutError",
    "UninitializedError",
    "UnknownError",
    "VgpuEccNotSupportedError",
)

# The first cuda-bindings of each major whose cuda.bindings.nvml has every call cuda.core.system makes.
_MINIMUM_BINDINGS = {12: (12, 9, 6), 13: (13, 2, 0)}


def _version_tuple(text: str) -> tuple[int, ...]:
    """(12, 9, 10) from "12.9.10"; parts after the numeric ones (rc, post) are ignored."""
    parts = []
    for piece in text.split("."):
        digits = "".join(c for c in piece if c.isdigit()) if piece[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _bindings_version() -> tuple[int, ...]:
    return _version_tuple(getattr(cuda.bindings, "__version__", "0"))


def _nvml_is_compatible() -> bool:
    """The installed cuda-bindings ships cuda.bindings.nvml and is recent enough for cuda.core."""
    version = _bindings_version()
    minimum = _MINIMUM_BINDINGS.get(version[0] if version else 0)
    if minimum is None or version < minimum:
        return False
    return importlib.util.find_spec("cuda.bindings.nvml") is not None


NVML_IS_COMPATIBLE: bool = _nvml_is_compatible()


class NvmlUnavailableError(ImportError, NotImplementedError):
    """NVML support is missing: an ImportError (a module of the NVML side cannot be imported)
    that is also a RuntimeError, as NVIDIA's cuda.core raises for its NVML-backed system
    functions. (The NVML names of cuda.core.system are AttributeErrors instead: missing_nvml_name.)"""


_INSTALL = {12: '"cuda-bindings>=12.9.6,<13"', 13: '"cuda-bindings>=13.2"'}


def _unavailable_message(what: str) -> str:
    installed = getattr(cuda.bindings, "__version__", "unknown")
    version = _bindings_version()
    requirement = _INSTALL.get(
        version[0] if version else 0, '"cuda-bindings>=12.9.6,<13" (CUDA 12) or "cuda-bindings>=13.2" (CUDA 13)'
    )
    return (
        f"{what} requires NVML support: the NVML bindings of cuda-bindings (cuda.bindings.nvml, "
        f"cuda-bindings 12.9.6+ for CUDA 12, 13.2.0+ for CUDA 13), which the installed cuda-bindings "
        f"{installed} does not have; install them with: pip install -U {requirement}"
    )


def require_nvml(what: str) -> ModuleType:
    """cuda.bindings.nvml, imported now; or NvmlUnavailableError saying that ``what`` needs it
    and which cuda-bindings to install."""
    if not NVML_IS_COMPATIBLE:
        raise NvmlUnavailableError(_unavailable_message(what), name="cuda.bindings.nvml")
    return importlib.import_module("cuda.bindings.nvml")


def missing_nvml_name(module: str, name: str) -> AttributeError:
    """The AttributeError for reading the NVML name ``name`` of ``module`` (cuda.core.system, its
    typing) where the installed cuda-bindings has no usable NVML bindings.

    NVIDIA's cuda.core does not define its NVML names there, so an AttributeError, as for any
    name a module lacks: ``hasattr`` is False, ``getattr(module, name, default)`` gives the
    default, and pydoc, ``inspect.getmembers`` and tab completion carry on. Its message says
    which cuda-bindings would define the name.
    """
    reason = _unavailable_message(f"{module}.{name}")
    return AttributeError(f"module {module!r} has no attribute {name!r}: {reason}", name=name)


_NO_DEFAULT = object()


def struct_array(entries: Any) -> list[Any]:
    """The entries of an array field of an NVML struct (GpuThermalSettings.sensor,
    GpuDynamicPstatesInfo.utilization). cuda-bindings 12.9 and 13.5 give a sequence; 13.2 to 13.4
    give one struct view, of the first entry, and no way to the others."""
    try:
        return [entries[i] for i in range(len(entries))]
    except TypeError:
        return [entries]


def nvml_member(enum_type: Any, name: str, default: Any = _NO_DEFAULT) -> Any:
    """NVML's member ``name`` of ``enum_type`` (an enum of cuda.bindings.nvml).

    cuda-bindings 13.2 to 13.4 spell the members of some NVML enums with the enum's prefix
    (CoolerTarget.THERMAL_GPU, EnableState.FEATURE_ENABLED, PcieUtilCounter.PCIE_UTIL_RX_BYTES);
    12.9.10 and 13.5 also have them without it (GPU, ENABLED, RX_BYTES), the names cuda.core
    uses. Either is found here; ``default`` where neither is, else an AttributeError naming both.
    Where several prefixed members end in ``_name`` (GpuP2PStatus.P2P_STATUS_NOT_SUPPORTED beside
    P2P_STATUS_GPU_NOT_SUPPORTED), the one is the prefix that all the enum's members share, then ``name``.
    """
    found = getattr(enum_type, name, None)
    if found is None:
        members = [member for member in dir(enum_type) if member.isupper()]
        prefixed = [member for member in members if member.endswith("_" + name)]
        if len(prefixed) > 1:
            shared = os.path.commonprefix(members)
            prefixed = [member for member in prefixed if member == shared[: shared.rfind("_") + 1] + name]
        if len(prefixed) == 1:
            found = getattr(enum_type, prefixed[0])
    if found is not None:
        return found
    if default is not _NO_DEFAULT:
        return default
    raise AttributeError(
        f"the installed cuda-bindings' nvml.{enum_type.__name__} has no {name} (nor *_{name}): "
        f"install cuda-bindings 12.9.10+ or 13.2+"
    )
