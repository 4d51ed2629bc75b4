# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Interrupted, concurrent and out-of-tree builds come out right, and bad setups fail clearly.

The builds here are copies of the session's build dirs (siblings in the same checkout,
so every relative path in them still holds): each test rebuilds a few modules, not the
package.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from builds import (
    MAJORS,
    SessionBuilds,
    Venv,
    bindings_pin,
    build_dir_copy,
    build_info,
    extension_modules,
    file_hashes,
    meson_configure,
    meson_setup,
    ninja,
    pip_wheel,
    run,
    touched,
    up_to_date,
)
from cuda_core_build import facts, record


def test_killed_build_then_rerun_matches_a_clean_build(builds: SessionBuilds) -> None:
    venv = builds.venvs[13]
    clean = file_hashes(builds.modules(13))
    # A touched toolchain.h (every compile reads it; ninja compares mtimes) recompiles every module.
    with build_dir_copy(builds, 13) as build_dir, touched(build_dir / "cuda-config" / "toolchain.h"):
        # Kill ninja and its compilers as soon as the first C++ compile has started.
        process = subprocess.Popen(
            [venv.bin / "ninja", "-C", build_dir, "-j2"],
            env=venv.env(),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert process.stdout is not None
        for line in process.stdout:
            if "Compiling C++ object" in line:
                break
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        assert process.returncode != 0, "the build finished before it could be killed"
        ninja(venv, build_dir)
        assert file_hashes(extension_modules(venv, build_dir)) == clean
        assert up_to_date(venv, build_dir)


def test_two_majors_built_at_once_in_one_checkout(builds: SessionBuilds) -> None:
    with (
        build_dir_copy(builds, 12) as cu12,
        build_dir_copy(builds, 13) as cu13,
        touched(builds.checkout / "cuda_core/cuda/core/_device.pyx"),
    ):
        dirs = {12: cu12, 13: cu13}
        running = {
            major: subprocess.Popen(
                [builds.venvs[major].bin / "ninja", "-C", dirs[major]],
                env=builds.venvs[major].env(),
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for major in MAJORS
        }
        for major, process in running.items():
            output, _ = process.communicate()
            assert process.returncode == 0, output
            assert "_device.pyx" in output
        for major, build_dir in dirs.items():
            assert build_info(build_dir)["cuda_major"] == major
            device_cpp = next(build_dir.glob("cuda_core/cuda/core/_device*.so.p/_device.pyx.cpp")).read_text()
            assert ("cuDeviceGetUuid_v2(" in device_cpp) == (major == 12)
            assert up_to_date(builds.venvs[major], build_dir)
            assert file_hashes(extension_modules(builds.venvs[major], build_dir)) == file_hashes(builds.modules(major))


def test_setup_and_build_from_another_directory(builds: SessionBuilds, tmp_path: Path) -> None:
    """meson setup run from elsewhere: the probe and a Cython module build, and nothing is
    written where it was started."""
    elsewhere = tmp_path / "somewhere else"
    elsewhere.mkdir()
    venv, build_dir = builds.venvs[12], builds.checkout / "build-from-elsewhere"
    try:
        meson_setup(venv, builds.checkout, build_dir, cwd=elsewhere)
        context = extension_modules(venv, build_dir)["cuda.core._context"]
        ninja(venv, build_dir, "cuda_core/cuda/core/_build_info.py", str(context.relative_to(build_dir)))
        assert build_info(build_dir)["cuda_major"] == 12 and context.is_file()
        assert not any(elsewhere.iterdir()), "the build wrote into the directory it was started from"
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_failed_reconfigure_leaves_no_trusted_state(builds: SessionBuilds) -> None:
    """An explicit major the headers disagree with fails with one clear error, and keeps failing
    (the build never goes on with the old configuration) until it is fixed."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    try:
        result = meson_configure(venv, build_dir, "-Dcuda-major=12", check=False)
        combined = result.stdout + result.stderr
        if result.returncode == 0:  # meson may defer the regeneration to the next ninja run
            rebuild = ninja(venv, build_dir, check=False)
            combined = rebuild.stdout + rebuild.stderr
            assert rebuild.returncode != 0
        assert "-Dcuda-major=12 but the headers" in combined and "CUDA 13.0" in combined
        again = ninja(venv, build_dir, check=False)
        assert again.returncode != 0, "a build went on after a failed reconfigure"
    finally:
        meson_configure(venv, build_dir, "-Dcuda-major=auto")
    fixed = ninja(venv, build_dir)
    assert "Compiling" not in fixed.stdout


def test_missing_headers_fail_setup_with_one_clear_line(
    builds: SessionBuilds, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    build_dir = builds.checkout / "build-no-headers"
    result = meson_setup(venvs[13], builds.checkout, build_dir, check=False, CUDA_PATH=str(tmp_path))
    assert result.returncode != 0
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert len(errors) == 1 and "no cuda.h under CUDA_PATH" in errors[0], errors
    assert not (build_dir / "build.ninja").exists()
    shutil.rmtree(build_dir, ignore_errors=True)


@pytest.mark.parametrize("value", ["11", "14", "twelve"])
def test_unsupported_cuda_major_option_is_one_clear_line(
    builds: SessionBuilds, venvs: dict[int, Venv], value: str
) -> None:
    build_dir = builds.checkout / f"build-major-{value}"
    result = meson_setup(venvs[13], builds.checkout, build_dir, f"-Dcuda-major={value}", check=False)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
    assert f"-Dcuda-major={value} is not a supported CUDA major: use one of auto, 12, 13" in errors[0]
    shutil.rmtree(build_dir, ignore_errors=True)


# --- traps a user fell into: clear errors first, any path, a build dir keeps its major ---------

HEADERS = facts.REQUIRED_HEADERS


def private_toolkit(venv: Venv, root: Path) -> Path:
    """A toolkit-like root holding copies of the venv's wheel headers in ROOT/include."""
    include = root / "include"
    include.mkdir(parents=True)
    for header in HEADERS:
        shutil.copy2(next(venv.site_packages.glob(f"nvidia/*/include/{header}")), include / header)
    return root


def first_error(output: str) -> str:
    """The first line of a build's output that gives a cause (ninja's FAILED line and the command
    it echoes name none)."""
    return next(line for line in output.splitlines() if "error" in line.lower())


def test_any_character_of_the_toolkit_path_reaches_the_compilers(builds: SessionBuilds, tmp_path: Path) -> None:
    """'#', '$' and spaces in the toolkit's path: a module compiles against those headers (copied into
    cuda-config/, which is all a compile command names), and the content check watches the file itself."""
    venv = builds.venvs[13]
    root = private_toolkit(venv, tmp_path / "odd #dir $with spaces" / "cuda 13")
    build_dir = builds.checkout / "build-odd-path"
    try:
        meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={root}")
        context = extension_modules(venv, build_dir)["cuda.core._context"]
        ninja(venv, build_dir, "cuda_core/cuda/core/_build_info.py", str(context.relative_to(build_dir)))
        assert context.is_file() and build_info(build_dir)["cuda_major"] == 13
        assert (build_dir / "cuda-config" / "cuda.h").read_bytes() == (root / "include" / "cuda.h").read_bytes()
        assert (
            "cuda-config/cuda.h"
            in ninja(
                venv,
                build_dir,
                "-t",
                "deps",
                str(context.relative_to(build_dir)) + ".p/meson-generated__context.pyx.cpp.o",
            ).stdout
        )
        assert str(root / "include" / "cuda.h") in record.read_stats(build_dir)["files"]  # the check watches it
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_a_backslash_in_the_toolkit_path_is_refused_at_setup(builds: SessionBuilds, tmp_path: Path) -> None:
    """Meson reads a backslash as a path separator, so it could never watch those headers: one clear
    line at setup, not a build that fails or regenerates forever."""
    venv = builds.venvs[13]
    root = private_toolkit(venv, tmp_path / "back\\slash" / "cuda")
    build_dir = builds.checkout / "build-backslash"
    try:
        result = meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={root}", check=False)
        errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
        assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
        assert "holds a backslash, which ninja cannot track: make a link" in errors[0]
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


@pytest.mark.parametrize("given", ["-Dcuda-path", "CUDA_PATH"])
def test_a_relative_cuda_path_is_taken_from_where_meson_runs(builds: SessionBuilds, tmp_path: Path, given: str) -> None:
    """Issue 49, E2: Meson started by a process with another cwd than its $PWD (subprocess's cwd=) takes a
    relative root from its own cwd, as any command does; Meson runs the probe from the source directory."""
    venv = builds.venvs[13]
    private_toolkit(venv, tmp_path / "toolkits" / "cuda")
    build_dir = builds.checkout / "build-relative-cuda-path"
    option, env = ["-Dcuda-path=toolkits/cuda"], {}
    if given == "CUDA_PATH":
        option, env = [], {"CUDA_PATH": "toolkits/cuda"}
    try:
        meson_setup(venv, builds.checkout, build_dir, *option, cwd=tmp_path, PWD=str(builds.checkout), **env)
        pinned = json.loads((build_dir / "cuda-config" / "environment.json").read_text())
        assert pinned["include_dirs"] == [str(tmp_path / "toolkits" / "cuda" / "include")]
        assert build_info_built(venv, build_dir)["cuda_major"] == 13
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_no_cuda_h_under_a_root_names_where_it_looked(builds: SessionBuilds, tmp_path: Path) -> None:
    """Issue 49, E2: the refusal names the directories it looked in, not 'ROOT/include'."""
    (tmp_path / "empty").mkdir()
    build_dir = tmp_path / "build"
    result = meson_setup(builds.venvs[13], builds.checkout, build_dir, "-Dcuda-path=empty", cwd=tmp_path, check=False)
    assert result.returncode != 0
    assert f"looked in {tmp_path / 'empty' / 'include'} and {tmp_path / 'empty'}" in result.stdout + result.stderr


def build_info_built(venv: Venv, build_dir: Path) -> dict[str, object]:
    ninja(venv, build_dir, "cuda_core/cuda/core/_build_info.py")
    return build_info(build_dir)


def test_vanished_headers_fail_with_the_probes_line_before_any_compile(builds: SessionBuilds, tmp_path: Path) -> None:
    venv = builds.venvs[13]
    root = private_toolkit(venv, tmp_path / "cuda")
    build_dir = builds.checkout / "build-vanished-headers"
    try:
        meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={root}")
        root.rename(tmp_path / "gone")
        result = ninja(venv, build_dir, check=False)
        output = result.stdout + result.stderr
        assert result.returncode != 0
        assert "the CUDA headers pinned for this build directory are gone" in first_error(output)
        assert "Compiling" not in output and "Generating '" not in output
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def private_bindings(venv: Venv, site: Path) -> Path:
    """A private install of the venv's cuda-bindings metadata and version file (the .pxd files
    linked), first on PYTHONPATH: a cuda-bindings the test may change."""
    real = venv.site_packages
    dist_info = next(real.glob("cuda_bindings-*.dist-info"))
    shutil.copytree(dist_info, site / dist_info.name)
    (site / "cuda" / "bindings").mkdir(parents=True)
    shutil.copy2(real / "cuda/bindings/_version.py", site / "cuda/bindings/_version.py")
    for pxd in (real / "cuda/bindings").glob("*.pxd"):
        (site / "cuda/bindings" / pxd.name).symlink_to(pxd)
    (site / "cuda" / "__init__.pxd").write_text("")
    return site / dist_info.name


def test_changed_bindings_fail_with_the_probes_line_before_any_compile(builds: SessionBuilds, tmp_path: Path) -> None:
    venv = builds.venvs[13]
    site = tmp_path / "site"
    dist_info = private_bindings(venv, site)
    build_dir = builds.checkout / "build-changed-bindings"
    try:
        meson_setup(venv, builds.checkout, build_dir, PYTHONPATH=str(site))
        recorded = json.loads((build_dir / "cuda-config" / "environment.json").read_text())
        assert recorded["bindings_root"] == os.path.realpath(site)
        metadata = dist_info / "METADATA"
        metadata.write_text(metadata.read_text().replace(f"Version: {bindings_pin(13)}", "Version: 12.9.10"))
        (site / "cuda/bindings/_version.py").write_text('__version__ = "12.9.10"\n')
        result = ninja(venv, build_dir, check=False, PYTHONPATH=str(site))
        output = result.stdout + result.stderr
        assert result.returncode != 0
        assert "cuda-bindings 12.9.10" in first_error(output) and "is for CUDA 12" in first_error(output)
        assert "Compiling" not in output and "Generating '" not in output
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_a_build_dir_named_for_a_major_keeps_it(builds: SessionBuilds) -> None:
    """`meson setup --wipe build-cu13` from the cu12 venv refuses, naming the venv to activate;
    -Dcuda-major=12 says the user means it."""
    build_dir = builds.checkout / "build-cu13-wrong-venv"
    try:
        result = meson_setup(builds.venvs[12], builds.checkout, build_dir, check=False)
        errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
        assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
        assert "build-cu13-wrong-venv's name says CUDA 13, but the headers found" in errors[0]
        assert f"source {builds.venvs[13].root}/bin/activate" in errors[0] and "-Dcuda-major=12" in errors[0]
        meson_setup(builds.venvs[12], builds.checkout, build_dir, "--wipe", "-Dcuda-major=12")
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_cython_is_the_build_pythons_by_absolute_path(builds: SessionBuilds) -> None:
    """No bare `cython` in build.ninja: every Cython step runs the build Python's -m cython."""
    for major in MAJORS:
        build_dir, venv = builds.build_dir(major), builds.venvs[major]
        commands = ninja(venv, build_dir, "-t", "commands").stdout.splitlines()
        cython = [command for command in commands if "cython" in command.split(" ", 1)[0] or " -m cython " in command]
        assert cython and all(command.startswith(f"{venv.python} -m cython ") for command in cython), cython[:3]


def test_a_build_from_a_shell_with_no_venv_uses_the_recorded_tools(builds: SessionBuilds) -> None:
    venv = builds.venvs[13]
    with build_dir_copy(builds, 13) as build_dir, touched(builds.checkout / "cuda_core/cuda/core/_context.pyx"):
        result = run([venv.bin / "ninja", "-C", build_dir], venv.env(activated=False), build_dir)
        assert "_context.pyx" in result.stdout
        assert file_hashes(extension_modules(venv, build_dir)) == file_hashes(builds.modules(13))


def test_a_build_set_up_with_ccache_says_so_when_ccache_leaves_path(
    builds: SessionBuilds, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """Meson keeps the compiler launcher it found on PATH at setup (`ccache c++`: meson 1.12 by absolute
    path, meson 1.5 by name). Where it is gone, the configure step's one line names it and the fix."""
    venv, launchers = venvs[13], tmp_path / "launchers"
    launchers.mkdir()
    (launchers / "ccache").symlink_to(venv.bin / "ccache")
    build_dir = builds.checkout / "build-ccache-gone"
    path = {"NINJA": str(venv.bin / "ninja")}
    try:
        meson_setup(venv, builds.checkout, build_dir, PATH=f"{launchers}{os.pathsep}/usr/bin:/bin", **path)
        (launchers / "ccache").unlink()
        result = meson_setup(
            venv, builds.checkout, build_dir, "--reconfigure", check=False, PATH="/usr/bin:/bin", **path
        )
        errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
        assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
        assert (
            f"{launchers / 'ccache'} c++' could not be run" in errors[0] or "'ccache c++' could not be run" in errors[0]
        )
        assert (
            "ccache from setup is gone: restore it, or set the build dir up again (meson setup --wipe)" in errors[0]
        ), errors
        assert "install g++" not in errors[0], errors
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


@pytest.mark.parametrize("spelling", [["-Dcuda_major=12"], ["-D", "cuda_major=12"]], ids=["joined", "apart"])
def test_the_underscored_major_is_refused_naming_the_dashed_one(
    builds: SessionBuilds, tmp_path: Path, spelling: list[str]
) -> None:
    """Issue 51: ``-Dcuda_major=12``, the spelling many Meson projects use, was taken and ignored (Meson keeps
    names that start with a language): a CUDA 13 build, exit 0. Now setup stops, naming -Dcuda-major=12."""
    result = meson_setup(builds.venvs[13], builds.checkout, tmp_path / "build", *spelling, check=False)
    assert result.returncode != 0 and "-Dcuda_major is no option of cuda-core" in result.stdout, result.stdout
    assert "use -Dcuda-major=12 (pip and uv: -Csetup-args=-Dcuda-major=12)" in result.stdout
    assert not (tmp_path / "build" / "build.ninja").exists()


def test_the_underscored_major_through_pip_is_refused_before_meson(builds: SessionBuilds, tmp_path: Path) -> None:
    build_dir, option = tmp_path / "build", "-Csetup-args=-Dcuda_major=12"
    result = pip_wheel(builds.venvs[13], builds.checkout, build_dir, tmp_path / "out", option, check=False)
    assert result.returncode != 0 and "use -Dcuda-major=12" in result.stdout + result.stderr, result
    assert not (build_dir / "build.ninja").exists()


def test_nvidias_major_variable_asks_for_that_major(builds: SessionBuilds, tmp_path: Path) -> None:
    """CUDA_CORE_BUILD_MAJOR, NVIDIA's build's variable: pip builds for that major (in the CUDA 13 venv, whose
    headers are 13's, that is a refusal before anything compiles, naming them); Meson, whose setup a later
    regeneration repeats from any shell, takes it only from -Dcuda-major, and says so."""
    venv, env = builds.venvs[13], {"CUDA_CORE_BUILD_MAJOR": "12"}
    out = pip_wheel(venv, builds.checkout, tmp_path / "pip", tmp_path / "out", check=False, **env)
    assert out.returncode != 0 and "-Dcuda-major=12 but the headers" in out.stdout + out.stderr, out
    setup = meson_setup(venv, builds.checkout, tmp_path / "meson", check=False, **env)
    assert setup.returncode != 0 and "CUDA_CORE_BUILD_MAJOR=12 asks for CUDA 12" in setup.stdout, setup.stdout
    assert "use -Dcuda-major=12" in setup.stdout


def test_a_toolkit_upgraded_in_place_with_its_mtimes_is_seen_by_plain_ninja(
    builds: SessionBuilds, tmp_path: Path
) -> None:
    """Issue 49, N1b: cuda.h rewritten in place with its mtime kept (what ``cp -a new/. toolkit/`` does). The
    first step compares the toolkit's stats on every run, so a plain ninja runs the environment's check,
    says what changed, and the build info follows; before, only an editable import noticed (by ctime), and
    plain ninja kept CUDA_VERSION 13000."""
    venv, build_dir = builds.venvs[13], tmp_path / "build"
    root = private_toolkit(venv, tmp_path / "cuda")
    meson_setup(venv, builds.checkout, build_dir, f"-Dcuda-path={root}")
    assert build_info_built(venv, build_dir)["cuda_version"] == 13000
    cuda_h = root / "include" / "cuda.h"
    before = cuda_h.stat()
    cuda_h.write_text(cuda_h.read_text().replace("#define CUDA_VERSION 13000", "#define CUDA_VERSION 13001"))
    os.utime(cuda_h, ns=(before.st_atime_ns, before.st_mtime_ns))
    built = ninja(venv, build_dir, "cuda_core/cuda/core/_build_info.py")
    assert "the build's environment changed: CUDA_VERSION 13000 -> 13001" in built.stdout, built.stdout
    assert build_info(build_dir)["cuda_version"] == 13001
