# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The version (tools/cuda_core_build/version.py): NVIDIA's API version, and this project's git position
as its local label; from PKG-INFO in an unpacked sdist, from .git_archival.txt in a `git archive`, or
from CUDA_CORE_VERSION. A wheel built from a tagged sdist is tested in test_wheels.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from builds import GIT, REPO_ROOT, SessionBuilds, Venv, build_info, meson_setup, ninja, run
from cuda_core_build.version import API_VERSION as API
from packaging.version import Version

VERSION = REPO_ROOT / "tools" / "cuda_core_build" / "version.py"


def version_of(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """version.py run on a copy of itself inside ``root``, as a checkout, an sdist or an archive holds it."""
    script = root / "tools" / "cuda_core_build" / "version.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(VERSION.read_text())
    environ = {k: v for k, v in os.environ.items() if k != "CUDA_CORE_VERSION"}
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env={**environ, **env})


def git(root: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


def commit(root: Path, name: str) -> str:
    (root / name).write_text(name)
    git(root, "add", name)
    git(root, "commit", "-q", "-m", name)
    return git(root, "rev-parse", "--short=9", "HEAD")


def label(root: Path, ref: str = "HEAD") -> str:
    """The ``DATE.`` part of the local label of commit ``ref``: its committer date in UTC."""
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(int(git(root, "log", "-1", "--format=%ct", ref)))) + "."


def test_untagged_tagged_after_a_tag_and_dirty(tmp_path: Path) -> None:
    """NVIDIA's API version, then the commit's date and its release tag or hash as the local label."""
    git(tmp_path, "init", "-q")
    version_of(tmp_path)  # the script itself, committed below with the first file
    git(tmp_path, "add", "tools")
    first = commit(tmp_path, "a")
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.{label(tmp_path)}g{first}"
    git(tmp_path, "tag", "v1.4.0")
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.{label(tmp_path)}1.4.0"
    commit(tmp_path, "b")
    third = commit(tmp_path, "c")
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.{label(tmp_path)}g{third}"
    (tmp_path / "a").write_text("changed")
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.{label(tmp_path)}g{third}.dirty"
    git(tmp_path, "tag", "not-a-release")  # only vX.Y.Z tags count
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.{label(tmp_path)}g{third}.dirty"


def test_the_version_writes_nothing_in_the_tree(tmp_path: Path) -> None:
    """Issue 50: reading the version leaves .git/index as it was, even when its stat data is stale (git
    status refreshes it unless --no-optional-locks): a build writes nothing in the source tree."""
    git(tmp_path, "init", "-q")
    version_of(tmp_path)
    git(tmp_path, "add", "tools")
    commit(tmp_path, "a")
    os.utime(tmp_path / "a", (1, 1))  # the index's stat data of "a" is stale now
    index = (tmp_path / ".git" / "index").read_bytes()
    assert version_of(tmp_path).returncode == 0
    assert (tmp_path / ".git" / "index").read_bytes() == index


def test_an_sdist_says_its_pkg_info_version(tmp_path: Path) -> None:
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: cuda-core\nVersion: 3.0.2+meson.4\n")
    assert version_of(tmp_path).stdout.strip() == "3.0.2+meson.4"


