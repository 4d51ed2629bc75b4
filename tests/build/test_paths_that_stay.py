# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Paths and names the build keeps (issue 41): a toolkit given through a link that is later removed
(TL), a venv reached through one (E24), a build directory whose name only looks like a major's (cu1),
and one whose sources moved."""

from __future__ import annotations

import json
import shutil
import sysconfig
from pathlib import Path

import pytest
from builds import SessionBuilds, Venv, meson_setup, ninja, pip_wheel, touched
from cuda_core_build import probe, steps
from cuda_core_build.probe import ProbeError, Request

CORE = "cuda_core/cuda/core"
TARGETS = (f"{CORE}/_context{sysconfig.get_config_var('EXT_SUFFIX')}", f"{CORE}/_build_info.py")


def cu13_toolkit(venv: Venv) -> probe.Toolkit:
    """The cu13 venv's header wheels, read as the probe reads a toolkit."""
    return probe.select_headers([next(venv.site_packages.glob("nvidia/cu13/include"))], "header wheels")


@pytest.mark.parametrize("name", ["build-cu1", "cu1", "build-cu1-debug", "cuda-cu2"])
def test_a_name_with_one_digit_after_cu_names_no_major(venvs: dict[int, Venv], name: str) -> None:
    """CUDA majors have two digits: `build-cu1` is no CUDA 1 build directory, and is not refused."""
    steps.check_directory_name(Path(name), cu13_toolkit(venvs[13]), Request("", "auto", environ={}))


def test_a_name_with_a_major_still_keeps_it(venvs: dict[int, Venv]) -> None:
    with pytest.raises(ProbeError, match=r"^build-cu12's name says CUDA 12, but the headers found"):
        steps.check_directory_name(Path("build-cu12"), cu13_toolkit(venvs[13]), Request("", "auto", environ={}))


def test_a_toolkit_given_through_a_link_that_goes_keeps_building(builds: SessionBuilds, tmp_path: Path) -> None:
    """-Dcuda-path names a link to a toolkit root (here the cu13 header wheels' nvidia/cu13); the link
    is removed, its target stays: the next build after an edit reads the headers from where the link
    led, as README says (issue 41, TL)."""
    venv = builds.venvs[13]
    link = tmp_path / "cuda"
    link.symlink_to(next(venv.site_packages.glob("nvidia/cu13/include")).parent)
    build_dir = builds.checkout / "build-through-a-toolkit-link"
    meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={link}")
    ninja(venv, build_dir, *TARGETS)
    link.unlink()
    with touched(builds.checkout / f"{CORE}/_context.pyx"):
        output = ninja(venv, build_dir, *TARGETS, check=False)
    assert output.returncode == 0, output.stdout + output.stderr


def test_a_debug_build_is_the_same_at_any_depth(builds: SessionBuilds) -> None:
    """README's reproducibility holds for debug builds too (issue 41, R1): the debug info names
    neither the build directory nor the checkout, so a module built one and three levels deep is
    byte-identical."""
    venv, checkout = builds.venvs[13], builds.checkout
    built = []
    for build_dir in (checkout / "build-debug", checkout / "deep" / "er" / "build-debug"):
        meson_setup(venv, checkout, build_dir, "-Dbuildtype=debug")
        ninja(venv, build_dir, TARGETS[0])
        built.append((build_dir / TARGETS[0]).read_bytes())
    assert built[0] == built[1]
    assert str(checkout).encode() not in built[0]


def test_a_cuda_h_that_is_not_cpp_is_refused_at_setup(builds: SessionBuilds, tmp_path: Path) -> None:
    """A toolkit whose cuda.h says CUDA 13 but does not compile (issue 41, B5): `meson setup` stops
    with one line naming the headers and the fix, before anything is built."""
    venv = builds.venvs[13]
    root = tmp_path / "broken-toolkit"
    shutil.copytree(next(venv.site_packages.glob("nvidia/cu13/include")), root / "include")
    with (root / "include" / "cuda.h").open("a") as cuda_h:
        cuda_h.write("\nthis is not C++;\n")
    build_dir = tmp_path / "build"
    result = meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={root}", check=False)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
    assert f"the CUDA headers at {root / 'include'} do not compile (" in errors[0]
    assert "point CUDA_PATH or -Dcuda-path at a complete CUDA toolkit" in errors[0]


