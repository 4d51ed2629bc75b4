# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Nothing of the user's is ever deleted by tools/dev/devenv.py (issue 41, D1).

devenv installs only into a venv it made and marked (``.devenv-made``). A directory at
``.venvs/CELL`` that it did not make, or a venv of another Python, is left exactly as it is, with
one line naming the command that moves it aside; a venv of its own whose pins went stale is
brought up to date in place, keeping a file or a package the user added.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import devenv
import pytest
from builds import MAJORS, venv_for

CELL = devenv.default_cell(MAJORS[-1]).name


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and directory under ``root``: (size, mtime)."""
    return {str(path.relative_to(root)): (path.lstat().st_size, path.lstat().st_mtime_ns) for path in root.rglob("*")}


def refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], root: Path) -> str:
    """``devenv.py CELL`` run with ``root`` as .venvs/: its exit status must be 1; its stderr."""
    monkeypatch.setattr(devenv, "VENVS_DIR", root)
    assert devenv.main([CELL]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1, captured.err
    return captured.err


def test_a_venv_devenv_did_not_make_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's own venv at .venvs/cu13, a file kept in it: refused in one line, not a byte changed."""
    target = tmp_path / "venvs" / CELL
    subprocess.run([devenv.find_python(devenv.cells()[CELL].python), "-m", "venv", "--without-pip", target], check=True)
    (target / "notes.txt").write_text("mine\n")
    before = tree_state(target)
    err = refused(monkeypatch, capsys, tmp_path / "venvs")
    assert tree_state(target) == before
    assert err == (
        f"devenv: {target} exists and was not made by devenv (it has no .devenv-made), so devenv leaves it as it "
        f"is: to keep it and make the cell's venv, run `mv {target} {target}.old && python3 tools/dev/devenv.py "
        f"{CELL}`\n"
    )


def test_a_devenv_venv_of_another_python_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Marked as devenv's, but of another interpreter (here the system's): it cannot be updated in
    place, so it is left as it is, and the line names both Pythons and the command."""
    python = devenv.find_python(devenv.cells()[CELL].python)
    other = Path("/usr/bin/python3")
    versions = [subprocess.run([p, "-c", "import sys; print(sys.version)"], capture_output=True, text=True).stdout
                for p in (python, other)]  # fmt: skip
    if not other.is_file() or versions[0] == versions[1]:
        pytest.skip("no second Python 3 on this machine")
    target = tmp_path / "venvs" / CELL
    subprocess.run([other, "-m", "venv", "--without-pip", target], check=True)
    (target / devenv.MARKER_NAME).write_text(devenv.MARKER_TEXT)
    (target / "notes.txt").write_text("mine\n")
    before = tree_state(target)
    err = refused(monkeypatch, capsys, tmp_path / "venvs")
    assert tree_state(target) == before
    assert f"holds {versions[1].split()[0]}, not the cell's {versions[0].split()[0]}" in err
    assert f"`mv {target} {target}.old && python3 tools/dev/devenv.py {CELL}`" in err


@pytest.mark.network
def test_a_stale_devenv_venv_is_updated_in_place_keeping_what_was_added(tmp_path: Path) -> None:
    """A pin change (here: the stamp of other pins, and a pinned tool gone) updates the venv in
    place: the pinned tool is back, the stamp is current, the user's file and package are still there."""
    venv_for(MAJORS[-1])  # the runners' venv, so its wheels are in pip's cache
    python = devenv.ensure(CELL, root=tmp_path)
    target = python.parent.parent
    assert (target / devenv.MARKER_NAME).is_file()
    (target / "notes.txt").write_text("mine\n")
    kept_package = next(target.glob("lib/python3.*/site-packages")) / "users_own.py"
    kept_package.write_text("VALUE = 1\n")
    stamp = (target / devenv.STAMP_NAME).read_text()
    subprocess.run([python, "-m", "pip", "uninstall", "-y", "-q", "ninja"], check=True)
    (target / devenv.STAMP_NAME).write_text("the pins of an older requirements/matrix.ini\n")
    assert devenv.ensure(CELL, root=tmp_path) == python
    assert (target / "notes.txt").read_text() == "mine\n"
    assert subprocess.run([python, "-c", "import users_own, ninja"]).returncode == 0
    assert (target / devenv.STAMP_NAME).read_text() == stamp
