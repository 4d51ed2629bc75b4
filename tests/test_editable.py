"""Editable installs: one build dir per venv, rebuild on import, and no activated shell needed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import Venv, run

TAG = f"cp{sys.version_info.major}{sys.version_info.minor}"
PROBE_CODE = "import cuda.bindings, cuda.core, cuda.core._build_info as b; print(b.cuda_major, cuda.core.__file__)"


def pip_uninstall(venv: Venv) -> None:
    run([venv.python, "-m", "pip", "uninstall", "-y", "-q", "cuda-core"], venv.env(), Path("/"), check=False)


@pytest.fixture(scope="module")
def editable(make_checkout, venvs: dict[int, Venv]):
    """The same checkout installed editable into the cu12 and the cu13 venv; uninstalled afterwards."""
    checkout = make_checkout("editable")
    for venv in venvs.values():
        run([venv.python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "-e", checkout],
            venv.env(), checkout)
    yield checkout
    for venv in venvs.values():
        pip_uninstall(venv)


def imported_major(venv: Venv, cwd: Path, activated: bool = True) -> tuple[int, str]:
    out = run([venv.python, "-c", PROBE_CODE], venv.env(activated=activated), cwd).stdout.split()
    return int(out[0]), out[1]


def test_each_venv_gets_its_own_build_dir(editable: Path, venvs: dict[int, Venv], tmp_path: Path) -> None:
    for major, venv in venvs.items():
        build_dir = editable / "build" / f"{TAG}-cu{major}"
        assert (build_dir / "build.ninja").is_file(), f"no per-major build dir {build_dir}"
        got, location = imported_major(venv, tmp_path)
        assert got == major
        assert location == str(editable / "cuda_core/cuda/core/__init__.py")


def test_metadata_requires_bindings_of_the_built_major(editable: Path, venvs: dict[int, Venv]) -> None:
    for major, venv in venvs.items():
        code = "import importlib.metadata as m; print('\\n'.join(m.requires('cuda-core')))"
        requires = run([venv.python, "-c", code], venv.env(), editable).stdout.splitlines()
        assert f"cuda-bindings=={major}.*" in requires


def test_editing_a_pyx_rebuilds_on_import_in_each_venv_unactivated(editable: Path, venvs: dict[int, Venv],
                                                                    tmp_path: Path) -> None:
    """After a .pyx edit, the next import in each venv rebuilds that venv's own build dir, from a
    shell whose PATH holds no venv (cython and ninja were recorded by absolute path)."""
    source = editable / "cuda_core/cuda/core/_system.pyx"
    source.write_text(source.read_text() + "\n\ndef _edited_marker() -> int:\n    return 12013\n")
    before = {major: sorted(editable.glob(f"build/{TAG}-cu{major}/**/_system.cpython-*.so"))[0].stat().st_mtime_ns
              for major in venvs}
    for major, venv in venvs.items():
        code = "import cuda.core._system as s, cuda.core._build_info as b; print(b.cuda_major, s._edited_marker())"
        out = run([venv.python, "-c", code], venv.env(activated=False), tmp_path).stdout.split()
        assert out == [str(major), "12013"]
    for major in venvs:
        module = sorted(editable.glob(f"build/{TAG}-cu{major}/**/_system.cpython-*.so"))[0]
        assert module.stat().st_mtime_ns > before[major], f"cu{major} did not rebuild its own module"


def test_one_finder_and_reinstall_over_an_active_editable(editable: Path, venvs: dict[int, Venv],
                                                          tmp_path: Path) -> None:
    """The .pth may run twice at start-up; the loader must still be installed once. And a second
    `pip install -e` must configure cleanly while the first editable's finder is active (the probe
    must not import through it, which would rebuild the build dir being configured)."""
    venv = venvs[13]
    code = ("import sys, cuda.core; "
            "print(sum(type(f).__name__ == 'MesonpyMetaFinder' for f in sys.meta_path))")
    assert run([venv.python, "-c", code], venv.env(), tmp_path).stdout.strip() == "1"
    run([venv.python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "-e", editable],
        venv.env(), editable)
    assert imported_major(venv, tmp_path)[0] == 13


def test_the_probe_never_starts_an_editable_rebuild(editable: Path, venvs: dict[int, Venv], tmp_path: Path) -> None:
    """The build runs the probe in the venv that holds the editable install; its imports must not
    go through the editable finder, which would start a second build of the same build dir."""
    venv = venvs[13]
    build_dir = editable / "build" / f"{TAG}-cu13"
    source = editable / "cuda_core/cuda/core/_device.pyx"
    source.write_text(source.read_text() + "\n")
    run([venv.python, editable / "tools/cuda_probe.py"], venv.env(), tmp_path)
    pending = run([venv.bin / "ninja", "-C", build_dir, "-n"], venv.env(), tmp_path).stdout
    assert "Compiling Cython source" in pending, "the probe's imports rebuilt the editable install"
