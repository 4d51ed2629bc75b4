#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Create the pinned environment of one cell of the matrix: ``.venvs/<cell>``.

A cell (requirements/matrix.ini) is a Python, a CUDA minor and a build tool set; ``cu12`` and
``cu13`` are the default cells of their majors. Its venv holds the tool set, the minor's
cuda-bindings and NVIDIA's header wheels (so a build needs no system CUDA toolkit), and the
test tools of requirements/test.txt.

The cell's Python is this interpreter when the versions match, else the newest patch release
of that version under pyenv's versions directory (``pyenv root``); where there is none, the
cell cannot be made, and the exit status is 3 with the reason on stderr.

The environment is created with uv when uv is on PATH, else with venv and pip; either way it
holds pip (``uv venv --seed``), so ``.venvs/cu13/bin/python -m pip install ...`` works in it. A
stamp file, written last, records a hash of the interpreter and the requirements: a rerun with
nothing changed returns at once, and an install that was interrupted is never trusted.

Nothing in a venv is ever deleted: devenv marks each venv it makes (``.devenv-made``, written when
the venv is created) and only ever installs into a marked one. A stale one (a pin changed, an
install interrupted, ``--force``) is brought up to date in place, so an editable install or a file
kept there stays. A directory devenv did not make, or a venv of another Python, is left as it is:
devenv says so in one line, with the command that moves it aside and makes the cell's venv.

``.venvs/`` is the user's: the test runners (tools/dev/run_tests.py, run_matrix.py) and the
build tests make the same cells' environments under ``build/.venvs/`` (TEST_VENVS_DIR) and
install only there, so an editable install in ``.venvs/cu13`` stays as it is.

Usage: python3 tools/dev/devenv.py CELL [--python X.Y] [--force] [--print-python]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's facts and probe

from cuda_core_build import common, facts  # noqa: E402

REPO_ROOT = facts.REPO_ROOT
VENVS_DIR = REPO_ROOT / ".venvs"  # the user's environments: what README's commands use
# The test runners' own environments of the same cells. Named .venvs too: the build's probe knows
# a per-major dev venv by its directory's name, and names the other major's venv beside it.
TEST_VENVS_DIR = REPO_ROOT / "build" / ".venvs"
STAMP_NAME = ".devenv-stamp"
MARKER_NAME = common.DEVENV_MARKER  # written when devenv creates a venv: the venvs it may install into
MARKER_TEXT = "made by tools/dev/devenv.py, which installs into this venv and deletes nothing in it\n"
MISSING_PYTHON = 3  # exit status when the cell's Python is not on this machine


class PythonMissing(Exception):
    """The cell's Python is not on this machine; the message says where it was looked for."""


class NotOurs(Exception):
    """The cell's directory holds something devenv will not install into; the message says what to run."""


def venv_dir(cell: str, root: Path = VENVS_DIR) -> Path:
    """Where the environment of a cell lives under ``root``."""
    return root / cell


def venv_python(cell: str, root: Path = VENVS_DIR) -> Path:
    """The interpreter of a cell's environment under ``root``."""
    return venv_dir(cell, root) / "bin" / "python"


