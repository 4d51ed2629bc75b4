# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Per-major wheels, the dual wheel, the sdist, isolated builds, and reproducibility.

The per-major wheels are the session's builds packed by meson-python (``-Cbuild-dir``).
Two tests build in full, isolated, as users do: ``python -m build`` (sdist, then a wheel
from it) and ``pip install .`` into a fresh venv that holds cuda-bindings 12; both download
the build requirements from PyPI.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest
from builds import (
    GIT,
    MAJORS,
    REPO_ROOT,
    SOURCE_DATE_EPOCH,
    SessionBuilds,
    Venv,
    bindings_pin,
    meson_setup,
    ninja,
    pip_wheel,
    run,
)
from cuda_core_build import facts, version
from cuda_core_build.wheel_files import Wheel
from merge_wheels import build_info_of

MERGE = REPO_ROOT / "tools" / "release" / "merge_wheels.py"
TAGGED = "v2.7.1"  # the tag the python -m build test releases


def install_target(venv: Venv, wheel: Path, target: Path) -> dict[str, str]:
    run(
        [venv.python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", target, wheel],
        venv.env(),
        target.parent,
    )
    return venv.env(PYTHONPATH=str(target))


def metadata_header(wheel: Wheel) -> list[str]:
    return wheel.text(wheel.dist_info("METADATA")).partition("\n\n")[0].splitlines()


@pytest.mark.parametrize("major", MAJORS)
def test_per_major_wheel(builds: SessionBuilds, major: int) -> None:
    wheel = Wheel.read(builds.wheel(major))
    info = build_info_of(wheel)
    assert info["cuda_major"] == major and str(info["cuda_bindings_version"]).startswith(f"{major}.")
    header = metadata_header(wheel)
    assert f"Requires-Dist: cuda-bindings=={major}.*" in header
    assert f"Provides-Extra: cu{major}" in header
    assert not [
        line for line in header if line.startswith("Provides-Extra: cu") and line != f"Provides-Extra: cu{major}"
    ]
    modules = builds.modules(major)
    assert sum(name.endswith(".so") for name in wheel.contents) == len(modules)
    for name in modules:
        assert any(entry.startswith(name.replace(".", "/") + ".cpython-") for entry in wheel.contents), name


def test_packing_is_reproducible(builds: SessionBuilds, tmp_path: Path) -> None:
    """The same build packed twice: byte-identical wheel files, every entry stamped SOURCE_DATE_EPOCH."""
    venv = builds.venvs[13]
    pip_wheel(venv, builds.checkout, builds.build_dir(13), tmp_path, "--no-index", SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
    again = next(tmp_path.glob("cuda_core-*.whl"))
    assert again.read_bytes() == builds.wheel(13).read_bytes()
    stamp = datetime.fromtimestamp(int(SOURCE_DATE_EPOCH), tz=timezone.utc).timetuple()[:6]
    with zipfile.ZipFile(again) as archive:
        assert {info.date_time for info in archive.infolist()} == {stamp}


@pytest.fixture(scope="module")
def dual(builds: SessionBuilds, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dual")
    venv = builds.venvs[13]
    run([venv.python, MERGE, builds.wheel(12), builds.wheel(13), "-o", out], venv.env(), out)
    return next(out.glob("cuda_core-*.whl"))


@pytest.mark.parametrize("major", MAJORS)
def test_dual_wheel_picks_the_build_of_the_installed_bindings(
    dual: Path, venvs: dict[int, Venv], tmp_path: Path, major: int
) -> None:
    env = install_target(venvs[major], dual, tmp_path / "site")
    report = json.loads(run([venvs[major].python, "-m", "cuda.core", "--json"], env, tmp_path).stdout)
    assert report["build"]["cuda_major"] == major
    code = (
        "import cuda.core, cuda.core._device as d, cuda.core._cyutility as u; print(d.__file__); "
        "print(u.__file__); print(cuda.core.Device.__module__)"
    )
    where, utility, module = run([venvs[major].python, "-c", code], env, tmp_path).stdout.split()
    assert f"/cuda/core/_cu{major}/" in where and module == "cuda.core._device"
    assert f"/cuda/core/_cu{major}/_cyutility" in utility  # one shared utility module per major


def test_dual_wheel_metadata_offers_both_extras(dual: Path) -> None:
    wheel = Wheel.read(dual)
    header = metadata_header(wheel)
    assert not [line for line in header if line.startswith("Requires-Dist: cuda-bindings") and ";" not in line]
    for major in MAJORS:
        assert f'Requires-Dist: cuda-bindings[all]=={major}.*; extra == "cu{major}"' in header
        assert f'Requires-Dist: cuda-toolkit=={major}.*; extra == "cu{major}"' in header
    assert {build_info_of(wheel, f"_cu{m}/")["cuda_major"] for m in MAJORS} == set(MAJORS)
    repeated = sorted({line for line in header if header.count(line) > 1})
    assert not repeated, f"the dual wheel's METADATA lists these more than once: {repeated}"


def test_dual_wheel_describes_itself(dual: Path, builds: SessionBuilds) -> None:
    """Its own summary and description: the two builds it holds, and that the extras bring
    cuda-bindings (it requires none by itself), not the per-major wheel's text."""
    wheel = Wheel.read(dual)
    header, _, body = wheel.text(wheel.dist_info("METADATA")).partition("\n\n")
    per_major = Wheel.read(builds.wheel(13))
    per_major_body = per_major.text(per_major.dist_info("METADATA")).partition("\n\n")[2]
    assert "Summary: " in header and "CUDA 12 and 13 builds in one wheel" in header
    assert body.strip() == (REPO_ROOT / "docs" / "description-dual.md").read_text().strip() != per_major_body.strip()


def test_dual_wheel_keeps_the_headers_where_a_per_major_wheel_has_them(dual: Path) -> None:
    names = Wheel.read(dual).contents
    for header in ("utility.hpp", "layout.hpp", "dlpack.h", "aoti_shim.h"):
        assert {
            f"cuda/core/_include/{header}",
            f"cuda/core/_cu12/_include/{header}",
            f"cuda/core/_cu13/_include/{header}",
        } <= set(names), header


def altered_copy(source: Path, target_dir: Path, **build_info: str) -> Path:
    """A copy of a wheel whose build info has the given values changed."""
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / source.name
    shutil.copy2(source, target)
    wheel = Wheel.read(target)
    text = wheel.text("cuda/core/_build_info.py")
    for key, value in build_info.items():
        old = build_info_of(wheel)[key]
        text = text.replace(f"{key} = {old!r}", f"{key} = {value!r}")
    wheel.put("cuda/core/_build_info.py", text.encode())
    wheel.write(target)
    return target


@pytest.mark.parametrize(
    "case, expected",
    [
        ("same major", "are both CUDA 13 builds: build the CUDA 12 wheel into a directory of its own"),
        ("other version", "different versions: {cu12} (CUDA 12) is 0.0.9, {cu13} (CUDA 13) is"),
        ("other source", "{cu12} (CUDA 12) and {cu13} (CUDA 13) were built from different sources"),
    ],
)
def test_merge_refusals(builds: SessionBuilds, tmp_path: Path, case: str, expected: str) -> None:
    cu12, cu13 = builds.wheel(12), builds.wheel(13)
    if case == "same major":
        pair = [altered_copy(cu13, tmp_path / "twin"), cu13]
    elif case == "other version":
        pair = [altered_copy(cu12, tmp_path / "v", version="0.0.9"), cu13]
    else:
        pair = [altered_copy(cu12, tmp_path / "s", source_digest="0" * 64), cu13]
    venv = builds.venvs[13]
    result = run([venv.python, MERGE, *pair, "-o", tmp_path / "out"], venv.env(), tmp_path, check=False)
    assert result.returncode == 1 and not (tmp_path / "out").exists()
    # The two per-major wheels share one file name: each input is named by its path and major.
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert expected.format(cu12=pair[0], cu13=pair[1]) in result.stderr, result.stderr


@dataclass
class PythonMBuild:
    sdist: Path
    wheel: Path
    output: str
    release: str  # the tagged checkout's version


@pytest.fixture(scope="module")
def python_m_build(
    make_checkout, venvs: dict[int, Venv], constraints: Path, tmp_path_factory: pytest.TempPathFactory
) -> PythonMBuild:
    """`python -m build` in a CUDA 12 venv (cuda-bindings 12.9), no major asked, no CUDA_PATH: the sdist
    (meson dist of the git tree), then a wheel built from it in an isolated environment (build
    requirements from PyPI). The backend reads the environment of build's interpreter and builds for
    its cuda-bindings' major (issue 42: it made a CUDA 13 wheel); with no CUDA 12 toolkit (a CUDA 13
    one may sit at /usr/local/cuda) against NVIDIA's CUDA 12 header wheels."""
    checkout = make_checkout("python-m-build")
    # The isolated environment takes the session's build tools (constraints): the newest Cython on PyPI
    # would otherwise make other C++ than the session's pinned one, and the modules could not be
    # compared byte for byte.
    env = venvs[12].env(SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PIP_CONSTRAINT=str(constraints))
    run([*GIT, "tag", TAGGED], env, checkout)  # a release: the sdist and the wheel say TAGGED's version
    dist = tmp_path_factory.mktemp("dist")
    # Built one deep in the unpacked sdist, as the session's builds are: its g++ steps come from the suite's
    # ccache (Cython runs again). Depth: test_a_module_built_three_directories_deep_is_byte_identical.
    result = run([venvs[12].python, "-m", "build", "--outdir", dist, checkout], env, checkout)
    return PythonMBuild(
        next(dist.glob("cuda_core-*.tar.gz")),
        next(dist.glob("cuda_core-*.whl")),
        result.stdout + result.stderr,
        version.from_git(checkout),
    )


@pytest.mark.slow
@pytest.mark.network
def test_python_m_build_in_a_cuda12_venv_makes_an_sdist_and_a_cuda12_wheel(
    python_m_build: PythonMBuild, builds: SessionBuilds, venvs: dict[int, Venv]
) -> None:
    with tarfile.open(python_m_build.sdist) as archive:
        names = archive.getnames()
        pkg_info = (archive.extractfile(f"{names[0].split('/')[0]}/PKG-INFO") or io.BytesIO()).read().decode()
    # Issue 50 (PEP 643): each wheel writes its own cuda-bindings requirement and extra, which no sdist can tell.
    assert {"Dynamic: Requires-Dist", "Dynamic: Provides-Extra"} <= set(pkg_info.partition("\n\n")[0].splitlines())
    assert any(n.endswith("/tools/cuda_core_build/backend.py") for n in names)
    assert any(n.endswith("/cuda_core/cuda/core/meson.build") for n in names)
    top_level = {n.split("/")[1] for n in names if n.count("/") >= 2}
    assert not {d for d in top_level if d == "build" or d.startswith(("build-", ".venvs", ".mesonpy"))}, top_level
    assert not any(n.endswith((".so", ".pyx.cpp", "_build_info.py")) for n in names)
    assert (
        f"building against NVIDIA's CUDA {facts.default_cuda(12)} header wheels (requirements/matrix.ini)"
        in python_m_build.output
    )
    assert f"cuda-bindings {bindings_pin(12)} is installed in {venvs[12].root}: building for CUDA 12" in (
        python_m_build.output
    )
    wheel = Wheel.read(python_m_build.wheel)
    info = build_info_of(wheel)
    assert info["cuda_major"] == 12 and info["cuda_version"] == 12090
    assert "Requires-Dist: cuda-bindings==12.*" in metadata_header(wheel)
    # The tag's version, in the sdist (which has no .git: its PKG-INFO carries it) and in the wheel
    # built from it, metadata and build info alike.
    release = python_m_build.release
    assert release.endswith("." + TAGGED.removeprefix("v"))
    assert python_m_build.sdist.name == f"cuda_core-{release}.tar.gz"
    assert f"Version: {release}" in metadata_header(wheel) and info["version"] == release
    assert sum(n.endswith(".so") for n in wheel.contents) == len(builds.modules(12))


@pytest.mark.slow
@pytest.mark.network
def test_extension_modules_are_reproducible_across_build_paths(
    python_m_build: PythonMBuild, builds: SessionBuilds
) -> None:
    """The cu12 modules built from the sdist (another checkout, at another path), isolated (another
    environment), are byte-identical to the session's cu12 build: no path or time leaks into a module."""
    isolated, session = Wheel.read(python_m_build.wheel), Wheel.read(builds.wheel(12))
    modules = sorted(name for name in session.contents if name.endswith(".so"))
    assert modules == sorted(name for name in isolated.contents if name.endswith(".so"))
    differing = [name for name in modules if isolated.contents[name] != session.contents[name]]
    assert not differing, differing


def test_a_module_built_three_directories_deep_is_byte_identical(builds: SessionBuilds) -> None:
    """Two modules built three directories deep in the session checkout, compiled afresh (no ccache), are
    byte-identical to the session's cu12 build, one deep: no depth leaks into a module."""
    venv, deep = builds.venvs[12], builds.checkout / "deep" / "er" / "build"
    session = builds.modules(12)
    names = ("cuda.core._context", "cuda.core._event")
    targets = [str(path.relative_to(builds.build_dir(12))) for name, path in session.items() if name in names]
    meson_setup(venv, builds.checkout, deep, CCACHE_DISABLE="1")
    ninja(venv, deep, *targets, CCACHE_DISABLE="1")
    assert len(targets) == 2
    for target in targets:
        assert (deep / target).read_bytes() == (builds.build_dir(12) / target).read_bytes(), target


@dataclass
class FreshVenv:
    root: Path
    output: str  # pip's, with -v: the backend's lines


@pytest.fixture(scope="module")
def fresh_venv(
    make_checkout, venvs: dict[int, Venv], constraints: Path, tmp_path_factory: pytest.TempPathFactory
) -> FreshVenv:
    """README's first command, for real, as issue 28's user ran it: `pip install .` (isolated;
    build requirements and NVIDIA's header wheels from PyPI) into a fresh venv that already holds
    cuda-bindings 12, with no CUDA 12 toolkit around (a CUDA 13 one may sit at /usr/local/cuda)."""
    checkout = make_checkout("isolated")
    fresh = tmp_path_factory.mktemp("fresh") / "venv"
    # A PATH of the system's tools and ccache alone: Meson compiles through the suite's one cache.
    launcher = tmp_path_factory.mktemp("launcher")
    (launcher / "ccache").symlink_to(venvs[13].bin / "ccache")
    env = venvs[13].env(activated=False, PATH=f"{launcher}{os.pathsep}/usr/bin:/bin", PIP_CONSTRAINT=str(constraints))
    run([sys.executable, "-m", "venv", fresh], env, checkout)
    run([fresh / "bin/python", "-m", "pip", "install", "-q", f"cuda-bindings=={bindings_pin(12)}"], env, checkout)
    result = run([fresh / "bin/python", "-m", "pip", "install", "-v", checkout], env, checkout)
    return FreshVenv(fresh, result.stdout + result.stderr)


@pytest.mark.slow
@pytest.mark.network
def test_isolated_pip_install_keeps_the_installed_bindings(
    fresh_venv: FreshVenv, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """Built for the major of the cuda-bindings already there, so pip kept them, and says why."""
    env = venvs[13].env(activated=False)
    python = fresh_venv.root / "bin/python"
    report = json.loads(run([python, "-m", "cuda.core", "--json"], env, tmp_path).stdout)
    assert report["build"]["cuda_major"] == 12
    assert report["cuda_bindings_installed"] == bindings_pin(12)
    assert f"cuda-bindings {bindings_pin(12)} is installed in" in fresh_venv.output
    assert "building for CUDA 12, which keeps it" in fresh_venv.output
    requires = run(
        [python, "-c", "import importlib.metadata as m; print(m.requires('cuda-core'))"], env, tmp_path
    ).stdout
    assert "cuda-bindings==12.*" in requires


@pytest.mark.slow
@pytest.mark.network
def test_a_downstream_requirement_on_cuda_core_keeps_this_build(
    fresh_venv: FreshVenv, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """This build carries NVIDIA's API version with its own local label: a requirement NVIDIA's 1.2.2
    meets is met by it, and pip, asked against PyPI (where NVIDIA's cuda-core is), keeps it, also with -U."""
    python, env = fresh_venv.root / "bin/python", venvs[13].env(activated=False)
    installed = run([python, "-c", "import cuda.core; print(cuda.core.__version__)"], env, tmp_path).stdout.strip()
    assert installed.startswith(f"{version.API_VERSION}+meson.")
    for request in (["cuda-core>=1.0"], ["-U", "cuda-core"], ["cuda-core>=0.4,<2"]):
        result = run([python, "-m", "pip", "install", "--dry-run", *request], env, tmp_path)
        assert "Would install" not in result.stdout, (request, result.stdout)
        assert "Requirement already satisfied: cuda-core" in result.stdout and installed in result.stdout


@pytest.mark.slow
@pytest.mark.network
def test_wrong_major_refuses_to_import_in_a_fresh_venv(
    fresh_venv: FreshVenv, builds: SessionBuilds, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """The cu13 wheel beside the fresh venv's CUDA 12 bindings (from PyPI): the clear ImportError."""
    target = tmp_path / "site"
    python = fresh_venv.root / "bin/python"
    run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--target", target, builds.wheel(13)],
        venvs[13].env(activated=False),
        tmp_path,
    )
    result = subprocess.run(
        [python, "-c", "import cuda.core"],
        env=venvs[13].env(activated=False, PYTHONPATH=str(target)),
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "built for CUDA 13" in last and "is for CUDA 12" in last and 'pip install "cuda-bindings==13.*"' in last


# Sources of the package that stay out of its wheels on purpose, and why.
NOT_INSTALLED = {
    "cuda/core/_cpp/uuid_format.hpp": "the C++ of _device alone: compiled in, included by nothing downstream",
}
INSTALLABLE = ("*.py", "*.pyi", "*.pxd", "*.h", "*.hpp")


@pytest.mark.parametrize("major", MAJORS)
def test_every_python_stub_pxd_and_header_is_installed(builds: SessionBuilds, major: int) -> None:
    """Every .py, .pyi, .pxd and header under cuda_core/cuda/core is in the wheel, or named in
    NOT_INSTALLED with its reason: a module or a stub that a meson.build forgot fails here."""
    root = builds.checkout / "cuda_core"
    sources = {
        path.relative_to(root).as_posix()
        for pattern in INSTALLABLE
        for path in (root / "cuda" / "core").rglob(pattern)
        if "__pycache__" not in path.parts
    }
    packed = set(Wheel.read(builds.wheel(major)).contents)
    assert sorted(sources - packed - set(NOT_INSTALLED)) == []
    assert set(NOT_INSTALLED) <= sources, "NOT_INSTALLED names a file that is gone"


def test_wheel_hashes_name_the_same_modules(builds: SessionBuilds) -> None:
    """Sanity of the session wheels against the build dirs: each .so in a wheel is its build's file."""
    for major in MAJORS:
        wheel = Wheel.read(builds.wheel(major))
        for name, path in builds.modules(major).items():
            entry = next(e for e in wheel.contents if e.startswith(name.replace(".", "/") + ".cpython-"))
            assert hashlib.sha256(wheel.contents[entry]).digest() == hashlib.sha256(path.read_bytes()).digest(), name


def test_wheels_from_two_unpacks_of_one_sdist_are_byte_identical(
    make_checkout, builds: SessionBuilds, tmp_path: Path
) -> None:
    """Issue 50: the wheel copied each file's mode from the tree it was built in, so an sdist unpacked by
    ``tar -x`` as root (keeping 0664 where a group-writable umask made it) and by pip (0644) gave wheels whose
    entries differed in mode (125 of them). Now each entry is 0644, or 0755 where executable: the same bytes."""
    venv = builds.venvs[13]
    checkout = make_checkout("unpacks")
    run(
        [venv.python, "-m", "build", "--sdist", "--no-isolation", "--outdir", tmp_path / "sdist", checkout],
        venv.env(),
        checkout,
    )
    (sdist,) = (tmp_path / "sdist").glob("cuda_core-*.tar.gz")
    wheels = []
    for unpack, mode in (("tar", 0o664), ("pip", 0o644)):
        with tarfile.open(sdist) as archive:
            archive.extractall(tmp_path / unpack, filter="data")
        (tree,) = (tmp_path / unpack).iterdir()
        for path in (p for p in tree.rglob("*") if p.is_file() and not p.stat().st_mode & 0o111):
            path.chmod(mode)
        out = tmp_path / f"wheel-{unpack}"
        pip_wheel(venv, tree, tmp_path / f"build-{unpack}", out, "--no-index", SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
        wheels.append(next(out.glob("cuda_core-*.whl")).read_bytes())
    assert wheels[0] == wheels[1]
