"""The project's facts about CUDA majors, headers and pins, each written once.

The supported majors are the majors that have a requirements file, ``requirements/cuNN.txt``:
it pins that major's cuda-bindings and NVIDIA's header wheels. ``requirements/build.txt``
pins the build tools. Everything else (the probe, the backend, the dev environments, the
tests) reads these files through this module.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS_DIR = REPO_ROOT / "requirements"

# The headers a build needs: cuda.h for the driver API, nvrtc.h for NVRTC, and
# cudaProfiler.h because cuda-bindings' cydriver.pxd includes it.
REQUIRED_HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h")

_MAJOR_FILE = re.compile(r"^cu(\d+)\.txt$")
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


@cache
def requirement_lines(name: str) -> tuple[str, ...]:
    """The requirement lines of requirements/<name>.txt, comments and blank lines dropped."""
    lines = (REQUIREMENTS_DIR / f"{name}.txt").read_text().splitlines()
    return tuple(stripped for line in lines if (stripped := line.split("#", 1)[0].strip()))


@cache
def supported_majors() -> tuple[int, ...]:
    """The CUDA majors this project builds for: one per requirements/cuNN.txt, ascending."""
    found = (_MAJOR_FILE.match(path.name) for path in REQUIREMENTS_DIR.iterdir())
    return tuple(sorted(int(match.group(1)) for match in found if match))


def pins(name: str) -> dict[str, str]:
    """Package name -> pinned version, for the ``NAME==VERSION`` lines of requirements/<name>.txt."""
    return {match.group(1).lower(): match.group(2)
            for line in requirement_lines(name) if (match := _PIN.match(line))}


def header_wheels(major: int) -> tuple[str, ...]:
    """The names of NVIDIA's header wheels that stand in for a CUDA ``major`` toolkit."""
    return tuple(name for name in pins(f"cu{major}") if name.startswith("nvidia-"))


def bindings_pin(major: int) -> str:
    """The exact cuda-bindings version pinned for ``major``, e.g. '13.0.3'."""
    return pins(f"cu{major}")["cuda-bindings"]
