# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Introspection of cuda.core's public modules answers as NVIDIA's cuda.core 1.2.2 does, with
every cuda-bindings of the matrix: ``dir``, ``hasattr``, ``getattr(module, name, default)``,
``inspect.getmembers``, ``pydoc.render_doc`` and ``from MODULE import *``.

NVIDIA's cuda.core defines its NVML names (cuda.core.system.Device, the NVML exceptions, ...)
only where the installed cuda-bindings has NVML bindings it can use; elsewhere they are not
attributes at all, so ``hasattr`` is False and pydoc renders the module. Which cuda-bindings
those are is NVIDIA's rule, written apart from the package (nvml_rule.py), and which names each
module has is written here as data (the lists other tests check too in nvidia_names.py), read
off NVIDIA's 1.2.2 wheel: a name in the wrong place fails a test, whichever way it moved.

Each module is probed in a fresh interpreter (introspection_probe.py), as a user meets it.
"""

from __future__ import annotations

import configparser
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from nvidia_names import NVML_EXCEPTIONS, SYSTEM_TYPING_NAMES, TYPING_NAMES
from nvml_rule import (
    MATRIX_BINDINGS_NVML,
    installed_bindings_version,
    nvml_compatible_here,
    version_passes,
    version_tuple,
)

PROBE = Path(__file__).resolve().with_name("introspection_probe.py")
MATRIX = Path(__file__).resolve().parents[3] / "requirements" / "matrix.ini"


@dataclass(frozen=True)
class NvidiaNames:
    """The public names of one module of NVIDIA's cuda.core 1.2.2."""

    exported: tuple[str, ...] = ()  # in its __all__ with any cuda-bindings
    exported_with_nvml: tuple[str, ...] = ()  # in its __all__ only with NVML-compatible cuda-bindings
    attributes: tuple[str, ...] = ()  # attributes outside __all__ (its public submodules)
    attributes_with_nvml: tuple[str, ...] = ()  # the same, only with NVML-compatible cuda-bindings
    needs_nvml: bool = False  # the module imports only with NVML bindings (an ImportError elsewhere)

    def present(self, nvml: bool) -> set[str]:
        names = {*self.exported, *self.attributes}
        return names | {*self.exported_with_nvml, *self.attributes_with_nvml} if nvml else names

    def absent(self, nvml: bool) -> set[str]:
        return set() if nvml else {*self.exported_with_nvml, *self.attributes_with_nvml}

    def all_names(self, nvml: bool) -> set[str]:
        return {*self.exported, *self.exported_with_nvml} if nvml else set(self.exported)


