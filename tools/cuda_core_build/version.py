#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The version (docs/building.md, "Versions"): ``python tools/cuda_core_build/version.py`` prints it for Meson's project().

One commit has one version however its tree arrives: a full clone, a ``--depth 1`` clone, a
``git archive``, an sdist or an sdist of an sdist. So the local label holds only what each of them
knows of the commit: its committer date (UTC, to the second: the PEP 440 order of the labels is
the order of the commits' dates), the release tag on the commit itself, if any, and its hash.
What only a full history knows (how many commits since a tag) is left out: a shallow clone and an
archive cannot tell it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]
API_VERSION = "1.2.2"
OVERRIDE = "CUDA_CORE_VERSION"
RELEASE_TAG = re.compile(r"^v(\d+\.\d+\.\d+)$")
HASH_LENGTH = 9
FIX = f"build from a git clone or an sdist, or set {OVERRIDE} (e.g. {OVERRIDE}={API_VERSION}+meson.0)"


class VersionError(Exception):
    """No version can be had; the message names the cause and the fix."""


def local_label(commit_time: int, tag: str | None, commit: str, dirty: bool = False) -> str:
    """The version of the commit ``commit`` made at ``commit_time`` (seconds since the epoch), on the
    release tag ``tag`` (X.Y.Z) or on none: ``1.2.2+meson.DATE.X.Y.Z`` or ``1.2.2+meson.DATE.gHASH``."""
    date = time.strftime("%Y%m%d%H%M%S", time.gmtime(commit_time))
    where = tag if tag else f"g{commit[:HASH_LENGTH]}"
    return f"{API_VERSION}+meson.{date}.{where}{'.dirty' if dirty else ''}"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git, reading only: ``git status`` would otherwise refresh .git/index (a read-only tree refuses it)."""
    return subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args], capture_output=True, text=True)


def from_git(root: Path) -> str:
    """The version of a clone's HEAD, of any depth (a shallow clone knows its HEAD's date and tags)."""
    head = _git(root, "log", "-1", "--format=%H %ct")
    status = _git(root, "status", "--porcelain", "-uno")
    if head.returncode or status.returncode or len(head.stdout.split()) != 2:
        raise VersionError(f"git cannot read {root} ({(head.stderr or status.stderr).strip()}): {FIX}")
    commit, commit_time = head.stdout.split()
    exact = _git(root, "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD").stdout.strip()
    tag = RELEASE_TAG.match(exact)
    return local_label(int(commit_time), tag and tag.group(1), commit, bool(status.stdout.strip()))


def from_archive(root: Path) -> str | None:
    """The version a ``git archive`` wrote into ``.git_archival.txt`` (export-subst), or None if it holds none."""
    text = (root / ".git_archival.txt").read_text() if (root / ".git_archival.txt").is_file() else ""
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    node, commit_time = fields.get("node", "").strip(), fields.get("commit-time", "").strip()
    if not (re.fullmatch(r"[0-9a-f]{40}", node) and commit_time.isdigit()):
        return None
    tag = RELEASE_TAG.match(fields.get("describe-name", "").strip())  # exactly a tag only on the tagged commit
    return local_label(int(commit_time), tag and tag.group(1), node)


def sdist_version(root: Path) -> str | None:
    """The version in the PKG-INFO of ``root``, an unpacked sdist, or None (a checkout has no PKG-INFO)."""
    pkg_info = (root / "PKG-INFO").read_text(errors="replace") if (root / "PKG-INFO").is_file() else ""
    found = re.search(r"^Version: (\S+)$", pkg_info, re.M)
    return found.group(1) if found else None


def unpacked_sdist(root: Path) -> str | None:
    """The version of ``root`` if it is an unpacked sdist outside git (Meson's dist cannot pack it), else None."""
    return None if (root / ".git").exists() else sdist_version(root)


def version(root: Path = SOURCE_ROOT) -> str:
    """The version of ``root``: the override, an sdist's PKG-INFO's, git's, a git archive's .git_archival.txt's."""
    if os.environ.get(OVERRIDE, "").strip():
        return os.environ[OVERRIDE].strip()
    if sdist := sdist_version(root):  # an sdist's own version, even where a packager keeps it in git
        return sdist
    if (root / ".git").exists():
        return from_git(root)
    archived = from_archive(root)
    if archived is None:
        raise VersionError(f"{root} has no version: no .git, no PKG-INFO, no filled-in .git_archival.txt: {FIX}")
    return archived


if __name__ == "__main__":
    try:
        print(version())
    except VersionError as err:
        sys.exit(f"cuda-core: {err}")
