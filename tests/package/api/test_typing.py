# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type checkers see cuda.core's real classes, the lazily imported ones included: README's example
passes the pinned mypy against the cuda.core installed here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"


def first_python_example(markdown: str) -> str:
    """The first ```python block of a Markdown text."""
    return markdown.split("```python\n", 1)[1].split("```", 1)[0]


def test_mypy_accepts_the_readme_example(cuda_core, tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is in the cells' venvs (requirements/test.txt), not installed here")
    example = tmp_path / "readme_example.py"
    example.write_text(first_python_example(README.read_text()))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"), example.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found in 1 source file")


def test_lazy_names_stay_lazy_at_run_time(cuda_core) -> None:
    """The names type checkers now see are still imported at first use, not by ``import cuda.core``."""
    probe = (
        "import sys, cuda.core; print(sorted(m for m in ('cuda.core._program', 'cuda.core._linker', "
        "'cuda.core._tensor_map', 'cuda.core.graph', 'cuda.core.utils') if m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout == "[]\n"
