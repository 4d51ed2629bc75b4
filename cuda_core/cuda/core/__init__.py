# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core: Pythonic access to CUDA devices, built by Meson for one CUDA major."""

from typing import TYPE_CHECKING as _TYPE_CHECKING

try:
    from cuda.core import _build_info
except ImportError:
    from pathlib import Path as _Path

    if not (_Path(__file__).parent / "_build_info.py").is_file():
        raise ImportError(
            f"cuda.core in {_Path(__file__).parent} is the source tree, which holds no build: install "
            "it (README: pip install --no-build-isolation -e . from the repository root) and import it "
            "from outside cuda_core/"
        ) from None
    raise


def _bindings_import_failure(built: int, err: ImportError) -> str:
    """Why cuda-bindings did not import, truthfully: not installed, or installed and broken."""
    import importlib.metadata

    try:
        installed = importlib.metadata.distribution("cuda-bindings")
    except importlib.metadata.PackageNotFoundError:
        return (
            f"cuda.core was built for CUDA {built} and needs cuda-bindings {built}.x, "
            f'which is not installed: pip install "cuda-bindings=={built}.*"'
        )
    return (
        f"cuda.core was built for CUDA {built} and needs cuda-bindings {built}.x; cuda-bindings "
        f"{installed.version} is installed (in {installed.locate_file('')}) but `import cuda.bindings` "
        f'failed ({err}): reinstall it: pip install --force-reinstall "cuda-bindings=={built}.*"'
    )


def _check_bindings_major() -> None:
    """Refuse to load against cuda-bindings of another major than the one built for."""
    built = _build_info.cuda_major
    # An editable install serves its build info from its build directory, a regular one beside this file.
    editable = _build_info.__file__.rpartition("/")[0] != __file__.rpartition("/")[0]
    rebuild = "pip install --no-build-isolation -e ." if editable else "pip install ."
    fix = (
        f'pip install "cuda-bindings=={built}.*", or rebuild cuda.core for CUDA {{other}} from its source '
        f"({rebuild} in this environment, which keeps its cuda-bindings)"
    )
    try:
        from cuda.bindings._version import __version__ as bindings_version
    except ImportError as err:
        raise ImportError(_bindings_import_failure(built, err)) from err
    installed = int(bindings_version.split(".")[0])
    if installed != built:
        raise ImportError(
            f"cuda.core was built for CUDA {built}, but the installed cuda-bindings "
            f"{bindings_version} is for CUDA {installed}: " + fix.format(other=installed)
        )


_check_bindings_major()

# The public names, module by module, as NVIDIA's cuda.core 1.2 lays them out: each module's
# __all__ is what it contributes here.
from cuda.core import (  # noqa: E402
    _context,
    _device,
    _device_resources,
    _event,
    _graphics,
    _host,
    _launch_config,
    _launcher,
    _memory,
    _module,
    _stream,
    system,  # noqa: E402, F401  (cuda.core.system, as NVIDIA has it)
)
from cuda.core._context import *  # noqa: E402,F403
from cuda.core._device import *  # noqa: E402,F403
from cuda.core._device_resources import *  # noqa: E402,F403
from cuda.core._event import *  # noqa: E402,F403
from cuda.core._graphics import *  # noqa: E402,F403
from cuda.core._host import *  # noqa: E402,F403
from cuda.core._launch_config import *  # noqa: E402,F403
from cuda.core._launcher import *  # noqa: E402,F403
from cuda.core._memory import *  # noqa: E402,F403
from cuda.core._module import *  # noqa: E402,F403
from cuda.core._stream import *  # noqa: E402,F403

# Beyond NVIDIA's names: the errors, which NVIDIA's cuda.core keeps in cuda.core._utils.cuda_utils.
from cuda.core._utils.cuda_utils import CUDAError, DriverNotFoundError, NVRTCError  # noqa: E402,F401

# Imported at first use: _program loads cuda.bindings' NVRTC layer and cuda.pathfinder, a third of
# the import time, which code that never compiles need not pay; _linker loads cuda.bindings'
# nvJitLink layer. Each entry's names are its __all__.
_LAZY_MODULES = {
    "_program": ("Program", "ProgramOptions"),
    "_linker": ("Linker", "LinkerOptions"),
    # _tensor_map imports numpy, which import cuda.core does not.
    "_tensor_map": ("TensorMapDescriptor", "TensorMapDescriptorOptions"),
}
_LAZY_NAMES = {name: module for module, names in _LAZY_MODULES.items() for name in names}
# Outside __all__, as in NVIDIA's 1.2.2: the graph builder's names at the top level, where
# NVIDIA's 1.2.0 had them and code written for it (numba-cuda's driver) imports them from.
_LAZY_NAMES.update(dict.fromkeys(("Graph", "GraphBuilder", "GraphCompleteOptions", "GraphDebugPrintOptions"), "graph"))


# Public subpackages and modules, which NVIDIA's `import cuda.core` imports: here they are
# attributes too (``cuda.core.utils.StridedMemoryView``), imported at first use.
_LAZY_SUBMODULES = frozenset(("checkpoint", "graph", "texture", "typing", "utils"))

if _TYPE_CHECKING:
    # What __getattr__ gives at run time, for type checkers, which would otherwise see each lazy
    # name as __getattr__'s `object`. Nothing of it runs: the imports above stay lazy.
    from cuda.core import checkpoint, graph, texture, typing, utils  # noqa: F401
    from cuda.core._linker import Linker, LinkerOptions  # noqa: F401
    from cuda.core._program import Program, ProgramOptions  # noqa: F401
    from cuda.core._tensor_map import TensorMapDescriptor, TensorMapDescriptorOptions  # noqa: F401
    from cuda.core.graph import Graph, GraphBuilder, GraphCompleteOptions, GraphDebugPrintOptions  # noqa: F401


def __getattr__(name: str) -> object:
    """A name of a lazily imported module, or such a module, imported and kept here at first use."""
    import importlib

    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"cuda.core.{name}")  # the import sets it as an attribute here
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'cuda.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"cuda.core.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_NAMES) | _LAZY_SUBMODULES)


__version__ = _build_info.version
__all__ = [
    *_context.__all__,
    *_device.__all__,
    *_device_resources.__all__,
    *_event.__all__,
    *_graphics.__all__,
    *_host.__all__,
    *_launch_config.__all__,
    *_launcher.__all__,
    *_memory.__all__,
    *_module.__all__,
    *_stream.__all__,
    *(name for names in _LAZY_MODULES.values() for name in names),
]
