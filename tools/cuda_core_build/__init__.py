# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What Meson, ninja, meson-python and Cython do not do for cuda-core's builds; docs/architecture.md maps the modules."""

import sys

if sys.version_info < (3, 10):  # noqa: UP036 (the point of it) the modules use 3.10's syntax: refuse in one line, before a TypeError would
    from cuda_core_build.facts import matrix

    _versions = matrix()["python"]["versions"].split()
    raise SystemExit(
        f"cuda-core: Python {sys.version_info[0]}.{sys.version_info[1]} is not supported: cuda-core builds for "
        f"CPython {_versions[0]} to {_versions[-1]}; install into an environment of one of those"
    )
