# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Readable explanations of CUDA error codes, taken from the enum members of cuda-bindings.

cuda-bindings documents each CUresult / cudaError_t member in its ``__doc__``, in the reST
of the CUDA headers' comments. ``clean_enum_member_docstring`` turns that into one plain
sentence-level paragraph for error messages. Some cuda-bindings releases carry no usable
member docs (13.0.x and 13.1.x, and 12.x before 12.9.6); for those the caller supplies a
fallback table, which this package generates at build time from the CUDA headers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

# `:role:` or `:domain:role:` around a backquoted target, e.g. :py:obj:`~.cuInit()`.
_ROLE = re.compile(r":(?:\w+:)?\w+:`(?P<target>[^`]*)`")
# The headers' generator sometimes drops the closing backquote and opening quote of a
# section title: :py:obj:`~.Interactions`with the CUDA Driver API" -> "Interactions with ...".
_BROKEN_QUOTED_ROLE = re.compile(r':(?:\w+:)?\w+:`~?\.?(?P<word>\w+)`(?P<rest>\w[^"`]*)"')
_BOLD = re.compile(r"\*\*(?P<text>[^*]+)\*\*")
_ITALIC = re.compile(r"\*(?P<text>[^*\s][^*]*)\*")
# A hyphen that line wrapping separated from one of its words: "non- linear", "word -word".
_WRAPPED_HYPHEN = re.compile(r"(?<=\w)- (?=\w)|(?<=\w) -(?=\w)")


def _binding_version() -> tuple[int, int, int]:
    """The installed cuda-bindings version, as (major, minor, patch)."""
    from cuda.core._utils.version import binding_version

    return binding_version()


def _binding_version_has_usable_enum_docstrings(version: tuple[int, int, int]) -> bool:
    """Whether cuda-bindings ``version`` documents its error enum members (12.9.6+ on the
    12 line, 13.2.0+ on the 13 line; 13.0 and 13.1 carry only the enum's own doc)."""
    return (12, 9, 6) <= tuple(version) < (13, 0, 0) or tuple(version) >= (13, 2, 0)


def _strip_role(match: re.Match) -> str:
    target = match.group("target")
    return target[2:] if target.startswith("~.") else target.lstrip("~")


def clean_enum_member_docstring(doc: str | None) -> str | None:
    """One plain-text paragraph from an enum member's reST ``__doc__`` (None stays None)."""
    if doc is None:
        return None
    text = _BROKEN_QUOTED_ROLE.sub(lambda m: f'"{m.group("word")} {m.group("rest").strip()}"', doc)
    text = _ROLE.sub(_strip_role, text)
    text = _BOLD.sub(lambda m: m.group("text"), text)
    text = _ITALIC.sub(lambda m: m.group("text"), text)
    text = " ".join(text.split())
    return _WRAPPED_HYPHEN.sub("-", text)


class DocstringBackedExplanations:
    """A read-only ``code -> explanation`` lookup over an error enum's member docs."""

    __slots__ = ("_enum_type",)

    def __init__(self, enum_type: Callable[[int], Any]) -> None:
        self._enum_type = enum_type

    def get(self, code: int, default: str | None = None) -> str | None:
        """The cleaned doc of ``enum_type(code)``, or ``default`` when there is none."""
        try:
            member = self._enum_type(code)
        except ValueError:
            return default
        text = clean_enum_member_docstring(getattr(member, "__doc__", None))
        return text if text else default


def get_best_available_explanations(
    enum_type: Callable[[int], Any],
    fallback: Mapping[int, Any] | Callable[[], Mapping[int, Any]],
) -> DocstringBackedExplanations | Mapping[int, Any]:
    """The enum's own member docs where this cuda-bindings has them, else ``fallback``
    (a mapping, or a function returning one, called only when needed)."""
    if _binding_version_has_usable_enum_docstrings(_binding_version()):
        return DocstringBackedExplanations(enum_type)
    return fallback() if callable(fallback) else fallback
