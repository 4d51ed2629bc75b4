# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What distributions and packagers do: ``buildtype=plain`` with flags of their own; an sdist, made and resolved."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from builds import REPO_ROOT, SessionBuilds, Uv, extension_modules, meson_setup, ninja, run
from cuda_core_build import facts

MODULE = "cuda.core._utils.version"  # a small one


@pytest.mark.parametrize("strip", [False, True], ids=["as-given", "strip-asked"])
def test_a_plain_build_keeps_the_debug_info_a_distribution_asks_for(
    builds: SessionBuilds, tmp_path: Path, strip: bool
) -> None:
    """Issue 50: with buildtype=plain and -g in CXXFLAGS (dpkg-buildflags, rpm's optflags), a module keeps its
    debug info for the distribution's debug package, naming no directory of this build; it was stripped
    unless Meson's own debug option was on, so debug packages came out empty. -Dstrip=true strips it."""
    venv, build_dir = builds.venvs[13], tmp_path / "plain"
    options = ("-Dbuildtype=plain", f"-Dstrip={str(strip).lower()}")
    meson_setup(venv, builds.checkout, build_dir, *options, CXXFLAGS="-g -O2")
    module = extension_modules(venv, build_dir)[MODULE]
    ninja(venv, build_dir, str(module.relative_to(build_dir)))
    sections = subprocess.run(["readelf", "-S", module], capture_output=True, text=True, check=True).stdout
    assert (".debug_info" in sections) is not strip, sections
    assert str(build_dir).encode() not in module.read_bytes()


@pytest.mark.network
def test_an_sdist_is_made_without_cuda_and_resolves_without_a_build(
    builds: SessionBuilds, uv: Uv, constraints: Path, make_checkout, tmp_path: Path
) -> None:
    """Issue 50: making an sdist installed cuda-bindings and NVIDIA's header wheels into its isolated environment,
    and a resolver that reads the sdist without building it (uv's --no-build) left cuda-bindings out and said
    the extra cu13 did not exist. Now the sdist's isolated environment holds the build tools alone, and such a
    resolver finds cuda-bindings, and the extra's cuda-bindings[all] and cuda-toolkit of CUDA 13."""
    venv = builds.venvs[13]
    env = venv.env(PIP_CONSTRAINT=str(constraints))
    checkout = make_checkout("sdist")
    made = run([venv.python, "-m", "build", "--sdist", "--outdir", tmp_path / "dist", checkout], env, checkout)
    output = made.stdout + made.stderr
    installed = " ".join(line for line in output.splitlines() if line.startswith(("  - ", "* Installing")))
    assert "meson-python" in installed and "cuda-bindings" not in installed and "nvidia-" not in installed, output
    (sdist,) = (tmp_path / "dist").glob("cuda_core-*.tar.gz")
    requirement = tmp_path / "requirements.in"
    requirement.write_text(f"cuda-core[cu13] @ {sdist.as_uri()}\n")
    resolved = run([uv.path, "pip", "compile", "--no-build", requirement], uv.env(), tmp_path)
    pinned = {line.split("==")[0]: line.split("==")[1] for line in resolved.stdout.splitlines() if "==" in line}
    assert pinned["cuda-bindings"].startswith("13.") and pinned["cuda-toolkit"].startswith("13."), resolved.stdout
    assert "does not have an extra" not in resolved.stderr, resolved.stderr


@pytest.mark.network
def test_cibuildwheel_reads_the_release_matrix(uv: Uv, tmp_path: Path) -> None:
    """Issue 50: ``[tool.cibuildwheel]`` gives each supported Python on both Linux archs, no musllinux, and passes
    CUDA_CORE_VERSION (a release's plain version) into its containers. (Containers cannot run here.)"""
    venv = uv.venv(tmp_path / "venv", sys.executable, "cibuildwheel")
    listed = run(
        [venv.bin / "cibuildwheel", "--print-build-identifiers", "--platform", "linux", REPO_ROOT], uv.env(), tmp_path
    )
    pythons = [version.replace(".", "") for version in facts.matrix()["python"]["versions"].split()]
    expected = {f"cp{python}-manylinux_{arch}" for python in pythons for arch in ("x86_64", "aarch64")}
    assert set(listed.stdout.split()) == expected, listed.stdout
    settings = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    assert "CUDA_CORE_VERSION" in settings["environment-pass"]


def test_a_read_only_checkout_builds_with_nothing_written(builds: SessionBuilds, make_checkout, tmp_path: Path) -> None:
    """Issue 50: a distribution builds from a tree it may not write (a read-only bind mount here, which holds for
    root too): Meson's setup, the version script (git, which refreshed .git/index) and the whole build succeed
    with the build directory outside it."""
    venv, checkout = builds.venvs[13], make_checkout("read-only")
    setup = [str(venv.bin / "meson"), "setup", str(tmp_path / "build"), str(checkout)]
    script = f'mount --bind -o ro "$1" "$1" || exit 77; {" ".join(setup)} && exec {venv.bin / "ninja"} -C {tmp_path / "build"}'
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(checkout)], env=venv.env(), capture_output=True, text=True
    )
    if result.returncode == 77 or "unshare: " in result.stderr:
        pytest.skip(f"no read-only bind mount here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "Read-only file system" not in result.stdout + result.stderr
    assert (tmp_path / "build" / "cuda_core" / "cuda" / "core" / "_build_info.py").is_file()
