# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A downstream extension builds against each major's install, as users' projects build theirs.

tests/build/downstream/ is a small Meson project: real Cython and g++ compile one extension that
cimports cuda.core's public .pxd files (and cuda.bindings'), includes cuda.core's headers from
the installed cuda/core/_include (utility.hpp, layout.hpp, dlpack.h, aoti_shim.h), and runs
against the session's install of cuda.core (a pip --target of its wheel). NVIDIA's crt headers,
which cuda.bindings.driver's .pxd needs and the venvs lack, come from PyPI through uv's cache
(downloaded once). Importing the extension with warnings as errors checks the .pxd files
against the compiled modules: Cython compares each cdef class's size with the installed type's
and finds each cdef function in the module's C API table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builds import MAJORS, SessionBuilds, Uv, run
from cuda_core_build import facts

PROJECT = Path(__file__).with_name("downstream")
HEADERS = ("aoti_shim.h", "dlpack.h", "layout.hpp", "utility.hpp")
# cuda.bindings.driver's .pxd includes the CUDA runtime headers, whose vector_types.h includes
# crt/host_defines.h: in a toolkit, but in no header wheel the venvs hold. NVIDIA ships crt/ in
# the wheel of each major named here, versioned with the compiler, as NVRTC is.
CRT_WHEELS = {12: "nvidia-cuda-nvcc-cu12", 13: "nvidia-cuda-crt"}


def crt_headers(uv: Uv, major: int, target: Path) -> Path:
    """The include dir holding crt/ of the CUDA minor of ``major``'s venv, installed into ``target``."""
    pins = facts.cuda_pins(facts.default_cuda(major))
    compiler_version = next(version for name, version in pins.items() if name.startswith("nvidia-cuda-nvrtc"))
    uv.install_target(target, f"{CRT_WHEELS[major]}=={compiler_version}")
    return next(target.glob("nvidia/*/include/crt/host_defines.h")).parents[1]


def build_downstream(builds: SessionBuilds, major: int, crt: Path, build_dir: Path) -> Path:
    """The downstream project built against the install of ``major``; returns its build dir. The
    crt headers come in as a user adds an include dir: ``-Dcpp_args=-I...``."""
    venv, site = builds.venvs[major], builds.installed(major)
    env = venv.env(PYTHONPATH=str(site))
    run([venv.bin / "meson", "setup", build_dir, PROJECT, f"-Dcpp_args=-I{crt}"], env, PROJECT)
    run([venv.bin / "ninja", "-C", build_dir], env, build_dir)
    return build_dir


@pytest.mark.parametrize("major", MAJORS)
def test_the_install_holds_the_headers_and_public_pxd_files(builds: SessionBuilds, major: int) -> None:
    core = builds.installed(major) / "cuda" / "core"
    assert sorted(p.name for p in (core / "_include").iterdir()) == sorted(HEADERS)
    for pxd in (
        "__init__.pxd",
        "_memoryview.pxd",
        "_memory/__init__.pxd",
        "_memory/_pinned_memory_resource.pxd",
        "_memory/_managed_memory_resource.pxd",
        "_utils/__init__.pxd",
        "_utils/version.pxd",
        "graph/__init__.pxd",
    ):
        assert (core / pxd).is_file(), pxd


@pytest.mark.network
@pytest.mark.parametrize("major", MAJORS)
def test_a_downstream_extension_cimports_and_includes_cuda_core(
    builds: SessionBuilds, uv: Uv, major: int, tmp_path: Path
) -> None:
    venv, site = builds.venvs[major], builds.installed(major)
    build_dir = build_downstream(builds, major, crt_headers(uv, major, tmp_path / "crt"), tmp_path / "build")
    code = (
        "import json, downstream_check, cuda.core._utils.version as v, cuda.core._layout as l; "
        "print(json.dumps([downstream_check.report(), list(v.binding_version()), "
        "list(l._StridedLayout((2, 3, 4, 5), (1, 80, 20, -4), 4).stride_order), "
        "list(l._StridedLayout((3, 5, 5), (5, 1, 1), 4).stride_order)]))"
    )
    result = run([venv.python, "-W", "error", "-c", code], venv.env(PYTHONPATH=f"{build_dir}:{site}"), tmp_path)
    report, binding_version, stride_order, tied_order = json.loads(result.stdout)
    assert report["handles"] == {"stream": 0x4321, "event": 0x5678, "program": 0x9ABC, "legacy": 77}
    assert report["binding_version"] == binding_version and binding_version[0] == major
    assert (report["stride_order"], report["tied_order"]) == (stride_order, tied_order)
    assert report["max_ndim"] == 64 and report["all_axes"] == 2**64 - 2
    dlpack = report["dlpack"]
    assert dlpack["data"] == dlpack["view_ptr"] == report["array_ptr"]
    assert dlpack["version_major"] == dlpack["supported_major"] == 1
    assert dlpack["read_only"] and dlpack["view_readonly"] and dlpack["cpu"] and dlpack["float"]
    assert (dlpack["bits"], dlpack["shape"]) == (32, [2, 3])
    assert report["classes"] == {"layout_itemsize": 4, "stream": ["Stream"], "buffer": ["Buffer"], "other": []}
    assert report["aoti_handle_size"] == 8
