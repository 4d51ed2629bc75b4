# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A conda environment's toolkit (issue 50, N5a): with only CONDA_PREFIX set, as `conda activate`
leaves it, the probe finds the headers in conda's layout and the build uses them.

The prefix is laid out from NVIDIA's CUDA 13 header wheels as conda's packages lay a toolkit out:
the headers in PREFIX/targets/x86_64-linux/include, a link to each in PREFIX/include. The
environment holds the build tools and cuda-bindings, and no header wheels."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import devenv
import pytest
from builds import BASE_PYTHON, PROBE, SessionBuilds, Uv, bindings_pin, run, system_path
from cuda_core_build import facts


def conda_prefix(root: Path, headers: Path) -> Path:
    """A prefix holding the toolkit ``headers`` in conda's layout."""
    targets = root / "targets" / "x86_64-linux" / "include"
    shutil.copytree(headers, targets)
    (root / "include").mkdir()
    for header in targets.iterdir():
        (root / "include" / header.name).symlink_to(header)
    return root


@pytest.mark.network
def test_a_conda_toolkit_is_found_by_conda_prefix_alone(
    builds: SessionBuilds, uv: Uv, constraints: Path, tmp_path: Path
) -> None:
    """The probe says it found the headers via CONDA_PREFIX, and a build in that environment is for
    CUDA 13 with them (before, the probe fell back to /usr/local/cuda or advised header wheels)."""
    wheels = builds.venvs[13].site_packages / "nvidia" / "cu13" / "include"
    prefix = conda_prefix(tmp_path / "conda", wheels)
    python = devenv.find_python(devenv.default_cell(13).python)
    env_dir = tmp_path / "env"
    venv = uv.venv(env_dir, python, "-c", str(constraints), *facts.BUILD_TOOLS, f"cuda-bindings=={bindings_pin(13)}")
    env = venv.env(PATH=system_path(venv, tmp_path / "launcher"), CONDA_PREFIX=str(prefix))
    found = json.loads(run([venv.python, PROBE, "--headers-only"], env, tmp_path).stdout)
    assert found["found_via"] == "CONDA_PREFIX", found
    assert found["include_dirs"] == [str(prefix / "targets" / "x86_64-linux" / "include")], found
    setup = run([venv.bin / "meson", "setup", tmp_path / "build", builds.checkout], env, tmp_path).stdout
    assert "via CONDA_PREFIX" in setup
    run([venv.bin / "ninja", "-C", tmp_path / "build"], env, tmp_path)
    info = (tmp_path / "build" / "cuda_core" / "cuda" / "core" / "_build_info.py").read_text()
    assert "cuda_major = 13" in info


def test_an_incomplete_conda_toolkit_names_conda_forges_packages(builds: SessionBuilds, tmp_path: Path) -> None:
    """Issue 50: a conda toolkit that lacks headers gets one line naming conda-forge's packages of its version
    that hold them, before the header wheels (here with no cuda-bindings and no header wheels around)."""
    wheels = builds.venvs[13].site_packages / "nvidia" / "cu13" / "include"
    prefix = conda_prefix(tmp_path / "conda", wheels)
    for header in ("nvrtc.h", "cudaProfiler.h"):
        (prefix / "targets" / "x86_64-linux" / "include" / header).unlink()
        (prefix / "include" / header).unlink()
    env = {"PATH": os.environ["PATH"], "CONDA_PREFIX": str(prefix), "PYTHONPATH": str(PROBE.parents[1])}
    result = run([BASE_PYTHON, PROBE, "--headers-only"], env, tmp_path, check=False)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    version = facts.default_cuda(13)
    assert (
        f"(via CONDA_PREFIX): conda install -c conda-forge cuda-nvrtc-dev={version} cuda-profiler-api={version} "
        in result.stderr
    )