@pytest.mark.parametrize("given", ["-Dcuda-path", "CUDA_HOME"])
def test_a_refusal_names_the_way_the_toolkit_was_given(tmp_path: Path, given: str) -> None:
    """A cuda.h that defines no CUDA_VERSION, named by -Dcuda-path or CUDA_HOME: the line says to point
    that one at a toolkit, not CUDA_PATH, which the user did not set (issue 41)."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda.h").write_text("/* not a toolkit's */\n")
    option = str(tmp_path) if given == "-Dcuda-path" else ""
    request = Request(option, "auto", environ={"CUDA_HOME": str(tmp_path)} if given == "CUDA_HOME" else {})
    with pytest.raises(ProbeError) as refused:
        probe.find_toolkit(request)
    assert str(refused.value).endswith(f"it is not a CUDA toolkit's cuda.h; point {given} at a complete CUDA toolkit")


def test_a_compiler_reached_through_a_venv_link_is_said_at_setup(builds: SessionBuilds, tmp_path: Path) -> None:
    """Set up with a venv's bin/ on PATH through a link (issue 41, E24): Meson keeps that path of ccache
    in every compile command, which stops once the link is gone; setup says so, with the command that
    sets up from the real path."""
    venv = builds.venvs[13]
    link = tmp_path / "venv-link"
    link.symlink_to(venv.root)
    build_dir = tmp_path / "build"
    output = meson_setup(Venv(13, link), builds.checkout, build_dir).stdout
    assert (
        f"WARNING: cuda-core: Meson runs {link}/bin/ccache through the link {link}, and keeps that path in every "
        f"compile command: the build stops if the link goes; to build without it, set up with the real path first "
        f"on PATH: PATH={venv.bin}:$PATH meson setup --wipe {build_dir}"
    ) in output


def test_a_pip_build_from_a_venv_link_outlives_the_link(builds: SessionBuilds, tmp_path: Path) -> None:
    """pip's build from a venv reached through a link, its bin/ first on PATH (issue 41, E24): the backend
    hands Meson a PATH and a Python through no link, so nothing in the build directory names the link,
    and once it is removed the next build still works."""
    venv = builds.venvs[13]
    link = tmp_path / "venv-link"
    link.symlink_to(venv.root)
    build_dir = tmp_path / "build"
    pip_wheel(Venv(13, link), builds.checkout, build_dir, tmp_path / "wheel")
    naming = [p for p in build_dir.rglob("*") if p.is_file() and str(link).encode() in p.read_bytes()]
    assert not naming, f"these name the link: {naming}"
    link.unlink()
    with touched(builds.checkout / f"{CORE}/_context.pyx"):
        output = ninja(venv, build_dir, *TARGETS, check=False)
    assert output.returncode == 0 and "_context.pyx" in output.stdout, output.stdout + output.stderr


def test_a_build_dir_whose_sources_moved_is_refused_in_one_line(
    make_checkout, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """A checkout moved with its build directory inside: Meson cannot follow (its reconfigure dies in a
    traceback; its regeneration makes an empty directory where the sources were). pip's build says so
    in one line naming the command that sets it up again, creates nothing at the old place, and that
    command works."""
    venv, old = venvs[13], make_checkout("moved")
    meson_setup(venv, old, old / "build")
    new = tmp_path / "moved-here"
    shutil.move(old, new)
    result = pip_wheel(venv, new, new / "build", tmp_path / "wheel", check=False)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "cuda-core:" in line]
    assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
    assert errors[0].endswith(
        f"the build directory {new / 'build'} was set up as {old / 'build'} for the sources at {old}, and Meson "
        f"cannot follow a move: set it up again for these sources (meson setup --wipe {new / 'build'} {new}), "
        "or give another build-dir"
    )
    assert not old.exists()
    meson_setup(venv, new, new / "build", "--wipe", cwd=new)
    info = json.loads((new / "build" / "meson-info" / "meson-info.json").read_text())
    assert info["directories"]["source"] == str(new)


def test_a_compiler_that_is_a_directory_is_named_as_one(venvs: dict[int, Venv], tmp_path: Path) -> None:
    """CXX naming a directory that exists: the line says so, instead of "install g++, or set CXX"."""
    with pytest.raises(ProbeError) as refused:
        steps.header_closure([str(tmp_path)], cu13_toolkit(venvs[13]))
    assert str(refused.value).endswith(
        f"{tmp_path} is a directory, not a compiler: set CXX to the compiler itself, and set the build up again"
    )


def test_the_hint_for_a_moved_venv_says_it_was_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dev venv moved after it was made (its activate script and scripts name the old place): the
    hint no longer says to activate it, which would not work, but that it moved and what to run."""
    venv = tmp_path / ".venvs" / "cu12"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "activate").write_text('VIRTUAL_ENV="/old/place/.venvs/cu12"\nexport VIRTUAL_ENV\n')
    monkeypatch.setattr(probe, "DEV_VENVS", tmp_path / ".venvs")
    monkeypatch.setattr(probe, "in_dev_venv", lambda: None)  # as from a shell in no dev venv (the suite runs in one)
    assert probe.venv_hint(12) == (
        f"use the CUDA 12 environment {venv}, which was moved from /old/place/.venvs/cu12 and no longer works there: "
        f"move it back, or `mv {venv} {venv}.old && python3 tools/dev/devenv.py cu12`"
    )
    (venv / "bin" / "activate").write_text(f'VIRTUAL_ENV="{venv}"\nexport VIRTUAL_ENV\n')
    assert probe.venv_hint(12) == f"activate the CUDA 12 environment (source {venv}/bin/activate)"
