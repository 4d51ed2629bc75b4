#!/usr/bin/env python3
"""Create the pinned development environment of one CUDA major: ``.venvs/cu12`` or ``.venvs/cu13``.

Each environment holds the build tools (requirements/build.txt), the test tools
(requirements/test.txt), and the cuda-bindings plus NVIDIA's header wheels of its
major (requirements/cuNN.txt), so a build needs no system CUDA toolkit.

The environment is created with uv when uv is on PATH, else with venv and pip.  A
stamp file, written last, records a hash of the requirement files: a rerun with
unchanged requirements returns at once, and an install that was interrupted is never
trusted, since its stamp is missing.

Usage: python tools/devenv.py cuNN [--force] [--print-python]      (one per requirements/cuNN.txt)
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

from cuda_core_build import facts

REPO_ROOT = facts.REPO_ROOT
REQUIREMENTS_DIR = facts.REQUIREMENTS_DIR
VENVS_DIR = REPO_ROOT / ".venvs"
MAJORS = tuple(f"cu{major}" for major in facts.supported_majors())
STAMP_NAME = ".devenv-stamp"


def requirement_files(flavor: str) -> list[Path]:
    """The requirement files that define the environment of one major."""
    return [REQUIREMENTS_DIR / name for name in ("build.txt", "test.txt", f"{flavor}.txt")]


def venv_dir(flavor: str) -> Path:
    """Where the environment of one major lives."""
    return VENVS_DIR / flavor


def venv_python(flavor: str) -> Path:
    """The interpreter of one major's environment."""
    return venv_dir(flavor) / "bin" / "python"


def _fingerprint(files: list[Path]) -> str:
    """Hash of the interpreter version and the requirement files' contents."""
    digest = hashlib.sha256(sys.version.encode())
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _run(cmd: list[str | Path]) -> None:
    print("+", " ".join(str(part) for part in cmd), flush=True)
    subprocess.run([str(part) for part in cmd], check=True)


def _create(target: Path, files: list[Path]) -> None:
    """Make a fresh environment at ``target`` and install the pinned requirements."""
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    requirement_args: list[str | Path] = []
    for path in files:
        requirement_args += ["-r", path]
    uv = shutil.which("uv")
    python = target / "bin" / "python"
    if uv:
        _run([uv, "venv", "--quiet", "--python", sys.executable, target])
        _run([uv, "pip", "install", "--quiet", "--python", python, *requirement_args])
    else:
        _run([sys.executable, "-m", "venv", target])
        _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              "--only-binary", ":all:", *requirement_args])


def ensure(flavor: str, force: bool = False) -> Path:
    """Make sure the environment of ``flavor`` exists and is current; return its python."""
    if flavor not in MAJORS:
        raise SystemExit(f"devenv: unknown environment {flavor!r}; choose one of {', '.join(MAJORS)}")
    files = requirement_files(flavor)
    target = venv_dir(flavor)
    stamp = target / STAMP_NAME
    wanted = _fingerprint(files)
    if not force and stamp.is_file() and stamp.read_text() == wanted and venv_python(flavor).exists():
        print(f"devenv: {target.relative_to(REPO_ROOT)} is up to date", flush=True)
        return venv_python(flavor)
    start = time.monotonic()
    print(f"devenv: creating {target.relative_to(REPO_ROOT)} from "
          f"{', '.join(str(f.relative_to(REPO_ROOT)) for f in files)}", flush=True)
    _create(target, files)
    stamp.write_text(wanted)
    print(f"devenv: {target.relative_to(REPO_ROOT)} ready in {time.monotonic() - start:.0f} s", flush=True)
    return venv_python(flavor)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("flavor", choices=MAJORS, help="which CUDA major the environment is for")
    parser.add_argument("--force", action="store_true", help="recreate even when up to date")
    parser.add_argument("--print-python", action="store_true", help="print the environment's python when ready")
    args = parser.parse_args(argv)
    python = ensure(args.flavor, force=args.force)
    if args.print_python:
        print(python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
