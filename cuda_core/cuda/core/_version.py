# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core's version where NVIDIA's cuda.core keeps it: ``cuda.core._version.__version__``
(and ``version``, ``version_tuple``). The value is the build's (cuda.core._build_info)."""

from cuda.core._build_info import version

__version__ = version
# As setuptools-scm gives it: '1.2.4.dev3+g1a2b3c4d5' -> (1, 2, 4, 'dev3', 'g1a2b3c4d5').
__version_tuple__ = version_tuple = tuple(
    int(part) if part.isdigit() else part for part in version.replace("+", ".").split(".")
)

__all__ = ["__version__", "__version_tuple__", "version", "version_tuple"]
