# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The version comes from git (tools/cuda_core_build/version.py), the way setuptools-scm says it,
and from PKG-INFO in an unpacked sdist; a wheel built from a tagged sdist is tested in
test_wheels.py."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from builds import GIT, REPO_ROOT

VERSION = REPO_ROOT / "tools" / "cuda_core_build" / "version.py"


def version_of(root: Path) -> subprocess.CompletedProcess[str]:
    """version.py run on a copy of itself inside ``root``, as a checkout or an sdist holds it."""
    script = root / "tools" / "cuda_core_build" / "version.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(VERSION.read_text())
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True)


def git(root: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


def commit(root: Path, name: str) -> str:
    (root / name).write_text(name)
    git(root, "add", name)
    git(root, "commit", "-q", "-m", name)
    return git(root, "rev-parse", "--short=9", "HEAD")


def test_untagged_tagged_after_a_tag_and_dirty(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    version_of(tmp_path)  # the script itself, committed below with the first file
    git(tmp_path, "add", "tools")
    first = commit(tmp_path, "a")
    assert version_of(tmp_path).stdout.strip() == f"0.1.dev1+g{first}"
    git(tmp_path, "tag", "v1.4.0")
    assert version_of(tmp_path).stdout.strip() == "1.4.0"
    second = commit(tmp_path, "b")
    third = commit(tmp_path, "c")
    assert third != second and version_of(tmp_path).stdout.strip() == f"1.4.1.dev2+g{third}"
    (tmp_path / "a").write_text("changed")
    assert version_of(tmp_path).stdout.strip() == f"1.4.1.dev2+g{third}.dirty"
    git(tmp_path, "tag", "not-a-release")  # only vX.Y.Z tags count
    assert version_of(tmp_path).stdout.strip().startswith("1.4.1.dev2+g")


def test_an_sdist_says_its_pkg_info_version(tmp_path: Path) -> None:
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: cuda-core\nVersion: 3.0.2.dev4+gabc\n")
    assert version_of(tmp_path).stdout.strip() == "3.0.2.dev4+gabc"


def test_neither_a_checkout_nor_an_sdist_is_one_line(tmp_path: Path) -> None:
    result = version_of(tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert re.fullmatch(
        r"version: error: .* is neither a git checkout nor an unpacked sdist \(no \.git, no "
        r"PKG-INFO\): build from a clone of the repository or from its sdist\n",
        result.stderr,
    )
