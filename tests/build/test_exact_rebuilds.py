# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Each input change rebuilds exactly what depends on it, asserted with ``ninja -n -d explain``.

All of it runs on the session's cu13 build: every test changes one input, asks ninja what
it would do (after the build's content check, which runs for real: builds.dry_run), and puts
the input back (mtimes restored, options reconfigured back in a ``finally``), checking the
tree is up to date again. What the build reads from outside its sources counts by content: a
touched header, .pxd or Cython rebuilds nothing; an edited one is tried on a copy of the build
dir (its copy in cuda-config/ changes, and so would the outputs). Nothing here compiles.
Changes of the environment itself are tests/test_environment_changes.py's.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from builds import (
    NO_WORK,
    REPO_ROOT,
    SessionBuilds,
    Venv,
    build_dir_copy,
    compile_steps,
    cython_steps,
    dry_run,
    edited,
    meson_configure,
    meson_setup,
    ninja,
    settle,
    touched,
)

CORE = "cuda_core/cuda/core"


@pytest.fixture(scope="module")
def cu13(builds: SessionBuilds) -> tuple[Venv, Path, Path]:
    """The cu13 venv, the session's cu13 build dir and its checkout, up to date.

    Set up again first: the version is read from git when a build dir is configured, and an
    earlier test (an editable install while a source was edited) may have configured this one
    as ``.dirty``; the next configure, which a changed cuda.h triggers, would then rightly
    rebuild _build_info.py, which these tests count as a step that should not run."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    meson_setup(venv, builds.checkout, build_dir, "--reconfigure")
    ninja(venv, build_dir)
    assert_up_to_date(venv, build_dir)
    return venv, build_dir, builds.checkout


@pytest.fixture(scope="module")
def cythonized(builds: SessionBuilds) -> set[str]:
    """The modules that have a Cython step: all of Meson's but the shared utility module."""
    return set(builds.modules(13)) - {"cuda.core._cyutility"}


CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+cimport|cimport\s+([\w.]+))", re.MULTILINE)


def cimports(path: Path) -> set[str]:
    """The modules a .pyx or .pxd cimports, by its own text."""
    return {a or b for a, b in CIMPORT.findall(path.read_text())}


def cimporters(checkout: Path, target: str) -> set[str]:
    """The package's modules whose .pyx cimports ``target`` directly or through our .pxd files:
    an independent model of what Cython's depfiles must record."""
    root = checkout / "cuda_core"

    def needs(path: Path, seen: frozenset[str]) -> bool:
        for name in cimports(path):
            pxd = root / (name.replace(".", "/") + ".pxd")
            if name == target or (name not in seen and pxd.is_file() and needs(pxd, seen | {name})):
                return True
        return False

    found = set()
    for pyx in (root / "cuda").rglob("*.pyx"):
        module = ".".join(pyx.relative_to(root).with_suffix("").parts)
        own_pxd = pyx.with_suffix(".pxd")
        if needs(pyx, frozenset()) or (own_pxd.is_file() and (module == target or needs(own_pxd, frozenset()))):
            found.add(module)
    return found


def assert_up_to_date(venv: Venv, build_dir: Path) -> None:
    """One real build compiles and links nothing (builds.settle: a reconfigure may leave a Cython step
    that re-runs to the same C++), and leaves nothing to do."""
    settle(venv, build_dir)
    assert "ninja: no work to do." in dry_run(venv, build_dir)


@contextlib.contextmanager
def reconfigured(venv: Venv, build_dir: Path, options: list[str], back: list[str], **env: str) -> Iterator[None]:
    """Reconfigure ``build_dir`` with ``options`` (regenerating build.ninja), then back with ``back``."""
    try:
        meson_configure(venv, build_dir, *options, **env)
        ninja(venv, build_dir, "build.ninja", **env)
        yield
    finally:
        meson_configure(venv, build_dir, *back)
        ninja(venv, build_dir, "build.ninja")


def cu12_header_roots(venvs: dict[int, Venv]) -> str:
    nvidia = venvs[12].site_packages / "nvidia"
    return os.pathsep.join(str(nvidia / part) for part in ("cuda_runtime", "cuda_nvrtc", "cuda_profiler_api"))