def test_a_git_archive_says_the_commit_and_tag_export_subst_filled_in(tmp_path: Path) -> None:
    """`git archive` of a checkout fills in .git_archival.txt (export-subst, .gitattributes): the tree
    it makes has no .git, and tells its version from that file."""
    git(tmp_path, "init", "-q")
    for name in (".git_archival.txt", ".gitattributes"):
        (tmp_path / name).write_text((REPO_ROOT / name).read_text())
    version_of(tmp_path)
    git(tmp_path, "add", "-A")
    first = commit(tmp_path, "a")
    unpacked = tmp_path / "unpacked"
    unpacked.mkdir()
    archive = subprocess.run([*GIT, "archive", "HEAD"], cwd=tmp_path, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x"], cwd=unpacked, input=archive, check=True)
    assert version_of(unpacked).stdout.strip() == f"{API}+meson.{label(tmp_path)}g{first}"
    git(tmp_path, "tag", "v2.0.1")
    subprocess.run(
        ["tar", "-x"],
        cwd=unpacked,
        input=subprocess.run([*GIT, "archive", "HEAD"], cwd=tmp_path, capture_output=True, check=True).stdout,
        check=True,
    )
    assert version_of(unpacked).stdout.strip() == f"{API}+meson.{label(tmp_path)}2.0.1"


def test_the_override_wins_everywhere(tmp_path: Path) -> None:
    assert version_of(tmp_path, CUDA_CORE_VERSION="1.2.2+distro.3").stdout.strip() == "1.2.2+distro.3"


def test_no_version_is_one_line_naming_the_override(tmp_path: Path) -> None:
    (tmp_path / ".git_archival.txt").write_text((REPO_ROOT / ".git_archival.txt").read_text())  # not filled in
    result = version_of(tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert re.fullmatch(
        r"cuda-core: .* has no version: no \.git, no PKG-INFO, no filled-in \.git_archival\.txt: build from a "
        r"git clone or an sdist, or set CUDA_CORE_VERSION \(e\.g\. CUDA_CORE_VERSION=1\.2\.2\+meson\.0\)\n",
        result.stderr,
    )


def test_a_git_archive_of_the_checkout_configures_with_its_version(builds: SessionBuilds, tmp_path: Path) -> None:
    """`git archive HEAD | tar -x`, as distributions build: the build info says the archive's version."""
    venv = builds.venvs[13]
    archive = subprocess.run([*GIT, "archive", "HEAD"], cwd=builds.checkout, capture_output=True, check=True).stdout
    tree = tmp_path / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x"], cwd=tree, input=archive, check=True)
    head = git(builds.checkout, "rev-parse", "--short=9", "HEAD")
    meson_setup(venv, tree, tmp_path / "build")
    ninja(venv, tmp_path / "build", "cuda_core/cuda/core/_build_info.py")
    assert build_info(tmp_path / "build")["version"] == f"{API}+meson.{label(builds.checkout)}g{head}"


def test_pip_shows_why_a_tree_has_no_version(builds: SessionBuilds, tmp_path: Path) -> None:
    """A copy with no .git, no PKG-INFO and an archival file nobody filled in: pip's own output gives the
    cause and the override, and nothing is built."""
    tree = tmp_path / "tree"
    shutil.copytree(builds.checkout, tree, ignore=shutil.ignore_patterns(".git", "build*"))
    venv = builds.venvs[13]
    command = [venv.python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", tmp_path / "out", tree]
    result = run(command, venv.env(), tmp_path, check=False)
    assert result.returncode != 0 and not (tree / "build").exists()
    assert "has no version: no .git, no PKG-INFO" in result.stdout + result.stderr
    assert "set CUDA_CORE_VERSION" in result.stdout + result.stderr


def tree_version(root: Path) -> str:
    """What version.py, as ``root`` holds it, says for ``root`` (no override)."""
    environ = {k: v for k, v in os.environ.items() if k != "CUDA_CORE_VERSION"}
    script = root / "tools" / "cuda_core_build" / "version.py"
    return subprocess.run(
        [sys.executable, script], capture_output=True, text=True, env=environ, check=True
    ).stdout.strip()


def sdist_of(venv: Venv, tree: Path, out: Path) -> tuple[Path, Path]:
    """``python -m build --sdist`` of ``tree`` (no isolation: the venv's tools), the sdist and its unpacked tree."""
    run([venv.python, "-m", "build", "--sdist", "--no-isolation", "--outdir", out, tree], venv.env(), tree)
    sdist = next(out.glob("cuda_core-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        archive.extractall(out, filter="data")
    return sdist, out / sdist.name.removesuffix(".tar.gz")


def test_one_commit_one_version_however_the_tree_arrives(make_checkout, venvs: dict[int, Venv], tmp_path: Path) -> None:
    """Two commits past a release tag: the full clone, a --depth 1 clone, a git archive, the sdist and
    an sdist of that sdist all say one version, and a later commit's sorts above it (PEP 440)."""
    checkout = make_checkout("one-version")
    git(checkout, "tag", "v1.0.0")
    for name in ("one", "two"):
        git(checkout, "commit", "-q", "--allow-empty", "-m", name)
    full = tree_version(checkout)
    assert full == f"{API}+meson.{label(checkout)}g{git(checkout, 'rev-parse', 'HEAD')[:9]}"
    shallow = tmp_path / "shallow"
    subprocess.run([*GIT, "clone", "-q", "--depth", "1", f"file://{checkout}", shallow], check=True)
    archived = tmp_path / "archived"
    archived.mkdir()
    archive = subprocess.run([*GIT, "archive", "HEAD"], cwd=checkout, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x"], cwd=archived, input=archive, check=True)
    sdist, unpacked = sdist_of(venvs[13], checkout, tmp_path / "sdist")
    resdist, reunpacked = sdist_of(venvs[13], unpacked, tmp_path / "sdist-of-sdist")
    found = {
        "--depth 1 clone": tree_version(shallow),
        "git archive": tree_version(archived),
        "sdist": tree_version(unpacked),
        "sdist of the sdist": tree_version(reunpacked),
        "sdist's name": sdist.name.removeprefix("cuda_core-").removesuffix(".tar.gz"),
        "its sdist's name": resdist.name.removeprefix("cuda_core-").removesuffix(".tar.gz"),
    }
    assert found == dict.fromkeys(found, full)
    assert sorted(p.relative_to(reunpacked) for p in reunpacked.rglob("*")) == sorted(
        p.relative_to(unpacked) for p in unpacked.rglob("*")
    )
    time.sleep(1.1)  # a commit one second later
    git(checkout, "commit", "-q", "--allow-empty", "-m", "three")
    assert Version(tree_version(checkout)) > Version(full)
    git(checkout, "tag", "v1.1.0")
    assert Version(tree_version(checkout)) == Version(f"{API}+meson.{label(checkout)}1.1.0") > Version(full)


def test_an_sdist_kept_in_git_says_its_own_version(tmp_path: Path) -> None:
    """An unpacked sdist committed to a packager's git repository, with a patch on top: its version
    is its PKG-INFO's, neither the packager's commit nor `.dirty` (issue 41: a clean sdist labelled dirty)."""
    (tmp_path / "PKG-INFO").write_text(
        f"Metadata-Version: 2.1\nName: cuda-core\nVersion: {API}+meson.20261201000000.1.3.0\n"
    )
    version_of(tmp_path)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    commit(tmp_path, "packaging")
    (tmp_path / "packaging").write_text("a local patch")
    assert version_of(tmp_path).stdout.strip() == f"{API}+meson.20261201000000.1.3.0"
