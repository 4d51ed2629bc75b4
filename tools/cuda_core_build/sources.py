# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What ninja does not do: compare inputs by content, lock its build directory, guard its logs. Stdlib only.

``sources.py check`` starts every ninja run (docs/building.md, "Exact rebuilds"): it stops a second ninja,
or one of another version, before it writes ninja's logs; cuts a deps log two writers damaged (ninja's
own recovery keeps the damage); then rewrites a stamp only when a content changed (ninja's restat prunes
the rest): one per file of cuda_core/, ``environment`` (the stats of what the record lists: steps.py
``lay_out`` then compares contents) and ``compiler``. ``sources.py cython`` runs Cython, names the
stamps in its depfile and keeps its C++ when unchanged (Cython rewrites it every time)."""

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


def stamps(cache: dict, stats: dict, compiler: list[str]) -> dict[str, str]:
    """Every stamp's content now, hashing only the files whose stat moved (recorded in ``cache["files"]``).
    A C++ file's sha256 is a comment: its modules -include its stamp, so g++'s depfile names it."""
    known, cache["files"] = cache.get("files", {}), {}
    for name, path in ((stamp_name(p), p) for p in common.package_files()):
        cache["files"][name] = common.hashed(path, known.get(name))
    cpp = (".cpp", ".hpp", ".h")
    texts = {n: f"/* {v[5]} */\n" if n.endswith(cpp) else f"{v[5]}\n" for n, v in cache["files"].items()}
    return texts | {ENVIRONMENT: environment_stamp(stats), COMPILER: compiler_stamp(compiler)}


def environment_stamp(stats: dict) -> str:
    """The stat of every input the record lists (stats.json), of their directories and of each link on the way."""
    files, links = stats.get("files", {}), stats.get("links", {})
    lines = [f"{p} {common.fingerprint(p)}" for p in sorted({*files, *(os.path.dirname(p) for p in [*files, *links])})]
    lines += [f"{link} -> {common.readlink(link)}" for link in sorted(links)]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest() + "\n"


def compiler_stamp(compiler: list[str]) -> str:
    """The C++ compiler driver PATH gives now (Meson's commands name it bare), by real path and stat."""
    driver = common.driver(compiler)
    found = shutil.which(driver) if driver else None
    if not found:
        return f"{driver}: not found\n"
    return f"{found} -> {os.path.realpath(found)}: {common.fingerprint(os.path.realpath(found))}\n"


def claimant(build_dir: Path) -> int | None:
    """The pid of the ninja that claimed ``build_dir`` and still runs, if any (an editable import waits for it)."""
    other = (common.read_text(build_dir / CLAIM) or "").split()
    found = common.process(int(other[0])) if len(other) == 2 and other[0].isdigit() else None
    return int(other[0]) if found and found[2] == other[1] else None


def claim(build_dir: Path, ninja: tuple[int, str]) -> None:
    """Name this ninja as the one building ``build_dir``; Stop if another is: two at once damage the deps log."""
    fd = os.open(build_dir / CLAIM, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if (other := claimant(build_dir)) not in (None, ninja[0]):
            raise Stop(
                f"another ninja (pid {other}) is building {build_dir}: this one stops before it writes "
                f"ninja's logs, which two ninja at once damage; run it again when that one is done"
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{ninja[0]} {ninja[1]}\n".encode(), 0)
    finally:
        os.close(fd)


def same_ninja(build_dir: Path, pid: int, recorded: list[str]) -> None:
    """Stop a ninja of another version than the build directory's: each reads the other's build log as new."""
    running = common.readlink(f"/proc/{pid}/exe")
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
    """Read ninja's deps log past its part checked before (``known``: inode, offset, path records) and cut it
    before the first record a second writer damaged; the new state, and a line saying so."""
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
    if not offset and not data.startswith(DEPS_HEADER):
        return None, ""  # another format: ninja starts it over itself
    position = 0 if offset else len(DEPS_HEADER)
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
            os.truncate(path, offset + position)
            return [st.st_ino, offset + position, nodes], (
                f"cuda-core: ninja's deps log in {build_dir} was damaged at byte {offset + position} (two ninja at "
                f"once, or a ninja killed mid-write): cut there; what it lost is compiled again this once"
            )
        position = end
    return [st.st_ino, offset + position, nodes], ""


def check(build_dir: Path, compiler: list[str]) -> None:
    """Stop a second or foreign ninja, mend ninja's logs, and rewrite each stamp whose content changed."""
    cache, stats = common.read_json(build_dir / CACHE), common.read_json(build_dir / STATS)
    if ninja := common.ninja_running_this():
        same_ninja(build_dir, ninja[0], stats.get("ninja", []))
        claim(build_dir, ninja)
    deps, said = check_deps_log(build_dir, cache.get("deps_log"))
    if cache and not (build_dir / ".ninja_log").is_file():
        said = f"cuda-core: ninja's build log in {build_dir} is gone (removed, or another ninja version's): every step runs once again"
    print(said, end="\n" * bool(said), flush=True)
    known = cache.get("files", {})
    for name, text in stamps(cache, stats, compiler).items():  # read a stamp only when its sha256 moved or it is gone
        same = name in known and known[name][5] == cache["files"].get(name, [""] * 6)[5]
        if not same or not os.path.exists(build_dir / STAMPS / name):
            common.write_if_changed(build_dir / STAMPS / name, text)
    common.write_if_changed(build_dir / CACHE, json.dumps(cache | {"deps_log": deps}) + "\n")
    common.write_if_changed(build_dir / STAMPS / "checked", "")


def changed(build_dir: Path, compiler: list[str]) -> list[str]:
    """The stamps ``check`` would rewrite; writes nothing (a read-only build directory)."""
    texts = stamps(common.read_json(build_dir / CACHE), common.read_json(build_dir / STATS), compiler)
    return [name for name, text in texts.items() if common.read_text(build_dir / STAMPS / name) != text]


def cython(arguments: list[str]) -> int:
    """Run Cython (``-o OUT -M`` among ``arguments``) in the build directory, or take its output from the cache
    (cython_cache.py); keep OUT as it was when the code is the same; name the package's stamps in OUT.dep."""
    from cuda_core_build import cython_cache

    out = Path(arguments[arguments.index("-o") + 1])
    depfile, previous = out.with_name(out.name + ".dep"), out.with_name(out.name + ".previous")
    cache = cython_cache.Cache.for_step(arguments, SOURCE_ROOT, Path.cwd())
    if hit := (cache.lookup() if cache else None):
        sys.stderr.write(hit.messages)
        common.write_if_changed(out, hit.code)
        common.write_depfile(depfile, os.path.relpath(out), hit.depends)
        return 0
    if out.is_file():
        os.replace(out, previous)
    status, messages = run_cython(arguments)
    if not status and previous.is_file() and out.is_file() and previous.read_bytes() == out.read_bytes():
        os.replace(previous, out)  # the same code, with its old mtime: ninja's restat compiles nothing
    previous.unlink(missing_ok=True)
    if status:
        return status
    target, tokens = common.read_depfile(depfile.read_text())
    named = [stamp_of(token) for token in tokens]
    common.write_depfile(depfile, target, named)
    if cache:
        cache.store(out.read_bytes(), named, messages)
    return 0


def run_cython(arguments: list[str]) -> tuple[int, str]:
    """Cython's main in this process: its exit status and what it printed, printed when it ends, as ninja shows a
    step's (streams swapped by hand: importing contextlib would cost every no-op build 4 ms)."""
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
    stamp = STAMPS / stamp_name(real)
    return str(stamp) if common.PACKAGE_ROOT in real.parents and stamp.is_file() else dependency


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        print("\n".join([*(stamp_name(path) for path in common.package_files()), COMPILER, ENVIRONMENT]))
        return 0
    if argv[:1] == ["check"] and len(argv) >= 2:
        try:
            check(Path(argv[1]), [p.removeprefix("--compiler=") for p in argv[2:] if p.startswith("--compiler=")])
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
