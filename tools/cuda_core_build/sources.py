# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The check every ninja run starts with, and the Cython wrapper: ``sources.py list|check|cython``. Stdlib only.

No tool does this for us. ninja rebuilds an output only when an input's mtime is newer than it, so
a file restored with an older mtime (``cp -p``, ``tar -x``, an editor's revert, a toolkit upgraded
in place) is never compiled again; it takes no lock on a build directory, and two ninja at once
damage its deps log, which its own recovery then leaves damaged for every later build; and it
reads another version's build log as new. So ``check``, an always-stale step that every other step
waits on (Meson's custom steps have ``restat``), first stops this ninja in one line, before it
writes its logs, when another ninja builds the directory or a ninja of another version runs it;
repairs the deps log and says when ninja's log was lost; then compares every input by stat, and
by sha256 where the stat moved, and rewrites a stamp only when a content changed:

- one stamp per file of cuda_core/ (Cython's depfiles name these in place of the sources);
- ``environment``: every input the record lists (headers, cuda-bindings' and Cython's files, the
  compiler, Python, ninja), their directories and the links on the way, by stat: when one moved,
  steps.py ``lay_out`` runs, compares them by content and lays out what the compiles read;
- ``compiler``: the C++ compiler PATH gives now (the compile commands name it bare).

Plain ``ninja -C``, an editable import and pip so see the same truth, and a no-op build runs
``check`` alone. ``cython`` runs Cython, names those stamps in its depfile and writes its C++ only
when it changed, so a Cython step that made the same code compiles nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import shutil
import struct
import sys
from pathlib import Path

if __name__ == "__main__":  # run by Meson as a script: the package is beside this file
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from cuda_core_build import common  # noqa: E402

SOURCE_ROOT = common.PACKAGE_ROOT.parent
CONFIG = Path("cuda-config")
STAMPS = CONFIG / "sources"  # in the build directory
CACHE = CONFIG / "sources.json"  # each file's stat and sha256 when last hashed; the deps log's checked part
STATS = CONFIG / "stats.json"  # what the environment's step recorded: its inputs' stats, links, ninja
CLAIM = CONFIG / "ninja.pid"  # the ninja building the directory now: "PID START-TIME"
COMPILER, ENVIRONMENT = "compiler", "environment"  # the stamps beside the files'
DEPS_HEADER = b"# ninjadeps\n" + struct.pack("=i", 4)  # ninja's deps log, version 4 (ninja 1.10 to 1.13)
MAX_RECORD = (1 << 19) - 1  # the largest record ninja reads


class Stop(Exception):
    """This ninja must stop before it writes ninja's logs; the message says why and what to run."""


def stamp_name(path: str | Path) -> str:
    """The stamp of a file under cuda_core/: its path there with '+' for '/', cuda+core+_context.pyx."""
    return str(path)[len(str(common.PACKAGE_ROOT)) + 1 :].replace(os.sep, "+")


def stamp_text(name: str, sha: str) -> str:
    """A stamp's content: the sha256; for C++, as a comment, so the modules that compile it can -include
    its stamp (cuda_core/cuda/core/meson.build) and g++'s depfile names the stamp."""
    return f"/* {sha} */\n" if name.endswith((".cpp", ".hpp", ".h")) else f"{sha}\n"


def read_json(path: Path) -> dict:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def stamps(cache: dict, stats: dict, compiler: list[str]) -> dict[str, str]:
    """Every stamp's content now: each package file's (hashing only those whose stat moved), the
    environment's (``stats``: stats.json) and the compiler's. Records each file's stat and sha256 in
    ``cache["files"]``."""
    known = cache.get("files", {})
    cache["files"] = fresh = {}
    for path in common.package_files():
        name = stamp_name(path)
        fresh[name] = common.hashed(path, known.get(name))
    texts = {name: stamp_text(name, values[5]) for name, values in fresh.items()}
    return texts | {ENVIRONMENT: environment_stamp(stats), COMPILER: compiler_stamp(compiler)}


def environment_stamp(stats: dict) -> str:
    """The stat of every input the environment's record lists, of their directories and of each link on
    the way (steps.py writes the list, stats.json): it moves whenever one of them can have changed."""
    files, links = stats.get("files", {}), stats.get("links", {})
    lines = [f"{p} {common.fingerprint(p)}" for p in sorted({*files, *(os.path.dirname(p) for p in [*files, *links])})]
    lines += [f"{link} -> {common.readlink(link)}" for link in sorted(links)]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest() + "\n"


def compiler_stamp(compiler: list[str]) -> str:
    """The C++ compiler the build's commands run now: the driver PATH gives (they name it bare, as Meson
    found it), by real path and stat. A change makes the environment's check hash it again (steps.py)."""
    driver = next((part for part in compiler if Path(part).name not in common.LAUNCHERS), "")
    found = shutil.which(driver) if driver else None
    if not found:
        return f"{driver}: not found\n"
    return f"{found} -> {os.path.realpath(found)}: {common.fingerprint(os.path.realpath(found))}\n"


def claimant(build_dir: Path) -> int | None:
    """The pid of the ninja that claimed ``build_dir`` and still runs, if any (an editable import waits for it)."""
    other = (read_text(build_dir / CLAIM) or "").split()
    if len(other) == 2 and other[0].isdigit():
        found = common.process(int(other[0]))
        return int(other[0]) if found and found[2] == other[1] else None
    return None


def claim(build_dir: Path, ninja: tuple[int, str]) -> None:
    """Name this ninja as the one building ``build_dir``; Stop if another is: ninja takes no lock, and
    two at once both append to its deps log, with node numbers each counted alone."""
    fd = os.open(build_dir / CLAIM, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        other = claimant(build_dir)
        if other is not None and other != ninja[0]:
            raise Stop(
                f"another ninja (pid {other}) is building {build_dir}: this one stops before it writes "
                f"ninja's logs, which two ninja at once damage; run it again when that one is done"
            )
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, f"{ninja[0]} {ninja[1]}\n".encode())
    finally:
        os.close(fd)


def same_ninja(build_dir: Path, pid: int, recorded: list[str]) -> None:
    """Stop a ninja of another version than the one the build directory was set up with: the two read
    each other's build log as new, so each would run every step again."""
    running = common.ninja_executable(pid)
    if not recorded or not running or os.path.realpath(running) == recorded[0]:
        return
    import subprocess  # here alone: its import would cost every no-op build 5 ms

    try:
        theirs = subprocess.run([running, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return
    if theirs and recorded[1] and theirs != recorded[1]:
        raise Stop(
            f"ninja {theirs} ({running}) runs {build_dir}, which was set up with ninja {recorded[1]} "
            f"({recorded[0]}): each reads the other's build log as new and would run every step again, so this "
            f"one stops before it does: run {recorded[0]} -C {build_dir}"
        )


def check_deps_log(build_dir: Path, known: list[int] | None) -> tuple[list[int] | None, str]:
    """Check ninja's deps log past its part checked before (``known``: inode, offset, path records), and
    cut it before the first record a second writer damaged. ninja's own recovery cuts it after that
    record, so every later build warns 'premature end of file' again and compiles everything; this
    ninja loaded the part before it, so what it appends follows on. Returns the new state and a line."""
    path = build_dir / ".ninja_deps"
    try:
        st = path.stat()
        _, offset, nodes = known if known and known[0] == st.st_ino and known[1] <= st.st_size else (0, 0, 0)
        if offset == st.st_size:
            return known, ""
        with path.open("rb") as log:
            log.seek(offset)
            data = log.read()
    except OSError:
        return None, ""
    position = 0
    if not offset:
        if not data.startswith(DEPS_HEADER):
            return None, ""  # another format: ninja starts it over itself
        position = len(DEPS_HEADER)
    while position + 4 <= len(data):
        (size,) = struct.unpack_from("=I", data, position)
        deps, size, end = size >> 31, size & 0x7FFFFFFF, position + 4 + (size & 0x7FFFFFFF)
        if end > len(data) or size > MAX_RECORD:
            break  # cut short (a crash): ninja's recovery cuts it where it should
        if deps:  # output, mtime, then the inputs by number: each a path record before it
            ids = struct.unpack_from(f"={size // 4}i", data, position + 4)[3:] if size % 4 == 0 else [-1]
            whole = all(0 <= i < nodes for i in ids)
        else:  # a path, then its number as a checksum: the number of path records before it
            whole = size > 4 and ~struct.unpack_from("=I", data, end - 4)[0] & 0xFFFFFFFF == nodes
            nodes += whole
        if not whole:
            with path.open("r+b") as log:
                log.truncate(offset + position)
            return [st.st_ino, offset + position, nodes], (
                f"cuda-core: ninja's deps log in {build_dir} was damaged at byte {offset + position} (two ninja at "
                f"once, or a ninja killed mid-write): cut there; what it lost is compiled again this once"
            )
        position = end
    return [st.st_ino, offset + position, nodes], ""


def check(build_dir: Path, compiler: list[str]) -> None:
    """Stop a second or foreign ninja, mend ninja's logs, and rewrite each stamp whose content changed."""
    cache, stats = read_json(build_dir / CACHE), read_json(build_dir / STATS)
    ninja = common.ninja_running_this()
    if ninja:
        same_ninja(build_dir, ninja[0], stats.get("ninja", []))
        claim(build_dir, ninja)
    deps, said = check_deps_log(build_dir, cache.get("deps_log"))
    if cache and not (build_dir / ".ninja_log").is_file():
        said = f"cuda-core: ninja's build log in {build_dir} is gone (removed, or another ninja version's): every step runs once again"
    print(said, end="\n" * bool(said), flush=True)
    known = cache.get("files", {})
    texts = stamps(cache, stats, compiler)
    for name, text in texts.items():  # a file's stamp is read only when its sha256 moved or it is gone
        same = name in known and known[name][5] == cache["files"].get(name, [""] * 6)[5]
        if not same or not os.path.exists(build_dir / STAMPS / name):
            common.write_if_changed(build_dir / STAMPS / name, text)
    common.write_if_changed(build_dir / CACHE, json.dumps(cache | {"deps_log": deps}) + "\n")
    common.write_if_changed(build_dir / STAMPS / "checked", "")


def changed(build_dir: Path, compiler: list[str]) -> list[str]:
    """The stamps ``check`` would rewrite; writes nothing (a read-only build directory)."""
    texts = stamps(read_json(build_dir / CACHE), read_json(build_dir / STATS), compiler)
    return [name for name, text in texts.items() if read_text(build_dir / STAMPS / name) != text]


def read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def cython(arguments: list[str]) -> int:
    """Run Cython (``python -m cython ARGUMENTS``, -o OUT and -M among them) from the build directory; keep
    OUT as it was when the code is the same, and name the stamps of the package's files in OUT.dep.
    A step whose inputs hold content Cython has seen takes its output from the cache (cython_cache.py)."""
    from cuda_core_build import cython_cache

    out = Path(arguments[arguments.index("-o") + 1])
    depfile = out.with_name(out.name + ".dep")
    cache = cython_cache.Cache.for_step(arguments, SOURCE_ROOT, Path.cwd())
    hit = cache.lookup() if cache else None
    if hit:
        sys.stderr.write(hit.messages)
        common.write_if_changed(out, hit.code)
        common.write_depfile(depfile, os.path.relpath(out), hit.depends)
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
    target, tokens = common.read_depfile(depfile.read_text())
    named = [stamp_of(token) for token in tokens]
    common.write_depfile(depfile, target, named)
    if cache:
        cache.store(out.read_bytes(), named, messages)
    return 0


def run_cython(arguments: list[str]) -> tuple[int, str]:
    """Cython's main in this process, as `python -m cython` runs it: its exit status and what it printed (its
    output is printed when it ends, as ninja shows a step's; streams swapped by hand, since importing
    contextlib would cost every no-op build 4 ms)."""
    sys.argv = ["cython", *arguments]
    from Cython.Compiler.Main import main  # the build's Cython

    saved, status = (sys.stdout, sys.stderr), 0
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        main(command_line=1)
    except SystemExit as exit:
        status = 0 if exit.code in (0, None) else exit.code if isinstance(exit.code, int) else 1
    finally:
        out, err = sys.stdout.getvalue(), sys.stderr.getvalue()  # type: ignore[attr-defined]
        sys.stdout, sys.stderr = saved
        print(out, end="", flush=True)
        print(err, end="", file=sys.stderr, flush=True)
    return status, "" if status else out + err


def stamp_of(dependency: str) -> str:
    """The stamp that stands for ``dependency`` in a depfile, if it is a file of the package; else itself."""
    real = Path(os.path.realpath(dependency))
    if common.PACKAGE_ROOT in real.parents and (STAMPS / stamp_name(real)).is_file():
        return str(STAMPS / stamp_name(real))
    return dependency


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        print("\n".join([*(stamp_name(path) for path in common.package_files()), COMPILER, ENVIRONMENT]))
        return 0
    if argv[:1] == ["check"] and len(argv) >= 2:
        compiler = [part.removeprefix("--compiler=") for part in argv[2:] if part.startswith("--compiler=")]
        try:
            check(Path(argv[1]), compiler)
        except Stop as stop:
            print(f"cuda-core: {stop}", file=sys.stderr, flush=True)
            return 1
        return 0
    if argv[:1] == ["cython"]:
        return cython(argv[1:])
    print("usage: sources.py list | check BUILDDIR [--compiler=PART ...] | cython CYTHON-ARGUMENTS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
