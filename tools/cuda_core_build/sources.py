# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The package's sources by content, for plain ninja: ``sources.py list|check|cython ...``. Stdlib only.

ninja rebuilds an output only when an input's mtime is newer than it, so a source restored with an
older mtime (``cp -p``, ``rsync -a``, ``tar -x``, a backup, an editor's revert) would never be
compiled again. So every ninja run starts with ``check`` (an always-stale step of
cuda-config/sources/meson.build): it hashes each file under cuda_core/ whose stat moved, and keeps
one stamp per file in BUILDDIR/cuda-config/sources/, rewritten only when the file's content changed.
``cython`` runs Cython for the build and puts those stamps in its depfile in place of the package's
own files, so a Cython step reruns exactly when the content of a file it read changed, whatever the
mtimes say; it writes the generated C++ only when it changed, so a Cython step that made the same
code (a touched .pyx) compiles nothing. ninja's ``restat`` (Meson's custom steps have it) then
drops every step whose inputs kept their content, and a no-op build runs ``check`` alone.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import re
import select
import shutil
import sys
import time
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_ROOT = SOURCE_ROOT / "cuda_core"
STAMPS = Path("cuda-config") / "sources"  # in the build directory
CACHE = Path("cuda-config") / "sources.json"  # each file's stat and sha256 when last hashed
COMPILER = "compiler"  # the stamp of the compiler PATH gives, beside the files' stamps
LAUNCHERS = ("ccache", "sccache")  # what Meson puts before the compiler (steps.py's list)
ESCAPES = str.maketrans({"\\": "\\\\", " ": "\\ ", "#": "\\#", "$": "$$"})


def tracked() -> list[Path]:
    """Every file of the package's source tree, cuda_core/ (caches left out)."""
    return sorted(p for p in PACKAGE_ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def stamp_name(path: Path) -> str:
    """The stamp of a file under cuda_core/: its path there with '+' for '/', cuda+core+_context.pyx."""
    return "+".join(path.relative_to(PACKAGE_ROOT).parts)


def hashed(build_dir: Path) -> tuple[dict[str, list], dict[str, list]]:
    """Each tracked file's stat and sha256 now (hashing only the files whose stat moved), and the cache."""
    try:
        cache = json.loads((build_dir / CACHE).read_text())
    except (OSError, ValueError):
        cache = {}
    fresh = {}
    for path in tracked():
        key, st = stamp_name(path), path.stat()
        now = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        known = cache.get(key)
        fresh[key] = [*now, known[5] if known and known[:5] == now else hashlib.sha256(path.read_bytes()).hexdigest()]
    return fresh, cache


def ninja_running_this() -> int | None:
    """The pid of the ninja that runs this step (an ancestor named ninja), or None (not Linux, not ninja)."""
    pid = os.getppid()
    for _ in range(4):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        if name.startswith("ninja"):
            return pid
        pid = int(fields[1])
    return None


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] not in "ZX"


def hold_build_dir(build_dir: Path) -> None:
    """Hold BUILDDIR's ninja lock until the ninja running this step exits, waiting for any other.

    Two plain ``ninja -C`` at once in one build directory both append to ninja's logs and its deps
    log, which can leave them damaged. Every build starts with this step, and nothing that writes
    waits on nothing else; so a second ninja waits here, saying so, until the first is done. A
    process of its own holds the lock (detached from ninja's pipes, which ninja waits on) and lets
    it go when that ninja exits, however it exits."""
    ninja = ninja_running_this()
    if ninja is None:
        return
    lock_path = build_dir / "cuda-config" / "ninja.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    held, holding = os.pipe()
    if os.fork() == 0:  # the holder
        try:
            os.setsid()
            quiet = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(quiet, fd)
            os.close(held)
            lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(lock, fcntl.LOCK_EX)
            os.write(holding, b"1")
            os.close(holding)
            while running(ninja):
                time.sleep(0.02)
        finally:
            os._exit(0)
    os.close(holding)
    ready, _, _ = select.select([held], [], [], 0.5)
    if not ready:
        print(f"cuda-core: waiting for another ninja in {build_dir} to finish", flush=True)
    os.read(held, 1)
    os.close(held)


def stamp_text(name: str, sha: str) -> str:
    """A stamp's content: the sha256; for C++, as a comment, so the modules that compile it can -include
    its stamp (cuda_core/cuda/core/meson.build) and g++'s depfile names the stamp."""
    return f"/* {sha} */\n" if name.endswith((".cpp", ".hpp", ".h")) else f"{sha}\n"


def check(build_dir: Path, compiler: list[str]) -> None:
    """Rewrite the stamp of each file whose content changed, and the compiler's when PATH's moved."""
    hold_build_dir(build_dir)
    fresh, cache = hashed(build_dir)
    for name, values in fresh.items():
        write_if_changed(build_dir / STAMPS / name, stamp_text(name, values[5]).encode())
    if fresh != cache:
        write_if_changed(build_dir / CACHE, (json.dumps(fresh) + "\n").encode())
    write_if_changed(build_dir / STAMPS / COMPILER, compiler_stamp(compiler).encode())


