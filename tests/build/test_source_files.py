# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The repository's sources as a reviewer reads them: an SPDX licence line in every source
file, ruff (lint and format) and cython-lint clean, no file past 1,000 lines.

The linters are requirements/test.txt's, run from this venv, with pyproject.toml's settings;
tools/dev/spdx.py --fix adds missing SPDX lines, ``ruff check --fix`` and ``ruff format``
fix most of the rest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cuda_core_build import facts

sys.path.insert(0, str(facts.REPO_ROOT / "tools" / "dev"))
import spdx  # noqa: E402

VENV_BIN = Path(sys.executable).parent
CYTHON_SOURCES = (".pyx", ".pxd", ".pxi")
LONGEST = 1000


def lint(*command: str) -> subprocess.CompletedProcess:
    """A linter of this venv, run at the repository's root (cython-lint runs pycodestyle by name,
    so this venv's bin leads PATH)."""
    env = {**os.environ, "PATH": os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")])}
    return subprocess.run(
        [str(VENV_BIN / command[0]), *command[1:]], cwd=facts.REPO_ROOT, env=env, capture_output=True, text=True
    )


def test_every_source_file_starts_with_the_spdx_lines() -> None:
    sources = spdx.source_files()
    assert any(path.suffix == ".pyx" for path in sources) and any(path.name == "meson.build" for path in sources)
    missing = [str(path.relative_to(facts.REPO_ROOT)) for path in sources if not spdx.has_header(path)]
    assert not missing, f"no SPDX lines (python3 tools/dev/spdx.py --fix): {missing}"


@pytest.mark.parametrize(
    "command", [("ruff", "check", "."), ("ruff", "format", "--check", ".")], ids=["ruff-check", "ruff-format"]
)
def test_ruff_is_clean(command: tuple[str, ...]) -> None:
    result = lint(*command)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cython_lint_is_clean() -> None:
    files = [str(path.relative_to(facts.REPO_ROOT)) for path in spdx.source_files() if path.suffix in CYTHON_SOURCES]
    assert len(files) > 50
    result = lint("cython-lint", *files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_source_file_is_over_a_thousand_lines() -> None:
    lengths = {path: len(path.read_text().splitlines()) for path in spdx.source_files()}
    assert max(lengths.values()) > 500  # the count is real
    longer = {str(path.relative_to(facts.REPO_ROOT)): n for path, n in lengths.items() if n > LONGEST}
    assert not longer
