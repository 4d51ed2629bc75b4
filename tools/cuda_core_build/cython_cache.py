# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Cython's output by content, as ccache keeps the compiler's, in ``CUDA_CORE_CYTHON_CACHE``. Stdlib only.

Why not Cython's own ``--cache`` (measured with Cython 3.3.1 on this project's 39 Cython steps,
2026-12-07): a second build dir of the same checkout hits 39 of 39 but writes no depfile on a hit
(-M is skipped), which ninja's rule for the step reads: each such step failed; a second checkout
hits 0 of 39 (``file_hash`` hashes each path as given, and the source's is absolute); a read-only
cache fails the step (``[Errno 30]``). This cache, same steps: 39 of 39 hits in both (1.5 s and 2.0
s against 32.5 s for Cython itself), the depfile written, and a read-only cache is a miss. Cython
takes about a third of a clean build's CPU time, and all of it once ccache holds the C++.

It is on where the variable names an absolute directory, and by default in the venvs
tools/dev/devenv.py makes (``~/.cache/cuda-core/cython``, under ``XDG_CACHE_HOME`` if set); an empty
value turns it off. Each Cython step of the build (sources.py ``cython``) first looks there. A
step's key is the Cython that runs it (by content: BUILDDIR/cuda-config/cyutility.stamp), the
Python, and its arguments, paths made relative to the build directory or the checkout. Under a key,
a manifest lists each output stored with every file Cython read to make it, by build-directory path
(the depfile's names: the package's content stamps, cuda-config's copies of cuda-bindings' and
Cython's .pxd files) and sha256. A hit needs each of them to hold that content now; it writes the
stored C++ (checked by its sha256) and the depfile, and prints what Cython printed then. Anything
unreadable is a miss, and a cache that cannot be written (read-only, another user's, full) is
skipped, as is a relative path (it would land in each build directory): the build never depends on
it. The stored files are trimmed, oldest first, past MAX_BYTES; deleting DIR at any time is safe.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from cuda_core_build import common

ENV = "CUDA_CORE_CYTHON_CACHE"
FORMAT = "cuda-core-cython-cache 1"
MAX_BYTES = 1 << 30
MAX_ENTRIES = 8  # outputs kept per key (one per set of read files)
SOURCE_MARK = "@SOURCE@"  # the checkout's path in stored messages


@dataclass(frozen=True)
class Hit:
    code: bytes
    depends: list[str]
    messages: str


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical(argument: str, roots: tuple[tuple[Path, str], ...], build_dir: Path) -> str:
    """An argument as the key sees it: a path under one of ``roots`` (real path, mark) relative to it;
    options and other paths as they are."""
    if not os.path.exists(build_dir / argument):
        return argument
    real = Path(os.path.realpath(build_dir / argument))
    for root, mark in roots:
        if real == root or root in real.parents:
            return f"{mark}/{real.relative_to(root).as_posix()}"
    return argument


@dataclass(frozen=True)
class Cache:
    """The cache at ``root``, for one Cython step of the build directory ``build_dir`` (the cwd) of
    the checkout ``source_root``."""

    root: Path
    key: str
    build_dir: Path
    source_root: Path

    @classmethod
    def for_step(cls, arguments: list[str], source_root: Path, build_dir: Path) -> Cache | None:
        """The step's cache, or None: the variable unset, or no stamp of Cython's content to key on."""
        where = os.environ.get(ENV, default_directory())
        if not where or not os.path.isabs(where):
            return None
        try:
            cython = (build_dir / "cuda-config" / "cyutility.stamp").read_text()
        except OSError:
            return None
        # The build directory first: it may sit inside the checkout.
        roots = ((Path(os.path.realpath(build_dir)), "@BUILD@"), (source_root, SOURCE_MARK))
        out = arguments.index("-o")
        kept = [canonical(a, roots, build_dir) for a in arguments[:out] + arguments[out + 2 :]]
        text = "\0".join([FORMAT, cython, f"{sys.version_info[0]}.{sys.version_info[1]}", *kept])
        return cls(Path(where), sha256(text.encode()), build_dir, source_root)

    @property
    def manifest(self) -> Path:
        return self.root / "manifests" / self.key[:2] / f"{self.key}.json"

    def blob(self, digest: str) -> Path:
        return self.root / "code" / digest[:2] / f"{digest}.cpp.gz"

    def entries(self) -> list[dict]:
        try:
            entries = json.loads(self.manifest.read_text())
        except (OSError, ValueError):
            return []
        return entries if isinstance(entries, list) else []

    def holds(self, depends: list[list[str]]) -> bool:
        """Whether every file read then holds the same content now."""
        for name, digest in depends:
            try:
                if sha256((self.build_dir / name).read_bytes()) != digest:
                    return False
            except OSError:
                return False
        return True

    def lookup(self) -> Hit | None:
        for entry in self.entries():
            try:
                if not self.holds(entry["depends"]):
                    continue
                blob = self.blob(entry["code"])
                code = gzip.decompress(blob.read_bytes())
            except (OSError, KeyError, TypeError, ValueError, EOFError, gzip.BadGzipFile):
                continue
            if sha256(code) != entry["code"]:
                continue
            with contextlib.suppress(OSError):  # recently used, trimmed last; a read-only cache stays as it is
                os.utime(blob)
            messages = str(entry.get("messages", "")).replace(SOURCE_MARK, str(self.source_root))
            return Hit(code, [name for name, _ in entry["depends"]], messages)
        return None

    def store(self, code: bytes, depends: list[str], messages: str) -> None:
        """Keep ``code``, made from the files ``depends`` (build-directory paths) as they are now."""
        try:
            read = [[name, sha256((self.build_dir / name).read_bytes())] for name in depends]
            digest = sha256(code)
            common.write_if_changed(self.blob(digest), gzip.compress(code, compresslevel=6, mtime=0))  # mends a bad one
            entry = {"depends": read, "code": digest, "messages": messages.replace(str(self.source_root), SOURCE_MARK)}
            kept = [e for e in self.entries() if e.get("depends") != read][: MAX_ENTRIES - 1]
            common.write_if_changed(self.manifest, (json.dumps([entry, *kept]) + "\n").encode())
            trim(self.root)
        except OSError:
            pass  # a read-only or full cache: the build goes on without it


def default_directory() -> str:
    """The cache of a venv made by tools/dev/devenv.py (it marks it): in the user's cache directory."""
    if not common.in_devenv_venv():
        return ""
    return str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cuda-core" / "cython")


def trim(root: Path, limit: int = MAX_BYTES) -> None:
    """Remove the least recently used code past ``limit`` bytes, down to 80% of it: only files named as
    ``blob()`` names them (a directory of the user's own given as the cache loses nothing else)."""
    blobs = []
    for folder in (root / "code").glob("[0-9a-f][0-9a-f]"):
        for blob in folder.glob(f"{folder.name}{'[0-9a-f]' * 62}.cpp.gz"):
            try:
                st = blob.stat()
            except OSError:
                continue
            blobs.append((st.st_mtime_ns, st.st_size, blob))
    total = sum(size for _, size, _ in blobs)
    if total <= limit:
        return
    for _, size, blob in sorted(blobs):
        if total <= limit * 0.8:
            break
        blob.unlink(missing_ok=True)
        total -= size