def compiler_stamp(compiler: list[str]) -> str:
    """The C++ compiler the build's commands run now: the driver PATH gives (they name it bare, as Meson
    found it), by real path and stat. A change makes the environment's check hash it again (steps.py)."""
    driver = next((part for part in compiler if Path(part).name not in LAUNCHERS), "")
    found = shutil.which(driver) if driver else None
    if not found:
        return f"{driver}: not found\n"
    real = os.path.realpath(found)
    st = os.stat(real)
    return f"{found} -> {real}: {st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\n"


def changed(build_dir: Path, compiler: list[str]) -> list[str]:
    """The stamps ``check`` would rewrite (files whose content changed, the compiler); writes nothing."""
    stamps = build_dir / STAMPS
    now = {name: stamp_text(name, values[5]) for name, values in hashed(build_dir)[0].items()}
    now[COMPILER] = compiler_stamp(compiler)
    return [name for name, text in now.items() if not (stamps / name).is_file() or (stamps / name).read_text() != text]


def write_if_changed(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (atomically) unless it already holds it: its mtime moves only on a change."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    os.replace(partial, path)


def cython(arguments: list[str]) -> int:
    """Run Cython (``python -m cython ARGUMENTS``, -o OUT and -M among them) from the build directory; keep
    OUT as it was when the code is the same, and name the stamps of the package's files in OUT.dep.
    With CUDA_CORE_CYTHON_CACHE set, a step whose inputs hold content Cython has seen takes its output
    from there (cython_cache.py)."""
    import cython_cache  # beside this file, which Meson runs as a script (editable.py loads it without)

    out = Path(arguments[arguments.index("-o") + 1])
    depfile = out.with_name(out.name + ".dep")
    cache = cython_cache.Cache.for_step(arguments, SOURCE_ROOT, Path.cwd())
    hit = cache.lookup() if cache else None
    if hit:
        sys.stderr.write(hit.messages)
        write_if_changed(out, hit.code)
        write_depfile(depfile, os.path.relpath(out).translate(ESCAPES), hit.depends)
        return 0
    previous = out.with_name(out.name + ".previous")
    if out.is_file():
        os.replace(out, previous)
    status, messages = run_cython(arguments)
    if status:
        previous.unlink(missing_ok=True)
        return status
    if previous.is_file() and out.is_file() and previous.read_bytes() == out.read_bytes():
        os.replace(previous, out)  # the same code, with its old mtime: ninja's restat compiles nothing
    previous.unlink(missing_ok=True)
    target, _, deps = depfile.read_text().replace("\\\n", " ").partition(": ")
    tokens = [re.sub(r"\\(.)", r"\1", t).replace("$$", "$") for t in re.findall(r"(?:\\.|\$\$|[^\s\\])+", deps)]
    named = [stamp_of(token) for token in tokens]
    write_depfile(depfile, target, named)
    if cache:
        cache.store(out.read_bytes(), named, messages)
    return 0


class Tee(io.TextIOBase):
    """A text stream that writes through to ``stream`` and keeps a copy."""

    def __init__(self, stream: io.TextIOBase) -> None:
        self.stream, self.kept = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def run_cython(arguments: list[str]) -> tuple[int, str]:
    """Cython's main in this process, as `python -m cython` runs it: its exit status and what it printed.
    (sys.stdout and sys.stderr swapped by hand: contextlib and typing would add 4 ms to every no-op build.)"""
    sys.argv = ["cython", *arguments]
    from Cython.Compiler.Main import main  # the build's Cython

    saved, out, err = (sys.stdout, sys.stderr), Tee(sys.stdout), Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err
    try:
        main(command_line=1)
    except SystemExit as exit:
        if exit.code not in (0, None):
            return exit.code if isinstance(exit.code, int) else 1, ""
    finally:
        sys.stdout, sys.stderr = saved
    return 0, out.kept.getvalue() + err.kept.getvalue()


def write_depfile(depfile: Path, target: str, depends: list[str]) -> None:
    write_if_changed(depfile, f"{target}: {' '.join(d.translate(ESCAPES) for d in depends)}\n".encode())


def stamp_of(dependency: str) -> str:
    """The stamp that stands for ``dependency`` in a depfile, if it is a file of the package; else itself."""
    real = Path(os.path.realpath(dependency))
    if PACKAGE_ROOT in real.parents and (STAMPS / stamp_name(real)).is_file():
        return str(STAMPS / stamp_name(real))
    return dependency


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        print("\n".join([*(stamp_name(path) for path in tracked()), COMPILER]))
        return 0
    if argv[:1] == ["check"] and len(argv) >= 2:
        check(Path(argv[1]), [part.removeprefix("--compiler=") for part in argv[2:] if part.startswith("--compiler=")])
        return 0
    if argv[:1] == ["cython"]:
        return cython(argv[1:])
    print("usage: sources.py list | check BUILDDIR [--compiler=PART ...] | cython CYTHON-ARGUMENTS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
