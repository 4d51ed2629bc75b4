"""Each input change rebuilds exactly what depends on it, asserted with ``ninja -n -d explain``.

One real cu13 build against a private copy of the CUDA 13 headers (so touching
cuda.h disturbs no other build dir); every test then changes one input, asks ninja
what it would do, and puts the input back, checking the tree is up to date again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path
from typing import Iterator

import pytest

from conftest import EXTENSIONS, REPO_ROOT, Venv, compile_steps, cython_steps, dry_run, meson_configure, \
    meson_setup, ninja

HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h")


def private_headers(venv: Venv, target: Path) -> Path:
    """Copy the venv's wheel headers into TARGET/include, one toolkit-like root."""
    include = target / "include"
    include.mkdir(parents=True)
    for header in HEADERS:
        shutil.copy2(next(venv.site_packages.glob(f"nvidia/*/include/{header}")), include / header)
    return target


@contextlib.contextmanager
def touched(path: Path) -> Iterator[None]:
    """Make ``path`` newer than every output, then give it back its old mtime."""
    before = path.stat()
    os.utime(path, (time.time() + 10, time.time() + 10))
    try:
        yield
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.fixture(scope="module")
def tree(make_checkout, venvs: dict[int, Venv], tmp_path_factory: pytest.TempPathFactory):
    checkout = make_checkout("exact")
    headers = {major: private_headers(venvs[major], tmp_path_factory.mktemp(f"headers-cu{major}"))
               for major in venvs}
    build_dir = checkout / "build-cu13"
    meson_setup(venvs[13], checkout, build_dir, f"-Dcuda-path={headers[13]}")
    ninja(venvs[13], build_dir)
    return checkout, build_dir, headers


def assert_up_to_date(venv: Venv, build_dir: Path) -> None:
    assert "ninja: no work to do." in dry_run(venv, build_dir)


def test_cuda_major_reconfigure_rebuilds_every_extension(tree, venvs: dict[int, Venv]) -> None:
    """-Dcuda-major=12 with CUDA 12 headers and bindings; the bindings come in by PYTHONPATH,
    since this build dir's Python is the cu13 venv's."""
    _, build_dir, headers = tree
    cu12_bindings = {"PYTHONPATH": str(venvs[12].site_packages)}
    meson_configure(venvs[13], build_dir, "-Dcuda-major=12", f"-Dcuda-path={headers[12]}", **cu12_bindings)
    ninja(venvs[13], build_dir, "build.ninja", **cu12_bindings)
    plan = dry_run(venvs[13], build_dir)
    assert cython_steps(plan) == set(EXTENSIONS)
    assert {f"{name}.pyx.cpp.o" for name in EXTENSIONS} | {"_cpp_uuid_format.cpp.o"} <= compile_steps(plan)
    # Back to the configuration that was built: nothing to do, the old artifacts still hold.
    meson_configure(venvs[13], build_dir, "-Dcuda-major=auto", f"-Dcuda-path={headers[13]}")
    ninja(venvs[13], build_dir, "build.ninja")
    assert_up_to_date(venvs[13], build_dir)


def test_coverage_toggle_rebuilds_every_extension(tree, venvs: dict[int, Venv]) -> None:
    _, build_dir, _ = tree
    meson_configure(venvs[13], build_dir, "-Dcython-coverage=true")
    ninja(venvs[13], build_dir, "build.ninja")
    plan = dry_run(venvs[13], build_dir)
    assert cython_steps(plan) == set(EXTENSIONS)
    assert "_build_info.py" in plan
    meson_configure(venvs[13], build_dir, "-Dcython-coverage=false")
    ninja(venvs[13], build_dir, "build.ninja")
    assert_up_to_date(venvs[13], build_dir)


