#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The version, which Meson's project() takes from this script's output and no tool makes the same from a clone of
any depth, a ``git archive`` and an sdist: only what each knows of the commit (docs/building.md, "Versions")."""

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
FIX = f"build from a git clone or an sdist, or set {OVERRIDE} (e.g. {OVERRIDE}={API_VERSION}+meson.0)"


class VersionError(Exception):
    """No version can be had; the message names the cause and the fix."""


def local_label(commit_time: int, tag: str | None, commit: str, dirty: bool = False) -> str:
    """``1.2.2+meson.DATE.X.Y.Z`` on the release tag ``tag``, else ``1.2.2+meson.DATE.gHASH``: DATE is the commit's
    committer date (UTC, to the second), so the PEP 440 order of the labels is that of the commits' dates."""
    date = time.strftime("%Y%m%d%H%M%S", time.gmtime(commit_time))
    return f"{API_VERSION}+meson.{date}.{tag or f'g{commit[:9]}'}{'.dirty' if dirty else ''}"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git, reading only: ``git status`` would otherwise refresh .git/index (a read-only tree refuses it)."""
    return subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args], capture_output=True, text=True)


def from_git(root: Path) -> str:
    """The version of a clone's HEAD, of any depth (a shallow clone knows its HEAD's date and tags)."""
    head, status = _git(root, "log", "-1", "--format=%H %ct"), _git(root, "status", "--porcelain", "-uno")
    if head.returncode or status.returncode or len(head.stdout.split()) != 2:
        raise VersionError(f"git cannot read {root} ({(head.stderr or status.stderr).strip()}): {FIX}")
    commit, commit_time = head.stdout.split()
    exact = _git(root, "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD").stdout.strip()
    tag = RELEASE_TAG.match(exact)
    return local_label(int(commit_time), tag and tag.group(1), commit, bool(status.stdout.strip()))


def from_archive(root: Path) -> str | None:
    """The version a ``git archive`` wrote into ``.git_archival.txt`` (export-subst), or None if it holds none."""
    text = (root / ".git_archival.txt").read_text() if (root / ".git_archival.txt").is_file() else ""
    fields = {k: v.strip() for k, v in (line.split(": ", 1) for line in text.splitlines() if ": " in line)}
    node, commit_time = fields.get("node", ""), fields.get("commit-time", "")
    if not (re.fullmatch(r"[0-9a-f]{40}", node) and commit_time.isdigit()):
        return None
    tag = RELEASE_TAG.match(fields.get("describe-name", ""))  # exactly a tag only on the tagged commit
    return local_label(int(commit_time), tag and tag.group(1), node)


def sdist_version(root: Path) -> str | None:
    """The version in the PKG-INFO of ``root``, an unpacked sdist, or None (a checkout has no PKG-INFO)."""
    pkg_info = (root / "PKG-INFO").read_text(errors="replace") if (root / "PKG-INFO").is_file() else ""
    return found.group(1) if (found := re.search(r"^Version: (\S+)$", pkg_info, re.M)) else None


def unpacked_sdist(root: Path) -> str | None:
    """The version of ``root`` if it is an unpacked sdist outside git (Meson's dist cannot pack it), else None."""
    return None if (root / ".git").exists() else sdist_version(root)


def version(root: Path = SOURCE_ROOT) -> str:
    """The version of ``root``: the override, an sdist's PKG-INFO's (even where a packager keeps it in git), git's,
    a git archive's .git_archival.txt's."""
    if os.environ.get(OVERRIDE, "").strip():
        return os.environ[OVERRIDE].strip()
    if found := sdist_version(root) or (from_git(root) if (root / ".git").exists() else from_archive(root)):
        return found
    raise VersionError(f"{root} has no version: no .git, no PKG-INFO, no filled-in .git_archival.txt: {FIX}")


if __name__ == "__main__":
    try:
        print(version())
    except VersionError as err:
        sys.exit(f"cuda-core: {err}")
