# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run ninja on a cuda-core build directory, one run at a time, saying so when it has work.

Copied into editable wheels (as ``_cuda_core_build_lock``) and used by the backend during
builds. Every ninja run that cuda-core starts on a build directory holds an exclusive
lock on ``<build dir>/.cuda-core-build.lock`` while it runs: two processes importing an
editable install right after an edit, or a rebuild beside a ``pip install``, take turns
instead of writing the same files at once. Standard library only.

Before each such run it compares the stat fingerprint of every input the build reads from
outside its source tree (the CUDA headers, cuda-bindings, Cython, the compiler: the manifest
that cuda_core_build.environment writes) and each link on the way to them. Any difference,
even one that kept every mtime, touches the file that ninja's ``cuda-inputs`` step watches,
so that step compares the contents and rebuilds what changed.

As a script it stands in for ninja (meson-python's NINJA) during builds:
``python build_lock.py REAL_NINJA [ninja arguments...]``, run in the build directory.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

LOCK_NAME = ".cuda-core-build.lock"
NO_WORK = "ninja: no work to do."
# In the build directory's cuda-config/: the inputs' fingerprints, and the file the build's
# cuda-inputs step watches.
MANIFEST = "manifest.json"
RECHECK = "recheck"
CONFIG_DIR = "cuda-config"


def fingerprint(path: str) -> list[int] | None:
    """What changes whenever a file's content can have changed: its device, inode, size, mtime and
    ctime (no tool sets ctime back); None if it is gone."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return [status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns]


def _link_target(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def inputs_changed(build_dir: Path) -> bool:
    """Whether an input or a link on the way to one differs from the manifest; if so, touch the file
    the build's cuda-inputs step watches, so the next ninja run compares contents."""
    config = build_dir / CONFIG_DIR
    try:
        recorded = json.loads((config / MANIFEST).read_text())
    except (OSError, ValueError):
        return False  # a build directory of an older layout, or not configured yet
    changed = any(fingerprint(path) != stat for path, stat in recorded.get("inputs", {}).items()) or any(
        _link_target(link) != target for link, target in recorded.get("links", {}).items()
    )
    if changed:
        (config / RECHECK).touch()
        os.utime(config / RECHECK)
    return changed


@contextlib.contextmanager
def locked(build_dir: Path, waiting: TextIO | None = None) -> Iterator[None]:
    """Hold the build directory's lock; say on ``waiting`` when another process has it."""
    with open(build_dir / LOCK_NAME, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                print(f"cuda-core: waiting for another build in {build_dir} to finish", file=waiting, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def rebuild(build_dir: Path, ninja: str, progress: TextIO, what: str, env: dict[str, str] | None = None) -> None:
    """Bring ``build_dir`` up to date under its lock. Silent when there is nothing to do; else one
    line saying what is rebuilt, then ninja's progress lines, on ``progress``.

    Raises CalledProcessError (with ninja's output) when the build fails.
    """
    with locked(build_dir, progress):
        start = time.monotonic()
        inputs_changed(build_dir)
        process = subprocess.Popen(
            [ninja],
            cwd=build_dir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if len(lines) == 1 and line.strip() == NO_WORK:
                continue
            if len(lines) == 1:
                print(
                    f"cuda-core: rebuilding {what} in {build_dir} (sources changed since the last build)",
                    file=progress,
                    flush=True,
                )
            print(line, end="", file=progress, flush=True)
        if process.wait() != 0:
            raise subprocess.CalledProcessError(process.returncode, [ninja], "".join(lines))
        if lines and lines[0].strip() != NO_WORK:
            print(f"cuda-core: rebuilt in {time.monotonic() - start:.1f} s", file=progress, flush=True)


def main(argv: list[str]) -> int:
    """Stand in for ninja: run REAL_NINJA with the rest of the arguments under the lock of the
    build directory (ninja's -C, else the current directory)."""
    ninja, *args = argv
    if args[:1] == ["--version"]:
        return subprocess.run([ninja, *args]).returncode
    build_dir = Path(args[args.index("-C") + 1]) if "-C" in args[:-1] else Path.cwd()
    with locked(build_dir, sys.stderr):
        inputs_changed(build_dir)
        return subprocess.run([ninja, *args]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