def test_touching_a_pxd_rebuilds_exactly_its_cimporters(tree, venvs: dict[int, Venv]) -> None:
    checkout, build_dir, _ = tree
    with touched(checkout / "cuda_core/cuda/core/_utils/cuda_utils.pxd"):
        plan = dry_run(venvs[13], build_dir)
    # cuda_utils.pyx owns the pxd; every other module cimports it.
    assert cython_steps(plan) == set(EXTENSIONS)
    assert "_cpp_uuid_format.cpp.o" not in compile_steps(plan)
    with touched(checkout / "cuda_core/cuda/core/_event.pxd"):
        plan = dry_run(venvs[13], build_dir)
    # _event.pyx implements it, _stream cimports it: those two and nothing else.
    assert cython_steps(plan) == {"_event", "_stream"}
    assert compile_steps(plan) == {"_event.pyx.cpp.o", "_stream.pyx.cpp.o"}
    assert_up_to_date(venvs[13], build_dir)


def test_touching_the_compat_pxi_rebuilds_only_its_includer(tree, venvs: dict[int, Venv]) -> None:
    checkout, build_dir, _ = tree
    with touched(checkout / "cuda_core/cuda/core/_compat/cu13/driver_compat.pxi"):
        plan = dry_run(venvs[13], build_dir)
    assert cython_steps(plan) == {"_device", "_event", "_memory"}
    with touched(checkout / "cuda_core/cuda/core/_compat/cu12/driver_compat.pxi"):
        plan = dry_run(venvs[13], build_dir)
    # Not compiled for 13; only the build info's source digest looks at it.
    assert cython_steps(plan) == set() and compile_steps(plan) == set() and "_build_info.py" in plan


def objects_including(venv: Venv, build_dir: Path, header: Path) -> set[str]:
    """Objects whose recorded g++ dependencies (ninja -t deps) name ``header``."""
    deps = ninja(venv, build_dir, "-t", "deps").stdout
    objects, current = set(), ""
    for line in deps.splitlines():
        if line and not line.startswith(" "):
            current = line.split(":")[0].rsplit("/", 1)[-1].removeprefix("meson-generated_")
        elif line.strip() and Path(line.strip()).name == header.name and \
                (build_dir / line.strip()).resolve() == header.resolve():
            objects.add(current)
    return objects


def test_touching_cuda_h_recompiles_only_what_includes_it(tree, venvs: dict[int, Venv]) -> None:
    _, build_dir, headers = tree
    cuda_h = headers[13] / "include" / "cuda.h"
    including = {name for name in objects_including(venvs[13], build_dir, cuda_h) if name.endswith(".o")}
    assert including == {f"{name}.pyx.cpp.o" for name in EXTENSIONS}
    with touched(cuda_h):
        plan = dry_run(venvs[13], build_dir)
    assert cython_steps(plan) == set()
    assert compile_steps(plan) == including  # uuid_format.cpp includes no CUDA header
    assert "_build_info.py" in plan  # its depfile names cuda.h: the build info is re-derived
    assert_up_to_date(venvs[13], build_dir)


def test_a_changed_bindings_pxd_rebuilds_its_cimporters(tree, venvs: dict[int, Venv]) -> None:
    _, build_dir, _ = tree
    with touched(venvs[13].site_packages / "cuda/bindings/cydriver.pxd"):
        plan = dry_run(venvs[13], build_dir)
    assert cython_steps(plan) == set(EXTENSIONS)
    with touched(venvs[13].site_packages / "cuda/bindings/_version.py"):
        plan = dry_run(venvs[13], build_dir)
    assert "_build_info.py" in plan and cython_steps(plan) == set()
    assert_up_to_date(venvs[13], build_dir)


def test_depfiles_track_cydriver_pxd(tree) -> None:
    """Cython's depfile misses cydriver.pxd for `from cuda.bindings cimport cydriver`;
    the tracked form must stay, in every module."""
    _, build_dir, _ = tree
    for name in EXTENSIONS:
        depfile = next(build_dir.glob(f"cuda_core/cuda/core/**/{name}.*.so.p/{name}.pyx.cpp.dep"))
        assert "cuda/bindings/cydriver.pxd" in depfile.read_text(), depfile
    for source in (REPO_ROOT / "cuda_core").rglob("*.p[yx][xdi]"):
        code = [line.split("#", 1)[0] for line in source.read_text().splitlines()]
        assert not any(line.strip().startswith("from cuda.bindings cimport") for line in code), source
