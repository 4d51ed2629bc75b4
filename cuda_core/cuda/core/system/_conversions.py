# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Between NVML's values and cuda.core.system's: our string enumerations (cuda.core.system.typing)
and NVML's integer ones (the tables the topic modules of cuda.core.system._device build from
both, and the checks of what a caller passed, made before any NVML call)."""

from __future__ import annotations

import enum
from typing import Any

from cuda.core.system._nvml_support import nvml_member, require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

ENABLED = int(nvml_member(nvml.EnableState, "ENABLED"))


def by_name(ours: type[enum.Enum], theirs: Any, renames: dict[str, str] | None = None) -> dict:
    """{our member: NVML's member of the same (or renamed) name}, for the members NVML has:
    NVIDIA's cuda.core names ours after NVML's, so the names pair them."""
    renames = renames or {}
    mapping = {}
    for member in ours:
        value = nvml_member(theirs, renames.get(member.name, member.name), None)
        if value is not None:
            mapping[member] = value
    return mapping


def inverse(mapping: dict) -> dict:
    """{int(NVML value): our member}, for reading NVML's answers."""
    return {int(value): member for member, value in mapping.items()}


def as_member(enum_type: type[enum.Enum], value: Any, what: str) -> Any:
    """``value`` (a member or its string) as a member of ``enum_type``; TypeError or ValueError
    naming the accepted values otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a {enum_type.__name__} or its string value, got {type(value).__name__}")
    try:
        return enum_type(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in enum_type)
        raise ValueError(f"{what} must be one of {choices}; got {value!r}") from None


def to_nvml(mapping: dict, enum_type: type[enum.Enum], value: Any, what: str) -> int:
    """NVML's integer for ``value``, one of our ``enum_type``'s members or strings."""
    member = as_member(enum_type, value, what)
    if member not in mapping:
        raise ValueError(f"{what} {member.value!r} is not known to the installed NVML bindings")
    return int(mapping[member])
