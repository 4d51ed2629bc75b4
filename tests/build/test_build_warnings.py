# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A build of either major prints no warning from our sources: Cython's nor the C++ compiler's.

The session's round trip keeps what meson and ninja printed for each leg (Leg.output); the
first leg of each major is its full build. A line with ``warning:`` (any case) is ours when
the place it names is a file of the checkout, or a file the build generates from one (the
modules' C++ in the build dir), or when it names no file at all (a tool warning about the
flags or options we pass). It is not ours when the place lies outside the checkout: the CUDA
headers and cuda-bindings' .pxd files, which the build reads from its cuda-config/
copies, system headers, and Cython's shared utility module (_cyutility), Cython's own code.

Cython's ``performance hint:`` lines are not warnings and do not fail this test: they point
at code that costs speed (a cdef function whose exception check needs the GIL, ...), where
the slower form is often what the code means; they are printed with the leg's output when
the test fails for another reason, and a build prints none today.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

import pytest
from builds import MAJORS, SessionBuilds

# A place in a compiler's message: PATH:LINE: or PATH:LINE:COLUMN:, the path without spaces.
_PLACE = re.compile(r"(?P<path>[^\s:'\"]+):\d+(?::\d+)?:")
_NOT_OURS = {"cuda-config"}  # the build dir's copies of the CUDA headers and cuda-bindings' .pxd files


def place_of(line: str) -> str | None:
    """The file a warning line names (the first PATH:LINE: in it), or None."""
    match = _PLACE.search(line)
    return match["path"] if match else None


def is_ours(path: str, checkout: Path) -> bool:
    """Whether ``path`` (absolute, or relative to the build dir) is a file of the checkout or
    one the build generates from one, other than Cython's shared utility module."""
    place = PurePosixPath(path)
    if place.is_absolute():
        roots = {PurePosixPath(checkout), PurePosixPath(os.path.realpath(checkout))}
        inside = [place.relative_to(root) for root in roots if place.is_relative_to(root)]
        if not inside:
            return False  # system headers, site-packages
        place = inside[0]
    parts = [part for part in place.parts if part != ".."]  # a source seen from the build dir
    if not parts or set(parts) & _NOT_OURS:
        return False
    return not place.name.startswith("_cyutility")


def our_warnings(output: str, checkout: Path) -> list[str]:
    """The lines of ``output`` that warn about our sources (or, naming no file, our flags)."""
    found = []
    for line in output.splitlines():
        if "warning:" not in line.lower():
            continue
        path = place_of(line)
        if path is None or is_ours(path, checkout):
            found.append(line.strip())
    return found


CHECKOUT = Path("/tmp/checkout")
SAMPLES = [  # the four warnings this test was written against, and what is not ours
    (
        "warning: /tmp/checkout/cuda_core/cuda/core/_device.pyx:366:76: Unknown type declaration 'property' in "
        "annotation, ignoring",
        True,
    ),
    (
        "warning: /tmp/checkout/cuda_core/cuda/core/graph/_subclasses.pyx:168:25: Assigning to 'void *' from "
        "'const void *' discards const qualifier",
        True,
    ),
    (
        "cuda_core/cuda/core/_memory/_ipc.cpython-311-x86_64-linux-gnu.so.p/_ipc.pyx.cpp:11111:26: warning: "
        "comparison of integer expressions of different signedness: 'Py_ssize_t' and 'long unsigned int' "
        "[-Wsign-compare]",
        True,
    ),
    ("../cuda_core/cuda/core/_cpp/uuid_format.hpp:3:1: warning: unused variable 'x' [-Wunused-variable]", True),
    ("cc1plus: warning: command-line option '-Wfoo' is valid for C but not for C++", True),
    ("../meson.build:12: WARNING: Project uses a feature deprecated since 1.1", True),
    ("cuda-config/cuda.h:100:5: warning: 'x' is deprecated [-Wdeprecated-declarations]", False),
    ("warning: /tmp/checkout/build-cu13/cuda-config/bindings/cuda/bindings/cydriver.pxd:7:0: redeclared", False),
    ("/usr/include/c++/12/bits/stl_vector.h:1:2: warning: something", False),
    ("cuda_core/cuda/core/_cyutility.cpp:10:2: warning: unused function", False),
    (
        "performance hint: /tmp/checkout/cuda_core/cuda/core/_stream.pyx:12:5: Exception check will always "
        "require the GIL",
        False,
    ),
    ("[12/124] Compiling C++ object cuda_core/cuda/core/_memory/_ipc.so.p/_ipc.pyx.cpp.o", False),
]


@pytest.mark.parametrize("line, ours", SAMPLES)
def test_the_filter_knows_our_warnings(line: str, ours: bool) -> None:
    assert our_warnings(line, CHECKOUT) == ([line] if ours else [])


@pytest.mark.parametrize("major", MAJORS)
def test_a_full_build_prints_no_warning_of_ours(builds: SessionBuilds, major: int) -> None:
    leg = next(leg for leg in builds.round_trip() if leg.major == major)  # the major's first, full build
    found = our_warnings(leg.output, builds.checkout)
    hints = [line.strip() for line in leg.output.splitlines() if "performance hint:" in line]
    assert not found, (
        f"the cu{major} build warns about our sources ({len(found)}):\n"
        + "\n".join(found)
        + (f"\n(and {len(hints)} performance hints:\n" + "\n".join(hints) + ")" if hints else "")
    )
