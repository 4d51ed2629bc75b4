# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What PEP 517 does not tell a backend: the frontend that runs it (pip, uv, build), the environment it builds for,
and the extras it was asked for, read from that process (Linux /proc)."""

import functools
import importlib.metadata
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

INTERPRETERS = ("bin/python3", "bin/python", "python.exe", "Scripts/python.exe")  # where an environment keeps one
_BINDINGS = "import importlib.metadata as m\ntry: print(m.version('cuda-bindings'))\nexcept Exception: pass\n"


@dataclass(frozen=True)
class Frontend:
    """The process that runs the hooks: its command line, where it stands, its environment."""

    argv: tuple[str, ...]
    cwd: Path
    environ: dict[str, str]

    @property
    def name(self) -> str:
        """'uv', 'build' (python -m build, pyproject-build), else the module or program's name (pip)."""
        program = Path(self.argv[0]).name if self.argv else ""
        module = self.argv[self.argv.index("-m") + 1] if "-m" in self.argv[:-1] else ""
        script = Path(self.argv[1]).name if len(self.argv) > 1 and program.startswith("python") else ""  # a #! script
        named = module or (script if script in ("pyproject-build", "pip", "pip3") else program)
        return "uv" if program in ("uv", "uv.exe") else named.replace("pyproject-build", "build")

    def option(self, *names: str) -> str | None:
        """The value of the last of ``names`` on the command line (``--python X``, ``--python=X``, ``-pX``)."""
        value = None
        for index, arg in enumerate(self.argv):
            for name in names:
                if arg == name and index + 1 < len(self.argv):
                    value = self.argv[index + 1]
                elif arg.startswith(name + "=") or (len(name) == 2 and arg.startswith(name) and len(arg) > 2):
                    value = arg[len(name) :].removeprefix("=")
        return value

    def path(self, value: str) -> Path:
        """A path the frontend was given, taken from where it stands."""
        return self.cwd / Path(value).expanduser()


@functools.cache
def frontend(pid: int | None = None) -> Frontend | None:
    """The hook's parent process, read from /proc once per hook; None where it cannot be read (not Linux, another user)."""
    proc = Path("/proc", str(pid or os.getppid()))
    try:
        argv = tuple(a.decode() for a in (proc / "cmdline").read_bytes().split(b"\0") if a)
        pairs = (entry.split(b"=", 1) for entry in (proc / "environ").read_bytes().split(b"\0") if b"=" in entry)
        return Frontend(argv, Path(os.readlink(proc / "cwd")), {k.decode(): v.decode() for k, v in pairs})
    except (OSError, UnicodeDecodeError):
        return None


def asked_extras(front: Frontend | None, root: Path) -> set[str]:
    """The extras the frontend's command line asks of the project at ``root`` (``.[cu12]``, ``-e DIR[cu13]``)."""
    found: set[str] = set()
    for arg in front.argv[1:] if front else ():
        path, bracket, rest = arg.partition("[")
        if bracket and rest.endswith("]") and path and front.path(path).resolve() == root.resolve():  # type: ignore[union-attr]
            found |= {extra.strip().lower() for extra in rest[:-1].split(",")}
    return found


def project_venv(start: Path) -> Path | None:
    """uv's project environment: ``.venv`` in ``start`` or the nearest directory above it that has one."""
    return next((d / ".venv" for d in (start, *start.parents) if (d / ".venv" / "pyvenv.cfg").is_file()), None)


def uv_target(front: Frontend) -> tuple[Path | None, str]:
    """Where ``uv pip install`` installs, or the environment ``uv build`` runs in, as uv finds it; '' or why not."""
    if front.option("--target"):
        return front.path(front.option("--target") or ""), ""
    if "--system" in front.argv or front.option("--prefix"):
        return None, "uv was given --system or --prefix"
    if python := front.option("--python", "-p") or front.environ.get("UV_PYTHON", ""):
        given = front.path(python)  # an environment, or an interpreter in its bin/ (a venv's python is a link)
        if given.is_dir() or given.is_file():
            return given if given.is_dir() else given.parent.parent, ""
        return None, f"uv was given --python {python}, which names no environment"
    for variable in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        if front.environ.get(variable):
            return front.path(front.environ[variable]), ""
    return project_venv(front.path(front.option("--directory", "--project") or ".")), ""


def target(front: Frontend | None) -> tuple[Path | None, str]:
    """The environment (or ``--target`` directory) the frontend builds for, or None and why it cannot be told: for
    build, the environment of the interpreter that runs it."""
    if front is None:
        return None, "the process that runs this build cannot be read"
    if front.name == "uv":
        return uv_target(front)
    if front.name != "build":
        return None, f"{front.name or 'its frontend'} is neither uv nor build"
    program = front.argv[0] if "/" in front.argv[0] else shutil.which(front.argv[0], path=front.environ.get("PATH", ""))
    if program is None:
        return None, f"{front.argv[0]} is not on the frontend's PATH"
    return front.path(program).parent.parent, ""


@functools.cache
def bindings_version(place: Path) -> str | None:
    """The cuda-bindings version installed in an environment (asked of its interpreter) or a --target directory."""
    python = next((place / name for name in INTERPRETERS if (place / name).is_file()), None)
    if python is None:
        found = next(iter(importlib.metadata.distributions(name="cuda-bindings", path=[str(place)])), None)
        return found.version if found else None
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    try:
        result = subprocess.run([python, "-E", "-c", _BINDINGS], capture_output=True, text=True, env=env, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() or None
