# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The repository's sources as a reviewer reads them: an SPDX licence line in every source
file, ruff (lint and format) and cython-lint clean, no file past 1,000 lines (700 in tools/),
and no test that edits sys.path (tests reach tools/ through pyproject.toml's pytest pythonpath).

The linters are requirements/test.txt's, run from this venv, with pyproject.toml's settings;
tools/dev/spdx.py --fix adds missing SPDX lines, ``ruff check --fix`` and ``ruff format``
fix most of the rest.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import spdx
import tomllib
from cuda_core_build import facts, probe
from merge_wheels import bindings_extra

VENV_BIN = Path(sys.executable).parent
CYTHON_SOURCES = (".pyx", ".pxd", ".pxi")
LONGEST = 1000
LONGEST_IN_TOOLS = 700  # tools/ is read whole by whoever changes the build or the harness
LIST_EDITS = {"insert", "append", "extend", "remove", "pop", "clear"}  # list methods that change sys.path


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


def test_no_file_in_tools_is_over_seven_hundred_lines() -> None:
    tools = [path for path in spdx.source_files() if path.relative_to(facts.REPO_ROOT).parts[0] == "tools"]
    lengths = {str(path.relative_to(facts.REPO_ROOT)): len(path.read_text().splitlines()) for path in tools}
    assert max(lengths.values()) > 300 and "tools/gpu/gpu_check.py" in lengths  # the count is real
    assert not {name: n for name, n in lengths.items() if n > LONGEST_IN_TOOLS}


def is_sys_path(node: ast.AST) -> bool:
    """``sys.path``, or a slice or item of it."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "path" and getattr(node.value, "id", "") == "sys"


def sys_path_edits(source: str) -> list[int]:
    """The lines of ``source`` that change sys.path: a list method called on it, an assignment to it
    or its items, or pytest's monkeypatch.syspath_prepend."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if (node.func.attr in LIST_EDITS and is_sys_path(node.func.value)) or node.func.attr == "syspath_prepend":
                lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            lines += [node.lineno for target in targets if is_sys_path(target)]
    return sorted(lines)


def test_the_sys_path_edit_check_finds_each_kind() -> None:
    source = "import sys\nsys.path.insert(0, 'a')\nsys.path[:0] = ['b']\nsys.path += ['c']\nprint(sys.path)\n"
    source += "def f(monkeypatch):\n    monkeypatch.syspath_prepend('d')\nx = [p for p in sys.path]\n"
    assert sys_path_edits(source) == [2, 3, 4, 7]


def test_no_test_edits_sys_path() -> None:
    tests = [
        path
        for path in spdx.source_files()
        if path.suffix == ".py" and path.parts[len(facts.REPO_ROOT.parts)] == "tests"
    ]
    assert len(tests) > 20
    edits = {str(path.relative_to(facts.REPO_ROOT)): sys_path_edits(path.read_text()) for path in tests}
    assert not {name: lines for name, lines in edits.items() if lines}, (
        "tools/ is on pytest's pythonpath (pyproject.toml)"
    )


def test_the_architecture_page_names_every_module_of_the_pipeline_and_the_harness() -> None:
    """docs/architecture.md is the map: a module it does not name is a room a newcomer cannot find."""
    page = (facts.REPO_ROOT / "docs" / "architecture.md").read_text()
    tools = facts.REPO_ROOT / "tools"
    modules = [path for folder in ("cuda_core_build", "gpu") for path in (tools / folder).rglob("*.py")]
    # A module by its name, a package by its folder's; the suites' plugin folders by theirs alone.
    names = {
        path.parent.name if path.stem == "__init__" or path.parent.name.endswith("_plugins") else path.stem
        for path in modules
    }
    assert {"probe", "record", "process", "numba_suite"} <= names
    assert not sorted(name for name in names if f"`{name}" not in page and f"{name}/" not in page)


def test_pyprojects_cuda_metadata_is_the_matrixs() -> None:
    """pyproject.toml's static cuda-bindings range spans the matrix's CUDA minors, and its extras are one per
    supported major, as the backend narrows them and merge_wheels writes them (merge_wheels.bindings_extra)."""
    project = tomllib.loads((facts.REPO_ROOT / "pyproject.toml").read_text())["project"]
    oldest, majors = facts.cuda_minors()[0], facts.supported_majors()
    assert f"cuda-bindings>={oldest},<{majors[-1] + 1}" in project["dependencies"]
    extras = {name: deps for name, deps in project["optional-dependencies"].items() if name != "test"}
    assert list(extras) == [f"cu{major}" for major in majors]
    for major in majors:
        declared = [line.split(": ", 1)[1].split(";")[0] for line in bindings_extra(major)[1:]]
        assert extras[f"cu{major}"] == declared


def test_the_conda_recipe_requires_what_pyproject_and_the_probe_name() -> None:
    """Issue 50: conda/recipe.yaml's host requirements are the build tools' ranges (conda's spelling) and
    conda-forge's packages of the headers the probe names; its run requirements pyproject.toml's dependencies,
    cuda-bindings of the recipe's major."""
    text = (facts.REPO_ROOT / "conda" / "recipe.yaml").read_text()
    sections = {
        name: re.findall(r"^    - (.+)$", body, re.M)
        for name, body in re.findall(r"^  (\w+):\n((?:    - .+\n)+)", text, re.M)
    }
    conda_ranges = [re.sub(r"^([\w.-]+)", r"\1 ", tool, count=1) for tool in facts.tool_ranges()]
    assert [r for r in sections["host"] if r.split()[0] in facts.BUILD_TOOLS] == conda_ranges
    assert set(probe.CONDA_PACKAGES.values()) <= set(sections["host"])
    assert "cuda-bindings ${{ cuda_major }}.*" in sections["host"]
    project = tomllib.loads((facts.REPO_ROOT / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=! ]", requirement)[0] for requirement in project["dependencies"]]
    assert [r.split()[0] for r in sections["run"] if r != "python"] == names
    assert re.search(r"^  cuda_major: (\d+)$", text, re.M).group(1) == str(facts.supported_majors()[-1])
