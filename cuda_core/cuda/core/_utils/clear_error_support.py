# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Small checks that turn a wrong argument or an impossible state into a clear exception."""

from __future__ import annotations

from typing import NoReturn


def assert_type(obj: object, expected_type: type) -> None:
    """Raise TypeError unless ``obj`` is an instance of ``expected_type``."""
    if not isinstance(obj, expected_type):
        raise TypeError(f"Expected type {expected_type.__name__}, got {type(obj).__name__}")


def assert_type_str_or_bytes_like(obj: object) -> None:
    """Raise TypeError unless ``obj`` is text or bytes (str, bytes or bytearray)."""
    if not isinstance(obj, (str, bytes, bytearray)):
        raise TypeError(f"Expected type str or bytes or bytearray, got {type(obj).__name__}")


def raise_code_path_meant_to_be_unreachable() -> NoReturn:
    """Raise RuntimeError for a branch that the surrounding logic rules out: a bug if reached."""
    raise RuntimeError("This code path is meant to be unreachable: this is a bug in cuda.core, please report it")