def test_cuda_major_reconfigure_rebuilds_every_extension(cu13, builds, venvs, cythonized) -> None:
    """-Dcuda-major=12 with CUDA 12 headers and bindings (by PYTHONPATH: this build dir's Python is
    the cu13 venv's), in a copy of the build dir: every module is cythonized again, while the plain
    C++ source and Cython's shared utility code, which know no CUDA, are not rebuilt."""
    venv = cu13[0]
    with build_dir_copy(builds, 13) as build_dir:
        cu12 = {"PYTHONPATH": str(venvs[12].site_packages)}
        meson_configure(venv, build_dir, "-Dcuda-major=12", f"-Dcuda-path={cu12_header_roots(venvs)}", **cu12)
        plan = dry_run(venv, build_dir, **cu12)
        assert "CUDA_VERSION 13000 -> 12090; cuda-bindings " in plan
        assert cython_steps(plan) == cythonized
        assert compile_steps(plan) == cythonized
    assert_up_to_date(venv, builds.build_dir(13))


def test_coverage_toggle_rebuilds_every_extension(cu13, cythonized) -> None:
    venv, build_dir, _ = cu13
    with reconfigured(venv, build_dir, ["-Dcython-coverage=true"], ["-Dcython-coverage=false"]):
        plan = dry_run(venv, build_dir)
        assert cython_steps(plan) == cythonized
        assert "_build_info.py" in plan
    assert_up_to_date(venv, build_dir)


def test_touching_a_pxd_rebuilds_nothing_editing_it_exactly_its_cimporters(cu13, builds, cythonized) -> None:
    """The package's files count by content (tools/cuda_core_build/sources.py): a touched .pxd, nothing;
    an edited one (tried on a copy of the build dir: its stamp changes), exactly the modules that cimport it."""
    venv, build_dir, checkout = cu13
    with touched(checkout / CORE / "_utils/cuda_utils.pxd"):
        plan = dry_run(venv, build_dir)
    assert cython_steps(plan) == set() and compile_steps(plan) == set()
    pxd = checkout / CORE / "_utils/cuda_utils.pxd"
    with build_dir_copy(builds, 13) as copy, edited(pxd, pxd.read_text() + "# edited\n"):
        plan = dry_run(venv, copy)
    # cuda_utils.pyx owns the pxd; nearly every other module cimports it.
    assert cython_steps(plan) == cimporters(checkout, "cuda.core._utils.cuda_utils")
    assert len(cython_steps(plan)) > len(cythonized) / 2
    assert "cpp:_cpp_uuid_format" not in compile_steps(plan)
    pxd = checkout / CORE / "_event.pxd"
    with build_dir_copy(builds, 13) as copy, edited(pxd, pxd.read_text() + "# edited\n"):
        plan = dry_run(venv, copy)
    # _event.pyx implements it, _stream cimports it, and what cimports _stream.pxd.
    expected = cimporters(checkout, "cuda.core._event")
    assert {"cuda.core._event", "cuda.core._stream"} <= expected < cythonized
    assert cython_steps(plan) == expected and compile_steps(plan) == expected
    assert_up_to_date(venv, build_dir)


def compat_includers(checkout: Path) -> set[str]:
    found = {
        "cuda.core." + str(path.relative_to(checkout / "cuda_core/cuda/core").with_suffix("")).replace("/", ".")
        for path in (checkout / CORE).rglob("*.pyx")
        if 'include "driver_compat.pxi"' in path.read_text()
    }
    assert {"cuda.core._device", "cuda.core._event"} <= found
    return found


def test_a_touched_compat_pxi_rebuilds_nothing_an_edited_one_its_includers(cu13, builds) -> None:
    """The variant in use is copied into cuda-config/ by content: touched, nothing at all (the build info
    too: issue 49, N10); edited, exactly the modules that include it. The other major's is not compiled
    for 13: edited, only the build info's source digest looks at it."""
    venv, build_dir, checkout = cu13
    compat, other = (checkout / CORE / f"_compat/cu{major}/driver_compat.pxi" for major in (13, 12))
    for variant in (compat, other):
        with touched(variant):
            plan = dry_run(venv, build_dir)
        assert cython_steps(plan) == set() and "_build_info.py" not in plan and NO_WORK in plan, plan
    with build_dir_copy(builds, 13) as copy, edited(compat, compat.read_text() + "# edited\n"):
        plan = dry_run(venv, copy)
        assert cython_steps(plan) == compat_includers(checkout)
    with build_dir_copy(builds, 13) as copy, edited(other, other.read_text() + "# edited\n"):
        plan = dry_run(venv, copy)
        assert cython_steps(plan) == set() and compile_steps(plan) == set() and "_build_info.py" in plan
    assert_up_to_date(venv, build_dir)


