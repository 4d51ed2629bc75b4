# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What differs between the Python versions cuda.core supports: StrEnum (3.11+), with a
stand-in for 3.10. A leaf module, so that any cuda.core module can import it."""

from __future__ import annotations

import enum
import sys

__all__ = ["StrEnum"]

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # Python 3.10: the same idea, a str-valued Enum whose str() is its value.

    class StrEnum(str, enum.Enum):
        """An Enum whose members are strings."""

        def __str__(self) -> str:
            return str(self.value)
