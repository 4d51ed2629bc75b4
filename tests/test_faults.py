"""Interrupted, concurrent and out-of-tree builds come out right."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from conftest import Venv, build_info, extension_hashes, meson_setup, ninja


def test_killed_build_then_rerun_matches_a_clean_build(make_checkout, venvs: dict[int, Venv]) -> None:
    checkout = make_checkout("killed")
    venv, build_dir = venvs[13], checkout / "build-cu13"
    meson_setup(venv, checkout, build_dir)
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
    resumed = extension_hashes(build_dir)
    meson_setup(venv, checkout, build_dir, "--wipe")
    ninja(venv, build_dir)
    assert resumed == extension_hashes(build_dir)
    assert "ninja: no work to do." in ninja(venv, build_dir, "-n").stdout


def test_two_majors_built_at_once_in_one_checkout(make_checkout, venvs: dict[int, Venv]) -> None:
    checkout = make_checkout("concurrent")
    for major, venv in venvs.items():
        meson_setup(venv, checkout, checkout / f"build-cu{major}")
    builds = {major: subprocess.Popen([venv.bin / "ninja", "-C", checkout / f"build-cu{major}"], env=venv.env(),
                                      text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
              for major, venv in venvs.items()}
    for major, process in builds.items():
        output, _ = process.communicate()
        assert process.returncode == 0, output
    for major, venv in venvs.items():
        build_dir = checkout / f"build-cu{major}"
        assert build_info(build_dir)["cuda_major"] == major
        device_cpp = next(build_dir.glob("cuda_core/cuda/core/_device*.so.p/_device.pyx.cpp")).read_text()
        assert ("cuDeviceGetUuid_v2(" in device_cpp) == (major == 12)
        assert "ninja: no work to do." in ninja(venv, build_dir, "-n").stdout


def test_setup_and_build_from_another_directory(make_checkout, venvs: dict[int, Venv], tmp_path: Path) -> None:
    checkout = make_checkout("elsewhere")
    elsewhere = tmp_path / "somewhere else"
    elsewhere.mkdir()
    venv = venvs[12]
    meson_setup(venv, checkout, checkout / "build-cu12", cwd=elsewhere)
    ninja(venv, checkout / "build-cu12")
    assert build_info(checkout / "build-cu12")["cuda_major"] == 12
    assert not any(elsewhere.iterdir()), "the build wrote into the directory it was started from"


def test_failed_reconfigure_leaves_no_trusted_state(make_checkout, venvs: dict[int, Venv]) -> None:
    """An explicit major the headers disagree with fails with one clear error, and keeps failing
    (the build never goes on with the old configuration) until it is fixed."""
    checkout = make_checkout("bad-major")
    venv, build_dir = venvs[13], checkout / "build-cu13"
    meson_setup(venv, checkout, build_dir)
    ninja(venv, build_dir)
    result = subprocess.run([venv.bin / "meson", "configure", build_dir, "-Dcuda-major=12"], env=venv.env(),
                            text=True, capture_output=True)
    combined = result.stdout + result.stderr
    if result.returncode == 0:  # meson may defer the regeneration to the next ninja run
        rebuild = ninja(venv, build_dir, check=False)
        combined = rebuild.stdout + rebuild.stderr
        assert rebuild.returncode != 0
    assert "-Dcuda-major=12 but the headers" in combined and "CUDA 13.0" in combined
    again = ninja(venv, build_dir, check=False)
    assert again.returncode != 0, "a build went on after a failed reconfigure"
    subprocess.run([venv.bin / "meson", "configure", build_dir, "-Dcuda-major=auto"], env=venv.env(), check=True,
                   capture_output=True)
    fixed = ninja(venv, build_dir)
    assert "Compiling" not in fixed.stdout


def test_missing_headers_fail_setup_with_one_clear_line(make_checkout, venvs: dict[int, Venv], tmp_path: Path) -> None:
    checkout = make_checkout("no-headers")
    result = meson_setup(venvs[13], checkout, checkout / "build-x", check=False, CUDA_PATH=str(tmp_path))
    assert result.returncode != 0
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert len(errors) == 1 and "no cuda.h under CUDA_PATH" in errors[0], errors
    assert not (checkout / "build-x" / "build.ninja").exists()
