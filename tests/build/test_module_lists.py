# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The meson.build files are the one module list: every .pyx is a module Meson builds, and the
setuptools reference of benchmarks/ builds exactly Meson's modules, read from Meson itself."""

from __future__ import annotations

import json

from builds import REPO_ROOT, SessionBuilds, run

SHARED_UTILITY = "cuda.core._cyutility"


def test_every_pyx_is_a_module_meson_builds(builds: SessionBuilds) -> None:
    root = builds.checkout / "cuda_core"
    sources = {".".join(pyx.relative_to(root).with_suffix("").parts) for pyx in root.rglob("*.pyx")}
    assert sources == set(builds.modules(13)) - {SHARED_UTILITY}


def test_each_module_is_installed_where_its_source_is(builds: SessionBuilds) -> None:
    for name, built in builds.modules(13).items():
        package_dir = builds.checkout / "cuda_core" / name.rsplit(".", 1)[0].replace(".", "/")
        assert built.parent.relative_to(builds.build_dir(13)) == package_dir.relative_to(builds.checkout), name


def test_setuptools_reference_builds_the_same_modules(builds: SessionBuilds) -> None:
    venv = builds.venvs[13]
    listed = run(
        [
            venv.python,
            REPO_ROOT / "benchmarks/reference_setuptools.py",
            "--modules-from",
            builds.build_dir(13),
            "--list-modules",
        ],
        venv.env(PYTHONPATH=str(REPO_ROOT / "tools")),
        builds.checkout,
    ).stdout
    modules = json.loads(listed)
    assert set(modules) == set(builds.modules(13)) - {SHARED_UTILITY}
    assert modules["cuda.core._device"] == ["_device.pyx", "_cpp/uuid_format.cpp"]
