# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""``CUDA_VERSION`` as the compiler reads it from cuda.h.

The C++ preprocessor is asked (``c++ -E -dM``, or ``$CXX``), so comments, ``#if 0``,
``#undef`` and redefinitions, and octal or hex literals mean what they mean to g++.
Where no compiler runs, a tolerant reader of the header follows the same rules for the
forms cuda.h uses: comments, ``#if 0`` blocks, ``#define``/``#undef`` in order, C
integer literals.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

_DEFINE = re.compile(r"^\s*#\s*define\s+CUDA_VERSION\s+(.*?)\s*$")
_UNDEF = re.compile(r"^\s*#\s*undef\s+CUDA_VERSION\b")
_IF = re.compile(r"^\s*#\s*if(n?def)?\b(.*)$")
_ENDIF = re.compile(r"^\s*#\s*endif\b")
_ELSE = re.compile(r"^\s*#\s*(else|elif)\b")
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_LITERAL = re.compile(r"^\(?\s*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\s*\)?$")


class UnreadableVersion(ValueError):
    """cuda.h defines no CUDA_VERSION, or one that is not an integer literal."""


def parse_literal(text: str) -> int:
    """A C integer literal as the compiler reads it: 0x.. hex, a leading 0 octal, else decimal."""
    match = _LITERAL.match(text.strip())
    if match is None:
        raise UnreadableVersion(f"CUDA_VERSION is {text.strip()!r}, not an integer literal")
    literal = match.group(1)
    if literal[:2] in ("0x", "0X"):
        return int(literal, 16)
    if literal.startswith("0") and len(literal) > 1:
        return int(literal, 8)
    return int(literal)


def from_preprocessor(cuda_h: Path) -> int | None:
    """The value the C++ preprocessor gives CUDA_VERSION after including cuda.h; None when no
    compiler could be run or it could not preprocess the header."""
    compiler = shlex.split(os.environ.get("CXX", "")) or ["c++"]
    command = [*compiler, "-E", "-dM", "-x", "c++", "-I", str(cuda_h.parent), "-"]
    try:
        result = subprocess.run(
            command, input=f'#include "{cuda_h.name}"\n', capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    for line in result.stdout.splitlines():
        match = _DEFINE.match(line)
        if match:
            return parse_literal(match.group(1))
    raise UnreadableVersion("the preprocessor sees no CUDA_VERSION after including it")


def from_text(text: str) -> int:
    """CUDA_VERSION as the header's text defines it, read the way the preprocessor would."""
    value: str | None = None
    # One entry per open #if: whether its current branch counts. Only the first branch of an
    # "#if 0" is off; any other condition is taken as possibly true (both branches count).
    active: list[bool] = []
    for line in _COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines():
        if (match := _IF.match(line)) is not None:
            active.append(not (match.group(1) is None and match.group(2).strip() in ("0", "(0)")))
        elif _ENDIF.match(line):
            if active:
                active.pop()
        elif _ELSE.match(line):
            if active:
                active[-1] = True
        elif all(active):
            if (match := _DEFINE.match(line)) is not None:
                value = match.group(1)
            elif _UNDEF.match(line):
                value = None
    if value is None:
        raise UnreadableVersion("it defines no CUDA_VERSION")
    return parse_literal(value)


def read(cuda_h: Path) -> int:
    """CUDA_VERSION of ``cuda_h``, from the preprocessor where one runs, else from its text."""
    found = from_preprocessor(cuda_h)
    return found if found is not None else from_text(cuda_h.read_text(errors="replace"))
