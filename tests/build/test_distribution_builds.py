# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What distributions pass to a build: ``buildtype=plain`` with flags of their own."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from builds import SessionBuilds, extension_modules, meson_setup, ninja

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
