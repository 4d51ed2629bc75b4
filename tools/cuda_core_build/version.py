#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The version (README's "Versions"): ``python tools/cuda_core_build/version.py`` prints it for Meson's project()."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]
API_VERSION = "1.2.2"
OVERRIDE = "CUDA_CORE_VERSION"
DESCRIBED = re.compile(r"^v(\d+\.\d+\.\d+)(?:-(\d+)-g([0-9a-f]+))?$")
FIX = f"build from a git clone or an sdist, or set {OVERRIDE} (e.g. {OVERRIDE}={API_VERSION}+meson.0)"


class VersionError(Exception):
    """No version can be had; the message names the cause and the fix."""


def local_label(tag: str | None, distance: int, commit: str, dirty: bool = False) -> str:
    """The version at ``distance`` commits after tag ``tag`` (X.Y.Z, or None), at ``commit``."""
    position = [str(distance), f"g{commit}"] if distance or not tag else []
    return f"{API_VERSION}+{'.'.join(['meson', tag or '0', *position, *(['dirty'] if dirty else [])])}"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)


def from_git(root: Path) -> str:
    head, status = _git(root, "rev-parse", "--short=9", "HEAD"), _git(root, "status", "--porcelain", "-uno")
    if head.returncode or status.returncode:
        raise VersionError(f"git cannot read {root} ({(head.stderr or status.stderr).strip()}): {FIX}")
    described = DESCRIBED.match(_git(root, "describe", "--tags", "--long", "--match", "v[0-9]*").stdout.strip())
    tag, distance = described.group(1, 2) if described else (None, _git(root, "rev-list", "--count", "HEAD").stdout)
    return local_label(tag, int(distance), head.stdout.strip(), bool(status.stdout.strip()))


def version(root: Path = SOURCE_ROOT) -> str:
    """The version of ``root``: the override, git's, an sdist's PKG-INFO's, a git archive's .git_archival.txt's."""
    if os.environ.get(OVERRIDE, "").strip():
        return os.environ[OVERRIDE].strip()
    if (root / ".git").exists():
        return from_git(root)
    pkg_info = (root / "PKG-INFO").read_text(errors="replace") if (root / "PKG-INFO").is_file() else ""
    if found := re.search(r"^Version: (\S+)$", pkg_info, re.M):
        return found.group(1)
    text = (root / ".git_archival.txt").read_text() if (root / ".git_archival.txt").is_file() else ""
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    if not re.fullmatch(r"[0-9a-f]{40}", fields.get("node", "")):
        raise VersionError(f"{root} has no version: no .git, no PKG-INFO, no filled-in .git_archival.txt: {FIX}")
    described = DESCRIBED.match(fields.get("describe-name", "").strip())
    tag, distance, commit = described.groups() if described else (None, 0, None)
    return local_label(tag, int(distance or 0), commit or fields["node"][:9])


if __name__ == "__main__":
    try:
        print(version())
    except VersionError as err:
        sys.exit(f"cuda-core: {err}")
