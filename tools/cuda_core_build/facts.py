# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The project's facts about CUDA majors, headers, pins and the matrix, each written once.

requirements/matrix.ini holds the matrix: the Pythons, the build tool sets, each CUDA minor's
cuda-bindings and NVIDIA's header wheels, and the cells that combine them; the cell named
``cuNN`` is major NN's default. The supported majors are the majors that have such a cell.
requirements/test.txt and bench.txt pin the test and benchmark tools. Everything else (the
probe, the backend, the dev environments, the tests) reads them through this module.
"""

from __future__ import annotations

import configparser
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS_DIR = REPO_ROOT / "requirements"
MATRIX = REQUIREMENTS_DIR / "matrix.ini"

# The CUDA headers a build reads, each checked at configure. It compiles against cuda.h (the
# driver API), nvrtc.h (NVRTC) and cudaProfiler.h (cuda-bindings' cydriver.pxd includes it),
# and everything they include from the same directories (environment.header_closure); it reads
# driver_types.h as text, for the comments that explain cudaError_t (error_explanations.py).
COMPILED_HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h")
TEXT_HEADERS = ("driver_types.h",)
REQUIRED_HEADERS = COMPILED_HEADERS + TEXT_HEADERS


@dataclass(frozen=True)
class Cell:
    """One point of the matrix."""

    name: str
    python: str  # e.g. "3.11"
    cuda: str  # the CUDA minor, e.g. "13.0"
    tools: str  # the tool set, e.g. "newest"

    @property
    def major(self) -> int:
        return int(self.cuda.split(".")[0])


@cache
def matrix() -> configparser.ConfigParser:
    """requirements/matrix.ini, parsed (keys keep their case: they are package names)."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",), comment_prefixes=("#",))
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string(MATRIX.read_text(), source=str(MATRIX))
    return parser


def pythons() -> tuple[str, ...]:
    """The CPython versions of the matrix, e.g. ('3.10', '3.11', ...)."""
    return tuple(matrix()["python"]["versions"].split())


def cells() -> dict[str, Cell]:
    """Every cell of the matrix by name, in the file's order."""
    found = {}
    for section in matrix().sections():
        if section.startswith("cell."):
            values = matrix()[section]
            name = section.removeprefix("cell.")
            found[name] = Cell(name, values["python"], values["cuda"], values["tools"])
    return found


def suite_cells() -> tuple[str, ...]:
    """The cells whose package tests the README's test command runs."""
    return tuple(matrix()["suite"]["cells"].split())


def cuda_minors(major: int | None = None) -> tuple[str, ...]:
    """The CUDA minors of the matrix ('13.0', ...), of one major if given, ascending."""
    minors = [section.removeprefix("cuda-") for section in matrix().sections() if section.startswith("cuda-")]
    chosen = [m for m in minors if major is None or int(m.split(".")[0]) == major]
    return tuple(sorted(chosen, key=lambda m: tuple(map(int, m.split(".")))))


@cache
def supported_majors() -> tuple[int, ...]:
    """The CUDA majors this project builds for: each has a default cell, cuNN; ascending."""
    return tuple(sorted(int(name[2:]) for name in cells() if name.startswith("cu") and name[2:].isdigit()))


def default_cell(major: int) -> Cell:
    """The default cell of ``major``: its dev venv, and what isolated builds without a toolkit use."""
    return cells()[f"cu{major}"]


def cuda_pins(minor: str) -> dict[str, str]:
    """Package -> exact version, for the cuda-bindings and header wheels of a CUDA minor ('13.1')."""
    return dict(matrix()[f"cuda-{minor}"])


def tool_pins(tools: str = "newest") -> dict[str, str]:
    """Package -> exact version, for a tool set."""
    return dict(matrix()[f"tools.{tools}"])


def requirements(pinned: dict[str, str]) -> tuple[str, ...]:
    """``NAME==VERSION`` lines for pip."""
    return tuple(f"{name}=={version}" for name, version in pinned.items())


def test_requirements(name: str = "test") -> tuple[str, ...]:
    """The requirement lines of requirements/<name>.txt (test, bench), comments and blank lines dropped."""
    lines = (REQUIREMENTS_DIR / f"{name}.txt").read_text().splitlines()
    return tuple(stripped for line in lines if (stripped := line.split("#", 1)[0].strip()))


def cell_requirements(cell: Cell) -> tuple[str, ...]:
    """Everything a cell's venv installs from PyPI: its tools, its CUDA minor's packages, the test tools."""
    return (*requirements(tool_pins(cell.tools)), *requirements(cuda_pins(cell.cuda)), *test_requirements())


def header_wheels(major: int) -> tuple[str, ...]:
    """The names of NVIDIA's header wheels that stand in for a CUDA ``major`` toolkit."""
    return tuple(name for name in cuda_pins(default_cell(major).cuda) if name.startswith("nvidia-"))


def bindings_pin(major: int) -> str:
    """The exact cuda-bindings version of ``major``'s default cell, e.g. '13.0.3'."""
    return cuda_pins(default_cell(major).cuda)["cuda-bindings"]


def cython_pin() -> str:
    """The Cython of the newest tool set, for messages."""
    return {name.lower(): version for name, version in tool_pins().items()}["cython"]
