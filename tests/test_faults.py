"""Interrupted, concurrent and out-of-tree builds come out right, and bad setups fail clearly.

The builds here are copies of the session's build dirs (siblings in the same checkout,
so every relative path in them still holds): each test rebuilds a few modules, not the
package.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from builds import (MAJORS, SessionBuilds, Venv, build_info, extension_modules, file_hashes, meson_configure,
                      meson_setup, ninja)


@contextlib.contextmanager
def build_dir_copy(builds: SessionBuilds, major: int, name: str) -> Iterator[Path]:
    """A copy of the session's build dir of ``major`` beside it, removed afterwards."""
    copy = builds.checkout / name
    shutil.copytree(builds.build_dir(major), copy, symlinks=True)
    try:
        yield copy
    finally:
        shutil.rmtree(copy)


@contextlib.contextmanager
def source_touched(path: Path) -> Iterator[None]:
    """``path`` newer than every output built so far (its content unchanged), older than what is
    built next; its mtime restored afterwards."""
    before = path.stat()
    os.utime(path)
    try:
        yield
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_killed_build_then_rerun_matches_a_clean_build(builds: SessionBuilds) -> None:
    venv = builds.venvs[13]
    clean = file_hashes(builds.modules(13))
    with build_dir_copy(builds, 13, "build-cu13-killed") as build_dir, \
            source_touched(builds.checkout / "cuda_core/cuda/core/_event.pxd"):
        # Kill ninja and its compilers as soon as the first C++ compile has started.
        process = subprocess.Popen([venv.bin / "ninja", "-C", build_dir, "-j2"], env=venv.env(), text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        assert process.stdout is not None
        for line in process.stdout:
            if "Compiling C++ object" in line:
                break
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        assert process.returncode != 0, "the build finished before it could be killed"
        ninja(venv, build_dir)
        assert file_hashes(extension_modules(venv, build_dir)) == clean
        assert "ninja: no work to do." in ninja(venv, build_dir, "-n").stdout


def test_two_majors_built_at_once_in_one_checkout(builds: SessionBuilds) -> None:
    with build_dir_copy(builds, 12, "build-cu12-concurrent") as cu12, \
            build_dir_copy(builds, 13, "build-cu13-concurrent") as cu13, \
            source_touched(builds.checkout / "cuda_core/cuda/core/_device.pyx"):
        dirs = {12: cu12, 13: cu13}
        running = {major: subprocess.Popen([builds.venvs[major].bin / "ninja", "-C", dirs[major]],
                                           env=builds.venvs[major].env(), text=True, stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT)
                   for major in MAJORS}
        for major, process in running.items():
            output, _ = process.communicate()
            assert process.returncode == 0, output
            assert "_device.pyx" in output
        for major, build_dir in dirs.items():
            assert build_info(build_dir)["cuda_major"] == major
            device_cpp = next(build_dir.glob("cuda_core/cuda/core/_device*.so.p/_device.pyx.cpp")).read_text()
            assert ("cuDeviceGetUuid_v2(" in device_cpp) == (major == 12)
            assert "ninja: no work to do." in ninja(builds.venvs[major], build_dir, "-n").stdout
            assert file_hashes(extension_modules(builds.venvs[major], build_dir)) == \
                file_hashes(builds.modules(major))


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


def test_missing_headers_fail_setup_with_one_clear_line(builds: SessionBuilds, venvs: dict[int, Venv],
                                                        tmp_path: Path) -> None:
    build_dir = builds.checkout / "build-no-headers"
    result = meson_setup(venvs[13], builds.checkout, build_dir, check=False, CUDA_PATH=str(tmp_path))
    assert result.returncode != 0
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert len(errors) == 1 and "no cuda.h under CUDA_PATH" in errors[0], errors
    assert not (build_dir / "build.ninja").exists()
    shutil.rmtree(build_dir, ignore_errors=True)


@pytest.mark.parametrize("value", ["11", "14", "twelve"])
def test_unsupported_cuda_major_option_is_one_clear_line(builds: SessionBuilds, venvs: dict[int, Venv],
                                                         value: str) -> None:
    build_dir = builds.checkout / f"build-major-{value}"
    result = meson_setup(venvs[13], builds.checkout, build_dir, f"-Dcuda-major={value}", check=False)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert result.returncode != 0 and len(errors) == 1, result.stdout + result.stderr
    assert f"-Dcuda-major={value} is not a supported CUDA major: use one of auto, 12, 13" in errors[0]
    shutil.rmtree(build_dir, ignore_errors=True)