def pyenv_root() -> Path | None:
    """pyenv's root: ``pyenv root`` where pyenv runs, else $PYENV_ROOT, else ~/.pyenv if it exists."""
    pyenv = shutil.which("pyenv")
    if pyenv:
        result = subprocess.run([pyenv, "root"], capture_output=True, text=True)
        if result.returncode == 0 and result.stdout.strip():
            return Path(result.stdout.strip())
    for candidate in (os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv")):
        if candidate and Path(candidate, "versions").is_dir():
            return Path(candidate)
    return None


def find_python(version: str) -> Path:
    """The interpreter of CPython ``version`` ('3.13'): this one if it is that version, else the
    newest patch release of it that pyenv holds."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return Path(sys.executable)
    root = pyenv_root()
    if root is None:
        raise PythonMissing(f"Python {version} is not this interpreter and pyenv is not installed")
    found = []
    for candidate in (root / "versions").glob(f"{version}.*"):
        patch = candidate.name[len(version) + 1 :]
        python = candidate / "bin" / f"python{version}"
        if patch.isdigit() and python.is_file():
            found.append((int(patch), python))
    if not found:
        raise PythonMissing(f"Python {version} is not installed under {root / 'versions'} (pyenv install {version})")
    return max(found)[1]


def _fingerprint(python: Path, requirements: tuple[str, ...]) -> str:
    """Hash of the interpreter's version and the requirement lines."""
    version = subprocess.run(
        [str(python), "-c", "import sys; print(sys.version)"], capture_output=True, text=True, check=True
    ).stdout
    return hashlib.sha256((version + "\n".join(requirements)).encode()).hexdigest()


def _run(cmd: list[str | Path]) -> None:
    print("+", " ".join(str(part) for part in cmd), flush=True)
    subprocess.run([str(part) for part in cmd], check=True)


def _python_version(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sys; print(sys.version)"], capture_output=True, text=True).stdout


def _refuse(target: Path, shown: Path, why: str) -> NoReturn:
    """Leave ``target`` as it is: one line saying why, and the command that puts it aside and makes the venv."""
    aside = target.with_name(f"{target.name}.old")
    while aside.exists():
        aside = aside.with_name(aside.name + "~")
    raise NotOurs(
        f"{shown} {why}, so devenv leaves it as it is: to keep it and make the cell's venv, run "
        f"`mv {shown} {shown.parent / aside.name} && python3 tools/dev/devenv.py {target.name}`"
    )


def made_by_devenv(target: Path) -> bool:
    """Whether devenv made ``target``: its marker, or the stamp of a devenv from before the marker."""
    return not target.is_symlink() and any((target / name).is_file() for name in (MARKER_NAME, STAMP_NAME))


def _create(target: Path, python: Path, requirements: tuple[str, ...], shown: Path | None = None) -> None:
    """Make the environment at ``target`` with ``python`` and install ``requirements``; a venv devenv
    made before is brought up to date in place, keeping what was added to it, and anything else there
    is refused (NotOurs) untouched."""
    shown = shown or target
    if target.exists() or target.is_symlink():
        if not made_by_devenv(target):
            _refuse(target, shown, "exists and was not made by devenv (it has no .devenv-made)")
        made_with = _python_version(target / "bin" / "python")
        if made_with != _python_version(python):
            found = made_with.split(" ", 1)[0] or "no working Python"
            _refuse(target, shown, f"holds {found}, not the cell's {_python_version(python).split(' ', 1)[0]}")
        (target / MARKER_NAME).write_text(MARKER_TEXT)
        (target / STAMP_NAME).unlink(missing_ok=True)  # our own file: an install that stops half-way is never trusted
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        _make_venv(target, python)
    _install(target / "bin" / "python", requirements)


def _make_venv(target: Path, python: Path) -> None:
    """A new venv at ``target``, marked as devenv's the moment it exists."""
    uv = shutil.which("uv")
    if uv:
        _run([uv, "venv", "--seed", "--quiet", "--python", python, target])  # --seed: with pip
    else:
        _run([python, "-m", "venv", target])
    (target / MARKER_NAME).write_text(MARKER_TEXT)


def _install(venv_python_path: Path, requirements: tuple[str, ...]) -> None:
    uv = shutil.which("uv")
    if uv:
        _run([uv, "pip", "install", "--quiet", "--python", venv_python_path, *requirements])
    else:
        _run(
            [
                venv_python_path,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--only-binary",
                ":all:",
                *requirements,
            ]
        )


def has_pip(environment: Path) -> bool:
    """Whether the environment at ``environment`` holds pip (``python -m pip`` works there)."""
    return any(environment.glob("lib/python3.*/site-packages/pip/__init__.py"))


@dataclass(frozen=True)
class Cell:
    """One point of the matrix: a Python ('3.11'), a CUDA minor ('13.0'), a tool set ('newest')."""

    name: str
    python: str
    cuda: str
    tools: str


def cells() -> dict[str, Cell]:
    """Every cell of requirements/matrix.ini by name, in the file's order."""
    found = [(s[5:], facts.matrix()[s]) for s in facts.matrix().sections() if s.startswith("cell.")]
    return {name: Cell(name, values["python"], values["cuda"], values["tools"]) for name, values in found}


def default_cell(major: int) -> Cell:
    """Major ``major``'s default cell, ``cuNN``."""
    return cells()[f"cu{major}"]


def cell_requirements(cell: Cell) -> tuple[str, ...]:
    """What a cell's venv installs: its tools, its CUDA minor's packages, the test tools."""
    lines = (REPO_ROOT / "requirements" / "test.txt").read_text().splitlines()
    tests = tuple(stripped for line in lines if (stripped := line.split("#", 1)[0].strip()))
    return (*facts.requirements(facts.tool_pins(cell.tools)), *facts.requirements(facts.cuda_pins(cell.cuda)), *tests)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _cells_for(python_version: str, cell: Cell) -> str:
    """Advice: the cells made for ``python_version``, those of ``cell``'s major first."""
    major = cell.cuda.split(".")[0] + "."
    mine = sorted(
        (c for c in cells().values() if c.python == python_version), key=lambda c: not c.cuda.startswith(major)
    )
    if not mine:
        return "no cell of requirements/matrix.ini is made for it"
    others = f" (or {', '.join(c.name for c in mine[1:])})" if mine[1:] else ""
    return f"take a cell made for it: python3 tools/dev/devenv.py {mine[0].name}{others}"


def ensure(cell_name: str, force: bool = False, root: Path = VENVS_DIR, python_version: str | None = None) -> Path:
    """Make sure the environment of a cell exists under ``root`` and is current; return its python.

    ``python_version`` ('3.10') replaces the cell's Python, one of requirements/matrix.ini's [python].

    An environment that uv made without pip (devenv before it seeded pip) gets pip from the
    interpreter's own ``ensurepip``, and keeps everything else, an editable install included.
    Raises PythonMissing when the cell's Python is not on this machine, NotOurs when ``root/CELL``
    is a directory devenv did not make or a venv of another Python (left as it is).
    """
    known = cells()
    if cell_name not in known:
        raise SystemExit(
            f"devenv: unknown cell {cell_name!r}; choose one of {', '.join(known)} (requirements/matrix.ini)"
        )
    cell = known[cell_name]
    if python_version:
        versions = facts.matrix()["python"]["versions"].split()
        if python_version not in versions:
            raise SystemExit(f"devenv: Python {python_version} is not supported: use one of {', '.join(versions)}")
        cell = dataclasses.replace(cell, python=python_version)
        oldest = facts.tools_python(cell.tools)
        if _version_key(python_version) < _version_key(oldest):
            raise SystemExit(
                f"devenv: {cell_name}'s {cell.tools} tools need Python {oldest} or later; "
                f"for Python {python_version}, {_cells_for(python_version, cell)}"
            )
    python = find_python(cell.python)
    requirements = cell_requirements(cell)
    target, target_python = venv_dir(cell_name, root), venv_python(cell_name, root)
    shown = target.relative_to(REPO_ROOT) if target.is_relative_to(REPO_ROOT) else target
    stamp = target / STAMP_NAME
    wanted = _fingerprint(python, requirements)
    if not force and stamp.is_file() and stamp.read_text() == wanted and target_python.exists():
        if not has_pip(target):
            print(f"devenv: {shown} has no pip: adding it", flush=True)
            _run([target_python, "-m", "ensurepip", "--default-pip"])
        print(f"devenv: {shown} is up to date", flush=True)
        return target_python
    start = time.monotonic()
    doing = "updating" if made_by_devenv(target) else "creating"
    print(f"devenv: {doing} {shown}: Python {cell.python}, CUDA {cell.cuda}, {cell.tools} tools", flush=True)
    _create(target, python, requirements, shown)
    stamp.write_text(wanted)
    print(f"devenv: {shown} ready in {time.monotonic() - start:.0f} s", flush=True)
    return target_python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cell", choices=list(cells()), help="the cell of requirements/matrix.ini")
    parser.add_argument("--force", action="store_true", help="install the pins again, in place, even when up to date")
    parser.add_argument("--python", metavar="X.Y", help="the Python to use instead of the cell's (3.10 to 3.13)")
    parser.add_argument("--print-python", action="store_true", help="print the environment's python when ready")
    args = parser.parse_args(argv)
    try:
        python = ensure(args.cell, force=args.force, root=VENVS_DIR, python_version=args.python)
    except NotOurs as err:
        print(f"devenv: {err}", file=sys.stderr)
        return 1
    except PythonMissing as err:
        print(f"devenv: cannot make {args.cell}: {err}", file=sys.stderr)
        return MISSING_PYTHON
    except subprocess.CalledProcessError as err:
        print(
            f"devenv: making {args.cell} failed: {Path(err.cmd[0]).name} exited with {err.returncode} "
            f"(its output is above); the venv is left without its stamp, so the next run starts it again",
            file=sys.stderr,
        )
        return 1
    if args.print_python:
        print(python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
