# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Each compiled module's type stub agrees with the built module: mypy's stubtest, per major.

A compiled module has no Python source for a type checker to read, so the ``.pyi`` installed
beside it is all that users' type checkers see of it. stubtest imports the built module from
the session's install and checks its stub against it: every public name present on both
sides, of the same kind, with the same parameters. The modules are Meson's own list (its
introspection), those built from a ``.pyx``, so Cython's shared utility module is left out.
mypy reads its settings from pyproject.toml (cuda-bindings ships no stubs); the allowlist
names only what no stub can express, each entry with its reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builds import MAJORS, SessionBuilds, run

ALLOWLIST = Path(__file__).with_name("stubtest-allowlist.txt")


def compiled_modules(builds: SessionBuilds, major: int) -> list[str]:
    """Dotted names of the modules Meson builds for ``major`` from a .pyx of the checkout."""
    source = builds.checkout / "cuda_core"
    return sorted(
        name for name in builds.modules(major) if (source / name.replace(".", "/")).with_suffix(".pyx").is_file()
    )


@pytest.mark.parametrize("major", MAJORS)
def test_stubs_match_the_compiled_modules(builds: SessionBuilds, major: int, tmp_path: Path) -> None:
    venv, site = builds.venvs[major], builds.installed(major)
    modules = compiled_modules(builds, major)
    assert modules, "Meson builds no module from a .pyx"
    result = run(
        [
            venv.python,
            "-m",
            "mypy.stubtest",
            "--mypy-config-file",
            builds.checkout / "pyproject.toml",
            "--allowlist",
            ALLOWLIST,
            *modules,
        ],
        venv.env(PYTHONPATH=str(site)),
        tmp_path,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"stubtest found errors in the stubs of cuda.core (cu{major}):\n{output}"
    assert f"no issues found in {len(modules)} modules" in output, output
