#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The project's version, from git: ``python tools/cuda_core_build/version.py`` prints it.

Meson's ``project()`` takes it at configure time; cuda.core's ``__version__``, the wheel's
metadata and ``python -m cuda.core`` all read that one value. The scheme is
setuptools-scm's, which packagers know:

- on a tag ``vX.Y.Z``, with a clean tree: ``X.Y.Z``;
- N commits after it: ``X.Y.(Z+1).devN+gHASH``;
- with no tag at all: ``0.1.devN+gHASH``, N counting every commit;
- with uncommitted changes: the local part gains ``.dirty``.

An sdist has no ``.git``: there the version is the one meson-python wrote into its
``PKG-INFO``, so a wheel built from the sdist, offline, has the sdist's version. This
project's versions are its own; they never claim NVIDIA's cuda.core version numbers.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]
TAG = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")


class VersionError(Exception):
    """No version can be derived; the message names the cause and the fix."""


def _git(*args: str, root: Path) -> str:
    result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise VersionError(f"git {' '.join(args)} failed in {root}: {result.stderr.strip()}")
    return result.stdout.strip()


def from_git(root: Path = SOURCE_ROOT) -> str:
    """The version of the checkout at ``root``, by the scheme above."""
    commit = _git("rev-parse", "--short=9", "HEAD", root=root)
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", root=root))
    described = subprocess.run(
        ["git", "-C", str(root), "describe", "--tags", "--long", "--match", "v[0-9]*"], capture_output=True, text=True
    )
    match = re.match(r"^(v\d+\.\d+\.\d+)-(\d+)-g[0-9a-f]+$", described.stdout.strip())
    if described.returncode != 0 or match is None:
        base, distance = "0.1", int(_git("rev-list", "--count", "HEAD", root=root))
        public = f"{base}.dev{distance}"
    else:
        major, minor, patch = (int(part) for part in TAG.match(match.group(1)).groups())  # type: ignore[union-attr]
        distance = int(match.group(2))
        public = f"{major}.{minor}.{patch}" if distance == 0 else f"{major}.{minor}.{patch + 1}.dev{distance}"
    local = ([f"g{commit}"] if distance else []) + (["dirty"] if dirty else [])
    return public + ("+" + ".".join(local) if local else "")


def from_pkg_info(root: Path = SOURCE_ROOT) -> str | None:
    """The version an sdist's PKG-INFO records, if ``root`` is an unpacked sdist."""
    pkg_info = root / "PKG-INFO"
    if not pkg_info.is_file():
        return None
    found = re.search(r"^Version: (\S+)$", pkg_info.read_text(errors="replace"), re.MULTILINE)
    return found.group(1) if found else None


def version(root: Path = SOURCE_ROOT) -> str:
    """The version of the source tree at ``root``: its git checkout's, else its sdist's."""
    if (root / ".git").exists():
        return from_git(root)
    recorded = from_pkg_info(root)
    if recorded is None:
        raise VersionError(
            f"{root} is neither a git checkout nor an unpacked sdist (no .git, no PKG-INFO): "
            "build from a clone of the repository or from its sdist"
        )
    return recorded


def main() -> int:
    try:
        print(version())
    except VersionError as err:
        print(f"version: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