# Read off NVIDIA's cuda.core 1.2.2 wheel (its __all__ and its public attributes) with
# cuda-bindings 12.9.10 and 13.2.0 (NVML-compatible) and 13.0.3 and 13.1.1 (not).
NVIDIA_MODULES = {
    "cuda.core": NvidiaNames(
        exported=(
            "Buffer",
            "Context",
            "ContextOptions",
            "Device",
            "DeviceMemoryResource",
            "DeviceMemoryResourceOptions",
            "DeviceResources",
            "Event",
            "EventOptions",
            "GraphMemoryResource",
            "GraphicsResource",
            "Host",
            "Kernel",
            "LEGACY_DEFAULT_STREAM",
            "LaunchConfig",
            "LegacyPinnedMemoryResource",
            "Linker",
            "LinkerOptions",
            "ManagedBuffer",
            "ManagedMemoryResource",
            "ManagedMemoryResourceOptions",
            "MemoryResource",
            "ObjectCode",
            "PER_THREAD_DEFAULT_STREAM",
            "PinnedMemoryResource",
            "PinnedMemoryResourceOptions",
            "Program",
            "ProgramOptions",
            "SMResource",
            "SMResourceOptions",
            "Stream",
            "StreamOptions",
            "TensorMapDescriptor",
            "TensorMapDescriptorOptions",
            "VirtualMemoryResource",
            "VirtualMemoryResourceOptions",
            "WorkqueueResource",
            "WorkqueueResourceOptions",
            "launch",
        ),
        attributes=("checkpoint", "graph", "system", "texture", "typing", "utils"),
    ),
    "cuda.core.utils": NvidiaNames(
        exported=(
            "CopyOptions",
            "FileStreamProgramCache",
            "InMemoryProgramCache",
            "MemcpyOverlapMode",
            "MemcpySrcAccessOrder",
            "ProgramCacheResource",
            "StridedMemoryView",
            "args_viewable_as_strided_memory",
            "copy_batch",
            "discard_batch",
            "discard_prefetch_batch",
            "make_program_cache_key",
            "prefetch_batch",
        )
    ),
    "cuda.core.typing": NvidiaNames(exported=TYPING_NAMES),
    "cuda.core.graph": NvidiaNames(
        exported=(
            "AllocNode",
            "ChildGraphNode",
            "ConditionalNode",
            "EmptyNode",
            "EventRecordNode",
            "EventWaitNode",
            "ExecutableChildGraphNode",
            "ExecutableEventRecordNode",
            "ExecutableEventWaitNode",
            "ExecutableGraphNode",
            "ExecutableHostCallbackNode",
            "ExecutableKernelNode",
            "ExecutableMemcpyNode",
            "ExecutableMemsetNode",
            "FreeNode",
            "Graph",
            "GraphBuilder",
            "GraphCompleteOptions",
            "GraphCondition",
            "GraphDebugPrintOptions",
            "GraphDefinition",
            "GraphNode",
            "HostCallbackNode",
            "IfElseNode",
            "IfNode",
            "KernelNode",
            "MemcpyNode",
            "MemsetNode",
            "SwitchNode",
            "WhileNode",
        )
    ),
    "cuda.core.texture": NvidiaNames(
        exported=(
            "MipmappedArray",
            "MipmappedArrayOptions",
            "OpaqueArray",
            "OpaqueArrayOptions",
            "ResourceDescriptor",
            "SurfaceObject",
            "TextureObject",
            "TextureObjectOptions",
        )
    ),
    "cuda.core.system": NvidiaNames(
        exported=(
            "CUDA_BINDINGS_NVML_IS_COMPATIBLE",
            "get_driver_branch",
            "get_kernel_mode_driver_version",
            "get_num_devices",
            "get_nvml_version",
            "get_process_name",
            "get_user_mode_driver_version",
        ),
        exported_with_nvml=(
            "Device",
            "NvlinkInfo",
            "get_p2p_status",
            "get_topology_common_ancestor",
            "register_events",
            *NVML_EXCEPTIONS,
        ),
        attributes=("typing",),
        attributes_with_nvml=("exceptions",),
    ),
    "cuda.core.system.typing": NvidiaNames(
        exported=SYSTEM_TYPING_NAMES,
        exported_with_nvml=("DeviceArch", "FieldId"),
    ),
    "cuda.core.system.exceptions": NvidiaNames(exported_with_nvml=NVML_EXCEPTIONS, needs_nvml=True),
    "cuda.core.checkpoint": NvidiaNames(exported=("Process",)),
}

# Public names of ours beyond NVIDIA's, each module's whole list: what a module imports for its
# own use (NVIDIA's have such names too: TYPE_CHECKING, sys, driver, Any, Mapping) and, in
# cuda.core, the names it keeps deliberately (the errors, and the graph builder's names that
# NVIDIA's 1.2.0 had there: see cuda/core/__init__.py). A new one fails the test: it must be
# NVIDIA's, or a deliberate extra added here.
OUR_EXTRA_NAMES = {
    "cuda.core": {
        "CUDAError",
        "DriverNotFoundError",
        "NVRTCError",
        "Graph",
        "GraphBuilder",
        "GraphCompleteOptions",
        "GraphDebugPrintOptions",
    },
    "cuda.core.typing": {"Literal", "annotations"},
    "cuda.core.system": {"TYPE_CHECKING"},
    "cuda.core.checkpoint": {"Any", "Mapping", "annotations", "ctypes"},
}


@pytest.fixture(scope="module")
def nvml() -> bool:
    """Whether NVIDIA's cuda.core defines its NVML names with the cuda-bindings installed here."""
    return nvml_compatible_here()


