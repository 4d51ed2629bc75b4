# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Where cuda.core keeps its on-disk caches: one per-user root, each cache a leaf below it."""

from __future__ import annotations

import os
from pathlib import Path

# A flag rather than a read of os.name at each call, so that tests can take either branch on
# any machine (pathlib itself reads os.name, so patching that breaks Path).
_IS_WINDOWS = os.name == "nt"

_VENDOR_LEAF = "cuda-python"


def _default_cache_dir(windows: bool | None = None) -> Path:
    """The per-user cache root of cuda-python, below which each cache adds its own leaf.

    Linux: ``$XDG_CACHE_HOME/cuda-python``, ``~/.cache/cuda-python`` when that is unset
    (the XDG base-directory convention). Windows: ``%LOCALAPPDATA%\\cuda-python``, else
    ``~/AppData/Local/cuda-python`` (local, not roaming: a cache need not follow the user).
    ``windows`` picks the branch; None means this machine's.
    """
    if windows is None:
        windows = _IS_WINDOWS
    variable, fallback = ("LOCALAPPDATA", ("AppData", "Local")) if windows else ("XDG_CACHE_HOME", (".cache",))
    configured = os.environ.get(variable)
    base = Path(configured) if configured else Path.home().joinpath(*fallback)
    return base / _VENDOR_LEAF
