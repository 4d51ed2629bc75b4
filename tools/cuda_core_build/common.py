# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What the build's scripts share and no tool gives them: writes that keep an unchanged file's mtime (ninja's
``restat`` prunes on it), depfiles, stat-then-sha256, the package's files, the ninja running a step. Stdlib only."""

import hashlib
import json
import os
import re
import sys
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "cuda_core"
LAUNCHERS = ("ccache", "sccache")  # what Meson puts before the compiler when PATH has one
ESCAPES = str.maketrans({"\\": "\\\\", " ": "\\ ", "#": "\\#", "$": "$$"})  # as ninja reads a depfile
TOKEN = re.compile(r"(?:\\.|\$\$|[^\s\\])+")
DEVENV_MARKER = ".devenv-made"  # tools/dev/devenv.py marks each venv it makes with this file


def in_devenv_venv() -> bool:
    """Whether this Python is a venv tools/dev/devenv.py made: its builds use ccache and the Cython cache."""
    return os.path.isfile(os.path.join(sys.prefix, DEVENV_MARKER))


def write_if_changed(path: Path, data: str | bytes) -> bool:
    """Write ``data`` atomically unless ``path`` holds it already: an unchanged file keeps its mtime."""
    payload = data.encode() if isinstance(data, str) else data
    try:
        if path.read_bytes() == payload:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        partial.write_bytes(payload)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)  # a full disk leaves no half-written file behind
        raise
    return True


def write_depfile(path: Path, target: str | Path, inputs: list[str] | list[Path]) -> None:
    """The depfile ``path``: ``target`` depends on ``inputs``, escaped as ninja reads them."""
    escaped = [str(p).translate(ESCAPES) for p in [target, *inputs]]
    write_if_changed(path, f"{escaped[0]}: {' '.join(escaped[1:])}\n")


def read_depfile(text: str) -> tuple[str, list[str]]:
    """A depfile's (first) target and its dependencies, unescaped (Cython's and g++'s), as write_depfile takes them."""
    target, _, deps = text.replace("\\\n", " ").partition(": ")
    unescape = lambda token: re.sub(r"\\(.)", r"\1", token).replace("$$", "$")  # noqa: E731
    return unescape(target), [unescape(token) for token in TOKEN.findall(deps)]


def fingerprint(path: str | Path) -> list[int] | None:
    """What moves whenever a file's content can: device, inode, size, mtime, ctime (None if gone)."""
    try:
        s = os.stat(path)
    except OSError:
        return None
    return [s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns]


def hashed(path: str | Path, known: list | None, digest=lambda p: hashlib.sha256(Path(p).read_bytes()).hexdigest()):
    """``[*fingerprint, sha256]`` of ``path``: ``known``'s sha256 while the stat has not moved (an edit that keeps
    the mtime moves the ctime, as git's index relies on), else hashed again."""
    if (now := fingerprint(path)) is None:
        raise FileNotFoundError(path)
    return [*now, known[5] if known and known[:5] == now else digest(path)]


def package_files() -> list[str]:
    """Every file of cuda_core/ (caches left out), in pathlib's order: strings from os.walk, since every no-op
    build lists them (a quarter of rglob's time)."""
    found = []
    for folder, folders, names in os.walk(PACKAGE_ROOT):
        folders[:] = [name for name in folders if name != "__pycache__"]
        found += [os.path.join(folder, name) for name in names]
    return sorted(found, key=lambda path: path.split(os.sep))


def readlink(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def read_json(path: Path) -> dict:
    """A JSON object the build wrote, or {} where it is missing or damaged."""
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def driver(compiler: list[str]) -> str:
    """The compiler driver of a compile command, past a launcher (ccache)."""
    return next((part for part in compiler if Path(part).name not in LAUNCHERS), "")


def process(pid: int) -> tuple[str, int, str] | None:
    """A live process's (name, parent pid, start time) from /proc; None if gone, a zombie or unreadable."""
    if (stat := read_text(Path(f"/proc/{pid}/stat"))) is None:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return None if fields[0] in "ZX" else (stat[stat.index("(") + 1 : stat.rindex(")")], int(fields[1]), fields[19])


def ninja_running_this() -> tuple[int, str] | None:
    """The ninja (or samu) that runs this step, the nearest such ancestor: (pid, start time); None if none."""
    pid = os.getppid()
    for _ in range(4):
        if (found := process(pid)) is None:
            return None
        if found[0].startswith(("ninja", "samu")):
            return pid, found[2]
        pid = found[1]
    return None