def run_probe(module: str, names: list[str]) -> dict[str, Any]:
    """introspection_probe.py's report on ``module`` from a fresh interpreter."""
    result = subprocess.run([sys.executable, str(PROBE), module, *names], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the probe of {module} failed:\n{result.stderr}"
    return json.loads(result.stdout)


@pytest.fixture(scope="module", params=sorted(NVIDIA_MODULES))
def report(request, cuda_core, nvml) -> tuple[str, NvidiaNames, dict[str, Any]]:
    """(module, NVIDIA's names there, the probe's report on ours) for each public module."""
    module = request.param
    names = NVIDIA_MODULES[module]
    asked = sorted(names.present(True) | set(OUR_EXTRA_NAMES.get(module, ())))
    found = run_probe(module, asked)
    if "import_error" in found:
        if names.needs_nvml and not nvml:
            pytest.skip(f"{module} imports only with NVML bindings (its import error is tested apart)")
        pytest.fail(f"import {module} failed: {found['import_error']}")
    return module, names, found


def answer(found: dict[str, Any], tool: str) -> Any:
    """The probe's value for ``tool``, failing the test with the error where the tool raised."""
    outcome = found[tool]
    assert "error" not in outcome, f"{tool} raised {outcome.get('error')}"
    return outcome["value"]


def public(names: list[str]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


# --- The rule: which cuda-bindings have NVML names ---------------------------------------------------


@pytest.mark.parametrize("version, compatible", sorted(MATRIX_BINDINGS_NVML.items()))
def test_nvml_rule_on_the_matrix(version: str, compatible: bool) -> None:
    assert version_passes(version_tuple(version)) is compatible


def test_every_cell_of_the_matrix_is_classified() -> None:
    """A new cuda-bindings in the matrix gets its NVML verdict written above."""
    if not MATRIX.is_file():
        pytest.skip(f"{MATRIX} is not here (a package test run outside the repository)")
    matrix = configparser.ConfigParser()
    matrix.read(MATRIX)
    in_matrix = {matrix[s]["cuda-bindings"] for s in matrix.sections() if s.startswith("cuda-")}
    assert in_matrix == set(MATRIX_BINDINGS_NVML)


def test_our_flag_follows_nvidias_rule(cuda_core, nvml) -> None:
    version = installed_bindings_version()
    assert cuda_core.system.CUDA_BINDINGS_NVML_IS_COMPATIBLE is nvml, version
    if version in MATRIX_BINDINGS_NVML:
        assert MATRIX_BINDINGS_NVML[version] is nvml, (version, "cuda.bindings.nvml importable:", nvml)


# --- The introspection tools, module by module ---------------------------------------------------------


def test_all_and_star_import_are_nvidias(report, nvml) -> None:
    module, names, found = report
    expected = names.all_names(nvml)
    assert sorted(answer(found, "all")) == sorted(expected), module
    assert set(answer(found, "star")) == expected, module


@pytest.mark.parametrize("tool", ["dir_first", "dir_after", "getmembers"])
def test_listed_names_are_nvidias(report, nvml, tool: str) -> None:
    """dir() before and after every name was read, and inspect.getmembers (which reads them all)."""
    module, names, found = report
    listed = public(answer(found, tool))
    assert not names.present(nvml) - listed, f"{module}: {tool} lacks NVIDIA's names"
    assert not listed & names.absent(nvml), f"{module}: {tool} lists names NVIDIA's lacks with these cuda-bindings"
    extra = listed - names.present(nvml) - OUR_EXTRA_NAMES.get(module, set())
    assert not extra, f"{module}: {tool} lists names NVIDIA's module has not"


def test_hasattr_and_getattr_default_are_nvidias(report, nvml) -> None:
    module, names, found = report
    has = answer(found, "hasattr")
    has_default = answer(found, "getattr_default")
    for name in sorted(names.present(True)):
        expected = name in names.present(nvml)
        assert has[name] is expected, f"hasattr({module}, {name!r})"
        assert has_default[name] is expected, f"getattr({module}, {name!r}, default)"


def test_a_missing_nvml_name_says_which_bindings_define_it(report, nvml) -> None:
    """Where NVIDIA's module lacks a name, reading it is an AttributeError naming the cuda-bindings needed."""
    module, names, found = report
    errors = answer(found, "attribute_errors")
    for name in sorted(names.absent(nvml)):
        message = errors[name]
        assert message is not None and "cuda-bindings" in message and "pip install" in message, (name, message)
    for name in sorted(names.present(nvml)):
        assert errors[name] is None, (name, errors[name])


def test_pydoc_renders(report) -> None:
    module, _, found = report
    assert answer(found, "pydoc") > 0, module


# --- Where NVML cannot work: the clear errors stay ------------------------------------------------------


def test_exceptions_module_without_nvml_names_the_bindings(cuda_core, nvml) -> None:
    if nvml:
        pytest.skip("the installed cuda-bindings has NVML bindings: the import succeeds")
    found = run_probe("cuda.core.system.exceptions", [])
    assert "cuda-bindings" in found["import_error"] and "pip install" in found["import_error"]


@pytest.mark.parametrize(
    "function, args",
    [
        ("get_kernel_mode_driver_version", ()),
        ("get_nvml_version", ()),
        ("get_driver_branch", ()),
        ("get_process_name", (1,)),
    ],
)
def test_nvml_functions_without_nvml_name_the_bindings(cuda_core, nvml, function: str, args: tuple) -> None:
    """These exist with any cuda-bindings; without NVML bindings a call says which to install
    (a RuntimeError, as NVIDIA's)."""
    if nvml:
        pytest.skip("the installed cuda-bindings has NVML bindings: the call reaches NVML")
    with pytest.raises(RuntimeError, match=r"requires NVML support.*cuda-bindings.*pip install"):
        getattr(cuda_core.system, function)(*args)