def objects_including(venv: Venv, build_dir: Path, header: Path) -> set[str]:
    """Modules whose recorded g++ dependencies (ninja -t deps, objects only) name ``header``."""
    deps = ninja(venv, build_dir, "-t", "deps").stdout
    objects, current = set(), ""
    for line in deps.splitlines():
        if line and not line.startswith(" "):
            current = line.split(":")[0] if line.split(":")[0].endswith(".o") else ""
        elif (
            current
            and line.strip()
            and Path(line.strip()).name == header.name
            and (build_dir / line.strip()).resolve() == header.resolve()
        ):
            objects |= compile_steps(f"Compiling C++ object {current}")
    return objects


def lines_naming(name: str, plan: str) -> list[str]:
    """The lines of a plan that name ``name``: why ninja would run a step."""
    return [line for line in plan.splitlines() if name in line]


def test_a_touched_cuda_h_rebuilds_nothing_an_edited_one_what_includes_it(cu13, venvs, builds) -> None:
    """A newer mtime, the same content (a reinstall): the content check runs and nothing else. Edited,
    its copy in cuda-config/ changes: g++'s depfiles recompile what includes cuda.h, no Cython step
    runs, and the error explanations read it again."""
    venv, build_dir, checkout = cu13
    cuda_h = next(venvs[13].site_packages.glob("nvidia/*/include/cuda.h"))
    including = objects_including(venv, build_dir, build_dir / "cuda-config" / "cuda.h")
    # cydriver.pxd and cuda_utils.pxd include cuda.h; _cyutility and uuid_format.cpp do not.
    assert including == cimporters(checkout, "cuda.bindings.cydriver") | cimporters(
        checkout, "cuda.core._utils.cuda_utils"
    )
    with touched(cuda_h):
        plan = dry_run(venv, build_dir)
    assert "Generating cuda-config/cuda-inputs" in plan and "environment changed" not in plan
    assert "ninja: no work to do." in plan and "_build_info.py" not in plan, lines_naming("_build_info", plan)
    with build_dir_copy(builds, 13) as copy, edited(cuda_h, cuda_h.read_text() + "/* edited */\n"):
        plan = dry_run(venv, copy)
    assert "the build's environment changed: CUDA headers (cuda.h)" in plan
    assert cython_steps(plan) == set() and compile_steps(plan) == including
    assert "error-explanations" in plan
    assert_up_to_date(venv, build_dir)


def test_a_touched_bindings_pxd_rebuilds_nothing_an_edited_one_recythonizes(cu13, venvs, builds, cythonized) -> None:
    """cuda-bindings' files count by content too; their copies feed one stamp, so an edited .pxd
    cythonizes every module again (a new cuda-bindings does that anyway)."""
    venv, build_dir, _ = cu13
    cydriver = venvs[13].site_packages / "cuda/bindings/cydriver.pxd"
    for touched_file in (cydriver, venvs[13].site_packages / "cuda/bindings/_version.py"):
        with touched(touched_file):
            plan = dry_run(venv, build_dir)
        assert "ninja: no work to do." in plan and "_build_info.py" not in plan, lines_naming("_build_info", plan)
    with build_dir_copy(builds, 13) as copy, edited(cydriver, cydriver.read_text() + "# edited\n"):
        plan = dry_run(venv, copy)
    assert "cuda-bindings files (cuda/bindings/cydriver.pxd)" in plan and cython_steps(plan) == cythonized
    assert_up_to_date(venv, build_dir)


def test_a_touched_cython_rebuilds_nothing(cu13, venvs) -> None:
    """Cython's files are checked by content: touched, the same Cython, nothing to do. (A new
    Cython recythonizes everything: tests/test_environment_changes.py.)"""
    venv, build_dir, _ = cu13
    with touched(venvs[13].site_packages / "Cython" / "Shadow.py"):
        plan = dry_run(venv, build_dir)
    assert "Generating cuda-config/cuda-inputs" in plan and cython_steps(plan) == set()
    assert_up_to_date(venv, build_dir)


def test_depfiles_track_cydriver_pxd(cu13) -> None:
    """Cython's depfile misses cydriver.pxd for `from cuda.bindings cimport cydriver`;
    the tracked form must stay, in every module that cimports the driver."""
    venv, build_dir, _ = cu13
    for depfile in build_dir.glob("cuda_core/**/*.pyx.cpp.dep"):
        source = depfile.name.removesuffix(".cpp.dep")
        if "cydriver" in next(REPO_ROOT.glob(f"cuda_core/**/{source}")).read_text():
            assert "cuda/bindings/cydriver.pxd" in depfile.read_text(), depfile
    for source in (REPO_ROOT / "cuda_core").rglob("*.p[yx][xdi]"):
        code = [line.split("#", 1)[0] for line in source.read_text().splitlines()]
        assert not any(line.strip().startswith("from cuda.bindings cimport") for line in code), source
