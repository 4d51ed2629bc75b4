# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The public names, the CUresult -> CUDAError mapping, and behaviour without a driver."""

from __future__ import annotations

import inspect

import pytest


def parameters(function) -> list[tuple[str, object, str]]:
    """(name, default, kind) of each parameter: what a caller of NVIDIA's cuda.core relies on."""
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


def test_public_names_are_importable(cuda_core) -> None:
    for name in cuda_core.__all__:
        assert getattr(cuda_core, name) is not None, name
    expected = {"Device", "Event", "EventOptions", "LaunchConfig", "Stream", "StreamOptions", "launch"}
    assert expected <= set(cuda_core.__all__)
    # Not in NVIDIA's __all__, but attributes of cuda.core as there: the system module, the errors.
    assert cuda_core.system.__name__ == "cuda.core.system"
    assert all(
        isinstance(getattr(cuda_core, name), type) for name in ("CUDAError", "NVRTCError", "DriverNotFoundError")
    )


def test_public_submodules_are_attributes(cuda_core) -> None:
    """As after NVIDIA's ``import cuda.core``: ``cuda.core.utils.StridedMemoryView`` and the like
    work without importing the submodule by name (ours imports each at first use)."""
    for name in ("checkpoint", "graph", "texture", "typing", "utils"):
        module = getattr(cuda_core, name)
        assert module.__name__ == f"cuda.core.{name}" and name in dir(cuda_core)
    assert cuda_core.utils.StridedMemoryView.__name__ == "StridedMemoryView"
    assert cuda_core.graph.GraphDefinition.__name__ == "GraphDefinition"
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        cuda_core.nonesuch


def test_import_leaves_compilers_and_driver_module_unloaded(cuda_core) -> None:
    """``import cuda.core`` in a fresh interpreter loads neither the Program module (with NVRTC's
    layer, which loads cuda.pathfinder), nor the Linker module (with nvJitLink's layer), nor
    cuda.bindings.driver: with cuda-bindings 13.0, together two thirds of the import time
    (benchmarks/import_bench.py); Program and Linker are there at first use.
    (cuda-bindings 12.9 loads cuda.pathfinder with its cydriver, so that one is not checked.)"""
    import subprocess
    import sys

    probe = (
        "import sys, cuda.core; print(sorted(m for m in ('cuda.core._program', 'cuda.core._linker', "
        "'cuda.bindings.driver', 'cuda.bindings.cynvrtc', 'cuda.bindings.cynvjitlink') if m in sys.modules)); "
        "cuda.core.Program; cuda.core.Linker; "
        "print('cuda.core._program' in sys.modules, 'cuda.core._linker' in sys.modules)"
    )
    lines = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert lines == ["[]", "True", "True"]


def test_signatures_match_cuda_core(cuda_core) -> None:
    empty = inspect.Parameter.empty
    assert parameters(cuda_core.Device.__new__)[1:] == [("device_id", None, "POSITIONAL_OR_KEYWORD")]
    assert parameters(cuda_core.launch) == [
        ("stream", empty, "POSITIONAL_OR_KEYWORD"),
        ("config", empty, "POSITIONAL_OR_KEYWORD"),
        ("kernel", empty, "POSITIONAL_OR_KEYWORD"),
        ("kernel_args", empty, "VAR_POSITIONAL"),
    ]
    assert [name for name, _, _ in parameters(cuda_core.Device.allocate)] == ["self", "size", "stream"]
    assert [name for name, _, _ in parameters(cuda_core.Device.create_stream)] == ["self", "obj", "options"]


def test_compiled_major_is_the_build_infos(cuda_core, cuda_major) -> None:
    from cuda.core._utils import cuda_utils

    assert cuda_utils.BUILD_MAJOR == cuda_major


@pytest.mark.parametrize(
    "code, name",
    [
        (1, "CUDA_ERROR_INVALID_VALUE"),
        (2, "CUDA_ERROR_OUT_OF_MEMORY"),
        (100, "CUDA_ERROR_NO_DEVICE"),
        (500, "CUDA_ERROR_NOT_FOUND"),
    ],
)
def test_cuda_results_map_to_cuda_errors_with_their_names(cuda_core, code, name) -> None:
    from cuda.core._utils.cuda_utils import check

    with pytest.raises(cuda_core.CUDAError) as raised:
        check(code)
    assert raised.value.code == code and raised.value.name == name
    assert str(raised.value).startswith(f"{name}: ") and raised.value.description


def test_success_and_unknown_results(cuda_core) -> None:
    from cuda.core._utils.cuda_utils import check

    check(0)
    with pytest.raises(cuda_core.CUDAError, match=r"CUresult\(123456\)"):
        check(123456)


def test_factories_refuse_direct_construction(cuda_core) -> None:
    for cls, factory in (
        (cuda_core.Stream, "Device.create_stream"),
        (cuda_core.Event, "Stream.record"),
        (cuda_core.Context, "Device.context"),
    ):
        with pytest.raises(RuntimeError, match=factory):
            cls()


def test_no_driver_is_one_clear_error(cuda_core, no_driver) -> None:
    for action in (
        lambda: cuda_core.Device(),
        lambda: cuda_core.Device(0),
        cuda_core.system.get_num_devices,
        cuda_core.system.get_user_mode_driver_version,
    ):
        with pytest.raises(cuda_core.DriverNotFoundError, match="no CUDA driver found"):
            action()
