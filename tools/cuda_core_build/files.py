# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Files the build writes: atomically, so that a reader never sees half of one, and depfiles."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new file, never half of one.

    The temporary file has a unique name in the target's directory: concurrent writers of one
    path never share a temporary, and the last rename wins whole.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode() if isinstance(data, str) else data
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: str | bytes) -> bool:
    """Write ``data`` atomically unless ``path`` already holds exactly that; return whether it wrote.
    An unchanged file keeps its mtime, so ninja's restat sees nothing to rebuild after it."""
    payload = data.encode() if isinstance(data, str) else data
    try:
        if path.read_bytes() == payload:
            return False
    except OSError:
        pass
    write_atomically(path, payload)
    return True


def _depfile_escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def depfile_text(target: str, dependencies: list[str]) -> str:
    """A Makefile-style depfile, as ninja reads it."""
    return f"{_depfile_escape(target)}: " + " ".join(_depfile_escape(d) for d in dependencies) + "\n"
